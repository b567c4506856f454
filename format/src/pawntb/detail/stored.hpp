// Which entries a block stores: the writer keeps only the values of entries
// that are not filler (values.hpp, is_filler), in index order, and the reader
// puts them back where they belong, filling in what the rules decide. Both
// walk the index with the one function below, so they cannot disagree.
#pragma once

#include <algorithm>
#include <cstdint>

#include "pawntb/detail/index.hpp"
#include "pawntb/detail/values.hpp"

namespace pawntb::detail {

// What an entry is; the first that applies of win_in_one, mirror_image,
// no_move, stored.
enum class EntryKind : std::uint8_t {
  stored,        // !is_filler: its value is in the block
  win_in_one,    // value 1 by rule
  no_move,       // value 0 by rule (and canonical)
  mirror_image,  // not canonical, no win in one: never read
};

// Whether some entry of a run may leave white without a legal move, for the
// runs of a W-block (white fixed, and black's middle-row pawns any d-subset
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

// Calls on_span(first, count, kind) for consecutive spans of entries that
// together cover [begin, end) exactly, in index order, no two adjacent ones of
// the same kind. Requires begin <= end <= index.size().
//
// The walk goes W-block by W-block and run by run (index.hpp: a W-block
// shares the slice and W, a run also black's row 0). A W-block's runs take
// the subsets of row 0 in colex order, so the walk follows B_0 with
// next_subset, and makes a cursor only for a run that it walks entry by
// entry. A win in one depends on W and B_0 only, so a run is all win_in_one
// or none; then all mirror_image when mirror_files(W) < W, or all stored when mirror_files(W) > W
// and no entry can lack a move (run_may_have_no_move, by W and the number of black pawns off row
// 0). The other runs are walked entry by entry: mirror_image when W is its own mirror and
// mirror_files(B) < B, else no_move or stored by white_can_move.
// `symmetry` must be of the index's geometry.
template <class OnSpan>
void for_each_span(const Index& index, const BoardSymmetry& symmetry, std::uint64_t begin,
                   std::uint64_t end, OnSpan&& on_span) {
  if (begin >= end) return;
  const Geometry g = index.geometry();
  const std::uint64_t row_1 = row_mask(g, 1);
  // The entries from `span_begin` on are of `span_kind`, up to the next mark.
  std::uint64_t span_begin = begin;
  EntryKind span_kind = EntryKind::stored;
  const auto mark = [&](std::uint64_t first, EntryKind kind) {
    if (kind == span_kind) return;
    if (first > span_begin) on_span(span_begin, first - span_begin, span_kind);
    span_begin = first;
    span_kind = kind;
  };
  Index::BlockWalk block(index, begin);
  std::uint64_t first = begin;  // the first entry of this W-block in [begin, end)
  for (;;) {
    const std::uint64_t block_end = std::min(block.first() + block.size(), end);
    const std::uint64_t white = block.white();
    const std::uint64_t mirror_white = symmetry.mirror(white);
    const std::uint64_t row_1_pawns = white & row_1;
    const std::uint64_t steps = white_pushes(g, row_1_pawns);
    const std::uint64_t captures =
        white_left_captures(g, row_1_pawns) | white_right_captures(g, row_1_pawns);
    const bool may_have_no_move = run_may_have_no_move(g, white, block.black_off_row_0());
    if (!steps && !captures &&
        (mirror_white < white || (mirror_white > white && !may_have_no_move))) {
      // No win in one whatever B_0, and W alone decides: one kind.
      mark(first, mirror_white < white ? EntryKind::mirror_image : EntryKind::stored);
    } else {
      // Its runs, one per black row 0 in colex order (next_subset), from the
      // run that holds `first`.
      const std::uint64_t run_size = block.run_size();
      const std::uint64_t run = (first - block.first()) / run_size;
      std::uint64_t b_top = subset_unrank(run, block.black_on_row_0(), g.cols);
      std::uint64_t run_end = std::min(block.first() + (run + 1) * run_size, block_end);
      for (;;) {
        if ((steps & ~b_top) || (captures & b_top)) {
          mark(first, EntryKind::win_in_one);
        } else if (mirror_white < white) {
          mark(first, EntryKind::mirror_image);
        } else if (mirror_white != white && !may_have_no_move) {
          mark(first, EntryKind::stored);
        } else {
          Index::Cursor cursor(block, b_top);
          const bool symmetric = mirror_white == white;
          for (std::uint64_t i = cursor.index();; cursor.next()) {
            const std::uint64_t b = cursor.black();
            if (i >= first) {
              mark(i, symmetric && symmetry.mirror(b) < b ? EntryKind::mirror_image
                      : !white_can_move(g, white, b)      ? EntryKind::no_move
                                                          : EntryKind::stored);
            }
            if (++i == run_end) break;
          }
        }
        if (run_end == block_end) break;
        first = run_end;
        b_top = next_subset(b_top);  // not empty: a block of one run ends above
        run_end = std::min(first + run_size, block_end);
      }
    }
    if (block_end == end) break;
    block.next();
    first = block.first();
  }
  on_span(span_begin, end - span_begin, span_kind);
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

}  // namespace pawntb::detail
