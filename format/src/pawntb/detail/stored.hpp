// Which entries a block stores: the writer keeps only the values of entries
// that are not filler (values.hpp, is_filler), in index order, and the reader
// puts them back where they belong. Both walk the index with the one function
// below, so they cannot disagree.
#pragma once

#include <algorithm>
#include <cstdint>

#include "pawntb/detail/index.hpp"
#include "pawntb/detail/values.hpp"

namespace pawntb::detail {

// Calls stored_span(first, count) for consecutive spans of stored entries
// (those with !is_filler) in [begin, end), in index order, covering every
// stored entry of the range exactly once. Requires begin <= end <= size().
//
// The walk goes a run at a time (Index::Cursor: a run shares W and B_T and
// varies B_M). Filler is mostly whole runs, which are skipped in one step:
//   wins_in_one depends on W and B_T only, so it holds for all of a run or none;
//   mirror_files(W) < W makes every entry of the run a mirror image.
// Only runs with mirror_files(W) >= W are looked at entry by entry, for the
// no-move rule, and, when W is its own mirror, for mirror_files(B) < B.
template <class StoredSpan>
constexpr void for_each_stored_span(const Index& index, std::uint64_t begin, std::uint64_t end,
                                    StoredSpan&& stored_span) {
  if (begin >= end) return;
  const Geometry g = index.geometry();
  Index::Cursor cursor(index, begin);
  for (;;) {
    const std::uint64_t run_end = std::min(cursor.index() + cursor.run_remaining(), end);
    const std::uint64_t white = cursor.white();
    const std::uint64_t mirror_white = mirror_files(g, white);
    if (mirror_white < white || wins_in_one(g, white, cursor.black())) {
      if (run_end == end) return;
      cursor.next_run();
      continue;
    }
    const bool symmetric = mirror_white == white;
    std::uint64_t span_begin = cursor.index();
    for (;;) {
      const std::uint64_t black = cursor.black();
      const bool stored =
          white_can_move(g, white, black) && !(symmetric && mirror_files(g, black) < black);
      const std::uint64_t i = cursor.index();
      if (!stored) {
        if (i > span_begin) stored_span(span_begin, i - span_begin);
        span_begin = i + 1;
      }
      if (i + 1 == run_end) break;
      cursor.next();
    }
    if (run_end > span_begin) stored_span(span_begin, run_end - span_begin);
    if (run_end == end) return;
    cursor.next();
  }
}

// The number of stored entries in [begin, end).
constexpr std::uint64_t stored_count(const Index& index, std::uint64_t begin, std::uint64_t end) {
  std::uint64_t count = 0;
  for_each_stored_span(index, begin, end, [&](std::uint64_t, std::uint64_t n) { count += n; });
  return count;
}

}  // namespace pawntb::detail
