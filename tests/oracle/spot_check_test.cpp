// The spot check's own tests: its search against the brute-force oracle, its
// sampler's promises, its node budget, and that a wrong table answer is caught.
#include "oracle/spot_check.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <random>
#include <set>
#include <string>

#include "oracle/brute_force.hpp"
#include "pawntb/notation.hpp"
#include "support/test_support.hpp"

namespace {

using pawntb_oracle::SpotKind;
using pawntb_oracle::SpotPosition;
using pawntb_oracle::SpotValue;

std::string board_text(const SpotPosition& p) {
  std::string board(static_cast<std::size_t>(p.rows * p.cols), '.');
  for (int s = 0; s < p.rows * p.cols; ++s) {
    if (p.white >> s & 1) board[static_cast<std::size_t>(s)] = 'P';
    if (p.black >> s & 1) board[static_cast<std::size_t>(s)] = 'p';
  }
  return board;
}

std::uint64_t row_mask(int cols, int row) {
  return ((std::uint64_t{1} << cols) - 1) << (row * cols);
}

// Both searches solve the same random positions (either kind) alike.
TEST(SpotSearch, AgreesWithTheBruteForceOracle) {
  for (auto [rows, cols, pawns] : {std::tuple{3, 3, 3}, {4, 4, 4}, {3, 5, 5}, {5, 4, 4}}) {
    pawntb_oracle::Solver oracle(rows, cols);
    pawntb_oracle::SpotSearch search(rows, cols, 10'000'000);
    std::mt19937_64 rng(7);
    int decided = 0;
    for (int i = 0; i < 400; ++i) {
      const SpotKind kind = i % 2 == 0 ? SpotKind::few_pawns : SpotKind::near_goal;
      const SpotPosition p = pawntb_oracle::draw_spot_position(rows, cols, pawns, kind, rng);
      const pawntb_oracle::Result want = oracle.solve(board_text(p), p.white_to_move);
      const std::optional<SpotValue> got = search.solve(p);
      ASSERT_TRUE(want.valid) << pawntb_oracle::spot_notation(p);
      ASSERT_TRUE(got.has_value()) << pawntb_oracle::spot_notation(p);
      EXPECT_EQ(got->white_wins, want.white_wins) << pawntb_oracle::spot_notation(p);
      EXPECT_EQ(got->plies, want.plies) << pawntb_oracle::spot_notation(p);
      decided += got->plies > 1;
    }
    EXPECT_GT(decided, 50) << rows << "x" << cols << ": too few positions need a search";
  }
}

TEST(SpotSearch, PositionsOverByRule) {
  pawntb_oracle::SpotSearch search(4, 4, 100);
  // Black on its goal row (bottom), white to move: white has lost.
  const SpotPosition black_arrived{4, 4, std::uint64_t{1} << 5, std::uint64_t{1} << 12, true};
  const auto lost = search.solve(black_arrived);
  ASSERT_TRUE(lost.has_value());
  EXPECT_FALSE(lost->white_wins);
  EXPECT_EQ(lost->plies, 0);
  // The side to move on its own goal row has no value.
  EXPECT_FALSE(search.solve({4, 4, std::uint64_t{1} << 5, std::uint64_t{1} << 12, false}));
  // No pawns for the side to move: it has lost.
  const auto no_pawns = search.solve({4, 4, 0, std::uint64_t{1} << 5, true});
  ASSERT_TRUE(no_pawns.has_value());
  EXPECT_FALSE(no_pawns->white_wins);
  EXPECT_EQ(no_pawns->plies, 0);
}

TEST(SpotSample, KeepsItsPromises) {
  std::mt19937_64 rng(11);
  std::set<std::string> distinct;
  for (int i = 0; i < 2000; ++i) {
    const int rows = 3 + i % 6, cols = 3 + i / 6 % 6, pawns = std::min(cols, 8);
    const SpotKind kind = i % 2 == 0 ? SpotKind::few_pawns : SpotKind::near_goal;
    const SpotPosition p = pawntb_oracle::draw_spot_position(rows, cols, pawns, kind, rng);
    const std::string text = pawntb_oracle::spot_notation(p);
    distinct.insert(text);
    ASSERT_EQ(p.white & p.black, 0u) << text;
    ASSERT_EQ(p.white & row_mask(cols, 0), 0u) << text;
    ASSERT_EQ(p.black & row_mask(cols, rows - 1), 0u) << text;
    const int most = kind == SpotKind::few_pawns ? std::min(pawns, 3) : pawns;
    ASSERT_LE(std::popcount(p.white), most) << text;
    ASSERT_LE(std::popcount(p.black), most) << text;
    if (kind == SpotKind::near_goal && rows > 4) {  // the 3 rows nearest each goal
      std::uint64_t white_zone = 0, black_zone = 0;
      for (int r = 1; r <= 3; ++r) {
        white_zone |= row_mask(cols, r);
        black_zone |= row_mask(cols, rows - 1 - r);
      }
      ASSERT_EQ(p.white & ~white_zone, 0u) << text;
      ASSERT_EQ(p.black & ~black_zone, 0u) << text;
    }
    // The notation is what pawntb parses to the same position.
    const pawntb::Position parsed = pawntb_test::parse(text);
    ASSERT_EQ(parsed.white, p.white) << text;
    ASSERT_EQ(parsed.black, p.black) << text;
    ASSERT_EQ(parsed.to_move == pawntb::Side::white, p.white_to_move) << text;
  }
  EXPECT_GT(distinct.size(), 1500u);
}

TEST(SpotSearch, GivesUpOverItsBudget) {
  const pawntb::Table table = pawntb::Table::open(pawntb_test::kDefaultTable);
  auto probe = [&table](const pawntb::Position& p) { return table.probe(p); };
  const auto tight = pawntb_oracle::run_spot_check(4, 4, 4, probe, 200, 3, 20);
  EXPECT_GT(tight.skipped, 0u);
  EXPECT_GT(tight.agreed, 0u);
  EXPECT_TRUE(tight.disagreements.empty());
  EXPECT_EQ(tight.agreed + tight.skipped, tight.samples);
  const auto ample = pawntb_oracle::run_spot_check(4, 4, 4, probe, 200, 3, 10'000'000);
  EXPECT_EQ(ample.skipped, 0u);
  EXPECT_EQ(ample.agreed, ample.samples);
}

// A table that answers one position wrongly, in each way it could, is caught,
// and only that position is reported.
TEST(SpotCheck, CatchesAWrongAnswer) {
  const pawntb::Table table = pawntb::Table::open(pawntb_test::kDefaultTable);
  auto honest = [&table](const pawntb::Position& p) { return table.probe(p); };
  const auto clean = pawntb_oracle::run_spot_check(4, 4, 4, honest, 500, 5, 10'000'000);
  ASSERT_EQ(clean.agreed, 500u);

  using Corruption = void (*)(pawntb::ProbeResult&);
  const Corruption corruptions[] = {
      [](pawntb::ProbeResult& r) { r.plies = static_cast<std::uint8_t>(r.plies + 2); },
      [](pawntb::ProbeResult& r) { r.winner = pawntb::opponent(r.winner); },
      [](pawntb::ProbeResult& r) {
        r.status = pawntb::ProbeStatus::damaged_table;
        r.plies = pawntb::ProbeResult::kNoPlies;
      },
  };
  for (const Corruption corrupt : corruptions) {
    int calls = 0;
    std::string corrupted;
    auto lying = [&](const pawntb::Position& p) {
      pawntb::ProbeResult r = table.probe(p);
      if (++calls == 123) {
        corrupt(r);
        corrupted = pawntb::format_position(p);
      }
      return r;
    };
    const auto report = pawntb_oracle::run_spot_check(4, 4, 4, lying, 500, 5, 10'000'000);
    ASSERT_EQ(report.disagreements.size(), 1u);
    EXPECT_EQ(report.agreed, 499u);
    EXPECT_EQ(report.disagreements[0].rfind(corrupted + ":", 0), 0u) << report.disagreements[0];
  }
}

}  // namespace
