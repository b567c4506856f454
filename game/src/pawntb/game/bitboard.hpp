// Bitboard helpers shared by the index, the rules, the generator and the probe.
// Square s = row * cols + col; row 0 is the top row (white's goal).
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <utility>

#include "pawntb/position.hpp"

namespace pawntb::game {

// The pawns of a position as two bitboards.
struct Pawns {
  std::uint64_t white;
  std::uint64_t black;
};

// All squares of a board with n squares: the low n bits (n = 64 gives ~0).
constexpr std::uint64_t low_bits(int n) {
  return n >= 64 ? ~0ULL : (1ULL << n) - 1;
}

constexpr std::uint64_t board_mask(Geometry g) {
  return low_bits(g.squares());
}

// The squares of row r: cols consecutive bits starting at r * cols.
constexpr std::uint64_t row_mask(Geometry g, int r) {
  return low_bits(g.cols) << (r * g.cols);
}

// File a (column 0): bit 0 of every row. The sum of 2^(r*cols) for r < rows is
// a geometric series, (2^(rows*cols) - 1) / (2^cols - 1); tabulated so that
// the hot paths do not divide.
struct FirstFileTable {
  std::uint64_t mask[kMaxSide + 1][kMaxSide + 1]{};  // [rows][cols]
  constexpr FirstFileTable() {
    for (int r = 1; r <= kMaxSide; ++r) {
      for (int c = 1; c <= kMaxSide; ++c) {
        if (r * c <= kMaxSquares) mask[r][c] = low_bits(r * c) / low_bits(c);
      }
    }
  }
};
inline constexpr FirstFileTable kFirstFile{};
constexpr std::uint64_t first_file(Geometry g) {
  return kFirstFile.mask[g.rows][g.cols];
}
static_assert(first_file(Geometry{4, 4}) == 0x1111 &&
              first_file(Geometry{8, 8}) == 0x0101010101010101);

// The squares of file (column) c.
constexpr std::uint64_t file_mask(Geometry g, int c) {
  return first_file(g) << c;
}

constexpr std::uint64_t white_goal(Geometry g) {
  return row_mask(g, 0);
}
constexpr std::uint64_t black_goal(Geometry g) {
  return row_mask(g, g.rows - 1);
}

// Targets of white pawns `w` (moving up = shifting right by cols):
//   straight: w >> cols; up-left: (w minus file a) >> (cols + 1);
//   up-right: (w minus the last file) >> (cols - 1).
constexpr std::uint64_t white_pushes(Geometry g, std::uint64_t w) {
  return w >> g.cols;
}
constexpr std::uint64_t white_left_captures(Geometry g, std::uint64_t w) {
  return (w & ~file_mask(g, 0)) >> (g.cols + 1);
}
constexpr std::uint64_t white_right_captures(Geometry g, std::uint64_t w) {
  return (w & ~file_mask(g, g.cols - 1)) >> (g.cols - 1);
}

// Colour flip: turn the board upside down (row r -> rows - 1 - r) keeping
// files. Used with a colour swap it maps "black to move" onto "white to move".
// flip_rows and mirror_files are forced inline: the solver calls them per
// position with g a constant, where they fold into a few shifts (out of line,
// mirror_files was 4 % of a 6x5 run: docs/benchmarks.md).
[[gnu::always_inline]] constexpr std::uint64_t flip_rows(Geometry g, std::uint64_t b) {
  std::uint64_t out = 0;
  for (int r = 0; r < g.rows; ++r) {
    const std::uint64_t row = (b >> (r * g.cols)) & low_bits(g.cols);
    out |= row << ((g.rows - 1 - r) * g.cols);
  }
  return out;
}

// Left-right mirror: file c -> cols - 1 - c in every row. Files c and
// cols - 1 - c trade places by shifting each across the gap between them,
// d = cols - 1 - 2c, for c < cols / 2; an odd board's middle file stays.
[[gnu::always_inline]] constexpr std::uint64_t mirror_files(Geometry g, std::uint64_t b) {
  const std::uint64_t file_a = first_file(g);
  std::uint64_t out = g.cols % 2 ? b & (file_a << (g.cols / 2)) : 0;
  for (int c = 0; c < g.cols / 2; ++c) {
    const int d = g.cols - 1 - 2 * c;
    out |= ((b >> c & file_a) << (c + d)) | ((b >> (c + d) & file_a) << c);
  }
  return out;
}

static_assert(flip_rows(Geometry{4, 4}, 0x000FULL) == 0xF000ULL);
static_assert(mirror_files(Geometry{4, 4}, 0x0001ULL) == 0x0008ULL);
static_assert(mirror_files(Geometry{3, 5}, 0b00011ULL) == 0b11000ULL);

// Bytes that hold a board's squares, ceil(rows * cols / 8): 2..8.
constexpr int board_bytes(Geometry g) {
  return (g.squares() + 7) / 8;
}

// A geometry as a type, for code compiled once per board size so that every
// shift and mask is a constant. Every valid geometry has a number
// 0..kGeometryCount-1 (geometry_number) and back (FixedGeometryOf).
template <int Rows, int Cols>
struct FixedGeometry {
  static constexpr Geometry value{Rows, Cols};
  static_assert(value.valid());
};
inline constexpr int kSideCount = kMaxSide - kMinSide + 1;      // 6 sizes a side
inline constexpr int kGeometryCount = kSideCount * kSideCount;  // 36: rows * cols <= 64 always
static_assert(Geometry{kMaxSide, kMaxSide}.valid());
// Requires g.valid().
constexpr int geometry_number(Geometry g) {
  return (g.rows - kMinSide) * kSideCount + (g.cols - kMinSide);
}
template <int Number>
using FixedGeometryOf =
    FixedGeometry<kMinSide + Number / kSideCount, kMinSide + Number % kSideCount>;
static_assert(FixedGeometryOf<geometry_number(Geometry{4, 5})>::value == Geometry{4, 5});

// An array with f(FixedGeometryOf<n>{}) at [n] for every geometry number n,
// typically pointers to functions compiled per geometry.
template <class F>
constexpr auto per_geometry(F f) {
  return [&]<int... N>(std::integer_sequence<int, N...>) {
    return std::array{f(FixedGeometryOf<N>{})...};
  }
  (std::make_integer_sequence<int, kGeometryCount>());
}

// flip_rows and mirror_files by table lookup, a byte of squares at a time:
// both move each square on its own, so the image of a board is the OR of the
// images of its bytes, flip_[j][x] = flip_rows(g, x << 8j) (and likewise
// mirror_). For probes: 2 lookups per image on 4x4, 4 on 5x5. 32 KiB.
class BoardSymmetry {
 public:
  constexpr explicit BoardSymmetry(Geometry g) : bytes_(board_bytes(g)) {
    for (int j = 0; j < bytes_; ++j) {
      for (int x = 0; x < 256; ++x) {
        const std::uint64_t b =
            (std::uint64_t{static_cast<unsigned>(x)} << (8 * j)) & board_mask(g);
        flip_[j][x] = flip_rows(g, b);
        mirror_[j][x] = mirror_files(g, b);
      }
    }
  }
  // Equals flip_rows(g, b) for b on the board.
  [[gnu::always_inline]] constexpr std::uint64_t flip(std::uint64_t b) const {
    return image(flip_, b);
  }
  // Equals mirror_files(g, b) for b on the board.
  [[gnu::always_inline]] constexpr std::uint64_t mirror(std::uint64_t b) const {
    return image(mirror_, b);
  }
  // The same for a board of Bytes = board_bytes(g) bytes known at compile
  // time: Bytes lookups, no branch.
  template <int Bytes>
  [[gnu::always_inline]] constexpr std::uint64_t flip(std::uint64_t b) const {
    return image<Bytes>(flip_, b);
  }
  template <int Bytes>
  [[gnu::always_inline]] constexpr std::uint64_t mirror(std::uint64_t b) const {
    return image<Bytes>(mirror_, b);
  }

 private:
  template <int Bytes>
  [[gnu::always_inline]] static constexpr std::uint64_t image(const std::uint64_t (&table)[8][256],
                                                              std::uint64_t b) {
    std::uint64_t out = 0;
    for (int j = 0; j < Bytes; ++j) out |= table[j][b >> (8 * j) & 0xFF];
    return out;
  }
  [[gnu::always_inline]] constexpr std::uint64_t image(const std::uint64_t (&table)[8][256],
                                                       std::uint64_t b) const {
    // Unrolled for the common sizes (a predictable switch): 9..16 squares
    // (3x3..4x4) and 17..32 (up to 5x6 and 4x8).
    if (bytes_ <= 2) return image<2>(table, b);
    if (bytes_ <= 4) return image<4>(table, b);
    return image<8>(table, b);
  }
  int bytes_;  // 1..8: bytes holding the board's squares
  std::uint64_t flip_[8][256]{};
  std::uint64_t mirror_[8][256]{};
};

// Per-byte PEXT and PDEP: for a mask byte m and a byte x,
//   gather[m][x]  = the bits of x under m, packed into the low bits;
//   scatter[m][x] = the low popcount(m) bits of x, spread onto the bits of m.
struct ByteGatherScatter {
  std::uint8_t gather[256][256]{};
  std::uint8_t scatter[256][256]{};
  // Built from the mask without its lowest bit b (m' = m & (m - 1), already
  // done): bit b of x becomes bit 0 of the gather and the rest moves up one;
  // bit 0 of x lands on square b of the scatter and the rest spreads over m'.
  constexpr ByteGatherScatter() {
    for (int m = 1; m < 256; ++m) {
      const int b = std::countr_zero(static_cast<unsigned>(m));
      const int rest = m & (m - 1);
      for (int x = 0; x < 256; ++x) {
        gather[m][x] = static_cast<std::uint8_t>((x >> b & 1) | (gather[rest][x] << 1));
        scatter[m][x] = static_cast<std::uint8_t>(((x & 1) << b) | scatter[rest][x >> 1]);
      }
    }
  }
};
inline constexpr ByteGatherScatter kByteGatherScatter{};

// Software PEXT, a byte at a time: gathers the bits of x that lie under
// `mask` into the low bits, keeping their order. Equals _pext_u64(x, mask).
//   Example: squeeze(0b1010, 0b1110) == 0b101.
// `bytes` (1..8) bytes of the mask are looked at; by default all up to its
// highest set bit.
constexpr std::uint64_t squeeze(std::uint64_t x, std::uint64_t mask, int bytes) {
  std::uint64_t out = 0;
  int filled = 0;
  for (int j = 0; j < bytes; ++j, mask >>= 8, x >>= 8) {
    const auto m = static_cast<std::uint8_t>(mask);
    out |= std::uint64_t{kByteGatherScatter.gather[m][static_cast<std::uint8_t>(x)]} << filled;
    filled += std::popcount(m);
  }
  return out;
}
constexpr std::uint64_t squeeze(std::uint64_t x, std::uint64_t mask) {
  return squeeze(x, mask, static_cast<int>((std::bit_width(mask) + 7) / 8));
}

// Software PDEP, the inverse of squeeze: scatters the low bits of x onto the
// set bits of `mask`, lowest first. Equals _pdep_u64(x, mask).
//   Example: unsqueeze(0b101, 0b1110) == 0b1010.
constexpr std::uint64_t unsqueeze(std::uint64_t x, std::uint64_t mask) {
  std::uint64_t out = 0;
  for (int shift = 0; mask; mask >>= 8, shift += 8) {
    const auto m = static_cast<std::uint8_t>(mask);
    out |= std::uint64_t{kByteGatherScatter.scatter[m][static_cast<std::uint8_t>(x)]} << shift;
    x >>= std::popcount(m);
  }
  return out;
}

static_assert(squeeze(0b1010, 0b1110) == 0b101);
static_assert(unsqueeze(0b101, 0b1110) == 0b1010);

}  // namespace pawntb::game
