// In-process benchmarks: generation against the memoized forward minimax
// baseline, and probe latency against per-case alpha-beta on the same
// positions. tools/bench/run.sh runs this and prints the ratios.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <array>
#include <filesystem>
#include <random>

#include "baselines.hpp"
#include "pawntb/format/index.hpp"
#include "pawntb/generator.hpp"
#include "pawntb/probe.hpp"

namespace {

using namespace pawntb;

// The whole of `pawntb generate` minus process start: solve, compress, write.
void BM_Generate(benchmark::State& state) {
  const Geometry g{static_cast<int>(state.range(0)), static_cast<int>(state.range(1))};
  const auto path = std::filesystem::temp_directory_path() /
                    ("pawntb-bench-" + std::to_string(::getpid()) + ".pawntb");
  const auto threads = static_cast<unsigned>(state.range(2));
  for (auto _ : state) {
    const WriteSummary s = write_table(solve(g, g.cols, threads), path, threads);
    benchmark::DoNotOptimize(s.file_size);
  }
  std::filesystem::remove(path);
}
// Arguments: rows, columns, threads.
BENCHMARK(BM_Generate)
    ->Args({3, 3, 2})
    ->Args({4, 4, 1})
    ->Args({4, 4, 2})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// Tier by tier through a work directory (generate(), as `pawntb generate
// --work-dir`): solve, tier files, assembly. items/s = positions per second.
// One run each: 6x5 takes minutes.
void BM_GenerateTiered(benchmark::State& state) {
  const Geometry g{static_cast<int>(state.range(0)), static_cast<int>(state.range(1))};
  const auto base = std::filesystem::temp_directory_path() /
                    ("pawntb-bench-tiered-" + std::to_string(::getpid()));
  GenerateRequest o;
  o.geometry = g;
  o.max_pawns = g.cols;
  o.threads = static_cast<unsigned>(state.range(2));
  o.memory_limit = std::uint64_t{2} << 30;
  o.work_dir = base.string() + ".work";
  std::uint64_t positions = 0;
  for (auto _ : state) {
    // (qualified: with a std::string argument, ADL would find std::generate)
    const GenerationReport r =
        pawntb::generate(o, {}, base.string() + ".pawntb");  // removes work_dir
    positions += r.plan.entries;
  }
  std::filesystem::remove(base.string() + ".pawntb");
  state.SetItemsProcessed(static_cast<std::int64_t>(positions));
}
// Arguments: rows, columns, threads.
BENCHMARK(BM_GenerateTiered)
    ->Args({5, 5, 2})
    ->Args({6, 5, 2})
    ->Iterations(1)
    ->Repetitions(1)
    ->Unit(benchmark::kSecond)
    ->UseRealTime();

void BM_MemoMinimax(benchmark::State& state) {
  const int rows = static_cast<int>(state.range(0)), cols = static_cast<int>(state.range(1));
  for (auto _ : state) {
    benchmark::DoNotOptimize(pawntb_baseline::memo_minimax_domain(rows, cols, cols));
  }
}
BENCHMARK(BM_MemoMinimax)->Args({3, 3})->Args({4, 4})->Unit(benchmark::kMillisecond)->UseRealTime();

// Random playable 4x4 positions with white to move, the same for every run.
const std::vector<Position>& random_positions() {
  static const std::vector<Position> positions = [] {
    const Geometry g{4, 4};
    const format::Index index(g, 4);
    std::mt19937_64 rng(2026);
    std::vector<Position> out;
    while (out.size() < (1 << 16)) {
      const auto [white, black] = index.unrank(rng() % index.size());
      const Position p{g, white, black, Side::white};
      if (black && classify(p) == Status::playable) out.push_back(p);
    }
    return out;
  }();
  return positions;
}

// The probe's cost, not the loop's: the positions are kept as two 16-bit
// boards (256 KiB in all, read in order) rather than 32-byte Positions.
void BM_Probe(benchmark::State& state) {
  static const Table table = Table::open_default();
  static const std::vector<std::uint32_t> boards = [] {
    std::vector<std::uint32_t> out;
    for (const Position& p : random_positions()) {
      out.push_back(static_cast<std::uint32_t>(p.white | p.black << 16));
    }
    return out;
  }();
  std::size_t i = state.thread_index() * 7919;
  for (auto _ : state) {
    const std::uint32_t b = boards[i++ & (boards.size() - 1)];
    benchmark::DoNotOptimize(
        table.probe(Position{Geometry{4, 4}, b & 0xFFFF, b >> 16, Side::white}));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Probe)->Threads(1)->Threads(2)->UseRealTime();

// Table::probe_many on the same positions, 64 at a time: the time per
// iteration is for 64 probes (items/s gives probes per second).
void BM_ProbeMany(benchmark::State& state) {
  static const Table table = Table::open_default();
  const std::vector<Position>& positions = random_positions();
  constexpr std::size_t kGroup = 64;
  std::array<ProbeResult, kGroup> results;
  std::size_t i = state.thread_index() * 7919 % positions.size() / kGroup * kGroup;
  for (auto _ : state) {
    table.probe_many(positions.data() + i, kGroup, results.data());
    benchmark::DoNotOptimize(results);
    i = (i + kGroup) & (positions.size() - 1);
  }
  state.SetItemsProcessed(state.iterations() * kGroup);
}
BENCHMARK(BM_ProbeMany)->Threads(1)->UseRealTime();

// The same positions as 16-char boards for the per-case searches.
const std::vector<std::array<char, 16>>& random_boards() {
  static const std::vector<std::array<char, 16>> boards = [] {
    std::vector<std::array<char, 16>> out;
    for (const Position& p : random_positions()) {
      std::array<char, 16> b{};
      for (int s = 0; s < 16; ++s) {
        b[s] = (p.white >> s & 1) ? 'P' : (p.black >> s & 1) ? 'p' : '.';
      }
      out.push_back(b);
    }
    return out;
  }();
  return boards;
}

// Per-case alpha-beta, the classic char-grid solution (the baseline).
void BM_ClassicAlphaBeta(benchmark::State& state) {
  const auto& boards = random_boards();
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(
        pawntb_baseline::classic_solve(boards[i++ & (boards.size() - 1)].data()));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ClassicAlphaBeta)->UseRealTime();

// Per-case alpha-beta on bitboards: the same search, tuned.
void BM_AlphaBeta(benchmark::State& state) {
  const auto& boards = random_boards();
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(
        pawntb_baseline::alphabeta_solve(boards[i++ & (boards.size() - 1)].data()));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_AlphaBeta)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
