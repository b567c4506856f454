// The combinatorial index: a bijection between the table's positions and the
// integers 0..size()-1. Reader and writer share this one copy.
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
// REGIONS. Split the board into the top row T (C squares, only black pawns can
// stand there), the middle M (rows 1..R-2, m = (R-2)*C squares, both colours)
// and the home row H (row R-1, C squares, only white pawns). Then
//   W = W_H u W_M,  B = B_T u B_M,
// and the group key is (a, b, c, d) = (|W_H|, |W_M|, |B_T|, |B_M|) with
// 1 <= a+b <= K and c+d <= K. Within a group the four sets are independent,
// except that B_M avoids W_M; squeezing the m-b free middle squares together
// (software PEXT) makes B_M a plain d-subset of m-b squares.
//
// SUBSET RANK (combinatorial number system, colex order). A k-subset
// {s_1 < s_2 < ... < s_k} of 0..n-1 has rank
//   rank = C(s_1, 1) + C(s_2, 2) + ... + C(s_k, k),      0 <= rank < C(n, k).
// Unranking is greedy from the top: s_k is the largest s with C(s, k) <= rank,
// subtract, repeat with k-1.
//
// POSITION RANK. With r1..r4 the subset ranks of W_H, W_M, B_T, squeeze(B_M):
//   index = offset(a,b,c,d) + ((r1 * C(m,b) + r2) * C(C,c) + r3) * C(m-b,d) + r4
// where offset() sums the sizes C(C,a')C(m,b')C(C,c')C(m-b',d') of all groups
// before (a,b,c,d) in lexicographic order.
//
// WORKED EXAMPLE (4x4, K = 4, m = 8): ".ppp/4/.PPP/4 w".
//   B_T = {1,2,3} (c = 3), W_M = squares 9,10,11 = middle-local {5,6,7} (b = 3),
//   W_H = {} (a = 0), B_M = {} (d = 0).
//   r1 = 0; r2 = C(5,1)+C(6,2)+C(7,3) = 5+15+35 = 55; r3 = C(1,1)+C(2,2)+C(3,3) = 3;
//   r4 = 0.  In-group rank = ((0*C(8,3) + 55)*C(4,3) + 3)*C(5,0) + 0 = 223.
//   offset(0,3,3,0) = 28240, the sizes of the groups before it, (0,1,*,*),
//   (0,2,*,*) and (0,3,0..2,*), so index = 28463; pinned by a static_assert below.
//   (This position is a mirror image, so its entry is filler: the reader
//   looks up "ppp./4/PPP./4 w", index 28376, instead; see values.hpp.)
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <type_traits>

#include "pawntb/detail/bitboard.hpp"
#include "pawntb/position.hpp"

namespace pawntb::detail {

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
// The hot paths pass a byte count fixed by the geometry, so the loop's
// branches are always predicted.
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

class Index {
 public:
  static constexpr int kGroupSide = kMaxPawns + 1;  // each of a, b, c, d is 0..8
  static constexpr int kGroups = kGroupSide * kGroupSide * kGroupSide * kGroupSide;

  // Requires g.valid() and 1 <= max_pawns <= g.cols (checked by the callers
  // that build tables; see valid_parameters()).
  constexpr Index(Geometry g, int max_pawns)
      : geometry_(g),
        max_pawns_(max_pawns),
        middle_(g.valid() ? (g.rows - 2) * g.cols : 0),
        middle_bytes_(g.valid() ? middle_bytes_of(g) : 0),
        home_shift_(g.valid() ? (g.rows - 1) * g.cols : 0),
        middle_mask_(low_bits(middle_)),
        top_mask_(g.valid() ? low_bits(g.cols) : 0) {
    const int m = middle_squares();
    std::uint64_t total = 0;
    for (int key = 0; key < kGroups; ++key) {
      offset_[key] = total;
      const auto [a, b, c, d] = group_counts(key);
      if (a + b < 1 || a + b > max_pawns || c + d > max_pawns || b + d > m) continue;
      // The size of one group, C(C,a) C(m,b) C(C,c) C(m-b,d), with overflow
      // checks so that a board too large to index is reported, not wrapped.
      std::uint64_t size = binomial(g.cols, a);
      const bool wrapped = __builtin_mul_overflow(size, binomial(m, b), &size) ||
                           __builtin_mul_overflow(size, binomial(g.cols, c), &size) ||
                           __builtin_mul_overflow(size, binomial(m - b, d), &size);
      if (wrapped || size > kMaxSize || total + size > kMaxSize) {
        overflow_ = true;
        continue;
      }
      total += size;
    }
    offset_[kGroups] = total;
  }

  static constexpr bool valid_parameters(Geometry g, int max_pawns) {
    return g.valid() && max_pawns >= 1 && max_pawns <= g.cols;
  }

  // Number of positions indexed; meaningless when too_large().
  constexpr std::uint64_t size() const { return offset_[kGroups]; }
  // True when the domain has more than 2^62 positions and cannot be indexed.
  constexpr bool too_large() const { return overflow_; }
  constexpr Geometry geometry() const { return geometry_; }
  constexpr int max_pawns() const { return max_pawns_; }

  // A group: (|W_H|, |W_M|, |B_T|, |B'_M|), each 0..8.
  struct Counts {
    int a, b, c, d;
  };
  // The first group after `group`, in the index's order, that holds
  // positions; requires one to exist.
  constexpr Counts next_group(Counts group) const {
    int key = group_key(group.a, group.b, group.c, group.d);
    do {
      ++key;
    } while (offset_[key + 1] == offset_[key]);
    return group_counts(key);
  }

  // A position's region-local subsets (REGIONS above): W_H, W_M, B_T, and
  // B'_M, black's middle squeezed onto the squares W_M leaves free.
  struct Regions {
    std::uint64_t w_home, w_mid, b_top, b_mid;
  };

  // Whether white-to-move (white, black) is in the domain: on the board,
  // disjoint, W in rows 1..R-1, B in rows 0..R-2, 1 <= |W| <= K, |B| <= K.
  constexpr bool contains(std::uint64_t white, std::uint64_t black) const {
    const Geometry g = geometry_;
    const int w = std::popcount(white), k = std::popcount(black);
    return !(white & black) && !((white | black) & ~board_mask(g)) && !(white & white_goal(g)) &&
           !(black & black_goal(g)) && w >= 1 && w <= max_pawns_ && k <= max_pawns_;
  }

  // Bytes a set of middle-region squares spans, ceil(m / 8): 1..6.
  static constexpr int middle_bytes_of(Geometry g) { return ((g.rows - 2) * g.cols + 7) / 8; }

  // rank() for an index with middle_bytes_of(geometry()) == MiddleBytes, for callers that
  // pick the width once for many ranks; with Fixed = geometry() as well when
  // the caller is compiled per geometry (rank_in), so that every shift and
  // mask is a constant. Defined before rank() so that clang can evaluate it
  // in constant expressions.
  template <int MiddleBytes, Geometry Fixed = Geometry{0, 0}>
  [[gnu::always_inline]] constexpr std::uint64_t rank_with(std::uint64_t white,
                                                           std::uint64_t black) const {
    const int cols = Fixed.valid() ? Fixed.cols : geometry_.cols;
    const int m = Fixed.valid() ? (Fixed.rows - 2) * Fixed.cols : middle_;
    const auto [w_home, w_mid, b_top, b_mid] = regions_with<MiddleBytes, Fixed>(white, black);
    const int a = std::popcount(w_home), b = std::popcount(w_mid);
    const int c = std::popcount(b_top), d = std::popcount(b_mid);
    std::uint64_t r = subset_rank(w_home, 1);
    r = r * binomial(m, b) + subset_rank(w_mid, MiddleBytes);
    r = r * binomial(cols, c) + subset_rank(b_top, 1);
    r = r * binomial(m - b, d) + subset_rank(b_mid, MiddleBytes);
    return offset_[group_key(a, b, c, d)] + r;
  }

  // regions() for rank_with: the same template arguments.
  template <int MiddleBytes, Geometry Fixed = Geometry{0, 0}>
  [[gnu::always_inline]] constexpr Regions regions_with(std::uint64_t white,
                                                        std::uint64_t black) const {
    constexpr bool fixed = Fixed.valid();
    const int cols = fixed ? Fixed.cols : geometry_.cols;
    const int home_shift = fixed ? (Fixed.rows - 1) * Fixed.cols : home_shift_;
    const std::uint64_t middle = fixed ? low_bits((Fixed.rows - 2) * Fixed.cols) : middle_mask_;
    const std::uint64_t top = fixed ? low_bits(cols) : top_mask_;
    const std::uint64_t w_mid = (white >> cols) & middle;
    const std::uint64_t free_mid = middle & ~w_mid;
    return Regions{white >> home_shift,  // one byte: cols <= 8
                   w_mid, black & top, squeeze((black >> cols) & free_mid, free_mid, MiddleBytes)};
  }

  // rank() compiled for one geometry, G = FixedGeometry<rows, cols> (bitboard.hpp)
  // with G::value == geometry().
  template <class G>
  [[gnu::always_inline]] constexpr std::uint64_t rank_in(std::uint64_t white,
                                                         std::uint64_t black) const {
    return rank_with<middle_bytes_of(G::value), G::value>(white, black);
  }

  // Calls f(std::integral_constant<int, N>{}) with N = middle_bytes_of(geometry()), so
  // that f can use a copy of its code unrolled for that width. The switch
  // goes the same way every time for a given index.
  template <class F>
  constexpr decltype(auto) with_middle_bytes(F&& f) const {
    switch (middle_bytes_) {
      case 1:
        return f(std::integral_constant<int, 1>{});
      case 2:
        return f(std::integral_constant<int, 2>{});
      case 3:
        return f(std::integral_constant<int, 3>{});
      case 4:
        return f(std::integral_constant<int, 4>{});
      case 5:
        return f(std::integral_constant<int, 5>{});
      default:
        return f(std::integral_constant<int, 6>{});  // m <= 48
    }
  }

  // The index of a position; requires contains(white, black).
  constexpr std::uint64_t rank(std::uint64_t white, std::uint64_t black) const {
    return with_middle_bytes([&](auto bytes) { return rank_with<bytes>(white, black); });
  }

  // The regions of a position; requires contains(white, black).
  constexpr Regions regions(std::uint64_t white, std::uint64_t black) const {
    return with_middle_bytes([&](auto bytes) { return regions_with<bytes>(white, black); });
  }

  // The position with index `index`; requires index < size().
  constexpr Pawns unrank(std::uint64_t index) const {
    const int cols = geometry_.cols, m = middle_squares();
    const int key = static_cast<int>(std::upper_bound(offset_.begin(), offset_.end(), index) -
                                     offset_.begin() - 1);
    const auto [a, b, c, d] = group_counts(key);
    std::uint64_t r = index - offset_[key];
    const std::uint64_t r4 = r % binomial(m - b, d);
    r /= binomial(m - b, d);
    const std::uint64_t r3 = r % binomial(cols, c);
    r /= binomial(cols, c);
    const std::uint64_t r2 = r % binomial(m, b);
    const std::uint64_t r1 = r / binomial(m, b);
    const std::uint64_t w_mid = subset_unrank(r2, b, m);
    const std::uint64_t b_mid = unsqueeze(subset_unrank(r4, d, m - b), low_bits(m) & ~w_mid);
    return Pawns{(subset_unrank(r1, a, cols) << ((geometry_.rows - 1) * cols)) | (w_mid << cols),
                 subset_unrank(r3, c, cols) | (b_mid << cols)};
  }

  // Walks the positions in index order, one step costing a few bit
  // operations instead of an unrank.
  class Cursor {
   public:
    // Starts at `index`; requires index < size().
    constexpr Cursor(const Index& owner, std::uint64_t index) : owner_(&owner), index_(index) {
      const Pawns p = owner.unrank(index);
      const Regions r = owner.regions(p.white, p.black);
      w_home_ = r.w_home;
      w_mid_ = r.w_mid;
      b_top_ = r.b_top;
      b_mid_ = r.b_mid;
      key_ = group_key(std::popcount(w_home_), std::popcount(w_mid_), std::popcount(b_top_),
                       std::popcount(b_mid_));
      update_boards();
    }
    constexpr std::uint64_t index() const { return index_; }
    constexpr std::uint64_t white() const { return white_; }
    constexpr std::uint64_t black() const { return black_; }

    // Moves to index() + 1; requires index() + 1 < size().
    constexpr void next() {
      ++index_;
      // Within a run only B_M changes: the common, cheap case.
      if (advance_subset(b_mid_, free_count_)) {
        black_ = b_top_ | (unsqueeze(b_mid_, free_mid_) << owner_->geometry_.cols);
        return;
      }
      const Geometry g = owner_->geometry_;
      const int m = owner_->middle_squares();
      b_mid_ = low_bits(std::popcount(b_mid_));
      if (!advance_subset(b_top_, g.cols)) {
        b_top_ = low_bits(std::popcount(b_top_));
        if (!advance_subset(w_mid_, m)) {
          w_mid_ = low_bits(std::popcount(w_mid_));
          if (!advance_subset(w_home_, g.cols)) next_group();
        }
      }
      update_boards();
    }

    // Entries from here to the end of the run of positions that differ only in
    // B_M, the innermost radix (so share W and B_T), this one included.
    constexpr std::uint64_t run_remaining() const {
      const int free_mid = owner_->middle_squares() - std::popcount(w_mid_);
      return binomial(free_mid, std::popcount(b_mid_)) - subset_rank(b_mid_);
    }

    // Moves to the first entry after this run; requires that one to exist.
    constexpr void next_run() {
      const int d = std::popcount(b_mid_);
      index_ += run_remaining() - 1;
      b_mid_ = low_bits(d) << (free_count_ - d);  // the run's last subset
      next();
    }

   private:
    constexpr void next_group() {
      const auto [a, b, c, d] = owner_->next_group(group_counts(key_));
      key_ = group_key(a, b, c, d);
      w_home_ = low_bits(a);
      w_mid_ = low_bits(b);
      b_top_ = low_bits(c);
      b_mid_ = low_bits(d);
    }

    // white_, black_ and the free middle squares from the four subsets.
    constexpr void update_boards() {
      const Geometry g = owner_->geometry_;
      free_mid_ = owner_->middle_mask_ & ~w_mid_;
      free_count_ = owner_->middle_squares() - std::popcount(w_mid_);
      white_ = (w_home_ << owner_->home_shift_) | (w_mid_ << g.cols);
      black_ = b_top_ | (unsqueeze(b_mid_, free_mid_) << g.cols);
    }

    const Index* owner_;
    std::uint64_t index_;
    int key_ = 0;
    std::uint64_t w_home_ = 0, w_mid_ = 0, b_top_ = 0, b_mid_ = 0;  // region-local subsets
    std::uint64_t free_mid_ = 0;  // middle squares without white pawns
    int free_count_ = 0;          // their number, m - |W_M|
    std::uint64_t white_ = 0, black_ = 0;
  };

 private:
  static constexpr std::uint64_t kMaxSize = 1ULL << 62;

  static constexpr int group_key(int a, int b, int c, int d) {
    return ((a * kGroupSide + b) * kGroupSide + c) * kGroupSide + d;
  }
  static constexpr Counts group_counts(int key) {
    return Counts{key / (kGroupSide * kGroupSide * kGroupSide),
                  key / (kGroupSide * kGroupSide) % kGroupSide, key / kGroupSide % kGroupSide,
                  key % kGroupSide};
  }
  constexpr int middle_squares() const { return middle_; }

  Geometry geometry_;
  int max_pawns_;              // K, 1..cols
  int middle_;                 // m = (rows - 2) * cols, squares of the middle region, 1..48
  int middle_bytes_;           // ceil(m / 8), bytes a middle-region set spans
  int home_shift_;             // (rows - 1) * cols, the first square of the home row
  std::uint64_t middle_mask_;  // low_bits(m)
  std::uint64_t top_mask_;     // low_bits(cols), the top row
  bool overflow_ = false;
  std::array<std::uint64_t, kGroups + 1> offset_{};  // offset_[key]: first index of group key
};

// The worked example above, pinned.
static_assert(Index(Geometry{4, 4}, 4).rank(0x0E00, 0x000E) == 28463);
static_assert(Index(Geometry{4, 4}, 4).size() == 281328);

}  // namespace pawntb::detail
