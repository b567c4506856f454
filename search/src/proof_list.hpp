// The certificate's list while its walk runs: every position of the winner
// to move in the proof, with the move that wins it, in 9 bytes a slot of an
// open-addressing set. A position is keyed by its exact rank among the
// positions of at most the root's pawns a side (below), so the key is the
// position, and keys sort as the certificate sorts: by white's pawns, then
// black's.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <functional>
#include <vector>

#include "board.hpp"
#include "pawntb/position.hpp"

namespace pawntb::search_detail {

// The rank of a set of at most k of m bits among all such sets, in the
// order of their numbers: the number of sets y with popcount(y) <= k and
// y < x.
//
// A y < x agrees with x above some set bit p of x, has p clear, and any
// bits below p, at most k - j of them, where j is x's bits above p:
//
//   rank(x) = sum over x's set bits p, j of x's bits above p,
//             of S(p, k - j),   with S(p, t) = C(p, 0) + ... + C(p, t).
//
// Worked example, m = 4, k = 2 (11 sets: 0000 0001 0010 0011 0100 0101
// 0110 1000 1001 1010 1100): rank(1010) = S(3, 2) + S(1, 1)
// = (1 + 3 + 3) + (1 + 1) = 9. Unranking walks the bits from the top:
// bit p is set exactly when r >= S(p, k - j), and then r -= S(p, k - j).
class SubsetRank {
 public:
  static constexpr int kMaxBits = 64;

  // S(p, t) counts the sets of at most t of p bits: those without bit p-1
  // and those with it, S(p, t) = S(p-1, t) + S(p-1, t-1), from S(0, t) = 1.
  constexpr SubsetRank(int bits, int most) : bits_(bits), most_(most) {
    for (int p = 0; p <= kMaxBits; ++p) {
      for (int t = 0; t <= kMaxBits; ++t) {
        at_most_[p][t] = p == 0 ? 1
                         : t == 0 ? 1
                                  : saturating_add(at_most_[p - 1][t], at_most_[p - 1][t - 1]);
      }
    }
  }

  constexpr int most() const { return most_; }

  // How many sets there are: S(m, k); saturates at 2^64 - 1.
  constexpr std::uint64_t count() const { return at_most_[bits_][most_]; }

  constexpr std::uint64_t rank(std::uint64_t x) const {
    std::uint64_t r = 0;
    int j = 0;
    for (; x != 0; ++j) {  // x's set bits, from the top
      const int p = 63 - std::countl_zero(x);
      r += at_most_[p][most_ - j];
      x &= ~(std::uint64_t{1} << p);
    }
    return r;
  }

  constexpr std::uint64_t unrank(std::uint64_t r) const {
    std::uint64_t x = 0;
    int j = 0;
    for (int p = bits_ - 1; p >= 0 && j < most_; --p) {
      const std::uint64_t below = at_most_[p][most_ - j];
      if (r < below) continue;
      r -= below;
      x |= std::uint64_t{1} << p;
      ++j;
    }
    return x;
  }

 private:
  static constexpr std::uint64_t kSaturated = ~std::uint64_t{0};
  static constexpr std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
    return a > kSaturated - b ? kSaturated : a + b;
  }

  int bits_, most_;
  std::array<std::array<std::uint64_t, kMaxBits + 1>, kMaxBits + 1> at_most_{};
};

static_assert(SubsetRank(4, 2).count() == 11);
static_assert(SubsetRank(4, 2).rank(0b1010) == 9);
static_assert(SubsetRank(4, 2).unrank(9) == 0b1010);
static_assert(SubsetRank(4, 2).rank(0b1100) == 10);
// 8x8 at 8 pawns a side: each side's pawns on 56 squares (below), and the
// pair's key fits 64 bits with room to spare.
static_assert(SubsetRank(56, 8).count() == 1'689'096'334);
static_assert(SubsetRank(64, 64).count() == ~std::uint64_t{0});  // saturated: 2^64 sets

struct ProofMove {
  std::uint64_t white, black;  // a position with the winner to move
  std::uint8_t from, to;       // the move that wins it
};

class ProofList {
 public:
  // Thrown by add() or reserve() when the list would outgrow its memory.
  struct TooLarge {};

  // The list of a walk from `root` (no position of the walk has more pawns
  // a side), in at most `memory_bytes`. Throws std::invalid_argument when
  // its keys would not fit 64 bits (more than 8 pawns a side on 8x8).
  ProofList(const Board& board, const Position& root, std::uint64_t memory_bytes);

  // Throws the constructor's std::invalid_argument, before a search whose
  // certificate could not be listed.
  static void check_keys(const Position& root);

  // Whether a position of the winner to move is listed. In a position of
  // the walk neither side stands on its goal row (the game would be over);
  // the key needs that.
  bool contains(std::uint64_t white, std::uint64_t black) const;

  // Whether `m` is a position this list can hold, with a move of the side
  // whose pawn stands on `from` one row ahead: for reading entries from a
  // file before contains() or add().
  bool holds(const ProofMove& m) const;

  // Lists a position not listed yet. Throws TooLarge when it does not fit;
  // the list is as before then.
  void add(const ProofMove& m);

  // Makes room for `count` positions in all, or throws TooLarge.
  void reserve(std::uint64_t count);

  std::uint64_t size() const { return size_; }
  std::uint64_t memory_bytes() const { return memory_bytes_; }

  // Calls `f` for every listed position, in no order.
  void for_each(const std::function<void(const ProofMove&)>& f) const;

  // Sorts the list in place by white's pawns, then black's, and calls `f`
  // for each in that order. Nothing can be listed or looked up after.
  void drain_sorted(const std::function<void(const ProofMove&)>& f);

 private:
  // A slot: the position's key + 1 (0: empty) and its move, packed: 9 bytes.
  struct [[gnu::packed]] Slot {
    std::uint64_t key;
    std::uint8_t move;
  };
  static_assert(sizeof(Slot) == 9);

  std::uint64_t key(std::uint64_t white, std::uint64_t black) const;
  Slot encode(const ProofMove& m) const;
  ProofMove decode(const Slot& slot) const;
  std::uint64_t home(std::uint64_t key) const;
  bool try_rehash(std::uint64_t slots);

  int cols_, bits_;  // bits_: (rows - 1) * cols, the squares a side's pawns can stand on
  SubsetRank white_rank_, black_rank_;
  std::uint64_t memory_bytes_;
  std::uint64_t size_ = 0;
  std::vector<Slot> slots_;
};

}  // namespace pawntb::search_detail
