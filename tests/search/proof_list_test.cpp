// The certificate's list (search/src/proof_list.hpp): the subset ranking
// against counting by brute force, and the list against a std::map.

#include "proof_list.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <map>
#include <random>
#include <utility>
#include <vector>

#include "board.hpp"

namespace pawntb::search_detail {
namespace {

// Every number of `bits` bits with at most `most` set, in order: the rank is
// the place in this list.
TEST(SubsetRank, MatchesCountingEveryNumber) {
  for (int bits = 0; bits <= 12; ++bits) {
    for (int most = 0; most <= bits; ++most) {
      const SubsetRank r(bits, most);
      std::uint64_t place = 0;
      for (std::uint64_t x = 0; x < (std::uint64_t{1} << bits); ++x) {
        if (std::popcount(x) > most) continue;
        ASSERT_EQ(r.rank(x), place) << bits << " bits, at most " << most << ", x = " << x;
        ASSERT_EQ(r.unrank(place), x) << bits << " bits, at most " << most;
        ++place;
      }
      EXPECT_EQ(r.count(), place) << bits << " bits, at most " << most;
    }
  }
}

TEST(SubsetRank, FollowsTheNumbersOn56Bits) {
  const SubsetRank r(56, 8);
  std::mt19937_64 random(7);
  std::vector<std::uint64_t> xs;
  for (int i = 0; i < 20000; ++i) {
    std::uint64_t x = 0;
    const int n = static_cast<int>(random() % 9);
    while (std::popcount(x) < n) x |= std::uint64_t{1} << (random() % 56);
    xs.push_back(x);
  }
  xs.push_back(0);
  xs.push_back(((std::uint64_t{1} << 8) - 1) << 48);  // the last set
  std::sort(xs.begin(), xs.end());
  for (std::size_t i = 0; i < xs.size(); ++i) {
    ASSERT_EQ(r.unrank(r.rank(xs[i])), xs[i]);
    if (i > 0 && xs[i] != xs[i - 1]) {
      ASSERT_LT(r.rank(xs[i - 1]), r.rank(xs[i]));
    }
  }
  EXPECT_EQ(r.rank(xs.back()), r.count() - 1);
}

// Positions of a walk on 8x8 from the start (8 pawns a side): white's pawns
// on rows 1..7, black's on rows 0..6, apart; the winner (white) to move,
// with a move of a white pawn one row up.
std::vector<ProofMove> random_positions(int n, std::uint32_t seed) {
  std::mt19937_64 random(seed);
  std::map<std::pair<std::uint64_t, std::uint64_t>, ProofMove> out;
  while (static_cast<int>(out.size()) < n) {
    std::uint64_t white = 0, black = 0;
    const int w = 1 + static_cast<int>(random() % 8), b = static_cast<int>(random() % 9);
    while (std::popcount(white) < w) white |= std::uint64_t{1} << (8 + random() % 56);
    while (std::popcount(black) < b) black |= (std::uint64_t{1} << (random() % 56)) & ~white;
    const int from = std::countr_zero(white);
    const int to = from - 8 + static_cast<int>(random() % 3) - 1;
    if (to < 0 || (to / 8 != (from - 8) / 8)) continue;
    out[{white, black}] = {white, black, static_cast<std::uint8_t>(from),
                           static_cast<std::uint8_t>(to)};
  }
  std::vector<ProofMove> v;
  for (const auto& [k, m] : out) v.push_back(m);
  std::shuffle(v.begin(), v.end(), random);
  return v;
}

Position start8x8() {
  Position p;
  p.geometry = Geometry{8, 8};
  p.white = 0xffULL << 56;
  p.black = 0xff;
  p.to_move = Side::white;
  return p;
}

TEST(ProofList, HoldsWhatWasListedAndGivesItBackInTheCertificatesOrder) {
  const Board board(Geometry{8, 8});
  ProofList list(board, start8x8(), std::uint64_t{1} << 30);
  const std::vector<ProofMove> in = random_positions(50000, 11);
  for (std::size_t i = 0; i < in.size(); ++i) {
    ASSERT_FALSE(list.contains(in[i].white, in[i].black));
    list.add(in[i]);
    if (i % 997 == 0) {
      ASSERT_TRUE(list.contains(in[i / 2].white, in[i / 2].black));
    }
  }
  EXPECT_EQ(list.size(), in.size());
  for (const ProofMove& m : random_positions(2000, 12)) {
    const bool listed = std::any_of(in.begin(), in.end(), [&](const ProofMove& x) {
      return x.white == m.white && x.black == m.black;
    });
    EXPECT_EQ(list.contains(m.white, m.black), listed);
  }
  std::vector<ProofMove> seen;
  list.for_each([&](const ProofMove& m) { seen.push_back(m); });
  ASSERT_EQ(seen.size(), in.size());

  std::vector<ProofMove> sorted;
  list.drain_sorted([&](const ProofMove& m) { sorted.push_back(m); });
  std::vector<ProofMove> expected = in;
  const auto before = [](const ProofMove& a, const ProofMove& b) {
    return a.white != b.white ? a.white < b.white : a.black < b.black;
  };
  std::sort(expected.begin(), expected.end(), before);
  ASSERT_EQ(sorted.size(), expected.size());
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    ASSERT_EQ(sorted[i].white, expected[i].white) << i;
    ASSERT_EQ(sorted[i].black, expected[i].black) << i;
    ASSERT_EQ(sorted[i].from, expected[i].from) << i;
    ASSERT_EQ(sorted[i].to, expected[i].to) << i;
  }
  std::sort(seen.begin(), seen.end(), before);
  for (std::size_t i = 0; i < seen.size(); ++i) ASSERT_EQ(seen[i].to, expected[i].to) << i;
}

TEST(ProofList, StaysWithinItsMemory) {
  const Board board(Geometry{8, 8});
  constexpr std::uint64_t kMemory = 200'000;  // bytes: about 20,000 slots of 9
  ProofList list(board, start8x8(), kMemory);
  const std::vector<ProofMove> in = random_positions(30000, 13);
  std::size_t added = 0;
  try {
    for (const ProofMove& m : in) {
      list.add(m);
      ++added;
    }
    FAIL() << "30,000 positions fit in " << kMemory << " bytes";
  } catch (const ProofList::TooLarge&) {
  }
  EXPECT_EQ(list.size(), added);
  // At most 20 bytes a position (and a little for rounding), at least 9 a
  // slot with 10 % of them empty.
  EXPECT_GE(added, kMemory / 21);
  EXPECT_LE(added, kMemory / 9 * 9 / 10);
  for (std::size_t i = 0; i < added; ++i) ASSERT_TRUE(list.contains(in[i].white, in[i].black));
  EXPECT_FALSE(list.contains(in[added].white, in[added].black));
  EXPECT_THROW(list.reserve(added * 2), ProofList::TooLarge);
}

// What a damaged walk file could hold is told apart before it is keyed.
TEST(ProofList, HoldsOnlyPositionsAndMovesOfTheWalk) {
  const Board board(Geometry{8, 8});
  const ProofList list(board, start8x8(), 1 << 20);
  const std::uint64_t white = std::uint64_t{1} << 12, black = std::uint64_t{1} << 40;
  EXPECT_TRUE(list.holds({white, black, 12, 4}));    // white's pawn, one row up
  EXPECT_TRUE(list.holds({white, black, 12, 3}));    // and a file aside
  EXPECT_TRUE(list.holds({white, black, 40, 48}));   // black's pawn, one row down
  EXPECT_FALSE(list.holds({white, black, 12, 2}));   // two files aside
  EXPECT_FALSE(list.holds({white, black, 13, 5}));   // no pawn on its square
  EXPECT_FALSE(list.holds({white | 1, black, 12, 4}));                         // white arrived
  EXPECT_FALSE(list.holds({white, black | (std::uint64_t{1} << 60), 12, 4}));  // black arrived
  EXPECT_FALSE(list.holds({white | black, black, 12, 4}));                     // one square, two pawns
  EXPECT_FALSE(list.holds({(0x1ffULL << 16), black, 16, 8}));                  // 9 white pawns
  EXPECT_FALSE(list.holds({white, black, 64, 56}));                            // off the board
  EXPECT_FALSE(list.holds({std::uint64_t{1} << 16, black, 16, 7}));  // past the a-file: a row lower
}

TEST(ProofList, RefusesPositionsItCannotKey) {
  Position p = start8x8();
  EXPECT_NO_THROW(ProofList::check_keys(p));
  p.white |= 0xffULL << 48;  // 16 white pawns: more sets than 64 bits number
  EXPECT_THROW(ProofList::check_keys(p), std::invalid_argument);
}

}  // namespace
}  // namespace pawntb::search_detail
