#include "tier_solver.hpp"

#include <algorithm>
#include <atomic>
#include <map>
#include <tuple>

#include "pawntb/format/walk.hpp"
#include "pawntb/util/threads.hpp"
#include "step_ranker.hpp"

namespace pawntb::generator_detail {

using format::Cursor;
using format::Index;
using format::is_canonical;
using format::kMaxPawns;
using format::mover_wins;
using format::Plies;
using format::ValueFold;
using game::board_mask;
using game::flip_rows;
using game::geometry_number;
using game::mirror_files;
using game::per_geometry;
using game::white_can_move;
using game::white_left_captures;
using game::white_pushes;
using game::white_right_captures;
using game::wins_in_one;

TierGraph::TierGraph(const Index& index) {
  const auto tiers = index.tiers();
  std::map<std::tuple<int, int, int, int>, std::size_t> number;
  for (std::size_t t = 0; t < tiers.size(); ++t) {
    number[{tiers[t].w, tiers[t].b, tiers[t].sw, tiers[t].sb}] = t;
  }
  const int rows = index.geometry().rows;
  children_.resize(tiers.size());
  for (std::size_t t = 0; t < tiers.size(); ++t) {
    const Index::Tier& k = tiers[t];
    TierChildren& c = children_[t];
    // TIERS (index.hpp): seen from black, (b, w, sb, sw + 1), and with a
    // black pawn of advancement x captured, (b - 1, w, sb - x, sw + 1).
    const auto add = [&](std::size_t x, int w, int b, int sw, int sb) {
      if (const auto it = number.find({w, b, sw, sb}); it != number.end()) {
        c.tier[x] = it->second;
        c.exists[x] = true;
      }
    };
    add(0, k.b, k.w, k.sb, k.sw + 1);
    for (int x = 1; x <= rows - 2 && k.b >= 1; ++x) {
      add(static_cast<std::size_t>(x), k.b - 1, k.w, k.sb - x, k.sw + 1);
    }
  }
}

std::vector<std::size_t> TierGraph::child_list(std::size_t tier) const {
  std::vector<std::size_t> out;
  const TierChildren& c = children_[tier];
  for (std::size_t x = 0; x < kMaxSide; ++x) {
    if (c.exists[x]) out.push_back(c.tier[x]);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

namespace {

// Per-square images under the colour flip and the mirror, so that a move
// updates flipped and mirrored bitboards with single bits.
struct SquareMaps {
  std::uint64_t flip[kMaxSquares];         // square -> its row-flipped bit
  std::uint64_t flip_mirror[kMaxSquares];  // square -> its row-flipped, mirrored bit
  std::uint64_t push[kMaxSquares];         // square -> where a white pawn there steps
  std::uint64_t captures[kMaxSquares];     // square -> where a white pawn there captures
  // A white pawn's step from a square, seen from black (flipped) as black's
  // step from row step_row up: its column's bit, and the mirrored one.
  int step_row[kMaxSquares];
  std::uint64_t column[kMaxSquares], mirror_column[kMaxSquares];
  explicit SquareMaps(Geometry g) {
    for (int s = 0; s < g.squares(); ++s) {
      const std::uint64_t bit = 1ULL << s;
      flip[s] = flip_rows(g, bit);
      flip_mirror[s] = mirror_files(g, flip[s]);
      push[s] = white_pushes(g, bit);
      captures[s] = white_left_captures(g, bit) | white_right_captures(g, bit);
      step_row[s] = g.rows - 1 - s / g.cols;
      column[s] = 1ULL << (s % g.cols);
      mirror_column[s] = 1ULL << (g.cols - 1 - s % g.cols);
    }
  }
};

constexpr std::uint64_t kChunkEntries = 1 << 14;  // entries a thread takes at a time

// What one chunk adds up.
struct ChunkTally {
  std::uint64_t win_count = 0;
  int max_plies = -1;
  std::uint64_t longest_index = 0;  // first index with max_plies in the chunk
};

// One tier's work on a board of geometry G::value (G = FixedGeometry<rows,
// cols>): compiled once per board size, so that the rank of every successor,
// the solver's inner loop, has its shifts and masks constant.
template <class G>
class TierWork {
 public:
  explicit TierWork(const Index& index) : index_(index), maps_(g_) {}

  // Solves the entries [first, first + out.size()) of one tier into out,
  // with `children` the values its moves reach (EntryRange).
  // The positions that need their successors are taken kBatch at a time:
  // first every successor is ranked and its child value prefetched, then
  // the values are folded. A child value is a random byte of a child tier
  // of up to gigabytes, so its load is mostly a cache miss (and a TLB miss);
  // ranked apart from the folds, the loads of a batch overlap instead of
  // each waiting behind the branches of the fold before it
  // (docs/benchmarks.md, "Where the solver's time goes").
  ChunkTally solve(std::uint64_t first, std::span<Plies> out,
                   const std::array<TierValues, kMaxSide>& children) const {
    ChunkTally tally;
    Batch batch(index_);
    Cursor cursor(index_, first);
    const std::uint64_t end = out.size();
    for (std::uint64_t i = 0;;) {
      const std::uint64_t white = cursor.white(), black = cursor.black();
      std::uint64_t done = 1;
      Advance advance = Advance::entry;
      if (wins_in_one(g_, white, black)) {
        // A win in one depends on W and B's row 0 only: the whole run.
        done = std::min(cursor.run_remaining(), end - i);
        advance = Advance::run;
        std::fill_n(out.begin() + static_cast<std::ptrdiff_t>(i), done, Plies{1});
        tally.win_count += done;
      } else if (mirror_files(g_, white) < white) {
        // canonical() compares W first: with mirror(W) < W every entry of
        // the lane is a mirror image (0), about half of a board's
        // entries. The run at once; the rest of the lane at once when W
        // has no pawn on row 1, so that no entry of it wins in one.
        const bool whole_lane = (white & kRow1) == 0;
        done = std::min(whole_lane ? cursor.lane_remaining() : cursor.run_remaining(), end - i);
        advance = whole_lane ? Advance::lane : Advance::run;
        std::fill_n(out.begin() + static_cast<std::ptrdiff_t>(i), done, Plies{0});
      } else if (!is_canonical(g_, white, black) || !white_can_move(g_, white, black)) {
        out[i] = 0;  // a mirror image (never read) or no legal move (lost)
      } else {
        batch.add(i, white, black, *this, children);
        if (batch.full()) batch.fold(out, tally);
      }
      i += done;
      if (i >= end) break;
      if (advance == Advance::lane) {
        cursor.next_lane();
      } else if (done > 1) {
        cursor.next_run();
      } else {
        cursor.next<g_>();
      }
    }
    batch.fold(out, tally);
    // The chunk's largest value and where it first is.
    const auto longest = std::max_element(out.begin(), out.end());
    tally.max_plies = *longest;
    tally.longest_index = first + static_cast<std::uint64_t>(longest - out.begin());
    return tally;
  }

 private:
  // How the cursor moves on from an entry: to the next entry, past the run
  // (the entries sharing W and B's row 0) or past the lane.
  enum class Advance : std::uint8_t { entry, run, lane };
  static constexpr std::uint64_t kRow1 = game::row_mask(G::value, 1);

  // Positions per batch: enough loads in flight to cover a miss, few enough
  // that a batch's successors stay in the first-level cache. Measured
  // (docs/benchmarks.md).
  static constexpr std::size_t kBatch = 32;
  // A pawn has at most 3 moves (a step and two captures).
  static constexpr std::size_t kMaxMoves = 3 * kMaxPawns;

  // Positions ranked but not folded yet: where each goes in the chunk, its
  // successors' values (pointers into the child tiers), and whether it is
  // symmetric (its mirror image is itself).
  class Batch {
   public:
    explicit Batch(const Index& index) : ranker_(index) {}
    bool full() const { return positions_ == kBatch; }

    void add(std::uint64_t at, std::uint64_t white, std::uint64_t black, const TierWork& work,
             const std::array<TierValues, kMaxSide>& children) {
      at_[positions_] = static_cast<std::uint32_t>(at);
      symmetric_[positions_] = mirror_files(g_, white) == white && mirror_files(g_, black) == black;
      const std::size_t before = successors_;
      successors_ = static_cast<std::size_t>(
          work.successors(white, black, children, ranker_, values_.data() + successors_) -
          values_.data());
      moves_[positions_] = static_cast<std::uint8_t>(successors_ - before);
      ++positions_;
    }

    // The values of the batch's positions into out; empties the batch.
    void fold(std::span<Plies> out, ChunkTally& tally) {
      const Plies* const* next = values_.data();
      for (std::size_t p = 0; p < positions_; ++p) {
        ValueFold fold;
        for (const Plies* const* stop = next + moves_[p]; next != stop; ++next) fold.add(**next);
        const Plies value = fold.value();
        out[at_[p]] = value;
        // The mirror image, a separate entry unless the position is
        // symmetric, has the same value.
        if (mover_wins(value)) tally.win_count += symmetric_[p] ? 1 : 2;
      }
      positions_ = successors_ = 0;
    }

   private:
    std::size_t positions_ = 0, successors_ = 0;
    std::array<std::uint32_t, kBatch> at_{};  // chunks hold at most kChunkEntries
    std::array<std::uint8_t, kBatch> moves_{};
    std::array<bool, kBatch> symmetric_{};
    std::array<const Plies*, kBatch * kMaxMoves> values_{};
    StepRanker<G::value> ranker_;  // successors()'s scratch
  };
  static_assert(kChunkEntries <= UINT32_MAX && kMaxMoves <= UINT8_MAX);

  // Where the values of a position's successors are, each prefetched, into
  // `to`; returns the end of what it wrote. A successor without black pawns
  // (lost in 0) points to a zero.
  const Plies** successors(std::uint64_t white, std::uint64_t black,
                           const std::array<TierValues, kMaxSide>& children,
                           StepRanker<G::value>& ranker, const Plies** to) const {
    static constexpr Plies kLost = 0;
    const std::uint64_t empty = board_mask(g_) & ~(white | black);
    // The successor (black to move) seen from black: colour-flipped boards,
    // and their mirror images for the canonical choice.
    const std::uint64_t flip_white = flip_rows(g_, white);
    const std::uint64_t flip_black = flip_rows(g_, black);
    const std::uint64_t mirror_white = mirror_files(g_, flip_white);
    const std::uint64_t mirror_black = mirror_files(g_, flip_black);
    // Every step (a move without a capture) has the successor's white pawns
    // flip_black, so unless black is symmetric, the same image of it is
    // canonical for all steps, and they differ from one base by a step of
    // the successor's black: StepRanker (step_ranker.hpp) ranks them.
    const bool steps_ranked = mirror_black != flip_black;  // else ranked one by one below
    const bool steps_mirrored = mirror_black < flip_black;
    bool ranker_ready = false;
    const TierValues& stepped = children[0];
    for (std::uint64_t pawns = white; pawns; pawns &= pawns - 1) {
      const int from = std::countr_zero(pawns);
      const std::uint64_t step = maps_.push[from] & empty;
      if (step && steps_ranked) {
        if (!ranker_ready) {
          ranker.reset(steps_mirrored ? mirror_black : flip_black,
                       steps_mirrored ? mirror_white : flip_white);
          ranker_ready = true;
        }
        const std::uint64_t i = ranker.rank_step(
            maps_.step_row[from], steps_mirrored ? maps_.mirror_column[from] : maps_.column[from]);
        const Plies* const value = stepped.values.data() + (i - stepped.first);
        __builtin_prefetch(value);
        *to++ = value;
      }
      const std::uint64_t targets = (steps_ranked ? 0 : step) | (maps_.captures[from] & black);
      for (std::uint64_t t = targets; t; t &= t - 1) {
        const int to_square = std::countr_zero(t);
        // The successor from black's side is (flip(B'), flip(W')) with
        // B' = B minus `to` and W' = W minus `from` plus `to`. flip_rows and
        // mirror_files move each square independently, so they distribute
        // over single squares. After the move the mover is black: the
        // successor's "white" pawns are black's.
        const std::uint64_t next_white = flip_black & ~maps_.flip[to_square];
        if (!next_white) {
          *to++ = &kLost;  // black has no pawns left: lost in 0
          continue;
        }
        const std::uint64_t next_black = flip_white ^ maps_.flip[from] ^ maps_.flip[to_square];
        const std::uint64_t mirror_next_white = mirror_black & ~maps_.flip_mirror[to_square];
        const std::uint64_t mirror_next_black =
            mirror_white ^ maps_.flip_mirror[from] ^ maps_.flip_mirror[to_square];
        // No move here reaches row 0 (wins in one were decided above). A
        // capture's child tier is by the captured pawn's row.
        const bool take_mirror =
            mirror_next_white < next_white ||
            (mirror_next_white == next_white && mirror_next_black < next_black);
        const std::uint64_t i = take_mirror
                                    ? index_.rank_in<G>(mirror_next_white, mirror_next_black)
                                    : index_.rank_in<G>(next_white, next_black);
        const TierValues& child =
            children[(black >> to_square & 1) ? static_cast<std::size_t>(to_square / g_.cols) : 0];
        const Plies* const value = child.values.data() + (i - child.first);
        __builtin_prefetch(value);
        *to++ = value;
      }
    }
    return to;
  }

  static constexpr Geometry g_ = G::value;
  const Index& index_;
  SquareMaps maps_;
};

template <class G>
TierSummary solve_ranges_with(const Index& index, const TierGraph& graph,
                              std::span<const EntryRange> ranges, std::span<Plies> out,
                              unsigned threads, const std::function<void(std::uint64_t)>& on_done) {
  const TierWork<G> work(index);
  // Each range's children, but those its tier does not have.
  std::vector<std::array<TierValues, kMaxSide>> children(ranges.size());
  for (std::size_t r = 0; r < ranges.size(); ++r) {
    for (std::size_t x = 0; x < kMaxSide; ++x) {
      if (graph.children(ranges[r].tier).exists[x]) children[r][x] = ranges[r].children[x];
    }
  }
  // The chunks, in index order: (its first entry, where its values go, its
  // range).
  struct Chunk {
    std::uint64_t first = 0, at = 0, size = 0;
    std::size_t range = 0;
  };
  std::vector<Chunk> chunks;
  std::uint64_t at = 0;
  for (std::size_t r = 0; r < ranges.size(); ++r) {
    for (std::uint64_t begin = 0; begin < ranges[r].size; begin += kChunkEntries) {
      const std::uint64_t n = std::min(kChunkEntries, ranges[r].size - begin);
      chunks.push_back(Chunk{ranges[r].first + begin, at, n, r});
      at += n;
    }
  }
  // The memory plan counts these (solver_scratch_bytes, memory.hpp).
  static_assert(sizeof(Chunk) == 32 && sizeof(ChunkTally) == 24);
  static_assert(sizeof(EntryRange) == 216 && sizeof(children[0]) == 192);
  std::vector<ChunkTally> tallies(chunks.size());
  std::atomic<std::uint64_t> finished{0};
  util::parallel_for("tier solve", threads, chunks.size(), [&](std::uint64_t c, unsigned worker) {
    const Chunk& chunk = chunks[c];
    tallies[c] = work.solve(chunk.first, out.subspan(chunk.at, chunk.size), children[chunk.range]);
    const std::uint64_t done = finished.fetch_add(chunk.size) + chunk.size;
    if (worker == 0 && on_done) on_done(done);
  });
  TierSummary summary;
  summary.max_plies = -1;
  for (const ChunkTally& t : tallies) {
    summary.win_count += t.win_count;
    if (t.max_plies > summary.max_plies) {
      summary.max_plies = t.max_plies;
      summary.longest_index = t.longest_index;
    }
  }
  if (summary.max_plies < 0) summary.max_plies = 0;
  return summary;
}

// solve_ranges_with for each geometry, by geometry_number.
constexpr auto kSolveRangesWith =
    per_geometry([](auto g) { return &solve_ranges_with<decltype(g)>; });

}  // namespace

TierSummary solve_ranges(const Index& index, const TierGraph& graph,
                         std::span<const EntryRange> ranges, std::span<Plies> out, unsigned threads,
                         const std::function<void(std::uint64_t)>& on_done) {
  return kSolveRangesWith[static_cast<std::size_t>(geometry_number(index.geometry()))](
      index, graph, ranges, out, threads, on_done);
}

TierSummary solve_tier(const Index& index, const TierGraph& graph, std::size_t tier,
                       const std::array<TierValues, kMaxSide>& children, std::span<Plies> out,
                       unsigned threads, const std::function<void(std::uint64_t)>& on_done) {
  const EntryRange whole{tier, index.tiers()[tier].first, index.tiers()[tier].size, children};
  return solve_ranges(index, graph, std::span(&whole, 1), out, threads, on_done);
}

}  // namespace pawntb::generator_detail
