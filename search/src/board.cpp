#include "board.hpp"

#include <cstdlib>

namespace pawntb::search_detail {

Board::Board(Geometry g)
    : g_(g),
      all_(game::board_mask(g)),
      file_a_(game::file_mask(g, 0)),
      file_last_(game::file_mask(g, g.cols - 1)) {
  for (int r = 0; r < g.rows; ++r) row_[r] = game::row_mask(g, r);
  for (int c = 0; c < g.cols; ++c) file_[c] = game::file_mask(g, c);
  if (g.cols % 2) middle_file_ = file_[g.cols / 2];
  for (int s = 0; s < g.squares(); ++s) {
    mirror_square_[s] = static_cast<std::uint8_t>(s / g.cols * g.cols + g.cols - 1 - s % g.cols);
  }
  for (int s = 0; s < g.squares(); ++s) {
    const int r = s / g.cols, c = s % g.cols;
    for (int t = 0; t < g.squares(); ++t) {
      const int tr = t / g.cols, tc = t % g.cols;
      const int df = std::abs(tc - c);
      const std::uint64_t bit = 1ULL << t;
      for (const bool to_move : {false, true}) {
        if (tr < r) {  // ahead of a white pawn, whose goal is row 0
          if (could_stop(r, r - tr, df, to_move)) white_masks_[s].stoppers[to_move] |= bit;
        }
        if (tr > r) {  // ahead of a black pawn, whose goal is the last row
          if (could_stop(g.rows - 1 - r, tr - r, df, to_move)) {
            black_masks_[s].stoppers[to_move] |= bit;
          }
        }
      }
      if (tr < r && tc == c) white_masks_[s].file_ahead |= bit;
      if (tr > r && tc == c) black_masks_[s].file_ahead |= bit;
    }
  }
}

void Board::moves(const Node& n, bool ordered, SearchMoves& out) const {
  out.size = 0;
  const std::uint64_t empty = all_ & ~(n.white | n.black);
  const int c = g_.cols;
  const auto add = [&](std::uint64_t targets, int delta) {
    for (std::uint64_t t = targets; t; t &= t - 1) {
      const int to = std::countr_zero(t);
      out.moves[out.size++] =
          SearchMove{static_cast<std::uint8_t>(to + delta), static_cast<std::uint8_t>(to)};
    }
  };
  // Pushes nearest the goal first: for white the lowest squares, for black
  // the highest (added in reverse below).
  if (n.white_to_move) {
    const std::uint64_t w = n.white;
    const std::uint64_t left = ((w & ~file_a_) >> (c + 1)) & n.black;
    const std::uint64_t right = ((w & ~file_last_) >> (c - 1)) & n.black;
    const std::uint64_t push = (w >> c) & empty;
    add(left, c + 1);
    add(right, c - 1);
    add(push, c);
  } else {
    const std::uint64_t b = n.black;
    const std::uint64_t left = ((b & ~file_a_) << (c - 1)) & n.white;
    const std::uint64_t right = ((b & ~file_last_) << (c + 1)) & n.white;
    const std::uint64_t push = (b << c) & empty;
    add(left, -(c - 1));
    add(right, -(c + 1));
    const int first_push = out.size;
    add(push, -c);
    if (ordered) {
      for (int i = first_push, j = out.size - 1; i < j; ++i, --j) {
        std::swap(out.moves[i], out.moves[j]);
      }
    }
  }
  if (!ordered) {  // square order: the baseline's natural order
    for (int i = 1; i < out.size; ++i) {
      const SearchMove m = out.moves[i];
      int j = i;
      for (; j > 0 && (out.moves[j - 1].from > m.from ||
                       (out.moves[j - 1].from == m.from && out.moves[j - 1].to > m.to));
           --j) {
        out.moves[j] = out.moves[j - 1];
      }
      out.moves[j] = m;
    }
  }
}

}  // namespace pawntb::search_detail
