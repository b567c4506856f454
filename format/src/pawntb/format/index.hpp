// The tiered index: a bijection between the table's positions and the
// integers 0..size()-1, cut into tiers that can be solved one at a time.
// Reader and writer share this one copy.
//
// DOMAIN. The table stores only WHITE-TO-MOVE positions that are not terminal
// by rule. Three exact reductions lead there:
//   1. Colour flip. Black to move in (W, B) is white to move in
//      (flip_rows(B), flip_rows(W)) with the same value, so black-to-move
//      positions are answered from white-to-move entries.
//   2. A white pawn on row 0 (white's goal) with white to move is invalid, and
//      a black pawn on row R-1 means white has already lost: neither is stored.
//      So W lies in rows 1..R-1 and B in rows 0..R-2.
//   3. White with no pawns has lost: 1 <= |W| <= K, 0 <= |B| <= K.
//
// TIERS. A pawn's advancement is the rows it has moved from its home row:
// R-1-r for a white pawn on row r, r for a black one. The tier of a position
// is (w, b, sw, sb): the pawn counts and the advancement sums of white and
// black. A white move advances one pawn one row and may remove a black pawn,
// and its successor, seen from black (the colour flip), is white to move in
//   (b, w, sb, sw + 1)         after a step,
//   (b - 1, w, sb - x, sw + 1) after capturing the black pawn on row x
//                              (advancement x), 1 <= x <= R-2,
// or terminal, with no entry: a move onto row 0 (x = 0) wins, and so does
// any move when b = 0. So every successor has fewer pawns, or as many and a
// larger total advancement sw + sb: no tier reaches itself, and the TIER
// ORDER
//   fewer pawns (w + b) first; then larger sw + sb; then smaller w; then
//   smaller sw
// puts every tier after all the tiers its positions move to. The index lists
// the tiers in that order, so solving in index order needs nothing unsolved,
// and a tier needs in memory only the tiers it moves to (its children,
// generator/src/tier_solver.hpp). Tested exhaustively on small boards
// (format_test.cpp, EveryMoveGoesToAnEarlierTier).
//   Counts with K = cols (FORMAT.md 6.3 has the whole table): entries, tiers,
//   the largest tier, and the largest tier plus its children (the most a
//   tiered run holds):
//     3x3  1,028              75      54               108
//     4x4  281,328            580     6,208            17,312
//     5x5  182,544,682        2,540   2,249,525        7,123,025
//     6x5  2,050,443,406      4,280   18,925,125       59,926,131
//     5x6  11,228,256,591     4,818   114,204,456      358,082,380
//     6x6  214,648,869,424    8,178   1,670,423,076    5,243,870,448
//     7x6  2,372,071,596,756  12,420  14,157,928,926   44,606,816,156
//
// SLICES. Within a tier, positions are grouped by their row profile: the
// number of white pawns on each of rows 1..R-1 and of black pawns on each of
// rows 0..R-2. A profile (c_1, ..., c_n), n = R-1 counts of 0..C with sum
// <= K, has a number, its rank in lexicographic order (c_1 most
// significant): with P(j, s) the number of profiles of j counts with sum <= s,
//   number = sum over i = 1..n of sum over x < c_i of P(n-i, K - c_1 - ... - c_(i-1) - x).
// A slice is a pair (white profile, black profile) that fits on the board
// (w_r + b_r <= C on every row). Its positions are independent row by row: row
// r holds C(C, w_r) white subsets and, for each, C(C - w_r, b_r) black subsets
// of the squares the white pawns leave free (squeezed together, software
// PEXT). Slices follow the tier order, and within a tier increasing (white
// profile number, black profile number).
//
// SUBSET RANK (combinatorial number system, colex order). A k-subset
// {s_1 < s_2 < ... < s_k} of 0..n-1 has rank
//   rank = C(s_1, 1) + C(s_2, 2) + ... + C(s_k, k),      0 <= rank < C(n, k).
// Unranking is greedy from the top: s_k is the largest s with C(s, k) <= rank,
// subtract, repeat with k-1.
//
// POSITION RANK. With W_r the white pawns of row r and B'_r the black pawns of
// row r squeezed onto the squares W_r leaves free, the digits are, most
// significant first, rank(W_1), ..., rank(W_(R-1)), rank(B'_0), ...,
// rank(B'_(R-2)), with radices C(C, w_r) and C(C - w_r, b_r):
//   index = first(slice) + mixed-radix value of the digits.
// White's digits come first so that entries sharing W are contiguous (the
// mirror rule of stored.hpp depends on W), and black's row 0 next so that a
// RUN, the entries sharing W and B_0, is contiguous too: a win in one depends
// on nothing else.
//
// WORKED EXAMPLE (4x4, K = 4): ".ppp/4/.PPP/4 w", W = 0x0E00, B = 0x000E.
//   White profile (rows 1, 2, 3) = (0, 3, 0), black (rows 0, 1, 2) = (3, 0, 0):
//   tier (3, 3, 3, 0), tier number 364 of 580 (entries 100,477..100,748).
//   Profile numbers: white P(1,4)+P(1,3)+P(1,2) = 5+4+3 = 12, black
//   P(2,4)+P(2,3)+P(2,2) = 15+10+6 = 31.
//   Digits: W_1 = {} -> 0; W_2 = {1,2,3} -> C(1,1)+C(2,2)+C(3,3) = 3 of C(4,3) = 4;
//   W_3 = {} -> 0; B'_0 = {1,2,3} -> 3 of 4; B'_1, B'_2 = {} -> 0.
//   White digits 3, black digits 3, black size 4: 3*4 + 3 = 15.
//   first(slice) = 100,477 (the tier's first slice), so index = 100,492.
//   (This position is a mirror image, so its entry is filler: the reader
//   looks up "ppp./4/PPP./4 w", all digits 0, index 100,477, instead; see
//   values.hpp.) Pinned by Index.WorkedExampleOfFormatMd (format_test.cpp).
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "pawntb/game/bitboard.hpp"
#include "pawntb/position.hpp"

namespace pawntb::format {

using game::black_goal;
using game::board_bytes;
using game::board_mask;
using game::low_bits;
using game::Pawns;
using game::white_goal;

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

class Index {
  struct RowDigits;  // below

 public:
  class Cursor;
  // A tier: the positions with w white and b black pawns whose advancement
  // sums are sw and sb (TIERS above), entries [first, first + size), made of
  // the slices [first_slice, first_slice + slice_count) (slices()).
  struct Tier {
    int w = 0, b = 0, sw = 0, sb = 0;
    std::uint64_t first = 0, size = 0;
    std::size_t first_slice = 0, slice_count = 0;
  };

  // A slice: a white and a black row profile (SLICES above), entries
  // [first, first + size). The generator's work units and plans read the
  // index through these (generator/src/units.hpp).
  struct Slice {
    std::uint64_t first = 0, size = 0;
    std::uint64_t run_size = 0;    // entries of a run: the radices of black's rows 1..R-2
    std::uint64_t block_size = 0;  // entries of a W-block: the radices of black's rows
    std::array<std::uint8_t, kMaxSide> white{}, black{};  // pawns per row 0..R-1
    std::uint16_t white_profile = 0, black_profile = 0;    // the profiles' numbers
  };

  // Requires g.valid() and 1 <= max_pawns <= g.cols (checked by the callers
  // that build tables; see valid_parameters()). Builds the slice and tier
  // tables: for 6x6 with K = 6, 213,444 slice offsets (1.7 MB).
  Index(Geometry g, int max_pawns);

  static constexpr bool valid_parameters(Geometry g, int max_pawns) {
    return g.valid() && max_pawns >= 1 && max_pawns <= g.cols;
  }

  // Number of positions indexed; meaningless when too_large().
  std::uint64_t size() const { return size_; }
  // True when the domain has more than 2^62 positions, or more row-profile
  // pairs than kMaxProfilePairs: it cannot be indexed.
  bool too_large() const { return too_large_; }
  Geometry geometry() const { return geometry_; }
  int max_pawns() const { return max_pawns_; }

  // The tiers in index order, which is a solving order.
  std::span<const Tier> tiers() const { return tiers_; }
  // The slices in index order: within a tier, by white profile number, then
  // black profile number.
  std::span<const Slice> slices() const { return slices_; }
  std::span<const Slice> slices_of(std::size_t tier) const {
    return std::span(slices_).subspan(tiers_[tier].first_slice, tiers_[tier].slice_count);
  }
  // Bytes of the slice, tier and row tables (their vectors' capacity), for
  // the generator's memory plan (generator/src/memory.hpp).
  std::uint64_t heap_bytes() const;

  // The number of the tier that holds entry i; requires i < size().
  std::size_t tier_of(std::uint64_t i) const {
    return static_cast<std::size_t>(std::upper_bound(tier_firsts_.begin(), tier_firsts_.end(), i) -
                                    tier_firsts_.begin() - 1);
  }

  // Whether white-to-move (white, black) is in the domain: on the board,
  // disjoint, W in rows 1..R-1, B in rows 0..R-2, 1 <= |W| <= K, |B| <= K.
  bool contains(std::uint64_t white, std::uint64_t black) const {
    const Geometry g = geometry_;
    const int w = std::popcount(white), k = std::popcount(black);
    return !(white & black) && !((white | black) & ~board_mask(g)) && !(white & white_goal(g)) &&
           !(black & black_goal(g)) && w >= 1 && w <= max_pawns_ && k <= max_pawns_;
  }

  // Where a slice starts (SLICES above).
  struct SliceStart {
    std::uint64_t first = ~std::uint64_t{0};
  };

  // The slice of a position, from its row profiles, with the geometry fixed
  // at compile time when Fixed is valid (probes: every shift and mask a
  // constant) or taken from geometry() otherwise. A position and its mirror
  // image have the same row profiles, so a caller may look the slice up
  // before it chooses between them. Requires contains(white, black).
  template <Geometry Fixed = Geometry{0, 0}>
  [[gnu::always_inline]] const SliceStart& slice_with(std::uint64_t white,
                                                      std::uint64_t black) const {
    const auto [white_key, black_key] = profile_keys<Fixed>(white, black);
    return slice_start_[std::size_t{profile_of_key_[white_key]} + profile_of_key_[black_key]];
  }

  // The index of a position in its slice = slice_with(white, black). Same
  // template argument. Requires contains(white, black).
  template <Geometry Fixed = Geometry{0, 0}>
  [[gnu::always_inline]] std::uint64_t rank_with(const SliceStart& slice, std::uint64_t white,
                                                 std::uint64_t black) const {
    constexpr bool fixed = Fixed.valid();
    const int rows = fixed ? Fixed.rows : geometry_.rows;
    const int cols = fixed ? Fixed.cols : geometry_.cols;
    const std::uint64_t row = low_bits(cols);
    // One table entry per row (RowDigits); white has no pawn on row 0, black
    // none on row R-1 (contains()). The digits, white's rows 1..R-1 then
    // black's rows 0..R-2, are one mixed-radix number.
    std::array<const RowDigits*, kMaxSide> e{};
    for (int r = 0; r < rows; ++r) {
      const std::uint64_t w = r == 0 ? 0 : white >> (r * cols) & row;
      const std::uint64_t b = r == rows - 1 ? 0 : black >> (r * cols) & row;
      e[static_cast<std::size_t>(r)] = &row_digits_[static_cast<std::size_t>(w << cols | b)];
    }
    std::uint64_t digits = 0;
    for (int r = 1; r < rows; ++r) {
      digits = digits * e[static_cast<std::size_t>(r)]->white_radix +
               e[static_cast<std::size_t>(r)]->white_rank;
    }
    for (int r = 0; r < rows - 1; ++r) {
      digits = digits * e[static_cast<std::size_t>(r)]->black_radix +
               e[static_cast<std::size_t>(r)]->black_rank;
    }
    return slice.first + digits;
  }

  // The index of a position. Requires contains(white, black).
  template <Geometry Fixed = Geometry{0, 0}>
  [[gnu::always_inline]] std::uint64_t rank_with(std::uint64_t white, std::uint64_t black) const {
    return rank_with<Fixed>(slice_with<Fixed>(white, black), white, black);
  }

  // rank_with compiled for one geometry, G = FixedGeometry<rows, cols>
  // (bitboard.hpp) with G::value == geometry().
  template <class G>
  [[gnu::always_inline]] std::uint64_t rank_in(std::uint64_t white, std::uint64_t black) const {
    return rank_with<G::value>(white, black);
  }

  // Ranks the positions one black step away from a base position (W, B):
  // (W, B') with B' = B less the pawn on (row s, column c), plus (s + 1, c).
  // The generator's moves without a capture all keep the successor's W (the
  // mover's opponent, flipped) and step one of its B, so the parts of the
  // rank that a step leaves alone are computed once per base (reset), and a
  // step costs two row lookups and a few products instead of a whole rank.
  //   A step changes black's rows s and s + 1 only, with d_r the black digit
  //   of row r and c_r its radix (POSITION RANK): the black digits split as
  //     D = ((H_s c'_s + d'_s) c'_(s+1) + d'_(s+1)) S_(s+2) + L_(s+2)
  //   with H_s the mixed-radix value of rows 0..s-1, S_t the product of the
  //   radices of rows t..R-2 and L_t the value of those rows (S_(R-1) = 1,
  //   L_(R-1) = 0); the block of black digits is P_s c'_s c'_(s+1) S_(s+2)
  //   with P_s the product of the radices of rows 0..s-1; and
  //     index = first(slice') + (white digits) * block + D.
  //   The black key (PROFILE KEYS) moves by (K+1)^(s+1) - (K+1)^s.
  //   Worked example (4x4, K = 4): W = 0x0E00 (row 2: columns 1..3), B =
  //   0x000E (row 0: columns 1..3), the pawn on (0, 1) steps to (1, 1): B' =
  //   0x002C. White digits 3 (W_2 = {1,2,3}, rank 3 of 4). Row 0 of B' is
  //   {2,3}: rank C(2,1) + C(3,2) = 5, radix C(4,2) = 6; row 1 is {1}
  //   squeezed onto W_1's 4 free squares: rank 1, radix 4; row 2 is empty
  //   beside W_2 (radix C(1,0) = 1): S_2 = 1, L_2 = 0, H_0 = 0, P_0 = 1. D =
  //   (0 * 6 + 5) * 4 + 1 = 21, block = 6 * 4 = 24, index = first(slice') +
  //   3 * 24 + 21 = first(slice') + 93 (StepRankerWorkedExample,
  //   format_test.cpp, checks it against rank()).
  // Fixed must be the index's geometry (every shift a constant).
  template <Geometry Fixed>
  class StepRanker {
    static_assert(Fixed.valid());
    static constexpr std::size_t kRows = static_cast<std::size_t>(Fixed.rows);
    static constexpr int kCols = Fixed.cols;

   public:
    explicit StepRanker(const Index& owner) : owner_(&owner) {}

    // The base (W, B); requires contains(white, black).
    [[gnu::always_inline]] void reset(std::uint64_t white, std::uint64_t black) {
      const Index& o = *owner_;
      const auto [white_key, black_key] = o.profile_keys<Fixed>(white, black);
      white_profile_ = o.profile_of_key_[white_key];
      black_key_ = black_key;
      const std::uint64_t row = low_bits(kCols);
      for (std::size_t r = 0; r < kRows; ++r) {
        white_rows_[r] = r == 0 ? 0 : white >> (r * kCols) & row;
        black_rows_[r] = r == kRows - 1 ? 0 : black >> (r * kCols) & row;
      }
      white_digits_ = 0;
      for (std::size_t r = 1; r < kRows; ++r) {
        const RowDigits& e = o.row_digits_[static_cast<std::size_t>(white_rows_[r] << kCols)];
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
    // `column` (1 << c) stepped to row s + 1. Requires that pawn, the
    // square above it empty, s + 1 <= R-2.
    [[gnu::always_inline]] std::uint64_t rank_step(int s, std::uint64_t column) const {
      const Index& o = *owner_;
      const auto us = static_cast<std::size_t>(s);
      const RowDigits& from = digits(us, black_rows_[us] & ~column);
      const RowDigits& to = digits(us + 1, black_rows_[us + 1] | column);
      const std::uint32_t key = black_key_ + static_cast<std::uint32_t>(o.profile_weight_[us + 1] -
                                                                        o.profile_weight_[us]);
      const SliceStart& slice = o.slice_start_[std::size_t{white_profile_} + o.profile_of_key_[key]];
      const std::uint64_t middle =
          (high_[us] * from.black_radix + from.black_rank) * to.black_radix + to.black_rank;
      const std::uint64_t block =
          product_[us] * from.black_radix * to.black_radix * suffix_[us + 2];
      return slice.first + white_digits_ * block + middle * suffix_[us + 2] + low_[us + 2];
    }

   private:
    const RowDigits& digits(std::size_t r, std::uint64_t black_row) const {
      return owner_->row_digits_[static_cast<std::size_t>(white_rows_[r] << kCols | black_row)];
    }

    const Index* owner_;
    std::uint32_t white_profile_ = 0, black_key_ = 0;
    std::uint64_t white_digits_ = 0;
    std::array<std::uint64_t, kMaxSide> white_rows_{}, black_rows_{};
    std::array<std::uint64_t, kMaxSide> high_{}, product_{}, low_{}, suffix_{};
  };

  // The index of a position; requires contains(white, black).
  std::uint64_t rank(std::uint64_t white, std::uint64_t black) const {
    return rank_with(white, black);
  }

  // The position with index `index`; requires index < size().
  Pawns unrank(std::uint64_t index) const;

  // Walks the W-blocks (the entries sharing a slice and W; POSITION RANK
  // above) in index order, a step costing a few operations on white's rows:
  // for walks that need B only now and then (stored.hpp). A W-block is
  // black_on_row_0 choose C runs of run_size() entries, one per black row 0
  // in colex order.
  class BlockWalk {
   public:
    // At the W-block that holds `index`; requires index < size().
    BlockWalk(const Index& owner, std::uint64_t index);
    std::uint64_t first() const { return first_; }  // its first entry
    std::uint64_t size() const { return slice().block_size; }
    std::uint64_t run_size() const { return slice().run_size; }
    std::uint64_t white() const { return white_; }
    int black_on_row_0() const { return slice().black[0]; }
    int black_off_row_0() const { return black_off_row_0_; }
    // Black's pawns on row r of every entry of the W-block.
    int black_on_row(int r) const { return slice().black[static_cast<std::size_t>(r)]; }

    // Moves to the next W-block; requires one. With Fixed valid (it must be
    // the index's geometry), every shift is a constant.
    template <Geometry Fixed = Geometry{0, 0}>
    [[gnu::always_inline]] void next() {
      constexpr bool fixed = Fixed.valid();
      const int rows = fixed ? Fixed.rows : owner_->geometry_.rows;
      const int cols = fixed ? Fixed.cols : owner_->geometry_.cols;
      first_ += slice().block_size;
      // White's odometer, row R-1 least significant (POSITION RANK).
      for (int r = rows - 1; r >= 1; --r) {
        const auto ur = static_cast<std::size_t>(r);
        const std::uint64_t was = white_rows_[ur];
        const bool carry = advance_row_subset(white_rows_[ur], cols);
        white_ ^= (was ^ white_rows_[ur]) << (r * cols);
        if (!carry) return;
      }
      enter_slice(slice_ + 1);
    }

    // The end of the last W-block with this one's W_1 (white's row 1, its
    // most significant digit, so those W-blocks are consecutive): with d_r
    // the digits of rows 2..R-1 and c_r their radices, the W-blocks after
    // this one are the mixed-radix value of the digits c_r - 1 - d_r. Same
    // template argument as next().
    template <Geometry Fixed = Geometry{0, 0}>
    [[gnu::always_inline]] std::uint64_t row_1_group_end() const {
      constexpr bool fixed = Fixed.valid();
      const int rows = fixed ? Fixed.rows : owner_->geometry_.rows;
      const int cols = fixed ? Fixed.cols : owner_->geometry_.cols;
      std::uint64_t after = 0;
      for (int r = 2; r < rows; ++r) {
        const auto ur = static_cast<std::size_t>(r);
        const std::uint64_t radix = binomial(cols, slice().white[ur]);
        after = after * radix + (radix - 1 - row_subset_rank(white_rows_[ur]));
      }
      return first_ + (after + 1) * slice().block_size;
    }

    // Moves to the first W-block after row_1_group_end(); requires one.
    template <Geometry Fixed = Geometry{0, 0}>
    [[gnu::always_inline]] void next_row_1() {
      constexpr bool fixed = Fixed.valid();
      const int rows = fixed ? Fixed.rows : owner_->geometry_.rows;
      const int cols = fixed ? Fixed.cols : owner_->geometry_.cols;
      first_ = row_1_group_end<Fixed>();
      for (int r = 2; r < rows; ++r) {
        const auto ur = static_cast<std::size_t>(r);
        const std::uint64_t was = white_rows_[ur];
        white_rows_[ur] = low_bits(slice().white[ur]);
        white_ ^= (was ^ white_rows_[ur]) << (r * cols);
      }
      const std::uint64_t was = white_rows_[1];
      const bool carry = advance_row_subset(white_rows_[1], cols);
      white_ ^= (was ^ white_rows_[1]) << cols;
      if (carry) enter_slice(slice_ + 1);
    }

   private:
    const Slice& slice() const { return *slice_; }
    void enter_slice(const Slice* slice);
    const Index* owner_;
    const Slice* slice_ = nullptr;  // into owner_->slices_
    std::uint64_t first_ = 0, white_ = 0;
    std::array<std::uint64_t, kMaxSide> white_rows_{};  // row-local bits
    int black_off_row_0_ = 0;
  };

  // Walks the positions in index order, one step costing a few bit
  // operations instead of an unrank.
  class Cursor {
   public:
    // Starts at `index`; requires index < size().
    Cursor(const Index& owner, std::uint64_t index);
    std::uint64_t index() const { return index_; }
    std::uint64_t white() const { return white_; }
    std::uint64_t black() const { return black_; }
    // The number of black pawns off row 0, the same for the whole run.
    int black_off_row_0() const { return black_off_row_0_; }

    // Moves to index() + 1; requires index() + 1 < size(). With Fixed
    // valid (it must be the index's geometry), every shift is a constant:
    // the step is inlined into the generator's loop, which takes one per
    // entry.
    template <Geometry Fixed = Geometry{0, 0}>
    [[gnu::always_inline]] void next() {
      ++index_;
      carry<Fixed>((Fixed.valid() ? Fixed.rows : owner_->geometry_.rows) - 2);
    }

    // Entries from here to the end of the run (the entries sharing W and
    // B_0; POSITION RANK above), this one included.
    std::uint64_t run_remaining() const;

    // Moves to the first entry after this run; requires that one to exist.
    void next_run();

    // Entries from here to the end of the W-block (the entries sharing the
    // slice and W; POSITION RANK above), this one included: black's digits
    // count the entries of the W-block before this one, row 0's digit
    // counting whole runs.
    std::uint64_t block_remaining() const;

    // Moves to the first entry of the next W-block; requires one.
    void next_block();

   private:
    void enter_slice(std::size_t slice);  // at the slice's first entry
    // Moves the odometer on from black's row `row` (rows below it are at
    // their first subsets already, or are to be reset): black's rows
    // innermost, from row R-2 up (POSITION RANK), then white's
    // (carry_white).
    template <Geometry Fixed = Geometry{0, 0}>
    [[gnu::always_inline]] void carry(int row) {
      constexpr bool fixed = Fixed.valid();
      const int cols = fixed ? Fixed.cols : owner_->geometry_.cols;
      const Slice& s = owner_->slices_[slice_];
      for (int r = row; r >= 0; --r) {
        const auto ur = static_cast<std::size_t>(r);
        // (On a carry the row goes back to its first subset.)
        const bool carried = advance_row_subset(black_rows_[ur], cols - s.white[ur]);
        set_black_row<Fixed>(r);
        if (!carried) {
          run_done_ = r > 0 ? run_done_ + 1 : 0;  // row 0 starts a new run
          return;
        }
      }
      carry_white();
    }
    // The odometer's carry out of black's rows.
    void carry_white();
    // Puts row r's subsets into the boards: black's only, or both.
    template <Geometry Fixed = Geometry{0, 0}>
    [[gnu::always_inline]] void set_black_row(int r) {
      const int cols = Fixed.valid() ? Fixed.cols : owner_->geometry_.cols;
      const auto ur = static_cast<std::size_t>(r);
      const std::uint64_t row = low_bits(cols);
      const std::uint64_t bits =
          game::kByteGatherScatter.scatter[~white_rows_[ur] & row][black_rows_[ur]];
      black_ = (black_ & ~(row << (r * cols))) | bits << (r * cols);
    }
    void set_white_row(int r);

    const Index* owner_;
    std::uint64_t index_ = 0;
    std::size_t slice_ = 0;
    // Per row: white's subset, black's squeezed subset (row-local bits).
    std::array<std::uint64_t, kMaxSide> white_rows_{}, black_rows_{};
    int black_off_row_0_ = 0;
    std::uint64_t run_done_ = 0;  // entries of this run before this one
    std::uint64_t white_ = 0, black_ = 0;
  };

 private:
  friend class Cursor;
  friend class BlockWalk;

  using Counts = std::array<std::uint8_t, kMaxSide>;
  // A slice of the white and black profiles with these numbers: its tier and
  // pawns per row. Nullopt when it does not fit on the board or has no white
  // pawn.
  struct SliceCandidate;
  std::optional<SliceCandidate> candidate(const std::vector<Counts>& profiles, int white,
                                          int black) const;
  // Every slice that fits, as its place in the order (index.cpp).
  std::vector<std::uint64_t> slice_order(const std::vector<Counts>& profiles) const;
  // Lists the slices and tiers in that order; false if the index would pass
  // kMaxSize.
  bool add_slices(const std::vector<Counts>& profiles, const std::vector<std::uint64_t>& order);
  void build_row_tables(const std::vector<Counts>& profiles, std::uint64_t keys);

  // The white and black profile keys of a position (PROFILE KEYS below),
  // with the geometry fixed as in slice_with.
  template <Geometry Fixed>
  [[gnu::always_inline]] std::pair<std::uint32_t, std::uint32_t> profile_keys(
      std::uint64_t white, std::uint64_t black) const {
    constexpr bool fixed = Fixed.valid();
    const int bytes = fixed ? board_bytes(Fixed) : board_bytes(geometry_);
    // A profile's key is linear in the pawns: one table entry per byte of
    // each board.
    std::uint32_t white_key = 0, black_key = 0;
    // (Offsets added, not or-ed, so that they fold into the addressing.)
    for (int j = 0; j < bytes; ++j) {
      const auto at = static_cast<std::size_t>(j) << 8;
      white_key += key_part_[at + (white >> 8 * j & 0xFF)];
      black_key += key_part_[(static_cast<std::size_t>(bytes) << 8) + at + (black >> 8 * j & 0xFF)];
    }
    return {white_key, black_key};
  }

  // Profile pairs beyond this (8 M offsets, 64 MiB) are refused: only boards
  // of 7 or 8 rows with K >= 7 have that many, and none can be solved.
  static constexpr std::uint64_t kMaxProfilePairs = std::uint64_t{1} << 23;
  static constexpr std::uint64_t kMaxSize = std::uint64_t{1} << 62;

  Geometry geometry_;
  int max_pawns_;
  std::uint64_t size_ = 0;
  bool too_large_ = false;
  int profiles_ = 0;  // profiles of one side
  // PROFILE KEYS. A profile's key is sum over i of c_i (K+1)^i, with
  // profile_weight_[i] = (K+1)^i (SLICES above). The key is a sum over the
  // pawns, a pawn on the i-th row of the profile adding (K+1)^i, so it is a
  // sum over the bytes of the board: key_part_[j << 8 | x] is the sum for the
  // white pawns x in byte j (squares 8j..8j+7), key_part_[(bytes + j) << 8 |
  // x] the same for black. The white profile counts rows 1..R-1 and the black
  // one rows 0..R-2, so a white pawn on row r adds (K+1)^(r-1) and a black
  // one (K+1)^r. Black's parts of byte 0 also add (K+1)^(R-1), the number of
  // keys, so that one table maps both sides' keys: profile_of_key_[key] is
  // the white profile's number times profiles_ (its row of slice_start_),
  // profile_of_key_[(K+1)^(R-1) + key] the black profile's number. A slice
  // is then two key sums, two lookups and their sum away.
  //   Example: ".ppp/4/.PPP/4 w" (4x4, K = 4, weights 1, 5, 25): W = 0x0E00
  //   is 0x0E in byte 1, three pawns on row 2: white key 3 * 5 = 15;
  //   B = 0x000E is 0x0E in byte 0, three pawns on row 0: black key
  //   125 + 3.
  std::array<std::uint64_t, kMaxSide> profile_weight_{};
  std::vector<std::uint32_t> profile_of_key_;  // 2 (K+1)^(R-1)
  std::vector<std::uint32_t> key_part_;        // 2 * board_bytes * 256
  // A row's digits and radices, the same for every row: for a row holding
  // white pawns w and black pawns b (row-local bits), row_digits_[w << cols
  // | b] holds the rank of w, its radix C(C, |w|), the rank of b squeezed
  // onto the squares w leaves free, and its radix C(C - |w|, |b|), each a
  // byte (C(8, 4) = 70 is the largest), loaded without shifts. 4^cols
  // entries: 1 KiB for 4x4, 256 KiB for 8 columns.
  struct RowDigits {
    std::uint8_t white_rank, white_radix, black_rank, black_radix;
  };
  static_assert(sizeof(RowDigits) == 4);
  std::vector<RowDigits> row_digits_;
  std::vector<SliceStart> slice_start_;      // [white profile * profiles_ + black profile]
  std::vector<Slice> slices_;                // in index order
  std::vector<std::uint64_t> slice_firsts_;  // slices_[s].first, for the binary search
  std::vector<Tier> tiers_;                  // in index order
  std::vector<std::uint64_t> tier_firsts_;   // tiers_[t].first
};

}  // namespace pawntb::format
