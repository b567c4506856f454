// Solving the whole table in memory: the tiers in index order (a solving
// order, format/src/pawntb/codec/index.hpp), each in one pass over its
// entries (tier_solver.cpp), its children's values read from the same array.
//
// MEMORY. One byte per entry and nothing per position besides.
#include <algorithm>
#include <fstream>

#include "memory.hpp"
#include "pawntb/codec/index.hpp"
#include "pawntb/codec/layout.hpp"
#include "pawntb/codec/values.hpp"
#include "pawntb/generator.hpp"
#include "pawntb/util/threads.hpp"
#include "table_writer.hpp"
#include "tier_solver.hpp"

namespace pawntb {

namespace {

using codec::Index;
using codec::Plies;

}  // namespace

std::uint64_t memory_needed(Geometry g, int max_pawns, unsigned threads) {
  if (!Index::valid_parameters(g, max_pawns)) {
    throw GenerateError("unsupported parameters: " + to_string(g) +
                        " with K = " + std::to_string(max_pawns) +
                        " (rows and columns 3..8, rows*cols <= 64, 1 <= K <= columns)");
  }
  const Index index(g, max_pawns);
  if (index.too_large()) {
    throw GenerateError(
        to_string(g) + " with K = " + std::to_string(max_pawns) +
        " is too large to index (more than 2^62 positions, or more than 2^23 pairs of row "
        "profiles)");
  }
  // THE MEMORY MODEL (memory.hpp), in memory: a value byte per entry, the
  // writer streams the file a batch at a time.
  const generator_detail::TierGraph graph(index);
  const std::uint64_t rest =
      generator_detail::kProcessBase + index.heap_bytes() + graph.heap_bytes() +
      generator_detail::TableWriter::memory_bytes(index.size(), util::thread_count(threads));
  std::uint64_t bytes = 0;
  if (__builtin_add_overflow(index.size(), rest, &bytes)) return UINT64_MAX;
  return bytes;
}

namespace {

// Refuses a run that needs more memory than is available.
void check_memory(Geometry g, int max_pawns, unsigned threads) {
  const std::uint64_t need = memory_needed(g, max_pawns, threads);
  const std::uint64_t have = generator_detail::available_memory();
  if (have && need > have) {
    throw GenerateError("not enough memory: " + to_string(g) + " with K = " +
                        std::to_string(max_pawns) + " needs " + std::to_string(need >> 20) +
                        " MiB, " + std::to_string(have >> 20) + " MiB available");
  }
}

}  // namespace

SolvedTable solve(const GenerateOptions& options) {
  check_memory(options.geometry, options.max_pawns, options.threads);
  SolvedTable table;
  table.geometry = options.geometry;
  table.max_pawns = options.max_pawns;
  const Index index(options.geometry, options.max_pawns);
  const generator_detail::TierGraph graph(index);
  table.values.assign(index.size(), 0);
  const unsigned threads = util::thread_count(options.threads);
  const auto all = std::span<const Plies>(table.values);
  const auto tiers = index.tiers();
  const double total = static_cast<double>(index.size());
  table.max_plies = -1;
  for (std::size_t t = 0; t < tiers.size(); ++t) {
    std::array<generator_detail::TierValues, kMaxSide> children{};
    const generator_detail::TierChildren& c = graph.children(t);
    for (std::size_t x = 0; x < kMaxSide; ++x) {
      if (!c.exists[x]) continue;
      const Index::Tier& child = tiers[c.tier[x]];
      children[x] = generator_detail::TierValues{child.first, all.subspan(child.first, child.size)};
    }
    const auto report = [&](std::uint64_t done) {
      if (options.on_progress) {
        options.on_progress(Progress{"solve", static_cast<double>(tiers[t].first + done) / total});
      }
    };
    const generator_detail::TierSummary summary = generator_detail::solve_tier(
        index, graph, t, children, std::span(table.values).subspan(tiers[t].first, tiers[t].size),
        threads, report);
    table.win_count += summary.win_count;
    if (summary.max_plies > table.max_plies) {
      table.max_plies = summary.max_plies;
      table.longest_index = summary.longest_index;
    }
  }
  if (options.on_progress) options.on_progress(Progress{"solve", 1});
  return table;
}

}  // namespace pawntb
