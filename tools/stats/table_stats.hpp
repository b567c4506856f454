// Statistics of a whole table: how long games are, which material wins, and
// the mutual zugzwangs. Computed by walking the table's entries (never by
// solving again); shared by `pawntb stats` and, later, the web explorer.
//
// WHICH POSITIONS ARE COUNTED. Every placement of at most K pawns a side with
// no pawn on a goal row (no white pawn on the top row, no black pawn on the
// bottom row), with either side to move, where the side to move has at least
// one pawn: exactly the table's entries (white to move) and their colour
// flips (black to move), so 2 * entries positions. A side to move without a
// legal move (all its pawns blocked) is counted, as a loss in 0 plies.
// Positions already over by rule (a pawn on its goal row, no pawns for the
// side to move) and invalid ones are not. Mirror images are distinct
// positions.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "pawntb/probe.hpp"
#include "pawntb/progress.hpp"

namespace pawntb::stats {

// Positions at one distance to the end, split by the side to move's result.
// Wins have odd distances and losses even ones, so one of the two is zero.
struct DistanceCount {
  std::uint64_t wins = 0;    // the side to move wins in exactly this many plies
  std::uint64_t losses = 0;  // the side to move loses in exactly this many plies
};

// The counted positions with one material, either side to move.
struct MaterialStats {
  int white_pawns = 0;
  int black_pawns = 0;
  std::uint64_t positions = 0;
  std::uint64_t side_to_move_wins = 0;
  int longest_win = -1;             // plies of the longest win of the side to move; -1: none
  std::string longest_win_example;  // a position with that value, "" if none
  std::uint64_t zugzwangs = 0;      // positions the side to move loses but would win by passing
  std::vector<std::string> zugzwang_examples;  // the first few (see TableStats)
};

struct TableStats {
  Geometry geometry;
  int max_pawns = 0;            // K
  std::uint64_t positions = 0;  // counted positions: 2 * the table's entries
  std::uint64_t side_to_move_wins = 0;
  std::uint64_t zugzwangs = 0;
  // distances[d]: the positions d plies from the end; d = 0..longest game.
  std::vector<DistanceCount> distances;
  // Every material with at least one counted position, by white pawns, then
  // black pawns. A material's examples are the first positions in this
  // order: by the table index of the position (for black to move: of its
  // colour flip), white to move first.
  std::vector<MaterialStats> materials;
};

struct StatsOptions {
  unsigned threads = 0;               // 0: one per hardware thread
  std::size_t zugzwang_examples = 3;  // per material, at most
  // Bytes held at most: a bit for each entry of the part of the table being
  // walked, and a chunk of decoded entries for each thread (table_stats.cpp).
  std::uint64_t memory_bytes = std::uint64_t{1} << 30;
  // Stage "stats", as every pawntb progress report (pawntb/progress.hpp).
  ProgressCallback on_progress;
};

// Walks every entry of `table`, decoding its blocks in order (table_stats.cpp
// says how), and finds each entry's value and that of the same placement with
// the other side to move. The result does not depend on options.threads, which run it
// as util::parallel_for says (a thread that cannot start is left out), nor on
// options.memory_bytes. Thread-safe (the Table is shared read-only); throws
// TableError if a block of the table is damaged or cannot be read, and
// std::invalid_argument if options.memory_bytes is less than least_memory().
// For any caller (CLI, web server, tests).
TableStats compute_stats(const Table& table, const StatsOptions& options = {});

// The least options.memory_bytes with which compute_stats(table, options)
// runs: the threads' chunks and the bits of the largest pair of flipped
// slices. Thread-safe.
std::uint64_t least_memory(const Table& table, const StatsOptions& options = {});

// The JSON document `pawntb stats --json` prints; its schema is docs/stats.md.
// Thread-safe.
nlohmann::ordered_json to_json(const TableStats& stats);

}  // namespace pawntb::stats
