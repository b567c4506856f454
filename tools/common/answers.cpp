#include "common/answers.hpp"

#include <nlohmann/json.hpp>

#include "pawntb/notation.hpp"

namespace pawntb::common {

void add_value(Json& j, const Position& p, Side winner, int plies) {
  const SideValue value = value_for(p.to_move, winner, plies);
  j["winner"] = side_name(winner);
  j["plies"] = plies;
  j["dtm"] = value.dtm;
  j["category"] = value.category;
  if (plies == 0) {
    if (const char* reason = game_end_name(game_end(p))) j["reason"] = reason;
  }
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
    move["winner"] = side_name(m.winner);
    move["plies"] = m.plies;
    const SideValue value = value_for(opponent(p.to_move), m.winner, m.plies);
    move["dtm"] = value.dtm;
    move["category"] = value.category;
    move["position"] = format_position(play(p, m.move));
  }
  Json& line = j["line"] = Json::array();
  line.get_ref<Json::array_t&>().reserve(root.principal_variation.size());
  for (const Move m : root.principal_variation) line.emplace_back(move_name(g, m));
}

}  // namespace pawntb::common
