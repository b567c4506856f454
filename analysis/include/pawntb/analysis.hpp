// pawntb analysis: statistics of a whole table: how long games are, which
// material wins, and the mutual zugzwangs. Computed by walking the table's
// entries (never by solving again), through pawntb::check's read_entries;
// for `pawntb stats`, the web explorer's statistics and their tests. The
// JSON document and the plots are the tools' (tools/stats).
//
// THREADS. compute_stats() may run on the same Table at once, and beside its
// probes; `threads` counts as in probe.hpp. Nothing here prints, exits or
// aborts.
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

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "pawntb/probe.hpp"
#include "pawntb/progress.hpp"

namespace pawntb::analysis {

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
  // walked, and a chunk of decoded entries for each thread (analysis.cpp);
  // 0: check::default_memory_bytes(), the one default of the whole-table walks.
  std::uint64_t memory_bytes = 0;
  // Stage "stats", as every pawntb progress report (pawntb/progress.hpp).
  ProgressCallback on_progress;
};

// What the walk has learnt of the white-to-move entries of one material;
// the black-to-move positions are their colour flips, folded in at the end.
struct MaterialTally {
  std::uint64_t positions = 0, wins = 0, zugzwangs = 0;
  int longest_win = -1;
  std::uint64_t longest_index = 0;            // the smallest index with longest_win
  std::vector<std::uint64_t> zugzwang_first;  // the smallest indices, at most zugzwang_examples
};

// The entries [first, end) of a table.
struct EntryRange {
  std::uint64_t first = 0, end = 0;
};

// How far a compute_stats() has come: the entries in `done` are walked, and
// the tallies hold what was found in them. compute_stats() hands one to its
// checkpoint callback after every part of the table it finishes; passing it
// back carries on from there, with any memory budget and threads, to the
// same statistics (`pawntb stats --resume FILE` keeps it in a file).
struct StatsState {
  static constexpr int kSide = 9;     // pawns a side: 0..8
  std::uint64_t header_checksum = 0;  // TableInfo::header_checksum of its table; 0: not begun
  std::size_t zugzwang_examples = 0;  // StatsOptions::zugzwang_examples of its walk
  // Sorted, disjoint and merged: whole slices of the index, each with its
  // colour flip's slice (analysis.cpp, HOW THE WALK GOES).
  std::vector<EntryRange> done;
  std::vector<std::uint64_t> plies;      // entries by their value, 256 (or none: not begun)
  std::vector<MaterialTally> materials;  // [white pawns * kSide + black pawns], kSide^2 (or none)

  std::uint64_t entries_done() const;
};
using StatsCheckpoint = std::function<void(const StatsState&)>;

// Walks every entry of `table`, decoding its blocks in order (analysis.cpp
// says how), and finds each entry's value and that of the same placement with
// the other side to move. The result does not depend on options.threads, which run it
// as util::parallel_for says (a thread that cannot start is left out), nor on
// options.memory_bytes, nor on where it resumed. Starts where `from` ended
// (StatsState{}: at the beginning) and calls on_checkpoint, if given, from
// the calling thread after each part of the table it walks (a part fits in
// the memory budget) and at the end. Thread-safe (the Table is shared
// read-only); throws TableError if a block of the table is damaged or cannot
// be read, std::invalid_argument if options.memory_bytes is less than
// least_memory() or `from` is of another table (another header checksum),
// of another zugzwang_examples, or not a state a walk of this table makes,
// std::bad_alloc, and whatever on_checkpoint throws. For any caller (CLI,
// web server, tests).
TableStats compute_stats(const Table& table, const StatsOptions& options = {},
                         const StatsState& from = {}, const StatsCheckpoint& on_checkpoint = {});

// Throws std::invalid_argument, as compute_stats(table, options, state)
// would, if `state` cannot be resumed: of another table, of another
// zugzwang_examples, or not a state a walk of this table makes (a damaged
// file). Thread-safe; for callers that read a state from a file.
void check_state(const Table& table, const StatsState& state, const StatsOptions& options = {});

// The least options.memory_bytes with which compute_stats(table, options)
// runs: the threads' chunks and the bits of the largest pair of flipped
// slices. Thread-safe.
std::uint64_t least_memory(const Table& table, const StatsOptions& options = {});

}  // namespace pawntb::analysis
