// The published answers files (data/answers/RxC-kK.tsv, docs/results.md)
// re-derived from their tables: every line's winner and plies, a best move
// that is one, and positions that are what the line says (the start, the
// start after a first move); and the published tier checksums
// (data/tiers/RxC-kK.tsv, `pawntb info --tiers`). A file whose table is not at
// hand is skipped: tables are looked for in data/, $PAWNTB_TABLE_DIR and the
// test build's tables.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "pawntb/notation.hpp"
#include "pawntb/probe.hpp"
#include "support/test_support.hpp"

namespace {

namespace fs = std::filesystem;

// The names (RxC-kK) of the .tsv files in data/<dir>.
std::vector<std::string> tsv_files(const char* dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(pawntb_test::kDataDir / dir))
    if (entry.path().extension() == ".tsv") names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::optional<fs::path> find_table(const std::string& name) {
  std::vector<fs::path> dirs{pawntb_test::kDataDir};
  if (const char* dir = std::getenv("PAWNTB_TABLE_DIR")) dirs.emplace_back(dir);
  dirs.emplace_back(PAWNTB_TEST_TABLES);
  for (const fs::path& dir : dirs)
    if (fs::is_regular_file(dir / (name + ".pawntb"))) return dir / (name + ".pawntb");
  return std::nullopt;
}

// The table of a published file (RxC-kK), opened on demand, if it is at hand.
std::optional<pawntb::Table> published_table(const std::string& name) {
  const std::optional<fs::path> path = find_table(name);
  if (!path) return std::nullopt;
  return pawntb::Table::open(*path, pawntb::Table::Load::on_demand);
}

// "4x4-k4": what the published files of a table are called.
std::string table_name(const pawntb::TableInfo& info) {
  return pawntb::to_string(info.geometry) + "-k" + std::to_string(info.max_pawns);
}

std::vector<std::string> split(const std::string& line, char sep) {
  std::vector<std::string> fields;
  std::istringstream in(line);
  for (std::string field; std::getline(in, field, sep);) fields.push_back(field);
  return fields;
}

// Every way the answers text disagrees with the table, one line each.
std::vector<std::string> check_answers(const pawntb::Table& table, const std::string& text) {
  std::vector<std::string> problems;
  const pawntb::Position start = table.start_position();
  int line_number = 0, answers = 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    ++line_number;
    if (line.empty() || line[0] == '#') continue;
    ++answers;
    const std::string where = "line " + std::to_string(line_number) + ": ";
    const std::vector<std::string> f = split(line, '\t');
    if (f.size() != 5) {
      problems.push_back(where + "expected 5 tab-separated fields");
      continue;
    }
    const auto parsed = pawntb::parse_position(f[0]);
    if (!std::holds_alternative<pawntb::Position>(parsed)) {
      problems.push_back(where + "bad position " + f[0]);
      continue;
    }
    const pawntb::Position p = std::get<pawntb::Position>(parsed);
    // The position is what the line says it is.
    std::optional<pawntb::Position> said;
    if (f[1] == "start") said = start;
    if (f[1].rfind("after ", 0) == 0) {
      const auto after = pawntb::play_moves(start, f[1].substr(6));
      if (std::holds_alternative<pawntb::Position>(after))
        said = std::get<pawntb::Position>(after);
      else
        problems.push_back(where + f[1] + " is not a move of the start");
    }
    if (said && *said != p) problems.push_back(where + f[0] + " is not the " + f[1]);
    if (!said && f[1] != "longest win" && f[1] != "longest game" && f[1].rfind("after ", 0) != 0)
      problems.push_back(where + "unknown kind " + f[1]);

    const pawntb::RootResult root = table.probe_root(p);
    if (!root.value.ok()) {
      problems.push_back(where + f[0] +
                         ": the table cannot answer: " + pawntb::describe(root.value.status));
      continue;
    }
    const std::string winner = pawntb::side_name(root.value.winner);
    const std::string plies = std::to_string(root.value.plies);
    if (f[2] != winner || f[3] != plies)
      problems.push_back(where + f[0] + ": file says " + f[2] + " in " + f[3] + ", table says " +
                         winner + " in " + plies);
    if (f[4] == "-") {
      if (!root.moves.empty())
        problems.push_back(where + f[0] + ": no best move, but it has moves");
      continue;
    }
    const auto move = pawntb::parse_move(p, f[4]);
    const auto it = std::holds_alternative<pawntb::Move>(move)
                        ? std::find_if(root.moves.begin(), root.moves.end(),
                                       [&](const pawntb::MoveValue& m) {
                                         return m.move == std::get<pawntb::Move>(move);
                                       })
                        : root.moves.end();
    if (it == root.moves.end()) {
      problems.push_back(where + f[4] + " is not a legal move of " + f[0]);
    } else if (it->winner != root.moves.front().winner || it->plies != root.moves.front().plies) {
      problems.push_back(where + f[4] + " is not a best move of " + f[0]);
    }
  }
  if (answers == 0) problems.push_back("no answers");
  return problems;
}

class Answers : public testing::TestWithParam<std::string> {};

TEST_P(Answers, MatchTheTable) {
  const std::string name = GetParam();
  const std::optional<pawntb::Table> found = published_table(name);
  if (!found) GTEST_SKIP() << "no " << name << ".pawntb here (set PAWNTB_TABLE_DIR)";
  const pawntb::Table& table = *found;
  ASSERT_EQ(table_name(table.info()), name);
  const std::string text =
      pawntb_test::read_file(pawntb_test::kDataDir / "answers" / (name + ".tsv"));
  for (const std::string& problem : check_answers(table, text))
    ADD_FAILURE() << name << ": " << problem;
}

std::string test_name(const testing::TestParamInfo<std::string>& param) {
  std::string name = param.param;
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

INSTANTIATE_TEST_SUITE_P(Files, Answers, testing::ValuesIn(tsv_files("answers")), test_name);

// A tier file's lines are the table's tiers, in order, with their checksums:
// "tier white_pawns black_pawns white_advance black_advance first_entry
// entries xxh3_64" after a line of those names.
class Tiers : public testing::TestWithParam<std::string> {};

TEST_P(Tiers, MatchTheTable) {
  const std::string name = GetParam();
  const std::optional<pawntb::Table> found = published_table(name);
  if (!found) GTEST_SKIP() << "no " << name << ".pawntb here (set PAWNTB_TABLE_DIR)";
  ASSERT_EQ(table_name(found->info()), name);
  const pawntb::TierChecksums tiers = found->tier_checksums(0);
  ASSERT_TRUE(tiers.damaged_blocks.empty());
  const std::vector<std::string> lines =
      split(pawntb_test::read_file(pawntb_test::kDataDir / "tiers" / (name + ".tsv")), '\n');
  ASSERT_EQ(lines.size(), tiers.tiers.size() + 1) << name;
  EXPECT_EQ(lines[0],
            "tier\twhite_pawns\tblack_pawns\twhite_advance\tblack_advance\tfirst_entry\tentries\t"
            "xxh3_64");
  for (const pawntb::TierChecksum& t : tiers.tiers) {
    const std::string& line = lines[t.tier + 1];
    const std::vector<std::string> f = split(line, '\t');
    ASSERT_EQ(f.size(), 8u) << line;
    EXPECT_EQ(f[0], std::to_string(t.tier)) << line;
    EXPECT_EQ(f[1] + " " + f[2] + " " + f[3] + " " + f[4],
              std::to_string(t.white_pawns) + " " + std::to_string(t.black_pawns) + " " +
                  std::to_string(t.white_advance) + " " + std::to_string(t.black_advance))
        << line;
    EXPECT_EQ(f[5], std::to_string(t.first_entry)) << line;
    EXPECT_EQ(f[6], std::to_string(t.entries)) << line;
    EXPECT_EQ(std::stoull(f[7], nullptr, 16), t.checksum) << line;
  }
}

INSTANTIATE_TEST_SUITE_P(Files, Tiers, testing::ValuesIn(tsv_files("tiers")), test_name);

// Each kind of wrong line in an answers file is caught.
TEST(AnswersCheck, CatchesWrongLines) {
  const pawntb::Table table = pawntb::Table::open(pawntb_test::kDefaultTable);
  const std::string text = pawntb_test::read_file(pawntb_test::kDataDir / "answers/4x4-k4.tsv");
  ASSERT_TRUE(check_answers(table, text).empty());
  std::vector<std::string> lines = split(text, '\n');
  const std::size_t first = 1;  // after the comment line
  ASSERT_EQ(split(lines[first], '\t')[1], "start");
  auto with_field = [&](std::size_t line, std::size_t field, const std::string& value) {
    std::vector<std::string> copy = lines;
    std::vector<std::string> f = split(copy[line], '\t');
    f[field] = value;
    std::string joined;
    for (std::size_t i = 0; i < f.size(); ++i) joined += (i ? "\t" : "") + f[i];
    copy[line] = joined;
    std::string out;
    for (const std::string& l : copy) out += l + "\n";
    return out;
  };
  const std::vector<std::string> f = split(lines[first], '\t');
  const std::string other_winner = f[2] == "white" ? "black" : "white";
  // The start's worst move, which is legal but not best.
  const pawntb::RootResult root = table.probe_root(table.start_position());
  ASSERT_NE(root.moves.back().plies, root.moves.front().plies);
  const std::string worst = pawntb::move_name(table.info().geometry, root.moves.back().move);
  for (const std::string& wrong :
       {with_field(first, 2, other_winner),
        with_field(first, 3, std::to_string(std::stoi(f[3]) + 2)), with_field(first, 4, worst),
        with_field(first, 4, "a1a4"), with_field(first, 0, "4/4/4/PPPP b"),
        with_field(first + 1, 1, "after a1a3"), std::string("# only a comment\n")}) {
    EXPECT_FALSE(check_answers(table, wrong).empty()) << wrong;
  }
}

}  // namespace
