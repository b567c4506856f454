// Tests of `pawntb play`, run as a subprocess: scripted games whose every
// reply and verdict is checked against the brute-force oracle, the commands,
// bad input, --seed, and the terminal mode through a pseudo-terminal.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "oracle/brute_force.hpp"
#include "pawntb/notation.hpp"
#include "pawntb/position.hpp"
#include "support/cli_support.hpp"

namespace {

using namespace pawntb_test;

constexpr char kPlayStart[] = "pppp/4/4/PPPP w";

// The oracle's value of `p` (4x4 only), from the pawns' squares: row 0 is the
// top row in both.
pawntb_oracle::Result oracle_value(const pawntb::Position& p) {
  static pawntb_oracle::Solver solver(4, 4);  // keeps its memo between calls
  std::string board;
  for (int s = 0; s < p.geometry.squares(); ++s) {
    const std::uint64_t bit = 1ULL << s;
    board += (p.white & bit) ? 'P' : (p.black & bit) ? 'p' : '.';
  }
  const pawntb_oracle::Result r = solver.solve(board, p.to_move == pawntb::Side::white);
  EXPECT_TRUE(r.valid) << board;
  return r;
}

// "white wins in 7 plies", as play writes a value.
std::string oracle_text(const pawntb::Position& p) {
  const pawntb_oracle::Result r = oracle_value(p);
  return std::string(r.white_wins ? "white" : "black") + " wins in " + std::to_string(r.plies) +
         (r.plies == 1 ? " ply" : " plies");
}

// Whether `m` keeps the oracle's value of `p`: the same winner, one ply sooner.
bool optimal(const pawntb::Position& p, pawntb::Move m) {
  const pawntb_oracle::Result before = oracle_value(p), after = oracle_value(pawntb::play(p, m));
  return after.white_wins == before.white_wins && after.plies == before.plies - 1;
}

// The legal move of `p` called `uci`; fails the test if there is none.
pawntb::Move find_move(const pawntb::Position& p, const std::string& uci) {
  for (const pawntb::Move m : pawntb::legal_moves(p)) {
    if (pawntb::move_name(p.geometry, m) == uci) return m;
  }
  ADD_FAILURE() << uci << " is not a legal move in " << pawntb::format_position(p);
  return {};
}

// The text after `prefix` on each line of `text` that starts with it.
std::vector<std::string> lines_after(const std::string& text, const std::string& prefix) {
  std::vector<std::string> found;
  for (const std::string& line : lines_of(text)) {
    if (line.rfind(prefix, 0) == 0) found.push_back(line.substr(prefix.size()));
  }
  return found;
}

// The moves of the last game summary.
std::vector<std::string> summary_moves(const std::string& out) {
  const std::vector<std::string> lists = lines_after(out, "moves: ");
  if (lists.empty()) {
    ADD_FAILURE() << "no summary in\n" << out;
    return {};
  }
  std::vector<std::string> moves;
  std::istringstream words(lists.back());
  for (std::string w; words >> w;) moves.push_back(w);
  if (moves == std::vector<std::string>{"none"}) moves.clear();
  return moves;
}

RunResult play(std::vector<std::string> args, const std::string& input) {
  args.insert(args.begin(), "play");
  return run_with_input(args, input);
}

std::string join_lines(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& l : lines) text += l + "\n";
  return text;
}

// A whole game as `side`, fed one more move a run: the script's moves are
// chosen from the position the engine's replies lead to (good and bad ones
// in turn), and every engine reply, every verdict on the script's moves and
// the value shown are checked against the oracle.
void play_checked_game(const char* side, const char* seed) {
  const pawntb::Position start = parse(kPlayStart);
  const pawntb::Side player =
      std::string(side) == "white" ? pawntb::Side::white : pawntb::Side::black;
  std::vector<std::string> script;
  for (int step = 0;; ++step) {
    ASSERT_LT(step, 30) << "the game does not end";
    const RunResult r = play({"--as", side, "--seed", seed}, join_lines(script));
    ASSERT_EQ(r.status, 0) << r;
    ASSERT_EQ(r.err, "") << r;
    const std::vector<std::string> moves = summary_moves(r.out);
    const std::vector<std::string> verdicts = lines_after(r.out, "you played ");
    ASSERT_EQ(verdicts.size(), script.size()) << r;
    pawntb::Position p = start;
    std::size_t mistakes = 0, player_moves = 0;
    for (const std::string& uci : moves) {
      const pawntb::Move m = find_move(p, uci);
      const pawntb::Position next = pawntb::play(p, m);
      if (p.to_move == player) {
        ASSERT_LT(player_moves, script.size()) << r;
        EXPECT_EQ(uci, script[player_moves]) << r;
        const std::string& verdict = verdicts[player_moves++];
        const std::string now = pawntb::classify(next) == pawntb::Status::playable
                                    ? oracle_text(next)
                                    : std::string(pawntb::side_name(p.to_move)) + " has won";
        EXPECT_TRUE(contains(verdict, "(was: " + oracle_text(p) + ", now: " + now + ")"))
            << verdict;
        if (optimal(p, m)) {
          EXPECT_TRUE(contains(verdict, "kept the value")) << verdict;
        } else {
          ++mistakes;
          EXPECT_FALSE(contains(verdict, "kept the value")) << verdict;
        }
      } else {
        EXPECT_TRUE(optimal(p, m))
            << "engine reply " << uci << " in " << pawntb::format_position(p) << "\n"
            << r;
      }
      p = next;
    }
    EXPECT_EQ(player_moves, script.size()) << r;
    EXPECT_TRUE(contains(r.out, "your mistakes: " + std::to_string(mistakes) + "\n")) << r;
    if (pawntb::classify(p) != pawntb::Status::playable) {
      const bool won = p.to_move != player;
      EXPECT_TRUE(contains(r.out, won ? ": you won\n" : ": you lost\n")) << r;
      EXPECT_GT(step, 1);
      // The script's moves are both good and bad, so both verdicts were checked.
      EXPECT_GT(mistakes, 0u) << r;
      EXPECT_LT(mistakes, player_moves) << r;
      return;
    }
    EXPECT_EQ(p.to_move, player) << r;
    const std::string mover = pawntb::side_name(p.to_move);
    EXPECT_EQ(lines_after(r.out, mover + " to move: ").back(), oracle_text(p)) << r;
    // The next move: a bad one on even steps where there is one, else a good one.
    const pawntb::MoveList legal = pawntb::legal_moves(p);
    const bool want_optimal =
        step % 2 == 1 ||
        std::all_of(legal.begin(), legal.end(), [&](pawntb::Move m) { return optimal(p, m); });
    const pawntb::Move* next = std::find_if(
        legal.begin(), legal.end(), [&](pawntb::Move m) { return optimal(p, m) == want_optimal; });
    script.push_back(pawntb::move_name(p.geometry, *next));
  }
}

TEST(CliPlay, ScriptedGameAsWhiteIsPerfectPlay) {
  play_checked_game("white", "1");
}

TEST(CliPlay, ScriptedGameAsBlackIsPerfectPlay) {
  play_checked_game("black", "2");
}

TEST(CliPlay, HintIsAnOptimalMove) {
  for (const char* position : {kPlayStart, ".ppp/4/.PPP/4 w", "pp.p/2p1/P3/1PPP b"}) {
    const RunResult r = play({"--position", position}, "hint\n");
    ASSERT_EQ(r.status, 0) << r;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(r.out, m, std::regex("\nhint: ([a-d][1-4][a-d][1-4]) \\("))) << r;
    const pawntb::Position p = parse(position);
    EXPECT_TRUE(optimal(p, find_move(p, m[1]))) << position << "\n" << r;
  }
}

TEST(CliPlay, MovesListsEveryMoveWithItsValueBestFirst) {
  const pawntb::Position p = parse(".ppp/4/.PPP/4 w");
  const RunResult r = play({"--position", ".ppp/4/.PPP/4 w"}, "moves\n");
  ASSERT_EQ(r.status, 0) << r;
  std::vector<std::string> listed;  // "  c2c3  white wins in 6 plies", not "  abcd"
  for (const std::string& line : lines_after(r.out, "  ")) {
    if (std::regex_match(line, std::regex("[a-d][1-4][a-d][1-4]  .*"))) listed.push_back(line);
  }
  ASSERT_EQ(listed.size(), static_cast<std::size_t>(pawntb::legal_moves(p).size)) << r;
  int previous_rank = -1000;
  for (const std::string& line : listed) {
    const pawntb::Move m = find_move(p, line.substr(0, 4));
    EXPECT_EQ(line.substr(6), oracle_text(pawntb::play(p, m))) << r;
    const pawntb_oracle::Result v = oracle_value(pawntb::play(p, m));
    const int rank = v.white_wins ? v.plies : 1000 - v.plies;  // white's best first
    EXPECT_GE(rank, previous_rank) << r;
    previous_rank = rank;
  }
}

TEST(CliPlay, UndoTakesBackYourMoveAndTheReply) {
  const RunResult once = play({"--seed", "3"}, "a1a2\n");
  const std::vector<std::string> played = summary_moves(once.out);
  ASSERT_EQ(played.size(), 2u) << once;
  ASSERT_EQ(played[0], "a1a2");

  const RunResult r = play({"--seed", "3"}, "a1a2\nundo\nd1d2\n");
  ASSERT_EQ(r.status, 0) << r;
  EXPECT_EQ(r.err, "") << r;
  EXPECT_TRUE(contains(r.out, "\ntook back a1a2 " + played[1] + "\n")) << r;
  const std::vector<std::string> moves = summary_moves(r.out);
  ASSERT_EQ(moves.size(), 2u) << r;
  EXPECT_EQ(moves[0], "d1d2") << r;
  // The position after the undo is the start again.
  const std::size_t undone = r.out.find("took back");
  EXPECT_LT(r.out.find("\n" + std::string(kPlayStart) + "\n", undone),
            r.out.find("you played d1d2"))
      << r;

  const RunResult nothing = play({}, "undo\n");
  EXPECT_EQ(nothing.status, 2) << nothing;
  EXPECT_EQ(nothing.err, "pawntb play: stdin:1: nothing to undo\n") << nothing;
}

// A refused line of a script is an input error: the game goes on, and the
// exit status is 2 (README: "2 usage or input error").
TEST(CliPlay, BadInputIsRefusedAndTheGameGoesOn) {
  const RunResult r = play({}, "a1a4\nxyzzy\n\n  A1A2  \n");
  ASSERT_EQ(r.status, 2) << r;
  const std::vector<std::string> errors = lines_of(r.err);
  ASSERT_EQ(errors.size(), 2u) << r;
  EXPECT_EQ(errors[0].rfind("pawntb play: stdin:1: a1a4: not a legal move for white (legal: a1a2 ", 0), 0u) << r;
  EXPECT_EQ(errors[1], "pawntb play: stdin:2: 'xyzzy': not a move or a command (type help)") << r;
  const std::vector<std::string> moves = summary_moves(r.out);
  ASSERT_FALSE(moves.empty()) << r;
  EXPECT_EQ(moves[0], "a1a2") << r;
}

TEST(CliPlay, ScriptedBadInputExitsTwo) {
  const RunResult illegal = play({}, "a1a3\n");
  EXPECT_EQ(illegal.status, 2) << illegal;
  EXPECT_EQ(illegal.err.rfind("pawntb play: stdin:1: a1a3: not a legal move for white", 0), 0u) << illegal;
  const RunResult unknown = play({}, "a1a2\nzz\n");
  EXPECT_EQ(unknown.status, 2) << unknown;
  EXPECT_EQ(unknown.err, "pawntb play: stdin:2: 'zz': not a move or a command (type help)\n") << unknown;
  EXPECT_EQ(summary_moves(unknown.out).size(), 2u) << unknown;  // a1a2 and the reply
  // Good input only: 0.
  EXPECT_EQ(play({}, "a1a2\nquit\n").status, 0);
}

// One rule for the case of moves: play, probe --moves (and the Python
// package, through the same parser) take C2C3 as c2c3.
TEST(CliPlay, UpperCaseMovesAreTakenEverywhere) {
  const RunResult upper = play({"--seed", "3"}, "A1A2\n");
  const RunResult lower = play({"--seed", "3"}, "a1a2\n");
  EXPECT_EQ(upper.status, 0) << upper;
  EXPECT_EQ(upper.out, lower.out);
  const RunResult probe_upper = run_cli({"probe", "--moves", "A1A2,B4B3", kPlayStart});
  const RunResult probe_lower = run_cli({"probe", "--moves", "a1a2,b4b3", kPlayStart});
  EXPECT_EQ(probe_upper.status, 0) << probe_upper;
  EXPECT_EQ(probe_upper.out, probe_lower.out);
}

TEST(CliPlay, ResignEndsTheGameAsLost) {
  const RunResult r = play({"--seed", "2"}, "a1a2\nresign\nhint\n");
  EXPECT_EQ(r.status, 0) << r;
  EXPECT_EQ(r.err, "") << r;
  EXPECT_TRUE(contains(r.out, "\nresult: you resigned after 2 plies: black won\n")) << r;
  EXPECT_FALSE(contains(r.out, "hint: ")) << "play went on after resign\n" << r;
  EXPECT_EQ(lines_after(r.out, "game summary").size(), 1u) << r;
}

TEST(CliPlay, EndOfInputEndsTheGameCleanly) {
  const RunResult empty = play({}, "");
  EXPECT_EQ(empty.status, 0) << empty;
  EXPECT_EQ(empty.err, "") << empty;
  EXPECT_TRUE(contains(empty.out, "\nmoves: none\nresult: unfinished after 0 plies")) << empty;

  const RunResult unterminated = play({}, "a1a2");  // a last line without "\n"
  EXPECT_EQ(unterminated.status, 0) << unterminated;
  EXPECT_EQ(summary_moves(unterminated.out).size(), 2u) << unterminated;

  const RunResult quit = play({}, "quit\na1a2\n");
  EXPECT_EQ(quit.status, 0) << quit;
  EXPECT_TRUE(summary_moves(quit.out).empty()) << quit;
}

TEST(CliPlay, TheEndOfAGameIsSummedUp) {
  const RunResult r = play({"--position", "3p/P3/4/4 w"}, "a3a4\na4a5\nundo\n");
  ASSERT_EQ(r.status, 2) << r;  // a4a5 was refused
  EXPECT_TRUE(contains(r.out, "game over: white wins, a white pawn reached rank 4\n")) << r;
  EXPECT_TRUE(contains(r.out, "result: white won in 1 ply: you won\nyour mistakes: 0\n")) << r;
  EXPECT_EQ(r.err, "pawntb play: stdin:2: a4a5: the game is over: new, undo or quit\n") << r;
  EXPECT_TRUE(contains(r.out, "took back a3a4\n")) << r;
  EXPECT_TRUE(summary_moves(r.out).empty()) << r;
}

TEST(CliPlay, NewStartsAgainAndHelpListsTheCommands) {
  const RunResult r = play({"--seed", "4"}, "a1a2\nnew\nhelp\n");
  ASSERT_EQ(r.status, 0) << r;
  EXPECT_EQ(r.err, "") << r;
  const std::vector<std::string> summaries = lines_after(r.out, "moves: ");
  ASSERT_EQ(summaries.size(), 2u) << r;  // the abandoned game's, then the new one's
  EXPECT_EQ(summaries[0].rfind("a1a2 ", 0), 0u) << r;
  EXPECT_EQ(summaries[1], "none") << r;
  EXPECT_TRUE(contains(r.out, "\nnew game\n4 pppp\n")) << r;
  for (const char* command : {"hint", "moves", "undo", "new", "flip", "resign", "help", "quit"}) {
    EXPECT_TRUE(contains(r.out, "\n  " + std::string(command) + " ")) << command << "\n" << r;
  }
}

TEST(CliPlay, FlipTurnsTheBoardAround) {
  const RunResult r = play({"--position", ".ppp/4/.PPP/4 w"}, "flip\n");
  ASSERT_EQ(r.status, 0) << r;
  EXPECT_TRUE(contains(r.out, "4 .ppp\n3 ....\n2 .PPP\n1 ....\n  abcd\n")) << r;
  EXPECT_TRUE(contains(r.out, "1 ....\n2 PPP.\n3 ....\n4 ppp.\n  dcba\n")) << r;
  // Playing black, black's home row is at the bottom from the start.
  const RunResult black = play({"--position", ".ppp/4/.PPP/4 b", "--as", "black"}, "");
  EXPECT_TRUE(contains(black.out, "1 ....\n2 PPP.\n3 ....\n4 ppp.\n  dcba\n")) << black;
}

TEST(CliPlay, SeedMakesRepliesReproducible) {
  // The engine moves first as white; which of its best first moves it picks
  // depends on the seed.
  std::set<std::string> first_replies;
  for (int seed = 0; seed < 16; ++seed) {
    const RunResult a = play({"--as", "black", "--seed", std::to_string(seed)}, "");
    const RunResult b = play({"--as", "black", "--seed", std::to_string(seed)}, "");
    ASSERT_EQ(a.status, 0) << a;
    EXPECT_EQ(a.out, b.out);
    const std::vector<std::string> moves = summary_moves(a.out);
    ASSERT_EQ(moves.size(), 1u) << a;
    first_replies.insert(moves[0]);
  }
  const pawntb::Position start = parse(kPlayStart);
  std::size_t best = 0;
  for (const pawntb::Move m : pawntb::legal_moves(start)) best += optimal(start, m) ? 1 : 0;
  ASSERT_GE(best, 2u) << "the test needs a start with several best moves";
  EXPECT_GE(first_replies.size(), 2u);

  // Without --seed a random one is printed, and replays the game.
  const RunResult random = play({"--as", "black"}, "");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(random.out, m, std::regex(", seed ([0-9]+)\\."))) << random;
  const RunResult again = play({"--as", "black", "--seed", m[1]}, "");
  EXPECT_EQ(again.out, random.out);
}

TEST(CliPlay, UsageErrors) {
  const std::vector<std::vector<std::string>> cases = {
      {"--as", "green"},
      {"--seed", "-1"},
      {"--seed", "x"},
      {"--position", "pppp/4"},
      {"--position", "P3/4/4/4 w"},
      {"extra"},
      {"--position", "pppp/p3/4/PPPP w"},  // five black pawns: more than the table's 4
      {"--table", kDefaultTable.string(), "--position", "ppp/3/PPP w"},  // a 4x4 table
  };
  for (const auto& args : cases) {
    const RunResult r = play(args, "");
    EXPECT_EQ(r.status, 2) << args[0] << "\n" << r;
    EXPECT_EQ(r.err.rfind("pawntb play: ", 0), 0u) << r;
    EXPECT_EQ(r.out, "") << r;
  }
  const RunResult help = play({"--help"}, "");
  EXPECT_EQ(help.status, 0) << help;
  EXPECT_EQ(help.out.rfind("usage: pawntb play", 0), 0u) << help;
  EXPECT_TRUE(contains(help.out, "  hint ")) << help;
}

// Without --position the game starts at the start of the table's board
// (it was once the 4x4 start, which a 3x3 table refuses).
TEST(CliPlay, WithoutPositionStartsAtTheTablesStart) {
  const RunResult three = play({"--table", (kDataDir / "3x3-k3.pawntb").string()}, "");
  EXPECT_EQ(three.status, 0) << three;
  EXPECT_TRUE(contains(three.out, "ppp/3/PPP w\n")) << three;
  const RunResult four = play({}, "");
  EXPECT_EQ(four.status, 0) << four;
  EXPECT_TRUE(contains(four.out, std::string(kPlayStart) + "\n")) << four;
}

// A start the table cannot answer is refused in probe's words.
TEST(CliPlay, StartOutsideTheTableIsRefused) {
  const std::string table = (kDataDir / "4x4-k4.pawntb").string();
  const RunResult many = play({"--table", table, "--position", "ppp1/pp2/PP2/PPP1 w"}, "");
  EXPECT_EQ(many.status, 2) << many;
  EXPECT_EQ(many.err, "pawntb play: --position: more than 4 pawns a side, the table's limit\n")
      << many;
  const RunResult small = play({"--table", table, "--position", "ppp/3/PPP w"}, "");
  EXPECT_EQ(small.status, 2) << small;
  EXPECT_EQ(small.err, "pawntb play: --position: board is 3x3, the table " + table + " is 4x4\n")
      << small;
}

TEST(CliPlay, NoTableForTheBoardIsARuntimeFailure) {
  TempDir empty;
  RunOptions options;
  options.input = "";
  options.cwd = empty.path();
  options.table_env = empty.path().string();
  // data/ has no 3x4 table (the installed data directory is searched too).
  const RunResult r = run_cli({"play", "--position", "pppp/4/PPPP w"}, options);
  EXPECT_EQ(r.status, 1) << r;
  EXPECT_TRUE(contains(r.err, "no table for 3x4")) << r;
  EXPECT_TRUE(contains(r.err, "make one with `pawntb generate --rows 3 --cols 4`")) << r;
}

// In a terminal: colours and a prompt.
TEST(CliPlay, TerminalModeHasColoursAndAPrompt) {
  int master = -1;
  const std::string table = "PAWNTB_TABLE=" + kDefaultTable.string();
  const pid_t pid = ::forkpty(&master, nullptr, nullptr, nullptr);
  ASSERT_GE(pid, 0) << "forkpty failed";
  if (pid == 0) {
    ::putenv(const_cast<char*>(table.c_str()));
    ::unsetenv("NO_COLOR");
    ::alarm(kHangGuardSeconds);
    ::execl(PAWNTB_CLI, PAWNTB_CLI, "play", "--seed", "1", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  // A refused line at a terminal is only said: the exit status stays 0.
  const std::string input = "zz\nhint\nquit\n";
  ASSERT_EQ(::write(master, input.data(), input.size()), static_cast<ssize_t>(input.size()));
  std::string out;
  const auto deadline = std::chrono::steady_clock::now() + kHangGuard;
  while (std::chrono::steady_clock::now() < deadline) {
    pollfd fd{master, POLLIN, 0};
    if (::poll(&fd, 1, 100) <= 0) continue;
    char buffer[4096];
    const ssize_t n = ::read(master, buffer, sizeof buffer);
    if (n <= 0) break;  // EIO once the child has closed the terminal
    out.append(buffer, static_cast<std::size_t>(n));
  }
  int status = 0;
  pid_t done = 0;
  while ((done = ::waitpid(pid, &status, WNOHANG)) == 0 &&
         std::chrono::steady_clock::now() < deadline) {
    ::usleep(10000);
  }
  if (done == 0) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, &status, 0);
    ADD_FAILURE() << "play did not end:\n" << out;
  }
  ::close(master);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << out;
  EXPECT_TRUE(contains(out, "\x1b[48;5;")) << out;  // the squares' colours
  EXPECT_TRUE(contains(out, "your move (white)> ")) << out;
  EXPECT_TRUE(contains(out, "hint: ")) << out;
  EXPECT_TRUE(contains(out, "game summary")) << out;
}

}  // namespace
