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
// SUBSET RANK: colex, subset.hpp.
//
// POSITION RANK. With W_r the white pawns of row r and B'_r the black pawns of
// row r squeezed onto the squares W_r leaves free, the digits are, most
// significant first, rank(W_1), ..., rank(W_(R-1)), rank(B'_0), ...,
// rank(B'_(R-2)), with radices C(C, w_r) and C(C - w_r, b_r):
//   index = first(slice) + mixed-radix value of the digits.
// White's digits come first so that a LANE, the entries of a slice sharing
// W, is contiguous (the mirror rule of stored.hpp depends on W), and black's
// row 0 next so that a RUN, the entries sharing W and B_0, is contiguous too:
// a win in one depends on nothing else. A lane is C(C, b_0) runs, one per
// B'_0 in colex order (walk.hpp walks lanes and runs).
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

#include "pawntb/format/subset.hpp"
#include "pawntb/game/bitboard.hpp"
#include "pawntb/position.hpp"

namespace pawntb::format {

using game::black_goal;
using game::board_bytes;
using game::board_mask;
using game::low_bits;
using game::Pawns;
using game::white_goal;

class Index {
 public:
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
    std::uint64_t run_size = 0;   // entries of a run: the radices of black's rows 1..R-2
    std::uint64_t lane_size = 0;  // entries of a lane: the radices of black's rows
    std::array<std::uint8_t, kMaxSide> white{}, black{};  // pawns per row 0..R-1
    std::uint16_t white_profile = 0, black_profile = 0;   // the profiles' numbers
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
  // The number of the slice that holds entry i; requires i < size().
  std::size_t slice_of(std::uint64_t i) const {
    return static_cast<std::size_t>(
        std::upper_bound(slice_firsts_.begin(), slice_firsts_.end(), i) - slice_firsts_.begin() -
        1);
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
    return slice_of_keys(white_key_row(white_key), black_key);
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

  // The index of a position; requires contains(white, black).
  std::uint64_t rank(std::uint64_t white, std::uint64_t black) const {
    return rank_with(white, black);
  }

  // The position with index `index`; requires index < size().
  Pawns unrank(std::uint64_t index) const;

  // The parts of a rank, for rankers that keep some of them from one
  // position to the next (the generator's StepRanker).
  //
  // The white and black profile keys of a position (PROFILE KEYS below),
  // with the geometry fixed as in slice_with. Requires contains(white,
  // black).
  template <Geometry Fixed = Geometry{0, 0}>
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

  // How much the black key grows when a black pawn steps from row r to row
  // r + 1, 0 <= r <= R-3: (K+1)^(r+1) - (K+1)^r.
  std::uint32_t black_key_step(int r) const {
    const auto ur = static_cast<std::size_t>(r);
    return static_cast<std::uint32_t>(profile_weight_[ur + 1] - profile_weight_[ur]);
  }
  // The slice of a white and a black key, the white one first turned into
  // its row of the slice table, which a ranker can keep for other black keys.
  std::uint32_t white_key_row(std::uint32_t white_key) const { return profile_of_key_[white_key]; }
  const SliceStart& slice_of_keys(std::uint32_t white_row, std::uint32_t black_key) const {
    return slice_start_[std::size_t{white_row} + profile_of_key_[black_key]];
  }

  // A row's digits and radices, the same for every row: for a row holding
  // white pawns w and black pawns b (row-local bits), row_digits(w, b) holds
  // the rank of w, its radix C(C, |w|), the rank of b squeezed onto the
  // squares w leaves free, and its radix C(C - |w|, |b|), each a byte
  // (C(8, 4) = 70 is the largest), loaded without shifts. 4^cols entries:
  // 1 KiB for 4x4, 256 KiB for 8 columns. Fixed as in slice_with.
  struct RowDigits {
    std::uint8_t white_rank, white_radix, black_rank, black_radix;
  };
  static_assert(sizeof(RowDigits) == 4);
  template <Geometry Fixed = Geometry{0, 0}>
  [[gnu::always_inline]] const RowDigits& row_digits(std::uint64_t white_row,
                                                     std::uint64_t black_row) const {
    const int cols = Fixed.valid() ? Fixed.cols : geometry_.cols;
    return row_digits_[static_cast<std::size_t>(white_row << cols | black_row)];
  }

 private:
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
  std::vector<RowDigits> row_digits_;
  std::vector<SliceStart> slice_start_;      // [white profile * profiles_ + black profile]
  std::vector<Slice> slices_;                // in index order
  std::vector<std::uint64_t> slice_firsts_;  // slices_[s].first, for the binary search
  std::vector<Tier> tiers_;                  // in index order
  std::vector<std::uint64_t> tier_firsts_;   // tiers_[t].first
};

// A position as row subsets, rows 0..R-1 (row-local bits): white's, and
// black's squeezed onto the squares white leaves free (POSITION RANK). The
// walks (walk.hpp) keep a position so.
using RowSubsets = std::array<std::uint64_t, kMaxSide>;

// The row subsets of entry `local` of slice `s` (local counted from the
// slice's first entry; local < s.size).
void unrank_in_slice(Geometry g, const Index::Slice& s, std::uint64_t local, RowSubsets& white_rows,
                     RowSubsets& black_rows);

// The boards of row subsets.
Pawns boards_of(Geometry g, const RowSubsets& white_rows, const RowSubsets& black_rows);

}  // namespace pawntb::format
