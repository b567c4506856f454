// The transposition table (search/src/tt.hpp): a move of either side, on
// either edge, comes back as stored; positions of other hashes miss; a full
// bucket gives up its entry of least work.

#include "tt.hpp"

#include <gtest/gtest.h>

#include <cstdint>

namespace pawntb::search_detail {
namespace {

NodeHash hash_of(std::uint64_t i) { return {mix64(i), mix64(i ^ 0x5555), false}; }

TEST(TranspositionTable, MovesOfBothSidesComeBackAsStored) {
  for (const int cols : {3, 5, 8}) {
    const int rows = 8 - (cols == 8 ? 0 : 1);
    TranspositionTable tt(std::uint64_t{1} << 20, cols);
    std::uint64_t i = 0;
    for (int from = cols; from < rows * cols - cols; ++from) {
      for (const bool white : {true, false}) {
        for (int aside = -1; aside <= 1; ++aside) {
          const int file = from % cols;
          if (file + aside < 0 || file + aside >= cols) continue;
          const SearchMove m{static_cast<std::uint8_t>(from),
                             static_cast<std::uint8_t>(from + (white ? -cols : cols) + aside)};
          const NodeHash h = hash_of(++i);
          tt.store(h, true, &m, 1000);
          const TtResult r = tt.probe(h);
          ASSERT_TRUE(r.found && r.wins && r.has_move);
          EXPECT_EQ(r.move.from, m.from);
          EXPECT_EQ(r.move.to, m.to) << cols << " cols, from " << from << ", aside " << aside;
        }
      }
    }
    const NodeHash lost = hash_of(~std::uint64_t{0});
    tt.store(lost, false, nullptr, 5);
    const TtResult r = tt.probe(lost);
    EXPECT_TRUE(r.found);
    EXPECT_FALSE(r.wins);
    EXPECT_FALSE(r.has_move);
  }
}

TEST(TranspositionTable, OtherPositionsMiss) {
  TranspositionTable tt(1 << 16, 8);
  for (std::uint64_t i = 0; i < 100; ++i) tt.store(hash_of(i), i % 2 == 0, nullptr, i);
  for (std::uint64_t i = 1000; i < 100000; ++i) ASSERT_FALSE(tt.probe(hash_of(i)).found) << i;
  // The same bucket and first hash, another second hash: a miss.
  NodeHash h = hash_of(3);
  h.check ^= std::uint64_t{1} << 40;
  EXPECT_FALSE(tt.probe(h).found);
}

TEST(TranspositionTable, AFullBucketGivesUpItsLeastWork) {
  TranspositionTable tt(64, 8);  // one bucket of eight entries
  ASSERT_EQ(tt.entries(), 8u);
  for (std::uint64_t i = 0; i < 8; ++i) tt.store(hash_of(i), true, nullptr, std::uint64_t{1} << (10 + i));
  EXPECT_EQ(tt.used(), 8u);
  tt.store(hash_of(100), false, nullptr, 1);  // replaces hash_of(0), of least work
  EXPECT_FALSE(tt.probe(hash_of(0)).found);
  for (std::uint64_t i = 1; i < 8; ++i) EXPECT_TRUE(tt.probe(hash_of(i)).found) << i;
  EXPECT_TRUE(tt.probe(hash_of(100)).found);
  EXPECT_EQ(tt.used(), 8u);
}

}  // namespace
}  // namespace pawntb::search_detail
