// The JSON of an answered position, shared by `pawntb probe --json` and the
// web explorer's API (tools/serve/api.hpp); the words of a failed probe are
// pawntb::probe_problem()'s (probe.hpp). Pure functions, thread-safe.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

#include "pawntb/probe.hpp"

namespace pawntb::common {

using Json = nlohmann::ordered_json;

// The one writer of a value's keys: calls put(key, value), with value a
// const char* or an int, for "winner", "plies", "dtm" and "category"
// (value_for() `to_move`) and, when `reason` is not null, "reason". Each
// caller's put writes them its way: into a document (add_value) or as text
// (append_value).
template <class Put>
void put_value(const Put& put, Side to_move, Side winner, int plies, const char* reason) {
  const SideValue value = value_for(to_move, winner, plies);
  put("winner", side_name(winner));
  put("plies", plies);
  put("dtm", value.dtm);
  put("category", value.category);
  if (reason) put("reason", reason);
}

// Appends to the object `j`, in this order, a position's value: "winner",
// "plies", "dtm" and "category" (value_for() its side to move) and,
// only when the game is over (plies 0), "reason": "goal", "no_pawns" or
// "no_moves" (game_end_name()).
void add_value(Json& j, const Position& p, Side winner, int plies);

// The same keys, as JSON text: `,"winner":"white","plies":7,...` appended to
// `out`, each key after a comma, without a document (for the batch API,
// whose speed docs/benchmarks.md measures).
void append_value(std::string& out, const Position& p, Side winner, int plies);

// "white wins in 7 plies" ("in 1 ply"), or "white has won" at 0 plies: a
// value in the words of `pawntb play`, `pawntb probe` and the explorer, whose
// valueText() (tools/serve/web/app.js) says the same (ExplorerWords.*).
std::string value_text(Side winner, int plies);

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
