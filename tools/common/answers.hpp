// The JSON of an answered position, shared by `pawntb probe --json` and the
// web explorer's API (tools/serve/api.hpp); the words of a failed probe are
// pawntb::probe_problem()'s (probe.hpp). Pure functions, thread-safe.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include "pawntb/probe.hpp"

namespace pawntb::common {

using Json = nlohmann::ordered_json;

// Appends to the object `j`, in this order, a position's value: "winner",
// "plies", "dtm" and "category" (value_for() its side to move) and,
// only when the game is over (plies 0), "reason": "goal", "no_pawns" or
// "no_moves" (game_end_name()).
void add_value(Json& j, const Position& p, Side winner, int plies);

// {"rows", "cols", "max_pawns"}: the geometry, one object in every answer.
Json geometry_json(Geometry g, int max_pawns);

// Appends to the object `j`, in this order, the keys of an answer: position,
// geometry {rows, cols, max_pawns}, to_move, the value (add_value: winner,
// plies, dtm, category, and reason when the game is over), best (null when
// the game is over), moves (best first: uci, winner, plies, dtm and category
// for the side to move after it, position after it) and line.
// `root` is table.probe_root(p) with root.value.ok().
void add_answer(Json& j, const Position& p, int max_pawns, const RootResult& root);

}  // namespace pawntb::common
