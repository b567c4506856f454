// Result, Move and Value: a position's value, its moves and line.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "extension.hpp"

namespace pawntb::python {

void Value::add_fields(py::dict& d) const {
  d["to_move"] = side_name(to_move);
  d["winner"] = side_name(winner);
  d["plies"] = plies;
  d["dtm"] = dtm();
  d["category"] = category();
}

py::dict MoveAnswer::fields() const {
  py::dict d;
  d["uci"] = uci;
  d["position"] = position;
  add_fields(d);
  return d;
}

const RootResult& Answer::root_result() {
  if (!root) {
    auto found = std::make_shared<const RootResult>(table->probe_root(position));
    if (!found->value.ok()) raise_damaged(*table);
    root = std::move(found);
  }
  return *root;
}

py::object Answer::best() {
  const RootResult& r = root_result();
  if (r.moves.empty()) return py::none();
  return py::str(move_name(position.geometry, r.moves.front().move));
}

py::object Answer::reason() const {
  const char* name = plies == 0 ? game_end_name(game_end(position)) : nullptr;
  return name ? py::object(py::str(name)) : py::object(py::none());
}

std::vector<MoveAnswer> Answer::moves() {
  const RootResult& r = root_result();
  std::vector<MoveAnswer> out;
  out.reserve(r.moves.size());
  for (const MoveValue& m : r.moves) {
    out.push_back(MoveAnswer{{opponent(position.to_move), m.winner, m.plies},
                             move_name(position.geometry, m.move),
                             format_position(play(position, m.move))});
  }
  return out;
}

std::vector<std::string> Answer::line() {
  std::vector<std::string> out;
  for (const Move m : root_result().principal_variation) {
    out.push_back(move_name(position.geometry, m));
  }
  return out;
}

py::dict Answer::fields(Fields up_to) {
  py::dict d;
  d["position"] = format_position(position);
  add_fields(d);
  d["reason"] = reason();
  if (up_to >= Fields::best) d["best"] = best();
  if (up_to >= Fields::moves) d["moves"] = moves();
  return d;
}

py::tuple key(const MoveAnswer& a) {
  return py::make_tuple(a.uci, a.position, side_name(a.winner), a.plies);
}
py::tuple key(const Answer& a) {
  return py::make_tuple(format_position(a.position), side_name(a.winner), a.plies);
}

std::string repr_of(const char* name, const py::dict& fields) {
  std::string out = std::string(name) + "(";
  const char* separator = "";
  for (const auto& [key, value] : fields) {
    out += separator + py::str(key).cast<std::string>() + "=" + py::repr(value).cast<std::string>();
    separator = ", ";
  }
  return out + ")";
}

}  // namespace pawntb::python
