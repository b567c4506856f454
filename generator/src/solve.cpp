// Backward induction over the whole index.
//
// ORDER. Let phi(W, B) = sum over white pawns of their distance to row 0 plus
// sum over black pawns of their distance to row R-1 (white to move). A move
// advances one pawn by one row and may remove an enemy pawn, so phi strictly
// decreases; the colour flip and the mirror keep phi. Solving the positions in
// increasing phi therefore finds every successor already solved, and all the
// positions of one phi level are independent, so threads share a level.
//
// PASSES.
//   1. index: per entry, decide filler rules (value_by_rule), skip mirror
//      images, and record phi. Rule-decided entries get their value here.
//   2. solve: for phi = 0, 1, ..., the entries of that level fold the values
//      of their successors (ValueFold).
//   3. mirror: each mirror image copies its representative's value.
#include <algorithm>
#include <atomic>
#include <bit>
#include <fstream>
#include <thread>

#include "pawntb/detail/index.hpp"
#include "pawntb/detail/values.hpp"
#include "pawntb/generator.hpp"

namespace pawntb {

namespace {

using detail::Index;
using detail::Plies;

constexpr std::uint8_t kNotQueued = 0xFF;  // phi marker: value already known or copied later

// phi of a white-to-move position (see above): row index of each white pawn
// plus rows - 1 - row of each black pawn.
int potential(Geometry g, std::uint64_t white, std::uint64_t black) {
  int phi = 0;
  for (int r = 0; r < g.rows; ++r) {
    const std::uint64_t row = detail::row_mask(g, r);
    phi += r * std::popcount(white & row) + (g.rows - 1 - r) * std::popcount(black & row);
  }
  return phi;
}

// Bytes of memory available to this process, from /proc/meminfo; 0 if unknown.
std::uint64_t available_memory() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit) {
    if (key == "MemAvailable:") return kib * 1024;
  }
  return 0;
}

int thread_count(int requested) {
  if (requested > 0) return requested;
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

// Runs body(begin, end) over [0, n) in chunks on `threads` threads.
template <class Body>
void parallel_chunks(std::uint64_t n, int threads, Body body) {
  constexpr std::uint64_t kChunk = 1 << 14;
  std::atomic<std::uint64_t> next{0};
  auto worker = [&] {
    for (;;) {
      const std::uint64_t begin = next.fetch_add(kChunk);
      if (begin >= n) return;
      body(begin, std::min(n, begin + kChunk));
    }
  };
  std::vector<std::jthread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
}

// The value of a white-to-move entry from its successors' stored values.
Plies fold_successors(const Index& index, const std::uint8_t* values, std::uint64_t white,
                      std::uint64_t black) {
  const Geometry g = index.geometry();
  detail::ValueFold fold;
  for (const Move m : legal_moves(Position{g, white, black, Side::white})) {
    const Position next = play(Position{g, white, black, Side::white}, m);
    if (next.white & detail::white_goal(g)) {
      fold.add(0);  // white reached its goal: black has lost in 0
      continue;
    }
    // Black to move in `next` is white to move after the colour flip.
    const std::uint64_t w = detail::flip_rows(g, next.black), b = detail::flip_rows(g, next.white);
    if (!w) {
      fold.add(0);  // black has no pawns left: lost in 0
      continue;
    }
    const detail::Pair c = detail::canonical(g, w, b);
    fold.add(values[index.rank(c.white, c.black)]);
  }
  return fold.value();
}

}  // namespace

std::uint64_t memory_needed(Geometry g, int max_pawns) {
  if (!Index::valid_parameters(g, max_pawns)) {
    throw GenerateError("unsupported parameters: " + to_string(g) + " with K = " +
                        std::to_string(max_pawns) +
                        " (rows and columns 3..8, rows*cols <= 64, 1 <= K <= columns)");
  }
  const Index index(g, max_pawns);
  if (index.too_large()) {
    throw GenerateError(to_string(g) + " with K = " + std::to_string(max_pawns) +
                        " has more than 2^62 positions: too large to index");
  }
  // values + phi/filler bytes, plus the std::vector<bool> filler copy.
  return 2 * index.size() + index.size() / 8 + (64 << 20);
}

SolvedTable solve(const GenerateOptions& options) {
  const Geometry g = options.geometry;
  const std::uint64_t need = memory_needed(g, options.max_pawns);
  const std::uint64_t have = available_memory();
  if (have && need > have) {
    throw GenerateError("not enough memory: " + to_string(g) + " with K = " +
                        std::to_string(options.max_pawns) + " needs " +
                        std::to_string(need >> 20) + " MiB, " + std::to_string(have >> 20) +
                        " MiB available");
  }
  const int threads = thread_count(options.threads);
  const Index index(g, options.max_pawns);
  const std::uint64_t n = index.size();
  auto report = [&](const char* stage, double done) {
    if (options.on_progress) options.on_progress(Progress{stage, done});
  };

  SolvedTable table;
  table.geometry = g;
  table.max_pawns = options.max_pawns;
  table.values.assign(n, 0);
  std::vector<std::uint8_t> phi(n, kNotQueued);
  std::uint8_t* values = table.values.data();

  // Pass 1: filler rules, mirror images and potentials.
  report("index", 0);
  std::atomic<int> max_phi{0};
  parallel_chunks(n, threads, [&](std::uint64_t begin, std::uint64_t end) {
    int local_max = 0;
    for (std::uint64_t i = begin; i < end; ++i) {
      const auto [white, black] = index.unrank(i);
      if (!detail::is_canonical(g, white, black)) continue;
      if (const auto v = detail::value_by_rule(g, white, black)) {
        values[i] = *v;
        continue;
      }
      const int p = potential(g, white, black);
      phi[i] = static_cast<std::uint8_t>(p);
      local_max = std::max(local_max, p);
    }
    int seen = max_phi.load();
    while (local_max > seen && !max_phi.compare_exchange_weak(seen, local_max)) {
    }
  });

  // Pass 2: levels of increasing phi.
  for (int level = 0; level <= max_phi.load(); ++level) {
    report("solve", static_cast<double>(level) / (max_phi.load() + 1));
    const auto want = static_cast<std::uint8_t>(level);
    parallel_chunks(n, threads, [&](std::uint64_t begin, std::uint64_t end) {
      for (std::uint64_t i = begin; i < end; ++i) {
        if (phi[i] != want) continue;
        const auto [white, black] = index.unrank(i);
        values[i] = fold_successors(index, values, white, black);
      }
    });
  }

  // Pass 3: mirror images, filler flags and statistics.
  table.filler.assign(n, false);
  for (std::uint64_t i = 0; i < n; ++i) {
    if (phi[i] != kNotQueued) continue;
    const auto [white, black] = index.unrank(i);
    table.filler[i] = true;
    if (!detail::is_canonical(g, white, black)) {
      const detail::Pair c = detail::canonical(g, white, black);
      values[i] = values[index.rank(c.white, c.black)];
    }
  }
  for (std::uint64_t i = 0; i < n; ++i) {
    table.win_count += detail::mover_wins(values[i]);
    if (values[i] > table.max_plies) {
      table.max_plies = values[i];
      table.longest_index = i;
    }
  }
  report("solve", 1);
  return table;
}

}  // namespace pawntb
