// Tests of `pawntb probe`, run as a subprocess: human and JSON answers,
// stdin mode and refused positions.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "pawntb/notation.hpp"
#include "pawntb/position.hpp"
#include "support/cli_support.hpp"

namespace {

using namespace pawntb_test;
using nlohmann::json;

// Checks that every move of a JSON answer is well formed and that the list is
// best first for the side to move: its wins, fastest first, then its losses,
// longest first.
void expect_well_formed_moves(const json& answer) {
  ASSERT_TRUE(answer.contains("moves")) << answer.dump();
  ASSERT_TRUE(answer["moves"].is_array()) << answer.dump();
  const std::string mover = answer.at("to_move").get<std::string>();
  auto rank = [&](const json& m) {
    const bool wins = m.at("winner").get<std::string>() == mover;
    const int plies = m.at("plies").get<int>();
    return wins ? plies : 1000 - plies;
  };
  const json& moves = answer["moves"];
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const json& m = moves[i];
    ASSERT_TRUE(m.is_object()) << m.dump();
    ASSERT_TRUE(m.contains("uci") && m["uci"].is_string()) << m.dump();
    ASSERT_TRUE(m.contains("winner") && m["winner"].is_string()) << m.dump();
    ASSERT_TRUE(m.contains("plies") && m["plies"].is_number_integer()) << m.dump();
    const std::string winner = m["winner"].get<std::string>();
    EXPECT_TRUE(winner == "white" || winner == "black") << m.dump();
    EXPECT_TRUE(std::regex_match(m["uci"].get<std::string>(), std::regex("[a-h][1-8][a-h][1-8]")))
        << m.dump();
    EXPECT_GE(m["plies"].get<int>(), 0);
    EXPECT_LE(m["plies"].get<int>(), 254);
    if (i > 0) {
      EXPECT_LE(rank(moves[i - 1]), rank(m)) << "not best first: " << moves.dump();
    }
  }
}

// ---------------------------------------------------------------------------
// probe

TEST(CliProbe, HumanAnswer) {
  const RunResult r = run_cli({"probe", kStart});
  ASSERT_EQ(r.status, 0) << r;
  EXPECT_EQ(r.err, "") << r;
  const pawntb::Position p = parse(kStart);
  EXPECT_TRUE(contains(r.out, pawntb::format_position(p) + "\n" + pawntb::draw_board(p))) << r;
  EXPECT_TRUE(contains(r.out, "white to move: white wins in 7 plies\n")) << r;

  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.out, m, std::regex("\nbest move: ([a-h][1-8][a-h][1-8])\n")))
      << r;
  const std::string best = m[1];
  ASSERT_TRUE(std::regex_search(r.out, m, std::regex("\nline:((?: [a-h][1-8][a-h][1-8])*)\n")))
      << r;
  std::istringstream line_in(m[1].str());
  const std::vector<std::string> line{std::istream_iterator<std::string>(line_in),
                                      std::istream_iterator<std::string>()};
  ASSERT_EQ(line.size(), 7u) << r;
  EXPECT_EQ(line.front(), best);

  // The line is legal play from the position and ends the game.
  pawntb::Position at = p;
  for (const std::string& name : line) {
    ASSERT_EQ(pawntb::classify(at), pawntb::Status::playable) << name;
    bool found = false;
    for (const pawntb::Move mv : pawntb::legal_moves(at)) {
      if (pawntb::move_name(at.geometry, mv) == name) {
        at = pawntb::play(at, mv);
        found = true;
        break;
      }
    }
    ASSERT_TRUE(found) << name << " is not legal in " << pawntb::format_position(at);
  }
  EXPECT_EQ(pawntb::classify(at), pawntb::Status::over) << pawntb::format_position(at);
}

TEST(CliProbe, HumanAnswerForAFinishedGame) {
  const RunResult r = run_cli({"probe", "4/4/4/pppp w"});
  EXPECT_EQ(r.status, 0) << r;
  EXPECT_TRUE(contains(r.out, "white to move: black has won\n")) << r;
  EXPECT_FALSE(contains(r.out, "best move:")) << r;
}

TEST(CliProbe, JsonAnswer) {
  const RunResult r = run_cli({"probe", "--json", kStart});
  ASSERT_EQ(r.status, 0) << r;
  EXPECT_EQ(r.err, "") << r;
  ASSERT_EQ(lines_of(r.out).size(), 1u) << r;
  const std::vector<json> answers = json_lines(r.out);
  ASSERT_EQ(answers.size(), 1u);
  const json& a = answers[0];
  ASSERT_TRUE(a.is_object()) << a.dump();
  EXPECT_EQ(a.value("winner", ""), "white");
  EXPECT_EQ(a.value("to_move", ""), "white");
  ASSERT_TRUE(a.contains("plies") && a["plies"].is_number_integer()) << a.dump();
  EXPECT_EQ(a["plies"].get<int>(), 7);
  expect_well_formed_moves(a);
  const json& moves = a["moves"];
  ASSERT_FALSE(moves.empty());
  EXPECT_EQ(moves[0]["winner"], "white");
  EXPECT_EQ(moves[0]["plies"], 6);
  EXPECT_EQ(a.value("best", ""), moves[0]["uci"].get<std::string>());
  ASSERT_TRUE(a.contains("line") && a["line"].is_array());
  ASSERT_EQ(a["line"].size(), 7u);
  EXPECT_EQ(a["line"][0], moves[0]["uci"]);

  // The moves are exactly the legal moves.
  const pawntb::Position p = parse(kStart);
  std::vector<std::string> legal, listed;
  for (const pawntb::Move mv : pawntb::legal_moves(p))
    legal.push_back(pawntb::move_name(p.geometry, mv));
  for (const json& m : moves) listed.push_back(m["uci"].get<std::string>());
  std::sort(legal.begin(), legal.end());
  std::sort(listed.begin(), listed.end());
  EXPECT_EQ(listed, legal);
}

// Every move's value equals the value the CLI gives for the position it leads
// to, and the position's value is the best of them.
TEST(CliProbe, JsonMoveValuesAgreeWithTheirSuccessors) {
  for (const std::string start : {kStart, "pp1p/1p2/4/PPPP w", ".ppp/p3/PPPP/4 b"}) {
    const RunResult r = run_cli({"probe", "--json", start});
    ASSERT_EQ(r.status, 0) << r;
    const std::vector<json> answers = json_lines(r.out);
    ASSERT_EQ(answers.size(), 1u);
    const json& a = answers[0];
    expect_well_formed_moves(a);
    const pawntb::Position p = parse(start);

    std::vector<std::string> args{"probe", "--json"};
    std::vector<std::string> names;
    for (const pawntb::Move mv : pawntb::legal_moves(p)) {
      names.push_back(pawntb::move_name(p.geometry, mv));
      args.push_back(pawntb::format_position(pawntb::play(p, mv)));
    }
    const RunResult s = run_cli(args);
    ASSERT_EQ(s.status, 0) << s;
    const std::vector<json> successors = json_lines(s.out);
    ASSERT_EQ(successors.size(), names.size()) << s;
    std::map<std::string, json> after;
    for (std::size_t i = 0; i < names.size(); ++i) after[names[i]] = successors[i];

    ASSERT_EQ(a["moves"].size(), names.size());
    for (const json& m : a["moves"]) {
      const std::string uci = m["uci"].get<std::string>();
      ASSERT_TRUE(after.count(uci)) << uci;
      EXPECT_EQ(m["winner"], after[uci]["winner"]) << start << " " << uci;
      EXPECT_EQ(m["plies"], after[uci]["plies"]) << start << " " << uci;
      // The position it leads to, and its category for the side then to move.
      EXPECT_EQ(m["position"], after[uci]["position"]) << start << " " << uci;
      EXPECT_EQ(m["category"], after[uci]["category"]) << start << " " << uci;
    }
    const json& best = a["moves"][0];
    EXPECT_EQ(a["winner"], best["winner"]) << start;
    EXPECT_EQ(a["plies"].get<int>(), best["plies"].get<int>() + 1) << start;
  }
}

// The keys of an answer, in the order --help documents; geometry and
// category follow from the position and its value.
TEST(CliProbe, JsonKeysInTheDocumentedOrder) {
  using ordered = nlohmann::ordered_json;
  auto keys = [](const ordered& object) {
    std::vector<std::string> names;
    for (auto it = object.begin(); it != object.end(); ++it) names.push_back(it.key());
    return names;
  };
  const RunResult r = run_cli({"probe", "--json", kStart, ".ppp/4/.PPP/4 b"});
  ASSERT_EQ(r.status, 0) << r;
  const std::vector<std::string> lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 2u) << r;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const ordered a = ordered::parse(lines[i]);
    EXPECT_EQ(keys(a),
              (std::vector<std::string>{"argument", "position", "geometry", "to_move", "winner",
                                        "plies", "dtm", "category", "best", "moves", "line"}));
    EXPECT_EQ(a["argument"], i + 1);
    EXPECT_EQ(keys(a["geometry"]), (std::vector<std::string>{"rows", "cols", "max_pawns"}));
    EXPECT_EQ(a["geometry"], ordered::parse(R"({"rows":4,"cols":4,"max_pawns":4})"));
    ASSERT_FALSE(a["moves"].empty());
    for (const ordered& m : a["moves"]) {
      EXPECT_EQ(keys(m),
                (std::vector<std::string>{"uci", "winner", "plies", "dtm", "category", "position"}));
      const std::string after_move = m["position"].get<std::string>();
      EXPECT_EQ(after_move.back(), a["to_move"] == "white" ? 'b' : 'w') << m.dump();
    }
    EXPECT_EQ(a["category"], a["winner"] == a["to_move"] ? "win" : "loss");
  }
  // The best move keeps the winner: for the side then to move, its category
  // is the opposite of the position's.
  for (const std::string& line : lines) {
    const ordered a = ordered::parse(line);
    EXPECT_NE(a["moves"][0]["category"], a["category"]) << line;
  }
}

TEST(CliProbe, ColourFlippedPositionHasTheMirroredValue) {
  // '.ppp/4/.PPP/4 w' with the rows reversed and the colours swapped.
  const RunResult r = run_cli({"probe", "--json", "4/.ppp/4/.PPP b"});
  ASSERT_EQ(r.status, 0) << r;
  const std::vector<json> answers = json_lines(r.out);
  ASSERT_EQ(answers.size(), 1u);
  EXPECT_EQ(answers[0]["to_move"], "black");
  EXPECT_EQ(answers[0]["winner"], "black");
  EXPECT_EQ(answers[0]["plies"], 7);
  expect_well_formed_moves(answers[0]);
}

TEST(CliProbe, JsonFinishedPosition) {
  const RunResult r = run_cli({"probe", "--json", "4/4/4/pppp w"});
  ASSERT_EQ(r.status, 0) << r;
  const std::vector<json> answers = json_lines(r.out);
  ASSERT_EQ(answers.size(), 1u);
  const json& a = answers[0];
  EXPECT_EQ(a["winner"], "black");
  EXPECT_EQ(a["plies"], 0);
  EXPECT_EQ(a["category"], "loss");
  EXPECT_EQ(a["moves"], json::array());
  EXPECT_EQ(a["line"], json::array());
  EXPECT_TRUE(a["best"].is_null());
}

TEST(CliProbe, JsonFromStdin) {
  const std::string input = std::string(kStart) + "\n\nxyz w\n4/4/4/pppp w\n\n";
  const RunResult r = run_with_input({"probe", "--json", "-"}, input);
  EXPECT_EQ(r.status, 2) << r;
  ASSERT_EQ(lines_of(r.out).size(), 3u) << r;
  const std::vector<json> answers = json_lines(r.out);
  ASSERT_EQ(answers.size(), 3u);
  EXPECT_EQ(answers[0]["winner"], "white");
  EXPECT_EQ(answers[0]["plies"], 7);
  ASSERT_TRUE(answers[1].is_object());
  EXPECT_TRUE(answers[1].contains("error")) << answers[1].dump();
  EXPECT_TRUE(answers[1]["error"].is_string()) << answers[1].dump();
  EXPECT_FALSE(answers[1].contains("winner")) << answers[1].dump();
  EXPECT_EQ(answers[1].value("input", ""), "xyz w");
  EXPECT_EQ(answers[1].value("input_line", 0), 3);
  EXPECT_EQ(answers[2]["winner"], "black");
  EXPECT_EQ(answers[2]["plies"], 0);
  EXPECT_TRUE(contains(r.err, "stdin:3")) << r;
  EXPECT_EQ(lines_of(r.err).size(), 1u) << r;
}

TEST(CliProbe, StdinWithCrlfAndNoFinalNewline) {
  const std::string input = std::string(kStart) + "\r\n\r\n4/4/4/pppp w";
  const RunResult r = run_with_input({"probe", "--json", "-"}, input);
  EXPECT_EQ(r.status, 0) << r;
  const std::vector<json> answers = json_lines(r.out);
  ASSERT_EQ(answers.size(), 2u) << r;
  EXPECT_EQ(answers[0]["plies"], 7);
  EXPECT_EQ(answers[1]["plies"], 0);
}

TEST(CliProbe, OverlongStdinLineIsAnError) {
  const std::string input = std::string(10000, 'p') + " w\n" + kStart + "\n";
  const RunResult r = run_with_input({"probe", "--json", "-"}, input);
  EXPECT_EQ(r.status, 2) << r;
  const std::vector<json> answers = json_lines(r.out);
  ASSERT_EQ(answers.size(), 2u) << r;
  EXPECT_TRUE(answers[0].contains("error"));
  EXPECT_EQ(answers[0].value("input_line", 0), 1);
  EXPECT_EQ(answers[1]["plies"], 7);
}

TEST(CliProbe, InvalidPositionIsAnInputError) {
  const RunResult r = run_cli({"probe", "PPPP/4/4/4 w"});
  EXPECT_EQ(r.status, 2) << r;
  EXPECT_EQ(r.out, "") << r;
  EXPECT_TRUE(contains(r.err, "argument 1:")) << r;
  EXPECT_TRUE(contains(r.err, "invalid position")) << r;

  const RunResult j = run_cli({"probe", "--json", "PPPP/4/4/4 w"});
  EXPECT_EQ(j.status, 2) << j;
  const std::vector<json> answers = json_lines(j.out);
  ASSERT_EQ(answers.size(), 1u) << j;
  EXPECT_TRUE(answers[0].contains("error"));
  EXPECT_FALSE(answers[0].contains("winner"));
}

TEST(CliProbe, UnparsablePositionsAreInputErrors) {
  for (const std::string text :
       {"xyz w", ".ppp/4/.PPP/4", ".ppp/4/.PPP/4 x", ".ppp/4/.PP/4 w", ""}) {
    const RunResult r = run_cli({"probe", "--json", text});
    EXPECT_EQ(r.status, 2) << "'" << text << "'\n" << r;
    const std::vector<json> answers = json_lines(r.out);
    ASSERT_EQ(answers.size(), 1u) << r;
    EXPECT_TRUE(answers[0].contains("error")) << answers[0].dump();
    EXPECT_FALSE(answers[0].contains("winner")) << answers[0].dump();
    EXPECT_TRUE(contains(r.err, "argument 1:")) << r;
  }
}

TEST(CliProbe, WrongGeometryNamesBoth) {
  const RunResult r = run_cli({"probe", "--table", kDefaultTable.string(), "ppp/3/PPP w"});
  EXPECT_EQ(r.status, 2) << r;
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(contains(r.err, "3x3")) << r;
  EXPECT_TRUE(contains(r.err, "4x4")) << r;
}

// Without --table, each position gets the table of its board size; with
// none found, the error says how to make one, and the others are answered.
// A missing table is a runtime failure (exit 1), as for every command
// (it was once 2 here and 1 for --start).
TEST(CliProbe, TableChosenByBoardSize) {
  const RunResult r = run_cli({"probe", "--json", "pppp/4/PPPP w", kStart});  // no 3x4 table
  EXPECT_EQ(r.status, 1) << r;
  EXPECT_TRUE(r.err.starts_with("pawntb probe: argument 1: no table for 3x4")) << r;
  EXPECT_TRUE(r.err.ends_with("make one with `pawntb generate --rows 3 --cols 4`\n")) << r;
  EXPECT_EQ(lines_of(r.err).size(), 1u) << r;
  const std::vector<json> answers = json_lines(r.out);
  ASSERT_EQ(answers.size(), 2u) << r;
  EXPECT_TRUE(answers[0].contains("error"));
  EXPECT_EQ(answers[1]["plies"], 7);
}

// --json carries the signed dtm (for the side to move, as lichess's) and,
// when the game is over, why.
TEST(CliProbe, JsonHasDtmAndReason) {
  const RunResult r = run_cli({"probe", "--json", kStart, ".ppp/4/.PPP/4 b", "P3/4/4/4 b",
                               "4/4/4/PPPP b", "4/p3/P3/4 w"});
  ASSERT_EQ(r.status, 0) << r;
  const std::vector<json> a = json_lines(r.out);
  ASSERT_EQ(a.size(), 5u) << r;
  EXPECT_EQ(a[0]["dtm"], 7);
  EXPECT_FALSE(a[0].contains("reason"));
  EXPECT_EQ(a[0]["moves"][0]["dtm"], -6);  // black to move after c2c3, and lost
  EXPECT_EQ(a[1]["dtm"], a[1]["winner"] == "black" ? a[1]["plies"].get<int>()
                                                   : -a[1]["plies"].get<int>());
  EXPECT_EQ(a[2]["reason"], "goal");
  EXPECT_EQ(a[2]["dtm"], 0);
  EXPECT_EQ(a[3]["reason"], "no_pawns");
  EXPECT_EQ(a[4]["reason"], "no_moves");
}

// No table: a position and --start fail alike, with exit 1. (The build
// tree's share/pawntb is searched too, and has no 3x4 table.)
TEST(CliProbe, NoTableIsExitOneForPositionsAndStart) {
  TempDir empty;
  RunOptions options;
  options.cwd = empty.path();
  options.table_env = empty.path().string();
  const RunResult position = run_cli({"probe", "pppp/4/PPPP w"}, options);
  RunOptions no_file = options;
  no_file.table_env = (empty / "4x4-k4.pawntb").string();
  const RunResult start = run_cli({"probe", "--start"}, no_file);
  RunOptions with_input = options;
  with_input.input = "pppp/4/PPPP w\nxyz w\n";
  const RunResult from_stdin = run_cli({"probe", "-"}, with_input);
  for (const RunResult* r : {&position, &start, &from_stdin}) EXPECT_EQ(r->status, 1) << *r;
  EXPECT_TRUE(contains(position.err, "no table for 3x4")) << position;
  EXPECT_TRUE(contains(start.err, "4x4-k4.pawntb")) << start;
  EXPECT_TRUE(contains(from_stdin.err, "stdin:1: no table for 3x4")) << from_stdin;
  EXPECT_TRUE(contains(from_stdin.err, "stdin:2:")) << from_stdin;
}

// --moves plays moves first; --start is the table's start position.
TEST(CliProbe, MovesAndStart) {
  const pawntb::Position start = pawntb::start_position({4, 4}, 4);
  const pawntb::Position after = std::get<pawntb::Position>(pawntb::play_moves(start, "a1a2,a4a3"));
  const RunResult plain = run_cli({"probe", "--json", pawntb::format_position(after)});
  ASSERT_EQ(plain.status, 0) << plain;
  const json expected = json_lines(plain.out).at(0);
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"probe", "--json", "--start", "--moves", "a1a2,a4a3"},
        std::vector<std::string>{"probe", "--json", pawntb::format_position(start), "--moves",
                                 "a1a2 a4a3"}}) {
    const RunResult r = run_cli(args);
    ASSERT_EQ(r.status, 0) << r;
    const std::vector<json> answers = json_lines(r.out);
    ASSERT_EQ(answers.size(), 1u) << r;
    json a = answers[0];
    EXPECT_EQ(a.contains("start"), args[2] == "--start") << a.dump();
    a.erase("start");
    a.erase("argument");
    json e = expected;
    e.erase("argument");
    EXPECT_EQ(a, e);
  }
  // The start alone: the 4x4 start, a win for white.
  const RunResult s = run_cli({"probe", "--json", "--start"});
  ASSERT_EQ(s.status, 0) << s;
  EXPECT_EQ(json_lines(s.out).at(0)["position"], pawntb::format_position(start));
  EXPECT_TRUE(s.out.starts_with("{\"start\":true,")) << s;
}

// A bad move is an input error naming the move; no value is printed.
TEST(CliProbe, BadMoveIsAnInputError) {
  const RunResult r = run_cli({"probe", "--start", "--moves", "a1a2,b4b2"});
  EXPECT_EQ(r.status, 2) << r;
  EXPECT_EQ(r.out, "") << r;
  EXPECT_TRUE(r.err.starts_with("pawntb probe: --start: --moves: move 2: b4b2")) << r;
  const RunResult j = run_cli({"probe", "--json", kStart, "--moves", "a1a2"});
  EXPECT_EQ(j.status, 2) << j;
  const std::vector<json> answers = json_lines(j.out);
  ASSERT_EQ(answers.size(), 1u) << j;
  EXPECT_FALSE(answers[0].contains("winner")) << j;
  EXPECT_FALSE(answers[0].contains("plies")) << j;
  EXPECT_TRUE(contains(answers[0].value("error", ""), "a1a2")) << j;
  // --start with a position is a usage error.
  EXPECT_EQ(run_cli({"probe", "--start", kStart}).status, 2);
}

TEST(CliProbe, TooManyPawnsIsAnInputError) {
  const RunResult r = run_cli({"probe", "ppp1/pp2/PP2/PPP1 w"});
  EXPECT_EQ(r.status, 2) << r;
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(contains(r.err, "4 pawns")) << r;
}

TEST(CliProbe, GoodPositionsAreAnsweredAroundABadOne) {
  const RunResult r = run_cli({"probe", "--json", kStart, "PPPP/4/4/4 w", "4/4/4/pppp w"});
  EXPECT_EQ(r.status, 2) << r;
  const std::vector<json> answers = json_lines(r.out);
  ASSERT_EQ(answers.size(), 3u) << r;
  EXPECT_EQ(answers[0]["plies"], 7);
  EXPECT_TRUE(answers[1].contains("error"));
  EXPECT_EQ(answers[1].value("argument", 0), 2);
  EXPECT_EQ(answers[2]["plies"], 0);
  EXPECT_TRUE(contains(r.err, "argument 2:")) << r;
}

// Every non-blank line of stdin gets exactly one JSON line, in order, answer
// or error (an over-long line too), each with its line number; blank lines
// get nothing. Operands carry their number as "argument".
TEST(CliProbe, JsonStreamHasOneLinePerNonBlankInputLine) {
  const std::vector<std::string> lines = {
      kStart,         "",   "xyz w",        " \t ",   std::string(5000, 'p') + " w",
      "4/4/4/pppp w", "\t", "PPPP/4/4/4 w", "# note", "  " + std::string(kStart) + "  ",
  };
  std::string input;
  for (const std::string& line : lines) input += line + "\n";
  const RunResult r = run_with_input({"probe", "--json", kStart, "-", "4/4/4/pppp w"}, input);
  EXPECT_EQ(r.status, 2) << r;
  const std::vector<json> answers = json_lines(r.out);
  ASSERT_EQ(answers.size(), lines_of(r.out).size()) << r;
  // The first operand, then stdin's non-blank lines, then the third operand.
  std::vector<std::string> places, expected_places{"argument 1"};
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].find_first_not_of(" \t") != std::string::npos) {
      expected_places.push_back("input_line " + std::to_string(i + 1));
    }
  }
  expected_places.push_back("argument 3");
  const std::vector<std::string> out_lines = lines_of(r.out);
  for (std::size_t i = 0; i < answers.size(); ++i) {
    const json& a = answers[i];
    ASSERT_TRUE(a.is_object()) << a.dump();
    const std::string key = a.contains("input_line") ? "input_line" : "argument";
    ASSERT_TRUE(a.contains(key) && a[key].is_number_unsigned()) << a.dump();
    EXPECT_TRUE(out_lines[i].starts_with("{\"" + key + "\":")) << "the place comes first";
    places.push_back(key + " " + std::to_string(a[key].get<int>()));
    EXPECT_NE(a.contains("error"), a.contains("winner")) << a.dump();
  }
  EXPECT_EQ(places, expected_places) << r;
  // The errors: lines 3, 5, 8 and 9, on stderr and as objects.
  EXPECT_EQ(lines_of(r.err).size(), 4u) << r;
  EXPECT_EQ(answers[3].value("error", ""), "line longer than 4096 bytes");
  EXPECT_EQ(answers[3].value("input", "?"), "");
  EXPECT_EQ(answers[5].value("input", ""), "PPPP/4/4/4 w");
  EXPECT_EQ(answers[6].value("input", ""), "# note");
  EXPECT_EQ(answers[7].value("position", ""), "1ppp/4/1PPP/4 w");
}

// Blank lines alone give no output at all, and exit status 0.
TEST(CliProbe, BlankStdinLinesGiveNothing) {
  for (const bool json_output : {false, true}) {
    std::vector<std::string> args{"probe", "-"};
    if (json_output) args.insert(args.begin() + 1, "--json");
    const RunResult r = run_with_input(args, "\n \n\t\n\r\n");
    EXPECT_EQ(r.status, 0) << r;
    EXPECT_EQ(r.out, "") << r;
    EXPECT_EQ(r.err, "") << r;
  }
}

}  // namespace

// Spaces and tabs around an operand are dropped, as on stdin, and an
// operand's error names the command and the operand.
TEST(CliProbe, OperandsAreTrimmedAndTheirErrorsNameTheCommand) {
  const RunResult ok = run_cli({"probe", " \t.ppp/4/.PPP/4 w \t"});
  EXPECT_EQ(ok.status, 0) << ok;
  EXPECT_TRUE(contains(ok.out, "white to move: white wins in 7 plies")) << ok;
  const RunResult bad = run_cli({"probe", "pp/pp/4/PPPP w"});
  EXPECT_EQ(bad.status, 2) << bad;
  EXPECT_EQ(bad.err, "pawntb probe: argument 1: ragged board: rank 4 has 2 squares, rank 1 has 4\n")
      << bad;
}
