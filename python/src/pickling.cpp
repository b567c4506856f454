// Pickling Move and Result.
//
// A Move is pickled as (uci, position, winner, plies) and a Result as
// (position, winner, plies, [(uci, winner, plies) of each move], [the line's
// moves]): with its moves, so that it needs no table when unpickled. Their
// state is checked as any input is.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <variant>

#include "extension.hpp"

namespace pawntb::python {
namespace {

[[noreturn]] void bad_state(const char* type, const std::string& what) {
  throw py::value_error(std::string("cannot unpickle a pawntb.") + type + ": " + what);
}

Side side_of_state(const char* type, py::handle name) {
  const std::string_view text = text_of(name, "a winner");
  if (text == "white") return Side::white;
  if (text == "black") return Side::black;
  bad_state(type, "the winner '" + printable(text) + "' is not 'white' or 'black'");
}

int plies_of_state(const char* type, py::handle plies) {
  if (!PyLong_Check(plies.ptr()) || PyBool_Check(plies.ptr())) bad_state(type, "plies not an int");
  const auto n = plies.cast<long long>();
  if (n < 0 || n >= ProbeResult::kNoPlies) bad_state(type, "plies out of range");
  return static_cast<int>(n);
}

py::tuple sequence_of_state(const char* type, py::handle state, std::size_t size) {
  if (!py::isinstance<py::tuple>(state) || py::len(state) != size) {
    bad_state(type, "its state is not a tuple of " + std::to_string(size));
  }
  return py::reinterpret_borrow<py::tuple>(state);
}

Move move_of_state(const Position& p, py::handle uci) {
  const auto move = parse_move(p, text_of(uci, "a move"));
  if (const auto* e = std::get_if<ParseError>(&move)) bad_state("Result", e->message);
  return std::get<Move>(move);
}

}  // namespace

py::tuple state_of(const MoveAnswer& a) {
  return py::make_tuple(a.uci, a.position, side_name(a.winner), a.plies);
}

MoveAnswer move_from_state(py::handle given) {
  const py::tuple state = sequence_of_state("Move", given, 4);
  const auto after = parse_position(text_of(state[1], "a position"));
  if (const auto* e = std::get_if<ParseError>(&after)) bad_state("Move", e->message);
  const Position p = std::get<Position>(after);
  return MoveAnswer{{p.to_move, side_of_state("Move", state[2]), plies_of_state("Move", state[3])},
                    std::string(text_of(state[0], "a move")),
                    format_position(p)};
}

py::tuple state_of(Answer& a) {
  const RootResult& root = a.root_result();
  py::list moves, line;
  for (const MoveValue& m : root.moves) {
    moves.append(py::make_tuple(move_name(a.position.geometry, m.move), side_name(m.winner),
                                static_cast<int>(m.plies)));
  }
  for (const Move m : root.principal_variation) line.append(move_name(a.position.geometry, m));
  return py::make_tuple(format_position(a.position), side_name(a.winner), a.plies, moves, line);
}

Answer answer_from_state(py::handle given) {
  const py::tuple state = sequence_of_state("Result", given, 5);
  const auto parsed = parse_position(text_of(state[0], "a position"));
  if (const auto* e = std::get_if<ParseError>(&parsed)) bad_state("Result", e->message);
  const Position p = std::get<Position>(parsed);
  auto root = std::make_shared<RootResult>();
  root->value.winner = side_of_state("Result", state[1]);
  root->value.plies = static_cast<std::uint8_t>(plies_of_state("Result", state[2]));
  for (py::handle item : py::iter(state[3])) {
    const py::tuple m = sequence_of_state("Result", item, 3);
    root->moves.push_back(MoveValue{move_of_state(p, m[0]), side_of_state("Result", m[1]),
                                    static_cast<std::uint8_t>(plies_of_state("Result", m[2]))});
  }
  Position along = p;
  for (py::handle uci : py::iter(state[4])) {
    const Move m = move_of_state(along, uci);
    root->principal_variation.push_back(m);
    along = play(along, m);
  }
  return Answer(p, std::move(root));
}

}  // namespace pawntb::python
