// The index of a run and what derives from it: built once, by
// plan_generation() (generator.hpp), and used by the plan's figures and by
// generate(), so that a run builds one index.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "pawntb/format/index.hpp"
#include "pawntb/generator.hpp"
#include "tier_solver.hpp"
#include "units.hpp"

namespace pawntb::generator_detail {

// The index of (g, max_pawns), each one the generator builds counted
// (index_count()). Throws GenerateError when the parameters are out of range
// (rows and columns 3..8, rows*cols <= 64, 1 <= K <= columns) or the board is
// too large to index: the one check of a geometry and K.
Index build_index(Geometry g, int max_pawns);

// The indexes the generator has built so far in this process, for the test
// that a run builds one. Thread-safe.
std::uint64_t index_count();

// Not movable: the units refer to the index and the graph.
struct RunIndex {
  // With unit_entries > 0, also the units of that size (otherwise made
  // later, if needed, with units.emplace(index, graph, ...)).
  RunIndex(Geometry g, int max_pawns, std::uint64_t unit_entries)
      : index(build_index(g, max_pawns)), graph(index) {
    if (unit_entries) units.emplace(index, graph, unit_entries);
  }
  RunIndex(const RunIndex&) = delete;
  RunIndex& operator=(const RunIndex&) = delete;

  const Index index;
  const TierGraph graph;
  std::optional<UnitPlan> units;
};

// The table's values solved in memory from `run`'s index (solve() without
// its own index or its check of the memory available).
SolvedTable solve_in_memory(const RunIndex& run, unsigned threads,
                            const ProgressCallback& on_progress);

// write_table() with `index`, the table's.
WriteSummary write_table(const Index& index, const SolvedTable& table,
                         const std::filesystem::path& path, unsigned threads,
                         void (*on_temp_file)(const char* path),
                         const ProgressCallback& on_progress);

// Bytes the process holds at its peak solving `index` in memory and writing
// it on `threads` threads (memory_needed()).
std::uint64_t in_memory_bytes(const Index& index, const TierGraph& graph, unsigned threads);

// THE MEMORY MODEL (memory.hpp) unit by unit, but for the values of the unit
// being solved and of the groups it reads.
struct UnitMemory {
  std::uint64_t structures = 0;    // the process base, the index, graph and plan, the summaries
  std::uint64_t unit_scratch = 0;  // the solver's tallies, unit files' I/O: the largest unit's
  std::uint64_t assembly = 0;      // the assembly's peak: structures, a slice, the writer, reads
  // The peak of a run whose units hold at most `values` bytes with their groups.
  std::uint64_t peak(std::uint64_t values) const {
    return std::max(structures + unit_scratch + values, assembly);
  }
};
UnitMemory unit_memory(const Index& index, const TierGraph& graph, const UnitPlan& units,
                       unsigned threads);

// The ranges that solve unit u (solve_ranges), each slice with its groups'
// values, which group_values(first) gives for the group starting at entry
// `first`.
std::vector<EntryRange> unit_ranges(
    const Index& index, const UnitPlan& units, std::size_t u,
    const std::function<std::span<const Plies>(std::uint64_t first)>& group_values);

}  // namespace pawntb::generator_detail
