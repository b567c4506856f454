// Ranks the positions one black step away from a base position (W, B):
// (W, B') with B' = B less the pawn on (row s, column c), plus (s + 1, c).
// The tier solver's moves without a capture all keep the successor's W (the
// mover's opponent, flipped) and step one of its B, so the parts of the rank
// that a step leaves alone are computed once per base (reset), and a step
// costs two row lookups and a few products instead of a whole rank.
//
// A step changes black's rows s and s + 1 only, with d_r the black digit of
// row r and c_r its radix (POSITION RANK in pawntb/format/index.hpp): the
// black digits split as
//   D = ((H_s c'_s + d'_s) c'_(s+1) + d'_(s+1)) S_(s+2) + L_(s+2)
// with H_s the mixed-radix value of rows 0..s-1, S_t the product of the
// radices of rows t..R-2 and L_t the value of those rows (S_(R-1) = 1,
// L_(R-1) = 0); the lane size of slice' (the radix of all black digits) is
// P_s c'_s c'_(s+1) S_(s+2) with P_s the product of the radices of rows
// 0..s-1; and
//   index = first(slice') + (white digits) * (lane size) + D.
// The black key (PROFILE KEYS in index.hpp) moves by (K+1)^(s+1) - (K+1)^s.
//   Worked example (4x4, K = 4): W = 0x0E00 (row 2: columns 1..3), B =
//   0x000E (row 0: columns 1..3), the pawn on (0, 1) steps to (1, 1): B' =
//   0x002C. White digits 3 (W_2 = {1,2,3}, rank 3 of 4). Row 0 of B' is
//   {2,3}: rank C(2,1) + C(3,2) = 5, radix C(4,2) = 6; row 1 is {1}
//   squeezed onto W_1's 4 free squares: rank 1, radix 4; row 2 is empty
//   beside W_2 (radix C(1,0) = 1): S_2 = 1, L_2 = 0, H_0 = 0, P_0 = 1. D =
//   (0 * 6 + 5) * 4 + 1 = 21, lane size = 6 * 4 = 24, index =
//   first(slice') + 3 * 24 + 21 = first(slice') + 93
//   (StepRanker.WorkedExample, generator_test.cpp, checks it against
//   rank()).
#pragma once

#include <array>
#include <cstdint>

#include "pawntb/format/index.hpp"
#include "pawntb/game/bitboard.hpp"

namespace pawntb::generator_detail {

// Fixed must be the index's geometry (every shift a constant).
template <Geometry Fixed>
class StepRanker {
  static_assert(Fixed.valid());
  static constexpr std::size_t kRows = static_cast<std::size_t>(Fixed.rows);
  static constexpr int kCols = Fixed.cols;
  using Index = format::Index;
  using RowDigits = Index::RowDigits;

 public:
  explicit StepRanker(const Index& index) : index_(&index) {}

  // The base (W, B); requires index.contains(white, black).
  [[gnu::always_inline]] void reset(std::uint64_t white, std::uint64_t black) {
    const Index& o = *index_;
    const auto [white_key, black_key] = o.profile_keys<Fixed>(white, black);
    white_key_row_ = o.white_key_row(white_key);
    black_key_ = black_key;
    const std::uint64_t row = game::low_bits(kCols);
    for (std::size_t r = 0; r < kRows; ++r) {
      white_rows_[r] = r == 0 ? 0 : white >> (r * kCols) & row;
      black_rows_[r] = r == kRows - 1 ? 0 : black >> (r * kCols) & row;
    }
    white_digits_ = 0;
    for (std::size_t r = 1; r < kRows; ++r) {
      const RowDigits& e = o.row_digits<Fixed>(white_rows_[r], 0);
      white_digits_ = white_digits_ * e.white_radix + e.white_rank;
    }
    high_[0] = 0;
    product_[0] = 1;
    for (std::size_t r = 0; r + 3 <= kRows; ++r) {  // H_s, P_s for s = 0..R-3
      const RowDigits& e = digits(r, black_rows_[r]);
      high_[r + 1] = high_[r] * e.black_radix + e.black_rank;
      product_[r + 1] = product_[r] * e.black_radix;
    }
    low_[kRows - 1] = 0;
    suffix_[kRows - 1] = 1;
    for (std::size_t r = kRows - 2; r >= 2; --r) {  // L_t, S_t for t = 2..R-1
      const RowDigits& e = digits(r, black_rows_[r]);
      low_[r] = e.black_rank * suffix_[r + 1] + low_[r + 1];
      suffix_[r] = e.black_radix * suffix_[r + 1];
    }
  }

  // The index of (W, B'), B' = B with the pawn of row s in column bit
  // `column` (1 << c) stepped to row s + 1. Requires that pawn, the square
  // above it empty, s + 1 <= R-2.
  [[gnu::always_inline]] std::uint64_t rank_step(int s, std::uint64_t column) const {
    const Index& o = *index_;
    const auto us = static_cast<std::size_t>(s);
    const RowDigits& from = digits(us, black_rows_[us] & ~column);
    const RowDigits& to = digits(us + 1, black_rows_[us + 1] | column);
    const Index::SliceStart& slice =
        o.slice_of_keys(white_key_row_, black_key_ + o.black_key_step(s));
    const std::uint64_t middle =
        (high_[us] * from.black_radix + from.black_rank) * to.black_radix + to.black_rank;
    const std::uint64_t lane_size =
        product_[us] * from.black_radix * to.black_radix * suffix_[us + 2];
    return slice.first + white_digits_ * lane_size + middle * suffix_[us + 2] + low_[us + 2];
  }

 private:
  const RowDigits& digits(std::size_t r, std::uint64_t black_row) const {
    return index_->row_digits<Fixed>(white_rows_[r], black_row);
  }

  const Index* index_;
  std::uint32_t white_key_row_ = 0, black_key_ = 0;
  std::uint64_t white_digits_ = 0;
  std::array<std::uint64_t, kMaxSide> white_rows_{}, black_rows_{};
  std::array<std::uint64_t, kMaxSide> high_{}, product_{}, low_{}, suffix_{};
};

}  // namespace pawntb::generator_detail
