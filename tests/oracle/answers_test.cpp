// The published answers files (data/answers/RxC-kK.tsv, docs/results.md)
// re-derived from their tables: every line's winner and plies, a best move
// that is one, and positions that are what the line says (the start, the
// start after a first move); and the published tier checksums
// (data/tiers/RxC-kK.tsv, `pawntb info --tiers`). A file whose table is not at
// hand is skipped: tables are looked for in data/, $PAWNTB_TABLE_DIR and the
// test build's tables. Every answers file is also checked against the rules
// alone, without its table (check_answers_alone).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "pawntb/check.hpp"
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

// Every way the answers text disagrees with itself and the rules, without the
// table, one line each: the start line is the board's start; every first move
// has its "after" line, the start after that move; the start's value follows
// from theirs (the mover wins if a move leaves the opponent lost, in one ply
// more than the quickest such move, else loses in one more than the longest),
// and its best move is one that does so; the side to move wins at odd plies
// and loses at even ones. So a file whose table is not at hand is still checked.
std::vector<std::string> check_answers_alone(const std::string& name, const std::string& text) {
  std::vector<std::string> problems;
  int rows = 0, cols = 0, pawns = 0;
  if (std::sscanf(name.c_str(), "%dx%d-k%d", &rows, &cols, &pawns) != 3)
    return {"bad name " + name};
  const pawntb::Geometry g{rows, cols};
  const pawntb::Position start = pawntb::start_position(g, pawns);
  struct Answer {
    pawntb::Position position;
    pawntb::Side winner;
    int plies;
    std::string best;
  };
  std::optional<Answer> start_answer;
  std::vector<std::pair<std::string, Answer>> after;  // by first move
  int line_number = 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    ++line_number;
    if (line.empty() || line[0] == '#') continue;
    const std::string where = "line " + std::to_string(line_number) + ": ";
    const std::vector<std::string> f = split(line, '\t');
    const auto parsed = pawntb::parse_position(f.empty() ? "" : f[0]);
    if (f.size() != 5 || !std::holds_alternative<pawntb::Position>(parsed) ||
        (f[2] != "white" && f[2] != "black") || f[3].empty() ||
        f[3].find_first_not_of("0123456789") != std::string::npos) {
      problems.push_back(where + "not a line of an answers file");
      continue;
    }
    const Answer a{std::get<pawntb::Position>(parsed),
                   f[2] == "white" ? pawntb::Side::white : pawntb::Side::black, std::stoi(f[3]),
                   f[4]};
    if ((a.winner == a.position.to_move) != (a.plies % 2 == 1))
      problems.push_back(where + f[2] + " in " + f[3] + " has the wrong parity");
    if (f[1] == "start") {
      if (start_answer) problems.push_back(where + "a second start line");
      start_answer = a;
    }
    if (f[1].rfind("after ", 0) == 0) after.emplace_back(f[1].substr(6), a);
  }
  if (!start_answer) return {"no start line"};
  if (start_answer->position != start) problems.push_back("the start line is not the start");
  bool mover_wins = false;
  int quickest_win = 0, longest_loss = 0;
  for (const pawntb::Move m : pawntb::legal_moves(start)) {
    const std::string uci = pawntb::move_name(g, m);
    const auto it = std::find_if(after.begin(), after.end(),
                                 [&](const auto& entry) { return entry.first == uci; });
    if (it == after.end()) {
      problems.push_back("no line for the first move " + uci);
      continue;
    }
    const Answer& child = it->second;
    if (child.position != pawntb::play(start, m))
      problems.push_back("after " + uci + ": wrong position");
    if (child.winner == start.to_move) {
      quickest_win = mover_wins ? std::min(quickest_win, child.plies) : child.plies;
      mover_wins = true;
    }
    longest_loss = std::max(longest_loss, child.plies);
  }
  if (after.size() != static_cast<std::size_t>(pawntb::legal_moves(start).size))
    problems.push_back("the after lines are not the first moves");
  const pawntb::Side winner = mover_wins ? start.to_move : pawntb::opponent(start.to_move);
  const int plies = 1 + (mover_wins ? quickest_win : longest_loss);
  if (start_answer->winner != winner || start_answer->plies != plies) {
    problems.push_back("the start is " + std::string(pawntb::side_name(winner)) + " in " +
                       std::to_string(plies) + " by its first moves, not " +
                       pawntb::side_name(start_answer->winner) + " in " +
                       std::to_string(start_answer->plies));
  }
  const auto best = std::find_if(after.begin(), after.end(), [&](const auto& entry) {
    return entry.first == start_answer->best;
  });
  if (best == after.end() || best->second.winner != winner || best->second.plies != plies - 1)
    problems.push_back("the start's best move " + start_answer->best + " is not a best move");
  return problems;
}

class Answers : public testing::TestWithParam<std::string> {};

TEST_P(Answers, AgreeWithThemselvesWithoutTheTable) {
  const std::string name = GetParam();
  const std::string text =
      pawntb_test::read_file(pawntb_test::kDataDir / "answers" / (name + ".tsv"));
  for (const std::string& problem : check_answers_alone(name, text))
    ADD_FAILURE() << name << ": " << problem;
}

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
  const pawntb::check::TierChecksums tiers = pawntb::check::tier_checksums(*found, 0);
  ASSERT_TRUE(tiers.damaged_blocks.empty());
  const std::vector<std::string> lines =
      split(pawntb_test::read_file(pawntb_test::kDataDir / "tiers" / (name + ".tsv")), '\n');
  ASSERT_EQ(lines.size(), tiers.tiers.size() + 1) << name;
  EXPECT_EQ(lines[0],
            "tier\twhite_pawns\tblack_pawns\twhite_advance\tblack_advance\tfirst_entry\tentries\t"
            "xxh3_64");
  for (const pawntb::check::TierChecksum& t : tiers.tiers) {
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
  std::vector<std::string> wrong{with_field(first, 2, other_winner),
                                 with_field(first, 3, std::to_string(std::stoi(f[3]) + 2)),
                                 with_field(first, 4, worst),
                                 with_field(first, 4, "a1a4"),
                                 with_field(first, 0, "4/4/4/PPPP b"),
                                 with_field(first + 1, 1, "after a1a3"),
                                 std::string("# only a comment\n")};
  for (const std::string& text_with_error : wrong)
    EXPECT_FALSE(check_answers(table, text_with_error).empty()) << text_with_error;

  // Without the table these are caught too, and so is any first move's value
  // one ply off (its parity) or the best one's two plies off (it is then no
  // best move).
  ASSERT_TRUE(check_answers_alone("4x4-k4", text).empty());
  std::size_t after_lines = 0;
  for (std::size_t i = first + 1; i < lines.size(); ++i) {
    const std::vector<std::string> a = split(lines[i], '\t');
    if (a.size() != 5 || a[1].rfind("after ", 0) != 0) continue;
    ++after_lines;
    wrong.push_back(with_field(i, 3, std::to_string(std::stoi(a[3]) + 1)));
    if (a[1] == "after " + f[4])
      wrong.push_back(with_field(i, 3, std::to_string(std::stoi(a[3]) + 2)));
  }
  ASSERT_EQ(after_lines, 4u);                   // a1a2, b1b2, c1c2, d1d2
  wrong.push_back(text + lines[first] + "\n");  // a second start line
  ASSERT_EQ(wrong.size(), 7 + after_lines + 1 + 1);
  for (const std::string& text_with_error : wrong)
    EXPECT_FALSE(check_answers_alone("4x4-k4", text_with_error).empty()) << text_with_error;
}

}  // namespace
