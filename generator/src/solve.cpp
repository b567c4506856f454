// Backward induction over the whole index.
//
// ORDER. Let phi(W, B) = sum over white pawns of their distance to row 0 plus
// sum over black pawns of their distance to row R-1 (white to move). A move
// advances one pawn by one row and may remove an enemy pawn, so phi strictly
// decreases; the colour flip and the mirror keep phi. Solving the positions in
// increasing phi therefore finds every successor already solved, and all the
// positions of one phi level are independent, so threads share a level.
//
// MEMORY. One byte per entry and nothing per position besides: an entry that
// waits to be solved holds kUnsolved | phi (phi <= 2*K*(R-1) <= 112 < 128,
// values <= 112 too, so the top bit tells them apart). Each chunk of
// kChunkEntries entries keeps a 128-bit mask of the levels waiting in it, so a
// level's scan skips the chunks without work.
//
// PASSES.
//   1. index: walk every entry in order. Entries a filler rule decides
//      (value_by_rule) get their value now; mirror images are left alone
//      (never read: lookups go to the representative, and the writer drops
//      them); every other entry is marked kUnsolved | phi.
//   2. solve: for phi = 0, 1, ..., find the level's entries, rebuild their
//      pawns (a cursor step when the last one is near, else an unrank) and
//      fold the values of their successors (ValueFold).
#include <algorithm>
#include <array>
#include <atomic>
#include <barrier>
#include <bit>
#include <cstring>
#include <exception>
#include <fstream>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>

#include "pawntb/detail/index.hpp"
#include "pawntb/detail/layout.hpp"
#include "pawntb/detail/threads.hpp"
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

// phi of a white-to-move position (see above), 0..2*K*(rows-1).
int potential(Geometry g, std::uint64_t white, std::uint64_t black) {
  int phi = 0;
  for (int r = 0; r < g.rows; ++r) {
    const std::uint64_t row = detail::row_mask(g, r);
    phi += r * std::popcount(white & row) + (g.rows - 1 - r) * std::popcount(black & row);
  }
  return phi;
}

constexpr Plies kUnsolved = 0x80;  // top bit of a waiting entry; the low 7 bits are its phi
static_assert(2 * kMaxSide * (kMaxSide - 1) < kUnsolved, "phi and values fit in 7 bits");

constexpr std::uint64_t kChunkEntries = 1 << 12;  // entries per level mask
constexpr std::uint64_t kBatchChunks = 16;        // chunks a thread takes at a time

// The phi levels waiting in one chunk: bit phi of the 128.
struct LevelMask {
  std::uint64_t bits[2] = {0, 0};
  void add(int phi) { bits[phi >> 6] |= 1ULL << (phi & 63); }
  bool has(int phi) const { return bits[phi >> 6] >> (phi & 63) & 1; }
};

// Every byte equal to `byte` in the 8 bytes of x, as the top bit of each
// such byte: x ^ byte*0x01..01 has a zero byte exactly there, and
// ((y & 0x7F..7F) + 0x7F..7F) sets a byte's top bit iff its low 7 bits are
// not all zero; or-ing y in catches the top bit itself.
constexpr std::uint64_t bytes_equal_to(std::uint64_t x, std::uint8_t byte) {
  constexpr std::uint64_t kLow7 = 0x7F7F7F7F7F7F7F7FULL;
  const std::uint64_t y = x ^ (0x0101010101010101ULL * byte);
  return ~(((y & kLow7) + kLow7) | y | kLow7);
}
static_assert(bytes_equal_to(0x0081008100000000ULL, 0x81) == 0x0080008000000000ULL);
static_assert(bytes_equal_to(0x8181818181818181ULL, 0x81) == 0x8080808080808080ULL);
static_assert(bytes_equal_to(0x0001000100010001ULL, 0x81) == 0);

// What one thread adds up while solving.
struct Tally {
  std::uint64_t white_wins = 0;                  // entries whose value is odd
  std::array<std::uint64_t, kUnsolved> level{};  // entries waiting at each phi
};

class Solver {
 public:
  Solver(const GenerateOptions& o, std::vector<Plies>& values)
      : g_(o.geometry),
        index_(o.geometry, o.max_pawns),
        maps_(o.geometry),
        values_(values),
        masks_(detail::block_count_for(index_.size(), kChunkEntries)) {}

  const Index& index() const { return index_; }
  std::uint64_t chunks() const { return masks_.size(); }

  // Pass 1 over the chunks [first, last).
  void classify(std::uint64_t first, std::uint64_t last, Tally& tally) {
    const std::uint64_t n = index_.size();
    const std::uint64_t begin = first * kChunkEntries, end = std::min(last * kChunkEntries, n);
    if (begin >= end) return;
    Index::Cursor cursor(index_, begin);
    for (;;) {
      const std::uint64_t i = cursor.index(), white = cursor.white(), black = cursor.black();
      if (detail::wins_in_one(g_, white, black)) {
        // Win in one depends on W and B's top row only: the whole run of
        // positions differing in B's middle squares shares it.
        const std::uint64_t run = std::min(cursor.run_remaining(), end - i);
        std::fill_n(values_.begin() + static_cast<std::ptrdiff_t>(i), run, Plies{1});
        tally.white_wins += run;
        if (i + run == end) return;
        cursor.next_run();
        continue;
      }
      // No legal move: loss in 0, already the byte's value. Mirror images
      // keep 0 too.
      if (detail::white_can_move(g_, white, black) && detail::is_canonical(g_, white, black)) {
        const int phi = potential(g_, white, black);
        values_[i] = static_cast<Plies>(kUnsolved | phi);
        masks_[i / kChunkEntries].add(phi);
        ++tally.level[phi];
      }
      if (i + 1 == end) return;
      cursor.next();
    }
  }

  // Pass 2 for level phi over the chunks [first, last).
  void solve_level(int phi, std::uint64_t first, std::uint64_t last, Tally& tally) {
    const auto target = static_cast<Plies>(kUnsolved | phi);
    const std::uint64_t n = index_.size();
    std::optional<Index::Cursor> cursor;
    for (std::uint64_t chunk = first; chunk < last; ++chunk) {
      if (!masks_[chunk].has(phi)) continue;
      const std::uint64_t begin = chunk * kChunkEntries, end = std::min(begin + kChunkEntries, n);
      for (std::uint64_t word = begin; word < end; word += 8) {
        std::uint64_t x = 0;
        std::memcpy(&x, values_.data() + word, std::min<std::uint64_t>(8, end - word));
        for (std::uint64_t hits = bytes_equal_to(x, target); hits; hits &= hits - 1) {
          const std::uint64_t i = word + static_cast<unsigned>(std::countr_zero(hits)) / 8;
          if (i >= end) break;
          move_cursor(cursor, i);
          values_[i] = solve_entry(cursor->white(), cursor->black(), tally);
        }
      }
    }
  }

 private:
  // Puts the cursor on entry i: a few steps forward when it is close behind,
  // else a fresh one (an unrank).
  void move_cursor(std::optional<Index::Cursor>& cursor, std::uint64_t i) const {
    constexpr std::uint64_t kMaxSteps = 32;
    if (cursor && cursor->index() < i && i - cursor->index() <= kMaxSteps) {
      while (cursor->index() < i) cursor->next();
    } else {
      cursor.emplace(index_, i);
    }
  }

  // The value of a waiting position from its successors' values.
  Plies solve_entry(std::uint64_t white, std::uint64_t black, Tally& tally) const {
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
    if (detail::mover_wins(value)) {
      // The mirror image, a separate entry unless the position is symmetric,
      // has the same value.
      const bool symmetric =
          detail::mirror_files(g_, white) == white && detail::mirror_files(g_, black) == black;
      tally.white_wins += symmetric ? 1 : 2;
    }
    return value;
  }

  Geometry g_;
  Index index_;
  SquareMaps maps_;
  std::vector<Plies>& values_;
  std::vector<LevelMask> masks_;  // per chunk; each written only by the thread that owns the chunk
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
  // The value byte of every entry, and for the writer at most two copies of
  // the compressed file (the frames and the file image), each no larger than
  // the values. The level masks and the writer's buffers fit in the 64 MiB.
  std::uint64_t bytes = 0;
  if (__builtin_mul_overflow(index.size(), std::uint64_t{3}, &bytes)) return UINT64_MAX;
  return bytes + (64 << 20);
}

namespace {

// Refuses a run that needs more memory than is available.
void check_memory(Geometry g, int max_pawns) {
  const std::uint64_t need = memory_needed(g, max_pawns);
  const std::uint64_t have = available_memory();
  if (have && need > have) {
    throw GenerateError("not enough memory: " + to_string(g) + " with K = " +
                        std::to_string(max_pawns) + " needs " + std::to_string(need >> 20) +
                        " MiB, " + std::to_string(have >> 20) + " MiB available");
  }
}

// Both passes on one team of threads, which take batches of chunks from shared
// counters: pass 1 over the whole index, then pass 2 level by level, waiting
// at the barrier for each other before the next level. A thread that fails
// (or never starts) drops out of the barrier and stops the rest.
class Team {
 public:
  Team(Solver& solver, int threads, const ProgressCallback& on_progress)
      : solver_(solver),
        threads_(threads),
        on_progress_(on_progress),
        batches_(detail::block_count_for(solver.chunks(), kBatchChunks)),
        tallies_(static_cast<std::size_t>(threads)),
        sync_(threads) {}

  // Runs both passes; returns each thread's tally. Throws what a thread
  // threw, or GenerateError if a thread could not start.
  const std::vector<Tally>& run() {
    const int started = run_parts(
        threads_, [&](int part) { work(part); }, [&](int) { drop_out(); });
    if (started < threads_) {
      throw GenerateError("could not start " + std::to_string(threads_) + " threads (" +
                          std::to_string(started) + " started)");
    }
    if (failure_) std::rethrow_exception(failure_);
    return tallies_;
  }

 private:
  void work(int part) {
    try {
      Tally& tally = tallies_[static_cast<std::size_t>(part)];
      index_pass(part, tally);
      solve_pass(part, tally);
    } catch (...) {
      {
        std::lock_guard lock(failure_mutex_);
        if (!failure_) failure_ = std::current_exception();
      }
      drop_out();
    }
  }

  void drop_out() {
    failed_ = true;
    sync_.arrive_and_drop();  // the others must not wait for this thread
  }

  std::pair<std::uint64_t, std::uint64_t> batch_chunks(std::uint64_t batch) const {
    return {batch * kBatchChunks, std::min((batch + 1) * kBatchChunks, solver_.chunks())};
  }

  // Only part 0, the caller's thread, reports progress.
  void report(int part, const char* stage, double done) const {
    if (part == 0 && on_progress_) on_progress_(Progress{stage, done});
  }

  // Pass 1, then the barrier.
  void index_pass(int part, Tally& tally) {
    for (std::uint64_t b; !failed_ && (b = next_batch_.fetch_add(1)) < batches_;) {
      const auto [first, last] = batch_chunks(b);
      solver_.classify(first, last, tally);
      const std::uint64_t done = batches_done_.fetch_add(1) + 1;
      report(part, "index", static_cast<double>(done) / static_cast<double>(batches_));
    }
    sync_.arrive_and_wait();
    report(part, "index", 1);
  }

  // Pass 2: the levels in increasing phi, each ended by the barrier.
  void solve_pass(int part, Tally& tally) {
    std::array<std::uint64_t, kUnsolved> level_size{};
    for (const Tally& t : tallies_) {
      for (std::size_t phi = 0; phi < kUnsolved; ++phi) level_size[phi] += t.level[phi];
    }
    std::uint64_t waiting = 0;
    for (const std::uint64_t size : level_size) waiting += size;
    std::uint64_t solved = 0;  // entries of the finished levels
    for (std::size_t phi = 0; phi < kUnsolved; ++phi) {
      if (level_size[phi] == 0) continue;  // every thread skips it alike
      if (failed_) {
        sync_.arrive_and_drop();
        return;
      }
      for (std::uint64_t b; (b = next_level_batch_[phi].fetch_add(1)) < batches_;) {
        const auto [first, last] = batch_chunks(b);
        solver_.solve_level(static_cast<int>(phi), first, last, tally);
        const double level_done = static_cast<double>(b) / static_cast<double>(batches_);
        report(part, "solve",
               (static_cast<double>(solved) + level_done * static_cast<double>(level_size[phi])) /
                   static_cast<double>(waiting));
      }
      solved += level_size[phi];
      sync_.arrive_and_wait();
    }
  }

  Solver& solver_;
  const int threads_;
  const ProgressCallback& on_progress_;
  const std::uint64_t batches_;
  std::vector<Tally> tallies_;  // one per thread
  std::atomic<std::uint64_t> next_batch_{0}, batches_done_{0};
  std::array<std::atomic<std::uint64_t>, kUnsolved> next_level_batch_{};
  std::atomic<bool> failed_{false};
  std::exception_ptr failure_;
  std::mutex failure_mutex_;
  std::barrier<> sync_;
};

// The header statistics of the solved values.
void summarize(SolvedTable& table, const std::vector<Tally>& tallies) {
  for (const Tally& t : tallies) table.win_count += t.white_wins;
  const auto longest = std::max_element(table.values.begin(), table.values.end());
  table.max_plies = *longest;
  table.longest_index = static_cast<std::uint64_t>(longest - table.values.begin());
}

}  // namespace

SolvedTable solve(const GenerateOptions& options) {
  check_memory(options.geometry, options.max_pawns);
  SolvedTable table;
  table.geometry = options.geometry;
  table.max_pawns = options.max_pawns;
  Solver solver(options, table.values);
  table.values.assign(solver.index().size(), 0);
  Team team(solver, static_cast<int>(detail::thread_count(options.threads)), options.on_progress);
  summarize(table, team.run());
  if (options.on_progress) options.on_progress(Progress{"solve", 1});
  return table;
}

}  // namespace pawntb
