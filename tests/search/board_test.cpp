// The race rule of the search (search/src/board.hpp, Board::unstoppable and
// Board::arrives_within), against the committed tables: wherever it settles
// a position, the table names the same winner, within the plies of the
// pawn's pushes. Random positions of each table, and of tables of few pawns
// on wider and longer boards made here (up to 8x8), both sides to move; the
// rule must settle some of them that the cone of rows ahead (files aside <=
// rows ahead, which ignores the race) would leave open, and some where the
// other side has a pawn fewer rows from its goal than the runner, blocked.

#include "board.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <vector>

#include "pawntb/generator.hpp"
#include "pawntb/notation.hpp"
#include "pawntb/probe.hpp"
#include "support/test_support.hpp"

namespace pawntb::search_detail {
namespace {

// Whether an enemy pawn stands within the cone of the pawn on `square`:
// rows ahead of it, no more files aside than rows ahead.
bool in_cone(Geometry g, int square, std::uint64_t enemy, bool white) {
  for (int t = 0; t < g.squares(); ++t) {
    if (!(enemy >> t & 1)) continue;
    const int ahead = white ? square / g.cols - t / g.cols : t / g.cols - square / g.cols;
    if (ahead >= 1 && std::abs(t % g.cols - square % g.cols) <= ahead) return true;
  }
  return false;
}

// The rows to go of the side's pawn nearest its goal; 64 with none.
int nearest(Geometry g, std::uint64_t pawns, bool white) {
  int best = 64;
  for (int s = 0; s < g.squares(); ++s) {
    if (pawns >> s & 1) best = std::min(best, white ? s / g.cols : g.rows - 1 - s / g.cols);
  }
  return best;
}

TEST(RaceRule, AgreesWithTheTables) {
  std::mt19937_64 rng(10838);
  int settled = 0, beyond_the_cone = 0, blocked = 0;
  pawntb_test::TempDir dir;
  std::vector<std::filesystem::path> tables;
  for (const auto& entry : std::filesystem::directory_iterator(pawntb_test::kDataDir)) {
    if (entry.path().extension() == ".pawntb") tables.push_back(entry.path());
  }
  for (const auto [rows, cols, pawns] : {std::array{6, 6, 3}, std::array{8, 5, 2}, std::array{7, 6, 2}, std::array{8, 8, 2}}) {
    GenerateRequest gen;
    gen.geometry = Geometry{rows, cols};
    gen.max_pawns = pawns;
    tables.push_back(dir / (to_string(gen.geometry) + "-k" + std::to_string(pawns) + ".pawntb"));
    generate(gen, {}, tables.back());
  }
  for (const auto& path : tables) {
    const Table table = Table::open(path);
    const Geometry g = table.info().geometry;
    const int k = table.info().max_pawns;
    const Board board(g);
    std::uniform_int_distribution<int> square(0, g.squares() - 1), count(1, k);
    for (int i = 0; i < (pawntb_test::kSanitized ? 2000 : 20000); ++i) {
      Position p{g, 0, 0, i % 2 ? Side::black : Side::white};
      for (int n = count(rng); n > 0; --n) p.white |= 1ULL << square(rng);
      for (int n = count(rng); n > 0; --n) p.black |= 1ULL << square(rng) & ~p.white;
      if (classify(p) != Status::playable) continue;
      const ProbeResult r = table.probe(p);
      ASSERT_TRUE(r.ok()) << format_position(p);
      const bool white = p.to_move == Side::white;
      const Node n = board.node(p.white, p.black, white);
      int d = 0, at = 0;
      // The side to move pushes its pawn d times and arrives first: a win
      // in at most 2d - 1 plies.
      if (board.runner_wins(n.mover(), n.other(), white, true, d, at)) {
        ++settled;
        beyond_the_cone += in_cone(g, at, n.other(), white);
        blocked += d > nearest(g, n.other(), !white);
        EXPECT_EQ(r.winner, p.to_move) << format_position(p);
        EXPECT_LE(r.plies, 2 * d - 1) << format_position(p);
      }
      // The opponent's pawn arrives first: a loss in at most 2d plies.
      if (board.runner_wins(n.other(), n.mover(), !white, false, d, at)) {
        ++settled;
        beyond_the_cone += in_cone(g, at, n.mover(), !white);
        blocked += d >= nearest(g, n.mover(), white);
        EXPECT_NE(r.winner, p.to_move) << format_position(p);
        EXPECT_LE(r.plies, 2 * d) << format_position(p);
      }
    }
  }
  EXPECT_GT(settled, 1000);
  EXPECT_GT(beyond_the_cone, 100);
  EXPECT_GT(blocked, 10);
}

}  // namespace
}  // namespace pawntb::search_detail
