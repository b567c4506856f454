// The JSON of an answered position and the wording of why a position cannot
// be answered: one place for both, shared by `pawntb probe --json` and the
// web explorer's API (tools/serve/api.hpp). Pure functions, thread-safe.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "pawntb/probe.hpp"

namespace pawntb::common {

using Json = nlohmann::ordered_json;

// "win" or "loss": how the game ends for `side`.
const char* category(Side side, Side winner);

// The signed plies of the lichess API's dtm: `plies` when the side to move
// wins, -plies when it loses (0: the game is over).
int signed_plies(Side to_move, Side winner, int plies);

// Appends to the object `j`, in this order, a position's value: "winner",
// "plies", "dtm" (signed_plies), "category" (for its side to move) and,
// only when the game is over (plies 0), "reason": "goal", "no_pawns" or
// "no_moves" (game_end_name()).
void add_value(Json& j, const Position& p, Side winner, int plies);

// Why `p` cannot be answered by `table`, given r = table.probe(p) (or
// probe_root(p).value), in the CLI's words ("invalid position: ...", "more
// than 4 pawns a side, the table's limit"); empty when r.ok().
std::string position_problem(const Table& table, const Position& p, const ProbeResult& r);

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
