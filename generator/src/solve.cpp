// Solving the whole table in memory: the tiers in index order (a solving
// order, format/src/pawntb/format/index.hpp), each in one pass over its
// entries (tier_solver.cpp), its children's values read from the same array.
//
// MEMORY. One byte per entry and nothing per position besides.
#include <algorithm>
#include <atomic>

#include "memory.hpp"
#include "pawntb/format/index.hpp"
#include "pawntb/format/layout.hpp"
#include "pawntb/format/values.hpp"
#include "pawntb/generator.hpp"
#include "pawntb/util/memory.hpp"
#include "pawntb/util/threads.hpp"
#include "run_index.hpp"
#include "table_writer.hpp"
#include "tier_solver.hpp"

namespace pawntb {

namespace {

using format::Index;
using format::Plies;

std::atomic<std::uint64_t> indexes_built{0};

std::string board_name(Geometry g, int max_pawns) {
  return to_string(g) + " with K = " + std::to_string(max_pawns);
}

}  // namespace

namespace generator_detail {

Index build_index(Geometry g, int max_pawns) {
  if (!Index::valid_parameters(g, max_pawns)) {
    throw GenerateError("unsupported parameters: " + board_name(g, max_pawns) +
                        " (rows and columns 3..8, rows*cols <= 64, 1 <= K <= columns)");
  }
  Index index(g, max_pawns);
  indexes_built.fetch_add(1, std::memory_order_relaxed);
  if (index.too_large()) {
    throw GenerateError(
        board_name(g, max_pawns) +
        " is too large to index (more than 2^62 positions, or more than 2^23 pairs of row "
        "profiles)");
  }
  return index;
}

std::uint64_t index_count() {
  return indexes_built.load(std::memory_order_relaxed);
}

std::uint64_t in_memory_bytes(const Index& index, const TierGraph& graph, unsigned threads) {
  // THE MEMORY MODEL (memory.hpp), in memory: a value byte per entry, the
  // writer streams the file a batch at a time.
  const std::uint64_t rest = process_base_bytes() + index.heap_bytes() + graph.heap_bytes() +
                             TableWriter::memory_bytes(index.size(), util::thread_count(threads));
  std::uint64_t bytes = 0;
  if (__builtin_add_overflow(index.size(), rest, &bytes)) return UINT64_MAX;
  return bytes;
}

SolvedTable solve_in_memory(const RunIndex& run, unsigned threads,
                            const ProgressCallback& on_progress) {
  const Index& index = run.index;
  SolvedTable table;
  table.geometry = index.geometry();
  table.max_pawns = index.max_pawns();
  table.values.assign(index.size(), 0);
  const auto all = std::span<const Plies>(table.values);
  const auto tiers = index.tiers();
  const double total = static_cast<double>(index.size());
  table.max_plies = -1;
  for (std::size_t t = 0; t < tiers.size(); ++t) {
    std::array<TierValues, kMaxSide> children{};
    const TierChildren& c = run.graph.children(t);
    for (std::size_t x = 0; x < kMaxSide; ++x) {
      if (!c.exists[x]) continue;
      const Index::Tier& child = tiers[c.tier[x]];
      children[x] = TierValues{child.first, all.subspan(child.first, child.size)};
    }
    const auto report = [&](std::uint64_t done) {
      if (on_progress) {
        on_progress(Progress{"solve", static_cast<double>(tiers[t].first + done) / total});
      }
    };
    const TierSummary summary =
        solve_tier(index, run.graph, t, children,
                   std::span(table.values).subspan(tiers[t].first, tiers[t].size), threads, report);
    table.win_count += summary.win_count;
    if (summary.max_plies > table.max_plies) {
      table.max_plies = summary.max_plies;
      table.longest_index = summary.longest_index;
    }
  }
  if (on_progress) on_progress(Progress{"solve", 1});
  return table;
}

}  // namespace generator_detail

std::uint64_t memory_needed(Geometry g, int max_pawns, unsigned threads) {
  const Index index = generator_detail::build_index(g, max_pawns);
  return generator_detail::in_memory_bytes(index, generator_detail::TierGraph(index), threads);
}

SolvedTable solve(Geometry g, int max_pawns, unsigned threads,
                  const ProgressCallback& on_progress) {
  const generator_detail::RunIndex run(g, max_pawns, 0);
  const std::uint64_t need = generator_detail::in_memory_bytes(run.index, run.graph, threads);
  const std::uint64_t have = util::available_memory();
  if (have && need > have) {
    throw GenerateError("not enough memory: " + board_name(g, max_pawns) + " needs " +
                        std::to_string(need >> 20) + " MiB, " + std::to_string(have >> 20) +
                        " MiB available");
  }
  return generator_detail::solve_in_memory(run, util::thread_count(threads), on_progress);
}

}  // namespace pawntb
