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

// Calls on_span(first, count, kind) for consecutive spans of entries of one
// kind that together cover [begin, end) exactly, in index order.
// Requires begin <= end <= index.size().
//
// The walk goes a run at a time (Index::Cursor: a run shares W and B_T and
// varies B_M). Filler is mostly whole runs, which are passed in one step:
//   wins_in_one depends on W and B_T only, so it holds for all of a run or none;
//   mirror_files(W) < W makes every entry of the run a mirror image.
// Only runs with mirror_files(W) >= W are looked at entry by entry, for the
// no-move rule and, when W is its own mirror, for mirror_files(B) < B.
// `symmetry` must be of the index's geometry.
template <class OnSpan>
constexpr void for_each_span(const Index& index, const BoardSymmetry& symmetry, std::uint64_t begin,
                             std::uint64_t end, OnSpan&& on_span) {
  if (begin >= end) return;
  const Geometry g = index.geometry();
  Index::Cursor cursor(index, begin);
  for (;;) {
    const std::uint64_t first = cursor.index();
    const std::uint64_t run_end = std::min(first + cursor.run_remaining(), end);
    const std::uint64_t white = cursor.white();
    const std::uint64_t mirror_white = symmetry.mirror(white);
    if (wins_in_one(g, white, cursor.black())) {
      on_span(first, run_end - first, EntryKind::win_in_one);
    } else if (mirror_white < white) {
      on_span(first, run_end - first, EntryKind::mirror_image);
    } else {
      const bool symmetric = mirror_white == white;
      std::uint64_t span_begin = first;
      EntryKind span_kind = EntryKind::stored;
      for (;;) {
        const std::uint64_t i = cursor.index(), black = cursor.black();
        const EntryKind kind = symmetric && symmetry.mirror(black) < black ? EntryKind::mirror_image
                               : !white_can_move(g, white, black)          ? EntryKind::no_move
                                                                           : EntryKind::stored;
        if (kind != span_kind) {
          if (i > span_begin) on_span(span_begin, i - span_begin, span_kind);
          span_begin = i;
          span_kind = kind;
        }
        if (i + 1 == run_end) break;
        cursor.next();
      }
      on_span(span_begin, run_end - span_begin, span_kind);
    }
    if (run_end == end) return;
    if (cursor.index() + 1 == run_end) {
      cursor.next();  // walked the run entry by entry
    } else {
      cursor.next_run();
    }
  }
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
