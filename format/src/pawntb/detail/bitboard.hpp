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

// The squares of file (column) c: bit c of every row.
constexpr std::uint64_t file_mask(Geometry g, int c) {
  std::uint64_t m = 0;
  for (int r = 0; r < g.rows; ++r) m |= 1ULL << (r * g.cols + c);
  return m;
}

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

// Left-right mirror: file c -> cols - 1 - c in every row.
constexpr std::uint64_t mirror_files(Geometry g, std::uint64_t b) {
  std::uint64_t out = 0;
  for (int c = 0; c < g.cols; ++c) {
    const int shift = g.cols - 1 - 2 * c;  // distance from file c to its mirror
    const std::uint64_t file = b & file_mask(g, c);
    out |= shift >= 0 ? file << shift : file >> -shift;
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
