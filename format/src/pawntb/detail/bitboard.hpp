// Bitboard helpers shared by the index, the rules, the generator and the probe.
// Square s = row * cols + col; row 0 is the top row (white's goal).
#pragma once

#include <bit>
#include <cstdint>

#include "pawntb/position.hpp"

namespace pawntb::detail {

// All squares of a board with n squares: the low n bits (n = 64 gives ~0).
constexpr std::uint64_t low_bits(int n) { return n >= 64 ? ~0ULL : (1ULL << n) - 1; }

constexpr std::uint64_t board_mask(Geometry g) { return low_bits(g.squares()); }

// The squares of row r: cols consecutive bits starting at r * cols.
constexpr std::uint64_t row_mask(Geometry g, int r) { return low_bits(g.cols) << (r * g.cols); }

// File a (column 0): bit 0 of every row. The sum of 2^(r*cols) for r < rows is
// a geometric series, (2^(rows*cols) - 1) / (2^cols - 1).
constexpr std::uint64_t first_file(Geometry g) { return board_mask(g) / low_bits(g.cols); }
static_assert(first_file(Geometry{4, 4}) == 0x1111 && first_file(Geometry{8, 8}) == 0x0101010101010101);

// The squares of file (column) c.
constexpr std::uint64_t file_mask(Geometry g, int c) { return first_file(g) << c; }

constexpr std::uint64_t white_goal(Geometry g) { return row_mask(g, 0); }
constexpr std::uint64_t black_goal(Geometry g) { return row_mask(g, g.rows - 1); }

// Targets of white pawns `w` (moving up = shifting right by cols):
//   straight: w >> cols; up-left: (w minus file a) >> (cols + 1);
//   up-right: (w minus the last file) >> (cols - 1).
constexpr std::uint64_t white_pushes(Geometry g, std::uint64_t w) { return w >> g.cols; }
constexpr std::uint64_t white_left_captures(Geometry g, std::uint64_t w) {
  return (w & ~file_mask(g, 0)) >> (g.cols + 1);
}
constexpr std::uint64_t white_right_captures(Geometry g, std::uint64_t w) {
  return (w & ~file_mask(g, g.cols - 1)) >> (g.cols - 1);
}

// Colour flip: turn the board upside down (row r -> rows - 1 - r) keeping
// files. Used with a colour swap it maps "black to move" onto "white to move".
constexpr std::uint64_t flip_rows(Geometry g, std::uint64_t b) {
  std::uint64_t out = 0;
  for (int r = 0; r < g.rows; ++r) {
    const std::uint64_t row = (b >> (r * g.cols)) & low_bits(g.cols);
    out |= row << ((g.rows - 1 - r) * g.cols);
  }
  return out;
}

// The 8-bit reversal of every byte: kReverse8[x] has bit 7-i where x has bit i.
struct Reverse8 {
  std::uint8_t table[256]{};
  constexpr Reverse8() {
    for (int x = 0; x < 256; ++x) {
      for (int i = 0; i < 8; ++i) {
        if (x >> i & 1) table[x] |= static_cast<std::uint8_t>(1 << (7 - i));
      }
    }
  }
};
inline constexpr Reverse8 kReverse8{};

// Left-right mirror: file c -> cols - 1 - c in every row. A row of `cols`
// bits reversed is its 8-bit reversal shifted down by 8 - cols.
constexpr std::uint64_t mirror_files(Geometry g, std::uint64_t b) {
  std::uint64_t out = 0;
  for (int r = 0; r < g.rows; ++r) {
    const auto row = static_cast<std::uint8_t>((b >> (r * g.cols)) & low_bits(g.cols));
    out |= static_cast<std::uint64_t>(kReverse8.table[row] >> (8 - g.cols)) << (r * g.cols);
  }
  return out;
}

static_assert(flip_rows(Geometry{4, 4}, 0x000FULL) == 0xF000ULL);
static_assert(mirror_files(Geometry{4, 4}, 0x0001ULL) == 0x0008ULL);
static_assert(mirror_files(Geometry{3, 5}, 0b00011ULL) == 0b11000ULL);

// Software PEXT: gathers the bits of x that lie under `mask` into the low bits,
// keeping their order. Equals _pext_u64(x, mask).
//   Example: squeeze(0b1010, 0b1110) == 0b101.
constexpr std::uint64_t squeeze(std::uint64_t x, std::uint64_t mask) {
  std::uint64_t out = 0;
  for (std::uint64_t bits = x & mask; bits; bits &= bits - 1) {
    const std::uint64_t below = mask & ((bits & -bits) - 1);  // mask bits under this one
    out |= 1ULL << std::popcount(below);
  }
  return out;
}

// Software PDEP, the inverse of squeeze: scatters the low bits of x onto the
// set bits of `mask`, lowest first. Equals _pdep_u64(x, mask).
//   Example: unsqueeze(0b101, 0b1110) == 0b1010.
constexpr std::uint64_t unsqueeze(std::uint64_t x, std::uint64_t mask) {
  std::uint64_t out = 0;
  for (std::uint64_t m = mask; m && x; m &= m - 1, x >>= 1) {
    if (x & 1) out |= m & -m;
  }
  return out;
}

static_assert(squeeze(0b1010, 0b1110) == 0b101);
static_assert(unsqueeze(0b101, 0b1110) == 0b1010);

}  // namespace pawntb::detail
