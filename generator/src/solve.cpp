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
//   1. index: walk every entry in order. Entries a filler rule decides
//      (value_by_rule) get their value now; mirror images wait for their
//      representative; every other entry goes into the bucket of its phi.
//   2. solve: for phi = 0, 1, ..., each entry of the level folds the values of
//      its successors (ValueFold) and writes its value and its mirror image's.
#include <algorithm>
#include <atomic>
#include <barrier>
#include <bit>
#include <exception>
#include <fstream>
#include <mutex>
#include <system_error>
#include <thread>

#include "pawntb/detail/index.hpp"
#include "pawntb/detail/values.hpp"
#include "pawntb/generator.hpp"

namespace pawntb {

namespace {

using detail::Index;
using detail::Plies;

// Bytes of memory available to this process, from /proc/meminfo; 0 if unknown.
std::uint64_t available_memory() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key, unit;
  std::uint64_t kib = 0;
  while (meminfo >> key >> kib >> unit) {
    if (key == "MemAvailable:") return kib * 1024;
  }
  return 0;
}

int thread_count(int requested) {
  if (requested > 0) return requested;
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

// Runs body(part) for part = 0..parts-1, each on its own thread (part 0 on
// the caller's). For each part whose thread cannot start, calls missing(part)
// instead. Returns how many parts ran.
template <class Body, class Missing>
int run_parts(int parts, Body body, Missing missing) {
  std::vector<std::jthread> pool;
  int started = 1;
  try {
    for (int t = 1; t < parts; ++t, ++started) pool.emplace_back(body, t);
  } catch (const std::system_error&) {
    for (int t = started; t < parts; ++t) missing(t);
  }
  body(0);
  return started;
}

// Per-square images under the colour flip and the mirror, so that a move
// updates flipped and mirrored bitboards with single bits.
struct SquareMaps {
  std::uint64_t flip[kMaxSquares];         // square -> its row-flipped bit
  std::uint64_t flip_mirror[kMaxSquares];  // square -> its row-flipped, mirrored bit
  std::uint64_t push[kMaxSquares];         // square -> where a white pawn there steps
  std::uint64_t captures[kMaxSquares];     // square -> where a white pawn there captures
  explicit SquareMaps(Geometry g) {
    for (int s = 0; s < g.squares(); ++s) {
      const std::uint64_t bit = 1ULL << s;
      flip[s] = detail::flip_rows(g, bit);
      flip_mirror[s] = detail::mirror_files(g, flip[s]);
      push[s] = detail::white_pushes(g, bit);
      captures[s] = detail::white_left_captures(g, bit) | detail::white_right_captures(g, bit);
    }
  }
};

// phi of a white-to-move position (see above).
int potential(Geometry g, std::uint64_t white, std::uint64_t black) {
  int phi = 0;
  for (int r = 0; r < g.rows; ++r) {
    const std::uint64_t row = detail::row_mask(g, r);
    phi += r * std::popcount(white & row) + (g.rows - 1 - r) * std::popcount(black & row);
  }
  return phi;
}

// The positions of one phi level, with their pawns so that solving needs no
// unrank.
struct Entry {
  std::uint64_t index;
  std::uint64_t white;
  std::uint64_t black;
};
using Bucket = std::vector<Entry>;

class Solver {
 public:
  Solver(const GenerateOptions& o, SolvedTable& table)
      : g_(o.geometry),
        index_(o.geometry, o.max_pawns),
        maps_(o.geometry),
        values_(table.values),
        filler_(table.filler) {}

  // Pass 1 over [begin, end): rule values now, other representatives into
  // buckets[phi].
  void classify(std::uint64_t begin, std::uint64_t end, std::vector<Bucket>& buckets) const {
    if (begin >= end) return;
    Index::Cursor cursor(index_, begin);
    for (;;) {
      const std::uint64_t white = cursor.white(), black = cursor.black();
      if (detail::wins_in_one(g_, white, black)) {
        // Win in one depends on W and B's top row only: the whole run of
        // positions differing in B's middle squares shares it.
        const std::uint64_t i = cursor.index();
        const std::uint64_t run = std::min(cursor.run_remaining(), end - i);
        std::fill_n(values_.begin() + i, run, Plies{1});
        std::fill_n(filler_.begin() + i, run, std::uint8_t{1});
        if (i + run == end) return;
        cursor.next_run();
        continue;
      }
      if (const auto v = detail::value_by_rule(g_, white, black)) {
        values_[cursor.index()] = *v;
        filler_[cursor.index()] = 1;
      } else if (!detail::is_canonical(g_, white, black)) {
        filler_[cursor.index()] = 1;
      } else {
        const auto phi = static_cast<std::size_t>(potential(g_, white, black));
        if (phi >= buckets.size()) buckets.resize(phi + 1);
        buckets[phi].push_back(Entry{cursor.index(), white, black});
      }
      if (cursor.index() + 1 == end) return;
      cursor.next();
    }
  }

  // Pass 2 for one entry: fold the successors, store the value for the entry
  // and its mirror image.
  void solve_entry(const Entry& entry) const {
    const std::uint64_t white = entry.white, black = entry.black;
    const std::uint64_t empty = detail::board_mask(g_) & ~(white | black);
    // The successor (black to move) seen from black: colour-flipped boards,
    // and their mirror images for the canonical choice.
    const std::uint64_t flip_white = detail::flip_rows(g_, white);
    const std::uint64_t flip_black = detail::flip_rows(g_, black);
    const std::uint64_t mirror_white = detail::mirror_files(g_, flip_white);
    const std::uint64_t mirror_black = detail::mirror_files(g_, flip_black);
    detail::ValueFold fold;
    for (std::uint64_t pawns = white; pawns; pawns &= pawns - 1) {
      const int from = std::countr_zero(pawns);
      const std::uint64_t targets = (maps_.push[from] & empty) | (maps_.captures[from] & black);
      for (std::uint64_t t = targets; t; t &= t - 1) {
        const int to = std::countr_zero(t);
        // The successor from black's side is (flip(B'), flip(W')) with
        // B' = B minus `to` and W' = W minus `from` plus `to`. flip_rows and
        // mirror_files move each square independently, so they distribute
        // over single squares: flip(W') = flip(W) ^ flip(from) ^ flip(to),
        // and likewise for the mirrored flip. After the move the mover is
        // black: the successor's "white" pawns are black's.
        const std::uint64_t next_white = flip_black & ~maps_.flip[to];
        if (!next_white) {
          fold.add(0);  // black has no pawns left: lost in 0
          continue;
        }
        const std::uint64_t next_black = flip_white ^ maps_.flip[from] ^ maps_.flip[to];
        const std::uint64_t mirror_next_white = mirror_black & ~maps_.flip_mirror[to];
        const std::uint64_t mirror_next_black =
            mirror_white ^ maps_.flip_mirror[from] ^ maps_.flip_mirror[to];
        // No move here reaches row 0: value_by_rule decided those positions.
        const bool take_mirror =
            mirror_next_white < next_white ||
            (mirror_next_white == next_white && mirror_next_black < next_black);
        fold.add(values_[take_mirror ? index_.rank(mirror_next_white, mirror_next_black)
                                     : index_.rank(next_white, next_black)]);
      }
    }
    const Plies value = fold.value();
    values_[entry.index] = value;
    const std::uint64_t mirror_white_now = detail::mirror_files(g_, white);
    const std::uint64_t mirror_black_now = detail::mirror_files(g_, black);
    if (mirror_white_now != white || mirror_black_now != black) {
      values_[index_.rank(mirror_white_now, mirror_black_now)] = value;
    }
  }

  const Index& index() const { return index_; }

 private:
  Geometry g_;
  Index index_;
  SquareMaps maps_;
  std::vector<std::uint8_t>& values_;
  std::vector<std::uint8_t>& filler_;
};

}  // namespace

std::uint64_t memory_needed(Geometry g, int max_pawns) {
  if (!Index::valid_parameters(g, max_pawns)) {
    throw GenerateError("unsupported parameters: " + to_string(g) +
                        " with K = " + std::to_string(max_pawns) +
                        " (rows and columns 3..8, rows*cols <= 64, 1 <= K <= columns)");
  }
  const Index index(g, max_pawns);
  if (index.too_large()) {
    throw GenerateError(to_string(g) + " with K = " + std::to_string(max_pawns) +
                        " has more than 2^62 positions: too large to index");
  }
  // Value and filler bytes per entry, at most one 24-byte bucket slot per
  // entry, and the writer's copy of the values.
  std::uint64_t bytes = 0;
  if (__builtin_mul_overflow(index.size(), std::uint64_t{27}, &bytes)) return UINT64_MAX;
  return bytes + (64 << 20);
}

SolvedTable solve(const GenerateOptions& options) {
  const Geometry g = options.geometry;
  const std::uint64_t need = memory_needed(g, options.max_pawns);
  const std::uint64_t have = available_memory();
  if (have && need > have) {
    throw GenerateError("not enough memory: " + to_string(g) + " with K = " +
                        std::to_string(options.max_pawns) + " needs " + std::to_string(need >> 20) +
                        " MiB, " + std::to_string(have >> 20) + " MiB available");
  }
  const int threads = thread_count(options.threads);
  auto report = [&](const char* stage, double done) {
    if (options.on_progress) options.on_progress(Progress{stage, done});
  };

  SolvedTable table;
  table.geometry = g;
  table.max_pawns = options.max_pawns;
  const Solver solver(options, table);
  const std::uint64_t n = solver.index().size();
  table.values.assign(n, 0);
  table.filler.assign(n, 0);

  // Both passes on one set of threads: pass 1 over a slice of the index per
  // thread, then pass 2 level by level, every thread taking a share of each
  // level and waiting at the barrier for the others before the next. A thread
  // that fails (or never starts) drops out of the barrier and stops the rest.
  std::vector<std::vector<Bucket>> buckets(threads);
  std::atomic<std::size_t> levels{0};
  std::atomic<bool> failed{false};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  std::barrier sync(threads);
  auto worker = [&](int part) {
    try {
      solver.classify(n * part / threads, n * (part + 1) / threads, buckets[part]);
      std::size_t mine = buckets[part].size(), seen = levels.load();
      while (mine > seen && !levels.compare_exchange_weak(seen, mine)) {
      }
      sync.arrive_and_wait();
      for (std::size_t level = 0; level < levels.load(); ++level) {
        if (failed) {
          sync.arrive_and_drop();  // the others must not wait for this thread
          return;
        }
        if (part == 0) report("solve", static_cast<double>(level) / static_cast<double>(levels));
        for (const auto& slice : buckets) {
          if (level >= slice.size()) continue;
          const auto& entries = slice[level];
          const std::size_t begin = entries.size() * part / threads;
          const std::size_t end = entries.size() * (part + 1) / threads;
          for (std::size_t e = begin; e < end; ++e) solver.solve_entry(entries[e]);
        }
        sync.arrive_and_wait();
      }
    } catch (...) {
      {
        std::lock_guard lock(failure_mutex);
        if (!failure) failure = std::current_exception();
      }
      failed = true;
      sync.arrive_and_drop();
    }
  };
  const int started = run_parts(threads, worker, [&](int) {
    failed = true;
    sync.arrive_and_drop();
  });
  if (started < threads) {
    throw GenerateError("could not start " + std::to_string(threads) + " threads (" +
                        std::to_string(started) + " started); try --threads " +
                        std::to_string(started));
  }
  if (failure) std::rethrow_exception(failure);
  buckets.clear();

  for (std::uint64_t i = 0; i < n; ++i) {
    table.win_count += detail::mover_wins(table.values[i]);
    if (table.values[i] > table.max_plies) {
      table.max_plies = table.values[i];
      table.longest_index = i;
    }
  }
  report("solve", 1);
  return table;
}

}  // namespace pawntb
