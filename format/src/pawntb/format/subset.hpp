// The subset maths of the index (index.hpp): binomials, the colex rank of a
// subset and its inverse, and the colex successor, as functions and as the
// tables that the index and its walks (walk.hpp) look rows up in.
//
// SUBSET RANK (combinatorial number system, colex order). A k-subset
// {s_1 < s_2 < ... < s_k} of 0..n-1 has rank
//   rank = C(s_1, 1) + C(s_2, 2) + ... + C(s_k, k),      0 <= rank < C(n, k).
// Unranking is greedy from the top: s_k is the largest s with C(s, k) <= rank,
// subtract, repeat with k-1. Colex order is the numeric order of the
// bitmasks, so the next subset is the next larger bitmask with as many bits
// (next_subset).
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "pawntb/game/bitboard.hpp"
#include "pawntb/position.hpp"

namespace pawntb::format {

using game::low_bits;

inline constexpr int kMaxPawns = kMaxSide;  // K <= cols <= 8

// C(n, k) for 0 <= n <= 64 and 0 <= k <= 8, zero when k > n.
// The largest entry, C(64, 8) = 4,426,165,368, fits in 64 bits.
struct BinomialTable {
  std::array<std::array<std::uint64_t, kMaxPawns + 1>, kMaxSquares + 1> c{};
  constexpr BinomialTable() {
    for (int n = 0; n <= kMaxSquares; ++n) {
      c[n][0] = 1;
      for (int k = 1; k <= kMaxPawns; ++k) c[n][k] = n == 0 ? 0 : c[n - 1][k - 1] + c[n - 1][k];
    }
  }
};
inline constexpr BinomialTable kBinomial{};
constexpr std::uint64_t binomial(int n, int k) {
  return kBinomial.c[n][k];
}
static_assert(binomial(4, 2) == 6 && binomial(3, 5) == 0);
static_assert(binomial(64, 8) == 4426165368ULL);

// The colex rank, a byte at a time: for the byte at bit 8j holding x, with
// `below` members of the set in lower bytes,
//   kByteRank.part[j][below][x] = sum over the t-th member p of x (t = 1, 2, ...)
//                                 of C(8j + p, below + t).
// Summing the parts of all bytes gives the rank; sets here hold <= 8 members.
struct ByteRankTable {
  std::uint64_t part[8][kMaxPawns + 1][256]{};
  constexpr ByteRankTable() {
    for (int j = 0; j < 8; ++j) {
      for (int below = 0; below <= kMaxPawns; ++below) {
        for (int x = 0; x < 256; ++x) {
          std::uint64_t sum = 0;
          int t = 0;
          for (int p = 0; p < 8 && below + t < kMaxPawns; ++p) {
            if (x >> p & 1) sum += binomial(8 * j + p, below + ++t);
          }
          part[j][below][x] = sum;
        }
      }
    }
  }
};
inline constexpr ByteRankTable kByteRank{};

// Colex rank of the subset `set` (bit i = element i, at most 8 members) of
// the first 8 * bytes elements (bytes 1..8),
// 0 <= result < C(n, |set|): C(s_1, 1) + C(s_2, 2) + ... + C(s_k, k).
constexpr std::uint64_t subset_rank(std::uint64_t set, int bytes) {
  std::uint64_t rank = 0;
  int below = 0;
  for (int j = 0; j < bytes; ++j, set >>= 8) {
    const auto byte = static_cast<std::uint8_t>(set);
    rank += kByteRank.part[j][below][byte];
    below += std::popcount(byte);
  }
  return rank;
}
constexpr std::uint64_t subset_rank(std::uint64_t set) {
  return subset_rank(set, static_cast<int>((std::bit_width(set) + 7) / 8));
}
// The rank of a subset of one row (0..7): one lookup.
constexpr std::uint64_t row_subset_rank(std::uint64_t row) {
  return kByteRank.part[0][0][row];
}

// Inverse of subset_rank over the k-subsets of 0..n-1.
constexpr std::uint64_t subset_unrank(std::uint64_t rank, int k, int n) {
  std::uint64_t set = 0;
  int s = n - 1;
  for (int i = k; i >= 1; --i) {
    while (binomial(s, i) > rank) --s;
    rank -= binomial(s, i);
    set |= 1ULL << s;
    --s;
  }
  return set;
}

static_assert(subset_rank(0b1101) == 2);  // {0,2,3}: C(0,1)+C(2,2)+C(3,3)
static_assert(subset_unrank(2, 3, 4) == 0b1101);

// The next k-subset in colex order, which is numeric order of the bitmasks
// (Gosper's hack): the next larger integer with the same popcount.
//   Example: next_subset(0b0111) == 0b1011, next_subset(0b1100) == 0b10001.
constexpr std::uint64_t next_subset(std::uint64_t set) {
  const std::uint64_t low = set & -set;    // lowest set bit
  const std::uint64_t ripple = set + low;  // carries the lowest run up
  // Refill the run's rest at the bottom; dividing by low = 2^ctz(set) is a
  // shift by ctz(set).
  return ripple | (((set ^ ripple) >> 2) >> std::countr_zero(set));
}
static_assert(next_subset(0b0111) == 0b1011 && next_subset(0b1100) == 0b10001);
static_assert(subset_rank(next_subset(0b1101)) == subset_rank(0b1101) + 1);

// Moves `set`, a subset of 0..n-1, to the next one with as many members in
// colex order; false, leaving it alone, if it was the last (the empty set is
// the only one of size 0).
constexpr bool advance_subset(std::uint64_t& set, int n) {
  if (!set) return false;
  const std::uint64_t next = next_subset(set);
  if (next >> n) return false;
  set = next;
  return true;
}

// advance_subset for the subsets of one row (n <= 8 squares) as a table, for
// the odometers that walk rows: kNextRowSubset.of[n][x] = next | carry << 8,
// next being the subset after x with as many members, or, with carry set,
// the first one (the lowest squares) when x was the last.
//   Example: of[4][0b1010] = 0b1100; of[4][0b1100] = 0b0011 | 0x100.
struct NextRowSubsetTable {
  std::uint16_t of[kMaxSide + 1][256]{};
  constexpr NextRowSubsetTable() {
    for (int n = 0; n <= kMaxSide; ++n) {
      for (std::uint64_t x = 0; x < (std::uint64_t{1} << n); ++x) {
        std::uint64_t next = x;
        of[n][x] = advance_subset(next, n)
                       ? static_cast<std::uint16_t>(next)
                       : static_cast<std::uint16_t>(low_bits(std::popcount(x)) | 0x100);
      }
    }
  }
};
inline constexpr NextRowSubsetTable kNextRowSubset{};
static_assert(kNextRowSubset.of[4][0b1010] == 0b1100 &&
              kNextRowSubset.of[4][0b1100] == (0b0011 | 0x100) && kNextRowSubset.of[3][0] == 0x100);

// Moves `set`, a subset of a row's n squares, to the next one in colex
// order, or back to the first after the last: then returns true (a carry).
[[gnu::always_inline]] constexpr bool advance_row_subset(std::uint64_t& set, int n) {
  const std::uint16_t next = kNextRowSubset.of[n][set];
  set = next & 0xFF;
  return next >> 8;
}

}  // namespace pawntb::format
