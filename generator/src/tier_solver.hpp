// Solving one tier (format/src/pawntb/format/index.hpp, TIERS): every move
// leaves the tier for a tier earlier in the index, so one pass over the tier
// finds all its successors solved. What a tier needs in memory is its own
// values and those of its children, the tiers its moves reach.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "pawntb/format/index.hpp"
#include "pawntb/format/values.hpp"

namespace pawntb::generator_detail {

using format::Index;
using format::Plies;

// The children of a tier, by what a move captures: [0] the tier reached
// without a capture, [x] the tier reached by capturing a black pawn of
// advancement x (on row x), 1 <= x <= R-2. (A capture on row 0 wins at once:
// no tier.) exists[x] is false where no such tier has positions.
struct TierChildren {
  std::array<std::size_t, kMaxSide> tier{};  // tier numbers, valid where exists[x]
  std::array<bool, kMaxSide> exists{};
};

// Tier numbers by key, and each tier's children. Built once per index.
class TierGraph {
 public:
  explicit TierGraph(const Index& index);
  const TierChildren& children(std::size_t tier) const { return children_[tier]; }
  // The child tiers of `tier`, each once, in increasing order.
  std::vector<std::size_t> child_list(std::size_t tier) const;
  // Bytes it holds, for the memory plan (memory.hpp).
  std::uint64_t heap_bytes() const { return children_.capacity() * sizeof(TierChildren); }

 private:
  std::vector<TierChildren> children_;
};

// The values of one tier in memory: entries [first, first + values.size()).
struct TierValues {
  std::uint64_t first = 0;
  std::span<const Plies> values;
};

// What solving a tier finds besides its values.
struct TierSummary {
  std::uint64_t win_count = 0;      // entries whose true value is odd (mirror images included)
  int max_plies = 0;                // the largest value as stored (mirror images hold 0)
  std::uint64_t longest_index = 0;  // the first index holding max_plies
};

// Consecutive entries [first, first + size) of tier `tier`, with children[x]
// holding the values of graph.children(tier).tier[x] (where it exists;
// others ignored) that these entries' moves reach: the whole child tier, or
// a group (units.hpp).
struct EntryRange {
  std::size_t tier = 0;
  std::uint64_t first = 0, size = 0;
  std::array<TierValues, kMaxSide> children{};
};

// Solves the entries `ranges` (in index order; no range reads another's
// entries) into out, the ranges' values one after another (out.size() is
// the sum of their sizes), on `threads` threads (>= 1). Entries a rule
// decides get their value (win in one 1, no move 0); mirror images hold 0
// unless they win in one. `on_done(entries)`, if set, is called from the
// calling thread now and then with the entries finished so far. Thread-safe
// for distinct outputs.
TierSummary solve_ranges(const Index& index, const TierGraph& graph,
                         std::span<const EntryRange> ranges, std::span<Plies> out,
                         unsigned threads, const std::function<void(std::uint64_t)>& on_done);

// solve_ranges over the whole tier: out holds its size() values.
TierSummary solve_tier(const Index& index, const TierGraph& graph, std::size_t tier,
                       const std::array<TierValues, kMaxSide>& children, std::span<Plies> out,
                       unsigned threads, const std::function<void(std::uint64_t)>& on_done);

}  // namespace pawntb::generator_detail
