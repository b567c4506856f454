// Which entries a block stores: the writer keeps only the values of entries
// that are not filler (values.hpp, is_filler), in index order, and the reader
// puts them back where they belong, filling in what the rules decide. Both
// walk the index with the one function below, so they cannot disagree.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <type_traits>

#include "pawntb/format/index.hpp"
#include "pawntb/format/values.hpp"
#include "pawntb/format/walk.hpp"

namespace pawntb::format {

using game::board_bytes;
using game::BoardSymmetry;
using game::geometry_number;
using game::kByteGatherScatter;
using game::low_bits;
using game::per_geometry;
using game::row_mask;
using game::white_can_move;
using game::white_left_captures;
using game::white_pushes;
using game::white_right_captures;

// What an entry is; the first that applies of win_in_one, mirror_image,
// no_move, stored.
enum class EntryKind : std::uint8_t {
  stored,        // !is_filler: its value is in the block
  win_in_one,    // value 1 by rule
  no_move,       // value 0 by rule (and canonical)
  mirror_image,  // not canonical, no win in one: never read
};

// Whether some entry of a run may leave white without a legal move, for the
// runs of a lane (white fixed, and black's middle-row pawns any d-subset
// of the middle squares white leaves free) without a win in one. False only
// if none does.
//
// Without a win in one, white's pawns on row 1 are blocked by black's top
// row and capture nothing there. An entry then has no move iff B_M holds
// every middle square F that a white pawn steps onto (not a white pawn) and
// none of the middle squares X that white could capture on. So none does if
// F and X meet, if |F| > d, or if the d - |F| other pawns of B_M do not fit
// in the free squares outside F and X.
constexpr bool run_may_have_no_move(Geometry g, std::uint64_t white, int d) {
  const std::uint64_t middle = low_bits((g.rows - 2) * g.cols) << g.cols;
  const std::uint64_t free = middle & ~white;
  const std::uint64_t steps = white_pushes(g, white) & free;
  const std::uint64_t captures =
      (white_left_captures(g, white) | white_right_captures(g, white)) & free;
  const int need = std::popcount(steps);
  return !(steps & captures) && need <= d &&
         d - need <= std::popcount(free) - std::popcount(steps | captures);
}

// Black's pawns off row 0 in the entries of a run, in index order: an
// odometer over black's rows 1..R-2, row R-2 least significant (POSITION
// RANK in index.hpp), each row's pawns a subset, in colex order, of the
// squares white leaves free there. G = FixedGeometry<rows, cols>.
template <class G>
class MiddleRowWalk {
 public:
  // At the run's first entry, for the lane's white pawns and black's counts
  // per row.
  MiddleRowWalk(const LaneWalk& lane) {
    for (int r = 1; r < g_.rows - 1; ++r) {
      const auto ur = static_cast<std::size_t>(r);
      const auto free = static_cast<std::uint8_t>(~(lane.white() >> (r * g_.cols)) & kRow);
      scatter_[ur] = kByteGatherScatter.scatter[free];
      next_[ur] = kNextRowSubset.of[std::popcount(free)];
      squeezed_[ur] = low_bits(lane.black_on_row(r));
      bits_[ur] = scatter_[ur][squeezed_[ur]];
      black_ |= bits_[ur] << (r * g_.cols);
    }
  }
  std::uint64_t black() const { return black_; }

  // The next entry of the run; after its last, the first again. Each row
  // keeps its squeezed subset and, to save a lookup, its squares.
  [[gnu::always_inline]] void next() {
    for (int r = g_.rows - 2; r >= 1; --r) {
      const auto ur = static_cast<std::size_t>(r);
      const std::uint16_t next = next_[ur][squeezed_[ur]];
      squeezed_[ur] = next & 0xFFu;
      const std::uint64_t bits = scatter_[ur][squeezed_[ur]];
      black_ ^= (bits_[ur] ^ bits) << (r * g_.cols);
      bits_[ur] = bits;
      if (!(next >> 8)) return;  // no carry
    }
  }

 private:
  static constexpr Geometry g_ = G::value;
  static constexpr std::uint64_t kRow = low_bits(g_.cols);
  // Per row: PDEP onto the free squares, the colex successor (kNextRowSubset)
  // over their count, the squeezed subset and its squares (row-local bits).
  std::array<const std::uint8_t*, kMaxSide> scatter_{};
  std::array<const std::uint16_t*, kMaxSide> next_{};
  std::array<std::uint64_t, kMaxSide> squeezed_{}, bits_{};
  std::uint64_t black_ = 0;
};

// Calls on_span(first, count, kind) for consecutive spans of entries that
// together cover [begin, end) exactly, in index order, no two adjacent ones of
// the same kind. Requires begin <= end <= index.size(), and G =
// FixedGeometry<rows, cols> of the index's geometry; `symmetry` must be of it
// too. for_each_span below picks G.
//
// The walk goes lane by lane and run by run (index.hpp: a lane shares the
// slice and W, a run also black's row 0). When W_1 (white's row 1) and the
// slice make every run a win in one, they do so up to the next W_1, and the
// walk passes those lanes at once. Otherwise it visits only
// the runs that are not wins in one, in index order, and walks black's
// other rows with a MiddleRowWalk only for a run it walks entry by entry.
// A win in one depends on W and B_0 only, so a run is all win_in_one or
// none; then all mirror_image when mirror_files(W) < W, or all stored when
// mirror_files(W) > W and no entry can lack a move (run_may_have_no_move, by
// W and the number of black pawns off row 0). The other runs are walked
// entry by entry: mirror_image when W is its own mirror and mirror_files(B)
// < B, else no_move or stored by white_can_move.
template <class G, class OnSpan>
void for_each_span_in(const Index& index, const BoardSymmetry& symmetry, std::uint64_t begin,
                      std::uint64_t end, OnSpan& on_span) {
  if (begin >= end) return;
  constexpr Geometry g = G::value;
  constexpr int bytes = board_bytes(g);
  constexpr std::uint64_t row_1 = row_mask(g, 1);
  // The entries from `span_begin` on are of `span_kind`, up to the next mark.
  std::uint64_t span_begin = begin;
  EntryKind span_kind = EntryKind::stored;
  const auto mark = [&](std::uint64_t first, EntryKind kind) {
    if (kind == span_kind) return;
    if (first > span_begin) on_span(span_begin, first - span_begin, span_kind);
    span_begin = first;
    span_kind = kind;
  };
  LaneWalk lane(index, begin);
  std::uint64_t first = begin;  // the first entry of this lane in [begin, end)
  for (;;) {
    const std::uint64_t lane_end = std::min(lane.first() + lane.size(), end);
    const std::uint64_t white = lane.white();
    const std::uint64_t row_1_pawns = white & row_1;
    const std::uint64_t steps = white_pushes(g, row_1_pawns);
    const std::uint64_t captures =
        white_left_captures(g, row_1_pawns) | white_right_captures(g, row_1_pawns);
    // A run is not a win in one iff B_0 holds every square a row-1 pawn
    // steps onto and none it captures on (none if a square is both): B_0 =
    // steps | X, X a subset of the other row-0 squares (`open`).
    constexpr std::uint64_t row_0 = row_mask(g, 0);
    const std::uint64_t open = row_0 & ~(steps | captures);
    const int open_count = std::popcount(open);
    const int extra = lane.black_on_row_0() - std::popcount(steps);
    if ((steps & captures) || extra < 0 || extra > open_count) {
      // Every run is a win in one, the most common case of a lane with pawns
      // on row 1. W_1 and the slice say so, so the same holds up to the next
      // W_1: those lanes are passed at once.
      mark(first, EntryKind::win_in_one);
      if (lane.row_1_group_end<g>() >= end) break;
      lane.next_row_1<g>();
      first = lane.first();
      continue;
    }
    const std::uint64_t mirror_white = symmetry.mirror<bytes>(white);
    // (Not needed when W is a mirror image: every run is a win in one or one.)
    const bool may_have_no_move =
        mirror_white >= white && run_may_have_no_move(g, white, lane.black_off_row_0());
    if (!steps && !captures &&
        (mirror_white < white || (mirror_white > white && !may_have_no_move))) {
      // No win in one whatever B_0, and W alone decides: one kind.
      mark(first, mirror_white < white ? EntryKind::mirror_image : EntryKind::stored);
    } else {
      // The runs that are not wins in one, in index order (X in colex
      // order, which is B_0's order too, as steps is fixed); the runs
      // between them are wins in one.
      const std::uint64_t run_size = lane.run_size();
      std::uint64_t squeezed = low_bits(extra);
      do {
        const std::uint64_t b_top = steps | kByteGatherScatter.scatter[open][squeezed];
        const std::uint64_t run_first = lane.first() + row_subset_rank(b_top) * run_size;
        if (run_first >= lane_end) break;
        const std::uint64_t run_end = std::min(run_first + run_size, lane_end);
        if (run_end <= first) continue;  // before [begin, end)
        if (run_first > first) mark(first, EntryKind::win_in_one);
        first = std::max(first, run_first);
        if (mirror_white < white) {
          mark(first, EntryKind::mirror_image);
        } else if (mirror_white != white && !may_have_no_move) {
          mark(first, EntryKind::stored);
        } else {
          MiddleRowWalk<G> middle(lane);
          const bool symmetric = mirror_white == white;
          for (std::uint64_t i = run_first; i < run_end; ++i, middle.next()) {
            const std::uint64_t b = b_top | middle.black();
            if (i < first) continue;
            mark(i, symmetric && symmetry.mirror<bytes>(b) < b ? EntryKind::mirror_image
                    : !white_can_move(g, white, b)             ? EntryKind::no_move
                                                               : EntryKind::stored);
          }
        }
        first = run_end;
      } while (!advance_row_subset(squeezed, open_count));
      if (first < lane_end) mark(first, EntryKind::win_in_one);
    }
    if (lane_end == end) break;
    lane.next<g>();
    first = lane.first();
  }
  on_span(span_begin, end - span_begin, span_kind);
}

// for_each_span_in for the index's geometry.
template <class OnSpan>
void for_each_span(const Index& index, const BoardSymmetry& symmetry, std::uint64_t begin,
                   std::uint64_t end, OnSpan&& on_span) {
  using Callback = std::remove_reference_t<OnSpan>;
  static constexpr auto kWalk =
      per_geometry([](auto g) { return &for_each_span_in<decltype(g), Callback>; });
  kWalk[static_cast<std::size_t>(geometry_number(index.geometry()))](index, symmetry, begin, end,
                                                                     on_span);
}

// The number of stored entries in [begin, end).
inline std::uint64_t stored_count(const Index& index, const BoardSymmetry& symmetry,
                                  std::uint64_t begin, std::uint64_t end) {
  std::uint64_t count = 0;
  for_each_span(index, symmetry, begin, end, [&](std::uint64_t, std::uint64_t n, EntryKind kind) {
    if (kind == EntryKind::stored) count += n;
  });
  return count;
}

}  // namespace pawntb::format
