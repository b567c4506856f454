#include "common/answers.hpp"

#include <charconv>
#include <nlohmann/json.hpp>
#include <type_traits>

#include "pawntb/notation.hpp"

namespace pawntb::common {

namespace {

// Why the game is over at p, or null while it goes on (plies > 0).
const char* reason_of(const Position& p, int plies) {
  return plies == 0 ? game_end_name(game_end(p)) : nullptr;
}

}  // namespace

void add_value(Json& j, const Position& p, Side winner, int plies) {
  put_value([&](const char* key, auto value) { j[key] = value; }, p.to_move, winner, plies,
            reason_of(p, plies));
}

void append_value(std::string& out, const Position& p, Side winner, int plies) {
  // The names are fixed words, which need no escaping.
  const auto put = [&](const char* key, auto value) {
    out += ",\"";
    out += key;
    out += "\":";
    if constexpr (std::is_same_v<decltype(value), int>) {
      char digits[12];
      out.append(digits, std::to_chars(digits, digits + sizeof digits, value).ptr);
    } else {
      out += '"';
      out += value;
      out += '"';
    }
  };
  put_value(put, p.to_move, winner, plies, reason_of(p, plies));
}

std::string value_text(Side winner, int plies) {
  const std::string side = side_name(winner);
  if (plies == 0) return side + " has won";
  return side + " wins in " + std::to_string(plies) + (plies == 1 ? " ply" : " plies");
}

Json geometry_json(Geometry g, int max_pawns) {
  Json j = Json::object();
  j["rows"] = g.rows;
  j["cols"] = g.cols;
  j["max_pawns"] = max_pawns;
  return j;
}

void add_answer(Json& j, const Position& p, int max_pawns, const RootResult& root) {
  const Geometry g = p.geometry;
  j["position"] = format_position(p);
  j["geometry"] = geometry_json(g, max_pawns);
  j["to_move"] = side_name(p.to_move);
  add_value(j, p, root.value.winner, root.value.plies);
  j["best"] = root.moves.empty() ? Json() : Json(move_name(g, root.moves.front().move));
  Json& moves = j["moves"] = Json::array();
  moves.get_ref<Json::array_t&>().reserve(root.moves.size());
  for (const MoveValue& m : root.moves) {
    Json& move = moves.emplace_back(Json::object());
    move.get_ref<Json::object_t&>().reserve(6);
    move["uci"] = move_name(g, m.move);
    // No "reason" in a move's value: its position says why the game ends.
    put_value([&](const char* key, auto value) { move[key] = value; }, opponent(p.to_move),
              m.winner, m.plies, nullptr);
    move["position"] = format_position(play(p, m.move));
  }
  Json& line = j["line"] = Json::array();
  line.get_ref<Json::array_t&>().reserve(root.principal_variation.size());
  for (const Move m : root.principal_variation) line.emplace_back(move_name(g, m));
}

}  // namespace pawntb::common
