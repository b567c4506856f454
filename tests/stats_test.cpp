// Whole-table statistics (tools/stats) against an independent count: the
// brute-force oracle enumerates the positions itself and solves each one.
#include <gtest/gtest.h>

#include <bit>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "oracle/brute_force.hpp"
#include "pawntb/analysis.hpp"
#include "pawntb/generator.hpp"
#include "pawntb/probe.hpp"
#include "stats/stats_json.hpp"
#include "stats/stats_svg.hpp"
#include "support/test_support.hpp"

namespace {

using namespace pawntb;
using pawntb_test::parse;
using pawntb_test::TempDir;

// ---------------------------------------------------------------------------
// The oracle's count, from the definition in pawntb/analysis.hpp: every placement
// of at most K pawns a side with no white pawn on the top row and no black
// pawn on the bottom row, either side to move, the side to move having a pawn.

struct ExpectedMaterial {
  std::uint64_t positions = 0, wins = 0, zugzwangs = 0;
  int longest_win = -1;
};

struct Expected {
  std::uint64_t positions = 0, wins = 0, zugzwangs = 0;
  std::map<int, std::pair<std::uint64_t, std::uint64_t>> distances;  // plies -> wins, losses
  std::map<std::pair<int, int>, ExpectedMaterial> materials;         // (white, black) pawns
};

int count_of(const std::string& board, char pawn) {
  int n = 0;
  for (const char c : board) n += c == pawn;
  return n;
}

Expected oracle_stats(int rows, int cols, int k) {
  pawntb_oracle::Solver solver(rows, cols);
  Expected e;
  pawntb_oracle::for_each_placement(rows, cols, k, [&](const std::string& board) {
    if (board.substr(0, cols).find('P') != std::string::npos) return;
    if (board.substr((rows - 1) * cols).find('p') != std::string::npos) return;
    const int white = count_of(board, 'P'), black = count_of(board, 'p');
    for (const bool white_to_move : {true, false}) {
      if ((white_to_move ? white : black) == 0) continue;
      const pawntb_oracle::Result r = solver.solve(board, white_to_move);
      ASSERT_TRUE(r.valid) << board;
      const bool mover_wins = r.white_wins == white_to_move;
      ExpectedMaterial& m = e.materials[{white, black}];
      ++e.positions;
      ++m.positions;
      auto& [wins, losses] = e.distances[r.plies];
      if (mover_wins) {
        ++e.wins;
        ++m.wins;
        ++wins;
        m.longest_win = std::max(m.longest_win, r.plies);
        continue;
      }
      ++losses;
      // Would the side to move win if it could pass?
      const pawntb_oracle::Result passed = solver.solve(board, !white_to_move);
      if (passed.valid && passed.white_wins == white_to_move) {
        ++e.zugzwangs;
        ++m.zugzwangs;
      }
    }
  });
  return e;
}

// The oracle's board text ("P", "p", "." top row first) of a position.
std::string oracle_board(const Position& p) {
  std::string board(p.geometry.squares(), '.');
  for (int s = 0; s < p.geometry.squares(); ++s) {
    if (p.white >> s & 1) board[s] = 'P';
    if (p.black >> s & 1) board[s] = 'p';
  }
  return board;
}

void expect_matches_oracle(const Table& table, const analysis::StatsOptions& options = {}) {
  const TableInfo& info = table.info();
  const Expected want = oracle_stats(info.geometry.rows, info.geometry.cols, info.max_pawns);
  const analysis::TableStats got = analysis::compute_stats(table, options);

  EXPECT_EQ(got.geometry, info.geometry);
  EXPECT_EQ(got.max_pawns, info.max_pawns);
  EXPECT_EQ(got.positions, want.positions);
  EXPECT_EQ(got.positions, 2 * info.entries);
  EXPECT_EQ(got.side_to_move_wins, want.wins);
  EXPECT_EQ(got.zugzwangs, want.zugzwangs);

  ASSERT_FALSE(want.distances.empty());
  ASSERT_EQ(got.distances.size(), static_cast<std::size_t>(want.distances.rbegin()->first + 1));
  for (std::size_t d = 0; d < got.distances.size(); ++d) {
    const auto it = want.distances.find(static_cast<int>(d));
    const auto [wins, losses] =
        it == want.distances.end() ? std::pair<std::uint64_t, std::uint64_t>{} : it->second;
    EXPECT_EQ(got.distances[d].wins, wins) << d << " plies";
    EXPECT_EQ(got.distances[d].losses, losses) << d << " plies";
  }

  pawntb_oracle::Solver solver(info.geometry.rows, info.geometry.cols);
  ASSERT_EQ(got.materials.size(), want.materials.size());
  auto expected = want.materials.begin();
  for (const analysis::MaterialStats& m : got.materials) {
    const std::string name =
        std::to_string(m.white_pawns) + "P " + std::to_string(m.black_pawns) + "p";
    ASSERT_EQ(std::make_pair(m.white_pawns, m.black_pawns), expected->first) << name;
    const ExpectedMaterial& w = expected++->second;
    EXPECT_EQ(m.positions, w.positions) << name;
    EXPECT_EQ(m.side_to_move_wins, w.wins) << name;
    EXPECT_EQ(m.longest_win, w.longest_win) << name;
    EXPECT_EQ(m.zugzwangs, w.zugzwangs) << name;

    // The examples: of this material, and what they claim, by the oracle.
    auto check_material = [&](const Position& p) {
      EXPECT_EQ(std::popcount(p.white), m.white_pawns) << name;
      EXPECT_EQ(std::popcount(p.black), m.black_pawns) << name;
    };
    EXPECT_EQ(m.longest_win_example.empty(), m.longest_win < 0) << name;
    if (m.longest_win >= 0) {
      const Position p = parse(m.longest_win_example);
      check_material(p);
      const bool white = p.to_move == Side::white;
      const pawntb_oracle::Result r = solver.solve(oracle_board(p), white);
      EXPECT_TRUE(r.valid && r.white_wins == white && r.plies == m.longest_win)
          << name << ": " << m.longest_win_example;
    }
    EXPECT_EQ(m.zugzwang_examples.size(), std::min<std::uint64_t>(m.zugzwangs, 3)) << name;
    for (const std::string& text : m.zugzwang_examples) {
      const Position p = parse(text);
      check_material(p);
      const bool white = p.to_move == Side::white;
      const pawntb_oracle::Result r = solver.solve(oracle_board(p), white);
      const pawntb_oracle::Result passed = solver.solve(oracle_board(p), !white);
      EXPECT_TRUE(r.valid && r.white_wins != white) << text << ": the side to move should lose";
      EXPECT_TRUE(passed.valid && passed.white_wins == white) << text << ": passing should win";
    }
  }
}

// A table generated into a temporary directory, kept for the test binary's life.
const Table& generated_table(Geometry g, int k) {
  static TempDir dir;
  static std::map<std::pair<int, int>, std::map<int, Table>> tables;
  auto& by_k = tables[{g.rows, g.cols}];
  const auto found = by_k.find(k);
  if (found != by_k.end()) return found->second;
  const auto path = dir / (to_string(g) + "-k" + std::to_string(k) + ".pawntb");
  write_table(solve(g, k), path);
  return by_k.emplace(k, Table::open(path)).first->second;
}

// ---------------------------------------------------------------------------

TEST(TableStats, DefaultTableMatchesTheOracle) {
  expect_matches_oracle(Table::open(pawntb_test::kDefaultTable));
}

TEST(TableStats, SmallerTablesMatchTheOracle) {
  for (const auto& [g, k] :
       std::vector<std::pair<Geometry, int>>{{{3, 3}, 3}, {{3, 4}, 3}, {{4, 3}, 2}, {{4, 4}, 2}}) {
    SCOPED_TRACE(to_string(g) + " K=" + std::to_string(k));
    expect_matches_oracle(generated_table(g, k));
  }
}

// The least memory cuts the table into the most windows (analysis/src/analysis.cpp):
// its groups of tiers into pairs of flipped tiers, and the largest of those
// into pairs of flipped slices, whose bits lie in many ranges. The figures
// are still the oracle's.
TEST(TableStats, LeastMemoryMatchesTheOracle) {
  const Table table = Table::open(pawntb_test::kDefaultTable);
  for (const unsigned threads : {1u, 2u}) {
    analysis::StatsOptions least;
    least.threads = threads;
    least.memory_bytes = analysis::least_memory(table, least);
    SCOPED_TRACE(std::to_string(least.memory_bytes) + " bytes");
    expect_matches_oracle(table, least);
  }
  for (const auto& [g, k] : std::vector<std::pair<Geometry, int>>{{{3, 4}, 3}, {{4, 3}, 2}}) {
    SCOPED_TRACE(to_string(g) + " K=" + std::to_string(k));
    analysis::StatsOptions least;
    least.memory_bytes = analysis::least_memory(generated_table(g, k), least);
    expect_matches_oracle(generated_table(g, k), least);
  }
}

// On a table too large for the oracle, the least memory and enough for one
// window give the same document.
TEST(TableStats, ResultDoesNotDependOnMemory) {
  const Table& table = generated_table({5, 4}, 4);
  analysis::StatsOptions least;
  least.threads = 2;
  least.memory_bytes = analysis::least_memory(table, least);
  analysis::StatsOptions plenty;
  plenty.threads = 2;
  EXPECT_EQ(stats::to_json(analysis::compute_stats(table, least)),
            stats::to_json(analysis::compute_stats(table, plenty)));
}

TEST(TableStats, LessThanTheLeastMemoryIsRefused) {
  const Table table = Table::open(pawntb_test::kDefaultTable);
  analysis::StatsOptions options;
  options.threads = 1;
  options.memory_bytes = analysis::least_memory(table, options) - 1;
  EXPECT_THROW(analysis::compute_stats(table, options), std::invalid_argument);
}

TEST(TableStats, ResultDoesNotDependOnThreadsOrChunks) {
  const Table table = Table::open(pawntb_test::kDefaultTable);
  analysis::StatsOptions one;
  one.threads = 1;
  analysis::StatsOptions three;
  three.threads = 3;
  std::vector<double> progress;
  three.on_progress = [&](const Progress& p) {
    EXPECT_STREQ(p.stage, "stats");
    progress.push_back(p.fraction_done);
  };
  EXPECT_EQ(stats::to_json(analysis::compute_stats(table, one)),
            stats::to_json(analysis::compute_stats(table, three)));
  ASSERT_FALSE(progress.empty());
  EXPECT_EQ(progress.back(), 1.0);
  EXPECT_TRUE(std::is_sorted(progress.begin(), progress.end()));
}

TEST(TableStats, ZugzwangExamplesAreLimited) {
  analysis::StatsOptions none;
  none.zugzwang_examples = 0;
  const analysis::TableStats s =
      analysis::compute_stats(Table::open(pawntb_test::kDefaultTable), none);
  EXPECT_GT(s.zugzwangs, 0u);
  for (const analysis::MaterialStats& m : s.materials) EXPECT_TRUE(m.zugzwang_examples.empty());
}

TEST(TableStats, JsonCarriesEveryFigure) {
  const analysis::TableStats s = analysis::compute_stats(generated_table({3, 3}, 3));
  const nlohmann::ordered_json j = stats::to_json(s);
  // One convention: the geometry is the object of probe --json and the API.
  EXPECT_EQ(j["geometry"], nlohmann::ordered_json::parse(R"({"rows":3,"cols":3,"max_pawns":3})"));
  EXPECT_FALSE(j.contains("max_pawns"));
  EXPECT_EQ(j["positions"], s.positions);
  EXPECT_EQ(j["side_to_move_wins"], s.side_to_move_wins);
  EXPECT_EQ(j["zugzwangs"], s.zugzwangs);
  ASSERT_EQ(j["distances"].size(), s.distances.size());
  for (std::size_t d = 0; d < s.distances.size(); ++d) {
    EXPECT_EQ(j["distances"][d]["plies"], d);
    EXPECT_EQ(j["distances"][d]["wins"], s.distances[d].wins);
    EXPECT_EQ(j["distances"][d]["losses"], s.distances[d].losses);
  }
  ASSERT_EQ(j["materials"].size(), s.materials.size());
  for (std::size_t i = 0; i < s.materials.size(); ++i) {
    const auto& jm = j["materials"][i];
    const analysis::MaterialStats& m = s.materials[i];
    EXPECT_EQ(jm["white_pawns"], m.white_pawns);
    EXPECT_EQ(jm["black_pawns"], m.black_pawns);
    EXPECT_EQ(jm["positions"], m.positions);
    EXPECT_EQ(jm["side_to_move_wins"], m.side_to_move_wins);
    if (m.longest_win < 0) {
      EXPECT_TRUE(jm["longest_win"].is_null());
    } else {
      EXPECT_EQ(jm["longest_win"]["plies"], m.longest_win);
      EXPECT_EQ(jm["longest_win"]["example"], m.longest_win_example);
    }
    EXPECT_EQ(jm["zugzwangs"], m.zugzwangs);
    EXPECT_EQ(jm["zugzwang_examples"], m.zugzwang_examples);
  }
}

// ---------------------------------------------------------------------------
// The plots: well-formed, labelled, one rect per bar segment and per cell.

std::size_t occurrences(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

// 1234567 -> "1,234,567", as the plots write counts.
std::string grouped(std::uint64_t n) {
  std::string digits = std::to_string(n);
  for (auto i = digits.size(); i > 3; i -= 3) digits.insert(i - 3, ",");
  return digits;
}

// Every tag closed in order, one root <svg> element; empty if so, else why not.
std::string xml_problem(const std::string& svg) {
  std::vector<std::string> open;
  int roots = 0;
  for (std::size_t at = svg.find('<'); at != std::string::npos; at = svg.find('<', at + 1)) {
    const std::size_t end = svg.find('>', at);
    if (end == std::string::npos) return "unterminated tag at " + std::to_string(at);
    const std::string tag = svg.substr(at + 1, end - at - 1);
    if (tag.find('<') != std::string::npos) return "'<' inside a tag at " + std::to_string(at);
    if (occurrences(tag, "\"") % 2) return "unbalanced quotes in <" + tag + ">";
    if (tag.front() == '/') {
      if (open.empty() || open.back() != tag.substr(1))
        return "unexpected </" + tag.substr(1) + ">";
      open.pop_back();
      continue;
    }
    if (open.empty()) ++roots;
    if (tag.back() != '/') open.push_back(tag.substr(0, tag.find_first_of(" \n")));
  }
  if (!open.empty()) return "<" + open.back() + "> not closed";
  return roots == 1 && svg.rfind("<svg ", 0) == 0 ? "" : "not one <svg> root";
}

TEST(StatsSvg, DistanceHistogram) {
  const analysis::TableStats s = analysis::compute_stats(Table::open(pawntb_test::kDefaultTable));
  const std::string svg = stats::distance_histogram_svg(s);
  EXPECT_EQ(xml_problem(svg), "");
  std::size_t wins = 0, losses = 0;
  for (const analysis::DistanceCount& d : s.distances) {
    wins += d.wins > 0;
    losses += d.losses > 0;
  }
  EXPECT_EQ(occurrences(svg, "<rect class=\"win\""), wins);
  EXPECT_EQ(occurrences(svg, "<rect class=\"loss\""), losses);
  EXPECT_GT(wins, 0u);
  EXPECT_GT(losses, 0u);
  for (const char* label : {"Distance to the end", "4x4 table", "plies to the end", "positions",
                            "side to move wins", "side to move loses"}) {
    EXPECT_NE(svg.find(label), std::string::npos) << label;
  }
  EXPECT_NE(svg.find(grouped(s.positions) + " positions"), std::string::npos);
  // Every distance labelled on the axis, the longest included.
  const std::string last = ">" + std::to_string(s.distances.size() - 1) + "</text>";
  EXPECT_NE(svg.find(last), std::string::npos);
}

// The distance histogram of a 6x6 table with `distances` distances, all
// empty but these three: wins in 1 ply, losses in 2, wins in 3.
std::string histogram_of(std::size_t distances, std::uint64_t wins_in_1, std::uint64_t losses_in_2,
                         std::uint64_t wins_in_3) {
  analysis::TableStats s;
  s.geometry = {6, 6};
  s.max_pawns = 6;
  s.distances.resize(distances);
  s.distances[1].wins = wins_in_1;
  s.distances[2].losses = losses_in_2;
  s.distances[3].wins = wins_in_3;
  return stats::distance_histogram_svg(s);
}

TEST(StatsSvg, NarrowBarsGetShortLabels) {
  const std::string svg = histogram_of(40, 1234567, 999, 123456789012);
  EXPECT_EQ(xml_problem(svg), "");
  EXPECT_EQ(occurrences(svg, "<rect class=\"win\""), 2u);
  EXPECT_EQ(occurrences(svg, "<rect class=\"loss\""), 1u);
  for (const char* label : {">1.2M<", ">999<", ">123G<", ">38<"}) {
    EXPECT_NE(svg.find(label), std::string::npos) << label;
  }
}

// Every nonzero count gets a bar that can be seen, however far apart the
// counts are: the scale is logarithmic (bars of a few positions were once
// 0 px tall).
TEST(StatsSvg, EveryNonzeroCountHasAVisibleBar) {
  const std::string svg = histogram_of(5, 1, 3, 123456789012);
  const std::regex bar(
      "<rect class=\"(?:win|loss)\" x=\"[0-9.]+\" y=\"[0-9.]+\" width=\"[0-9.]+\" "
      "height=\"([0-9.]+)\"");
  std::vector<double> heights;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), bar); it != std::sregex_iterator();
       ++it) {
    heights.push_back(std::stod((*it)[1]));
  }
  ASSERT_EQ(heights.size(), 3u) << svg;
  EXPECT_GE(heights[0], 10.0);        // a count of 1
  EXPECT_GT(heights[1], heights[0]);  // 3 stands higher than 1
  EXPECT_GT(heights[2], heights[1]);
  EXPECT_NE(svg.find("log scale"), std::string::npos);
}

TEST(StatsSvg, MaterialHeatMap) {
  const analysis::TableStats s = analysis::compute_stats(Table::open(pawntb_test::kDefaultTable));
  const std::string svg = stats::material_heatmap_svg(s);
  EXPECT_EQ(xml_problem(svg), "");
  EXPECT_EQ(occurrences(svg, "<rect class=\"cell\""), s.materials.size());
  for (const char* label : {"win share by material", "white pawns", "black pawns", "4x4 table"}) {
    EXPECT_NE(svg.find(label), std::string::npos) << label;
  }
  // Each cell shows its count and its share.
  for (const analysis::MaterialStats& m : s.materials) {
    char share[16];
    std::snprintf(
        share, sizeof share, "%.1f%%",
        100.0 * static_cast<double>(m.side_to_move_wins) / static_cast<double>(m.positions));
    EXPECT_NE(svg.find(std::string(">") + share + "<"), std::string::npos) << share;
  }
  for (const analysis::MaterialStats& m : s.materials) {
    EXPECT_NE(svg.find(">" + grouped(m.positions) + "<"), std::string::npos) << m.positions;
  }
}

TEST(StatsSvg, XmlCheckFindsErrors) {
  EXPECT_NE(xml_problem("<svg a=\"1\"><g></svg>"), "");
  EXPECT_NE(xml_problem("<svg a=\"1\"></svg><svg a=\"1\"></svg>"), "");
  EXPECT_EQ(xml_problem("<svg a=\"1\"><g/><text>x</text></svg>"), "");
}

}  // namespace
