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

// Whether some entry of a run (white, and black's top row, fixed; black's
// middle-row pawns any d-subset of the middle squares white leaves free) may
// leave white without a legal move, for a run without a win in one. False
// only if none does.
//
// Without a win in one, white's pawns on row 1 are blocked by black's top
// row and capture nothing there. An entry then has no move iff B_M holds
// every middle square F that a white pawn steps onto (not a white pawn) and
// none of the middle squares X that white could capture on. So none does if
// F and X meet, if |F| > d, or if the d - |F| other pawns of B_M do not fit
// in the free squares outside F and X.
constexpr bool run_may_have_no_move(Geometry g, std::uint64_t white, std::uint64_t black) {
  const std::uint64_t middle = low_bits((g.rows - 2) * g.cols) << g.cols;
  const std::uint64_t free = middle & ~white;
  const std::uint64_t steps = white_pushes(g, white) & free;
  const std::uint64_t captures =
      (white_left_captures(g, white) | white_right_captures(g, white)) & free;
  const int d = std::popcount(black & middle), need = std::popcount(steps);
  return !(steps & captures) && need <= d &&
         d - need <= std::popcount(free) - std::popcount(steps | captures);
}

// Calls on_span(first, count, kind) for consecutive spans of entries that
// together cover [begin, end) exactly, in index order, no two adjacent ones of
// the same kind. Requires begin <= end <= index.size().
//
// The walk goes a block or a run at a time (Index::Cursor: a block shares W,
// a run W and B_T, varying B_M). Filler is mostly whole blocks and runs:
//   mirror_files(W) < W makes every entry a mirror image, and without white
//   pawns on row 1 none wins in one: the whole block is a mirror image;
//   wins_in_one depends on W and B_T only, so it holds for all of a run or none;
//   run_may_have_no_move finds the runs that cannot hold no-move entries.
// Only the other runs with mirror_files(W) >= W are looked at entry by entry,
// for the no-move rule and, when W is its own mirror, for
// mirror_files(B) < B. `symmetry` must be of the index's geometry.
template <class OnSpan>
constexpr void for_each_span(const Index& index, const BoardSymmetry& symmetry, std::uint64_t begin,
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
  Index::Cursor cursor(index, begin);
  for (;;) {
    const std::uint64_t first = cursor.index();
    const std::uint64_t white = cursor.white();
    const std::uint64_t mirror_white = symmetry.mirror(white);
    if (mirror_white < white && !(white & row_1)) {
      mark(first, EntryKind::mirror_image);
      const std::uint64_t block_end = std::min(first + cursor.white_remaining(), end);
      if (block_end == end) break;
      cursor.next_white();
      continue;
    }
    const std::uint64_t run_end = std::min(first + cursor.run_remaining(), end);
    if (wins_in_one(g, white, cursor.black())) {
      mark(first, EntryKind::win_in_one);
    } else if (mirror_white < white) {
      mark(first, EntryKind::mirror_image);
    } else if (mirror_white != white && !run_may_have_no_move(g, white, cursor.black())) {
      mark(first, EntryKind::stored);
    } else {
      const bool symmetric = mirror_white == white;
      for (;;) {
        const std::uint64_t black = cursor.black();
        mark(cursor.index(), symmetric && symmetry.mirror(black) < black ? EntryKind::mirror_image
                             : !white_can_move(g, white, black)          ? EntryKind::no_move
                                                                         : EntryKind::stored);
        if (cursor.index() + 1 == run_end) break;
        cursor.next();
      }
    }
    if (run_end == end) break;
    if (cursor.index() + 1 == run_end) {
      cursor.next();  // walked the run entry by entry, or it has one entry
    } else {
      cursor.next_run();
    }
  }
  on_span(span_begin, end - span_begin, span_kind);
}

// The number of stored entries in [begin, end).
constexpr std::uint64_t stored_count(const Index& index, const BoardSymmetry& symmetry,
                                     std::uint64_t begin, std::uint64_t end) {
  std::uint64_t count = 0;
  for_each_span(index, symmetry, begin, end, [&](std::uint64_t, std::uint64_t n, EntryKind kind) {
    if (kind == EntryKind::stored) count += n;
  });
  return count;
}

}  // namespace pawntb::detail
