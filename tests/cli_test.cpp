// Tests of the `pawntb` command-line tool, run as a subprocess: exit
// statuses, exact output bytes, messages on stderr, JSON output, table checks
// and table generation. A few tests call the option parser in-process.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <variant>
#include <vector>

#include "cli/commands.hpp"
#include "cli/line_reader.hpp"
#include "cli/uva.hpp"
#include "pawntb/notation.hpp"
#include "pawntb/position.hpp"
#include "pawntb/probe.hpp"

extern char** environ;

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kSourceDir = PAWNTB_SOURCE_DIR;
const fs::path kDefaultTable = kSourceDir / "data" / "4x4-k4.pawntb";
const fs::path kUvaSample = kSourceDir / "tests" / "data" / "uva-sample.txt";
constexpr char kSampleAnswer[] = "white (7)\nblack (2)\n";
constexpr char kStart[] = ".ppp/4/.PPP/4 w";

// ---------------------------------------------------------------------------
// Running the CLI.

struct RunResult {
  int status = -1;  // exit status; 128 + signal number if killed by a signal
  bool signaled = false;
  std::string out;
  std::string err;
  long peak_rss_kib = 0;  // the child's peak resident set size (ru_maxrss), KiB
};

std::ostream& operator<<(std::ostream& os, const RunResult& r) {
  return os << "status " << r.status << (r.signaled ? " (signal)" : "") << "\n--- stdout ---\n"
            << r.out << "--- stderr ---\n"
            << r.err << "--------------";
}

struct RunOptions {
  std::optional<std::string> input;  // stdin bytes; /dev/null when absent
  // PAWNTB_TABLE in the child: the default table unless overridden; nullopt
  // removes it from the environment.
  std::optional<std::string> table_env = kDefaultTable.string();
  fs::path cwd;                     // the child's working directory; empty: inherited
  bool input_through_pipe = false;  // stdin a pipe the input is written into, not a file
};

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_file(const fs::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  ASSERT_TRUE(out.good()) << "cannot write " << path;
}

// A fresh directory, removed with everything in it at destruction.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "pawntb-cli-test.XXXXXX").string();
    if (!::mkdtemp(pattern.data())) {
      ADD_FAILURE() << "mkdtemp: " << std::strerror(errno);
    }
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }
  fs::path operator/(const std::string& name) const { return path_ / name; }

 private:
  fs::path path_;
};

// Runs the pawntb executable with `args`, stdin from `options.input`, and
// stdout and stderr captured separately (through files, so no pipe can fill
// up). The child is killed if it runs for more than 60 seconds. It runs
// under rss_launcher, which measures its peak RSS.
RunResult run_cli(const std::vector<std::string>& args, const RunOptions& options = {}) {
  RunResult result;
  TempDir io;
  const fs::path in_path = io / "stdin", out_path = io / "stdout", err_path = io / "stderr",
                 rss_path = io / "rss";
  write_file(in_path, options.input ? std::string_view(*options.input) : std::string_view());

  std::vector<std::string> env_strings;
  for (char** e = environ; *e; ++e) {
    if (std::strncmp(*e, "PAWNTB_TABLE=", 13) != 0) env_strings.emplace_back(*e);
  }
  if (options.table_env) env_strings.push_back("PAWNTB_TABLE=" + *options.table_env);
  std::vector<char*> envp;
  for (std::string& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);

  std::vector<std::string> arg_strings{PAWNTB_RSS_LAUNCHER, rss_path.string(), PAWNTB_CLI};
  arg_strings.insert(arg_strings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& s : arg_strings) argv.push_back(s.data());
  argv.push_back(nullptr);

  const std::string in_name = options.input ? in_path.string() : "/dev/null";
  const std::string out_name = out_path.string(), err_name = err_path.string();
  const std::string cwd = options.cwd.string();

  int pipe_ends[2] = {-1, -1};  // read, write
  if (options.input_through_pipe && ::pipe(pipe_ends) != 0) {
    ADD_FAILURE() << "pipe: " << std::strerror(errno);
    return result;
  }
  const pid_t pid = ::fork();
  if (pid < 0) {
    ADD_FAILURE() << "fork: " << std::strerror(errno);
    return result;
  }
  if (pid == 0) {
    // Only async-signal-safe calls from here on.
    if (pipe_ends[1] >= 0) ::close(pipe_ends[1]);
    ::signal(SIGPIPE, SIG_DFL);  // as a shell would start it
    const int in = pipe_ends[0] >= 0 ? pipe_ends[0] : ::open(in_name.c_str(), O_RDONLY);
    const int out = ::open(out_name.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const int err = ::open(err_name.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (in < 0 || out < 0 || err < 0) ::_exit(125);
    if (::dup2(in, 0) < 0 || ::dup2(out, 1) < 0 || ::dup2(err, 2) < 0) ::_exit(125);
    ::close(in);
    ::close(out);
    ::close(err);
    if (!cwd.empty() && ::chdir(cwd.c_str()) != 0) ::_exit(125);
    ::alarm(60);  // survives exec: a hung child dies of SIGALRM
    ::execve(argv[0], argv.data(), envp.data());
    ::_exit(127);
  }
  if (options.input_through_pipe) {
    static const bool sigpipe_ignored = ::signal(SIGPIPE, SIG_IGN) != SIG_ERR;
    EXPECT_TRUE(sigpipe_ignored);
    ::close(pipe_ends[0]);
    const std::string_view input = options.input ? std::string_view(*options.input) : "";
    for (std::size_t sent = 0; sent < input.size();) {
      const ssize_t n = ::write(pipe_ends[1], input.data() + sent, input.size() - sent);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) break;  // the child stopped reading: its result says why
      sent += static_cast<std::size_t>(n);
    }
    ::close(pipe_ends[1]);
  }
  int wstatus = 0;
  while (::waitpid(pid, &wstatus, 0) < 0) {
    if (errno != EINTR) {
      ADD_FAILURE() << "waitpid: " << std::strerror(errno);
      return result;
    }
  }
  if (WIFEXITED(wstatus)) {
    result.status = WEXITSTATUS(wstatus);
  } else if (WIFSIGNALED(wstatus)) {
    result.signaled = true;
    result.status = 128 + WTERMSIG(wstatus);
  }
  const std::string rss = read_file(rss_path);
  if (rss.empty()) {
    ADD_FAILURE() << "rss_launcher wrote no peak RSS";
  } else {
    result.peak_rss_kib = std::stol(rss);  // Linux: kilobytes
  }
  result.out = read_file(out_path);
  result.err = read_file(err_path);
  EXPECT_NE(result.status, 125) << "the child could not set up its files";
  EXPECT_NE(result.status, 127) << "cannot execute " << PAWNTB_CLI;
  return result;
}

RunResult run_with_input(const std::vector<std::string>& args, std::string input) {
  RunOptions options;
  options.input = std::move(input);
  return run_cli(args, options);
}

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string to_crlf(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '\n') out += '\r';
    out += c;
  }
  return out;
}

// One JSON value per line of `text`; fails the test on a line that is not JSON.
std::vector<json> json_lines(const std::string& text) {
  std::vector<json> values;
  for (const std::string& line : lines_of(text)) {
    try {
      values.push_back(json::parse(line));
    } catch (const json::exception& e) {
      ADD_FAILURE() << "not JSON: '" << line << "': " << e.what();
    }
  }
  return values;
}

pawntb::Position parse(const std::string& text) {
  auto parsed = pawntb::parse_position(text);
  if (auto* e = std::get_if<pawntb::ParseError>(&parsed)) {
    ADD_FAILURE() << "cannot parse '" << text << "': " << e->message;
    return {};
  }
  return std::get<pawntb::Position>(parsed);
}

// A UVa board: `rows` lines, then a blank line.
std::string board(std::initializer_list<const char*> rows) {
  std::string out;
  for (const char* r : rows) out += std::string(r) + "\n";
  return out;
}

const std::string kGoodBoard1 = board({".ppp", "....", ".PPP", "...."});  // white (7)
const std::string kGoodBoard2 = board({"...p", "...p", "pP.P", "...P"});  // black (2)

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
// Help, version and usage errors.

TEST(CliUsage, HelpAndVersionExitZero) {
  for (const char* flag : {"--help", "-h", "help"}) {
    const RunResult r = run_cli({flag});
    EXPECT_EQ(r.status, 0) << flag << "\n" << r;
    EXPECT_TRUE(contains(r.out, "usage: pawntb COMMAND")) << r;
    for (const char* command : {"generate", "info", "verify", "uva", "probe"}) {
      EXPECT_TRUE(contains(r.out, command)) << "help does not list " << command;
    }
    EXPECT_EQ(r.err, "") << r;
  }
  for (const char* flag : {"--version", "-V"}) {
    const RunResult r = run_cli({flag});
    EXPECT_EQ(r.status, 0) << r;
    EXPECT_TRUE(std::regex_match(r.out, std::regex("pawntb [0-9]+\\.[0-9]+\\.[0-9]+\n"))) << r;
    EXPECT_EQ(r.err, "") << r;
  }
}

TEST(CliUsage, NoArgumentsIsAUsageError) {
  const RunResult r = run_cli({});
  EXPECT_EQ(r.status, 2) << r;
  EXPECT_TRUE(contains(r.err, "usage:")) << r;
  EXPECT_EQ(r.out, "") << r;
}

TEST(CliUsage, EverySubcommandHasHelp) {
  for (const char* command : {"generate", "info", "verify", "uva", "probe"}) {
    for (const char* flag : {"--help", "-h"}) {
      const RunResult r = run_cli({command, flag});
      EXPECT_EQ(r.status, 0) << command << " " << flag << "\n" << r;
      EXPECT_EQ(r.out.rfind(std::string("usage: pawntb ") + command, 0), 0u) << r;
      EXPECT_EQ(r.err, "") << r;
    }
  }
}

TEST(CliUsage, UnknownCommandExitsTwo) {
  const RunResult r = run_cli({"frobnicate"});
  EXPECT_EQ(r.status, 2) << r;
  EXPECT_TRUE(contains(r.err, "unknown command 'frobnicate'")) << r;
  EXPECT_EQ(r.out, "") << r;
}

TEST(CliUsage, UnknownOptionExitsTwo) {
  const std::vector<std::vector<std::string>> cases = {
      {"generate", "--bogus"},
      {"info", "--bogus"},
      {"verify", "--bogus"},
      {"uva", "--bogus"},
      {"probe", "--bogus", kStart},
      {"probe", "--js", kStart},  // no guessing of abbreviated options
      {"--bogus"},
  };
  for (const auto& args : cases) {
    const RunResult r = run_cli(args);
    EXPECT_EQ(r.status, 2) << args[0] << " " << args[1] << "\n" << r;
    EXPECT_NE(r.err, "") << r;
    EXPECT_EQ(r.out, "") << r;
  }
}

TEST(CliUsage, BadOperandsAndValuesExitTwo) {
  const std::vector<std::vector<std::string>> cases = {
      {"probe"},                         // no positions
      {"uva", "extra"},                  // uva takes no operand
      {"generate", "extra"},             // nor does generate
      {"info", "a.pawntb", "b.pawntb"},  // at most one table
      {"verify", "a.pawntb", "b.pawntb"},
      {"generate", "--rows", "abc"},    // not a number
      {"generate", "--threads", "-1"},  // negative threads
      {"uva", "--table"},               // missing value
  };
  for (const auto& args : cases) {
    const RunResult r = run_cli(args);
    std::string joined;
    for (const auto& a : args) joined += a + " ";
    EXPECT_EQ(r.status, 2) << joined << "\n" << r;
    EXPECT_TRUE(contains(r.err, "usage:")) << joined << "\n" << r;
    EXPECT_EQ(r.out, "") << r;
  }
}

// The parser in-process: what the options turn into.
TEST(CliUsage, ParsesOptionsIntoTheirFields) {
  using namespace pawntb::cli;
  {
    const char* argv[] = {"pawntb", "probe", "--json", "--table", "t.pawntb", "a w", "-"};
    Options o;
    std::ostringstream out, err;
    ASSERT_EQ(parse_command_line(7, argv, o, out, err), ParseOutcome::ok) << err.str();
    EXPECT_EQ(o.command, "probe");
    EXPECT_TRUE(o.json);
    EXPECT_EQ(o.table, "t.pawntb");
    EXPECT_EQ(o.positions, (std::vector<std::string>{"a w", "-"}));
  }
  {
    const char* argv[] = {"pawntb", "generate", "--rows", "3", "--cols", "5"};
    Options o;
    std::ostringstream out, err;
    ASSERT_EQ(parse_command_line(6, argv, o, out, err), ParseOutcome::ok) << err.str();
    EXPECT_EQ(o.rows, 3);
    EXPECT_EQ(o.cols, 5);
    EXPECT_EQ(o.pawns, 5);  // defaults to the number of columns
  }
  {
    const char* argv[] = {"pawntb", "info", "x.pawntb"};
    Options o;
    std::ostringstream out, err;
    ASSERT_EQ(parse_command_line(3, argv, o, out, err), ParseOutcome::ok) << err.str();
    EXPECT_EQ(o.table, "x.pawntb");
  }
}

// ---------------------------------------------------------------------------
// uva

TEST(CliUva, SampleGivesExactBytes) {
  const RunResult r = run_with_input({"uva"}, read_file(kUvaSample));
  EXPECT_EQ(r.status, 0) << r;
  EXPECT_EQ(r.out, kSampleAnswer);
  EXPECT_EQ(r.err, "") << r;
}

TEST(CliUva, CrlfLineEndingsGiveTheSameBytes) {
  const std::string sample = read_file(kUvaSample);
  ASSERT_FALSE(contains(sample, "\r"));
  const RunResult r = run_with_input({"uva"}, to_crlf(sample));
  EXPECT_EQ(r.status, 0) << r;
  EXPECT_EQ(r.out, kSampleAnswer);
  EXPECT_EQ(r.err, "") << r;
}

TEST(CliUva, NoFinalNewlineGivesTheSameBytes) {
  std::string sample = read_file(kUvaSample);
  while (!sample.empty() && (sample.back() == '\n' || sample.back() == '\r')) sample.pop_back();
  for (const std::string& input : {sample, to_crlf(sample)}) {
    const RunResult r = run_with_input({"uva"}, input);
    EXPECT_EQ(r.status, 0) << r;
    EXPECT_EQ(r.out, kSampleAnswer);
    EXPECT_EQ(r.err, "") << r;
  }
}

TEST(CliUva, ToleratesExtraBlankLinesAndSpaces) {
  const std::string input =
      "\n  2  \n\n\n .ppp\n....\t\n.PPP \n....\n \n\t\n...p\n...p\npP.P\n...P\n\n\n";
  const RunResult r = run_with_input({"uva"}, input);
  EXPECT_EQ(r.status, 0) << r;
  EXPECT_EQ(r.out, kSampleAnswer);
  EXPECT_EQ(r.err, "") << r;
}

TEST(CliUva, ZeroCasesPrintsNothing) {
  const RunResult r = run_with_input({"uva"}, "0\n");
  EXPECT_EQ(r.status, 0) << r;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "") << r;
}

// Line numbers: 1 is the count, boards start at 2, 7 and 12.
TEST(CliUva, BadCharacterCaseIsReportedOthersAnswered) {
  const std::string input =
      "3\n" + kGoodBoard1 + "\n" + board({".ppx", "....", ".PPP", "...."}) + "\n" + kGoodBoard2;
  const RunResult r = run_with_input({"uva"}, input);
  EXPECT_EQ(r.status, 2) << r;
  EXPECT_EQ(r.out, kSampleAnswer);
  EXPECT_TRUE(contains(r.err, "stdin:7:")) << r;
  EXPECT_TRUE(contains(r.err, "'x'")) << r;
  EXPECT_EQ(lines_of(r.err).size(), 1u) << r;
}

TEST(CliUva, ShortRowCaseIsReportedOthersAnswered) {
  const std::string input =
      "3\n" + kGoodBoard1 + "\n" + board({".ppp", "...", ".PPP", "...."}) + "\n" + kGoodBoard2;
  const RunResult r = run_with_input({"uva"}, input);
  EXPECT_EQ(r.status, 2) << r;
  EXPECT_EQ(r.out, kSampleAnswer);
  EXPECT_TRUE(contains(r.err, "stdin:8:")) << r;  // the short row itself
  EXPECT_EQ(lines_of(r.err).size(), 1u) << r;
}

TEST(CliUva, MissingRowCaseIsReportedOthersAnswered) {
  const std::string input =
      "3\n" + kGoodBoard1 + "\n" + board({".ppp", "....", ".PPP"}) + "\n" + kGoodBoard2;
  const RunResult r = run_with_input({"uva"}, input);
  EXPECT_EQ(r.status, 2) << r;
  EXPECT_EQ(r.out, kSampleAnswer);
  EXPECT_TRUE(contains(r.err, "stdin:7:")) << r;
  EXPECT_TRUE(contains(r.err, "3 rows")) << r;
}

// The message should point at the line that holds the bad character (the
// header of uva.hpp: "1-based line the problem was found on"), as it does for
// a row of the wrong length, not at the board's first line.
TEST(CliUva, BadCharacterIsReportedOnItsOwnLine) {
  const std::string input = "2\n" + kGoodBoard1 + "\n" + board({".ppp", "....", ".PxP", "...."});
  const RunResult r = run_with_input({"uva"}, input);
  EXPECT_EQ(r.status, 2) << r;
  EXPECT_EQ(r.out, "white (7)\n");
  EXPECT_TRUE(contains(r.err, "stdin:9:")) << r;  // the board starts on line 7
}

TEST(CliUva, FewerBoardsThanTheCount) {
  const RunResult r = run_with_input({"uva"}, "3\n" + kGoodBoard1 + "\n" + kGoodBoard2);
  EXPECT_EQ(r.status, 2) << r;
  EXPECT_EQ(r.out, kSampleAnswer);
  EXPECT_TRUE(contains(r.err, "case count says 3")) << r;
  EXPECT_TRUE(contains(r.err, "2 boards")) << r;
  EXPECT_TRUE(contains(r.err, "stdin:")) << r;
}

TEST(CliUva, MoreBoardsThanTheCount) {
  const RunResult r = run_with_input({"uva"}, "1\n" + kGoodBoard1 + "\n" + kGoodBoard2);
  EXPECT_EQ(r.status, 2) << r;
  EXPECT_EQ(r.out, "white (7)\n");
  EXPECT_TRUE(contains(r.err, "stdin:7:")) << r;
  EXPECT_TRUE(contains(r.err, "more boards")) << r;
}

TEST(CliUva, EmptyInputIsAnError) {
  for (const std::string input : {"", "\n\n", "  \n\t\n"}) {
    const RunResult r = run_with_input({"uva"}, input);
    EXPECT_EQ(r.status, 2) << r;
    EXPECT_EQ(r.out, "");
    EXPECT_TRUE(contains(r.err, "empty input")) << r;
  }
}

TEST(CliUva, BadCountIsAnError) {
  for (const std::string count : {"abc", "-1", "2x", "99999999999999999999999"}) {
    const RunResult r = run_with_input({"uva"}, count + "\n" + kGoodBoard1);
    EXPECT_EQ(r.status, 2) << count << "\n" << r;
    EXPECT_EQ(r.out, "") << r;
    EXPECT_TRUE(contains(r.err, "stdin:1:")) << r;
    EXPECT_TRUE(contains(r.err, "number of cases")) << r;
  }
}

// A board that reads well but that the table cannot answer (white to move with
// a pawn on its goal row; more pawns than K) is an input error: it is reported
// with its line, the other cases are still answered, and the exit status is 2.
TEST(CliUva, UnanswerableBoardIsAnInputError) {
  const std::vector<std::string> bad_boards = {
      board({"P...", "....", "....", "...."}),  // white on its goal row, white to move
      board({"PPPP", "P...", "....", "...."}),  // 5 white pawns: more than K = 4
      board({"pppp", ".p..", "....", "...."}),  // 5 black pawns
  };
  for (const std::string& bad : bad_boards) {
    const RunResult r =
        run_with_input({"uva"}, "3\n" + kGoodBoard1 + "\n" + bad + "\n" + kGoodBoard2);
    EXPECT_EQ(r.out, kSampleAnswer) << bad;
    EXPECT_TRUE(contains(r.err, "stdin:7:")) << r;
    EXPECT_EQ(r.status, 2) << "board:\n" << bad << r;
  }
}

TEST(CliUva, OverlongLineIsReported) {
  const std::string input = "2\n" + kGoodBoard1 + "\n" + std::string(10000, '.') + "\n";
  const RunResult r = run_with_input({"uva"}, input);
  EXPECT_EQ(r.status, 2) << r;
  EXPECT_EQ(r.out, "white (7)\n");
  EXPECT_TRUE(contains(r.err, "stdin:7:")) << r;
}

TEST(CliUva, MissingTableIsARuntimeFailure) {
  const RunResult r =
      run_with_input({"uva", "--table", "/nonexistent/t.pawntb"}, read_file(kUvaSample));
  EXPECT_EQ(r.status, 1) << r;
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(contains(r.err, "/nonexistent/t.pawntb")) << r;
}

// ---------------------------------------------------------------------------
// The UVa reader in-process: boards parsed in the read buffer (next_boards)
// give what reading line by line (next alone) gives.

// A UVa input and what the reader should make of it.
struct UvaInput {
  pawntb::Geometry geometry;
  std::string text;
  // "LINE: WHITE BLACK" for each board laid out exactly as the judge writes
  // them and within the count, in order; empty when the input has others.
  std::vector<std::string> judge_boards;
};

std::string board_event(std::uint64_t line, std::uint64_t white, std::uint64_t black) {
  return std::to_string(line) + ": " + std::to_string(white) + " " + std::to_string(black);
}

// A random board's text (rows of cols, each with "\n") and its bitboards.
std::string random_board(pawntb::Geometry g, std::mt19937& rng, std::uint64_t& white,
                         std::uint64_t& black) {
  std::string text;
  white = black = 0;
  for (int s = 0; s < g.squares(); ++s) {
    const int pick = static_cast<int>(rng() % 6);  // half empty, a quarter each colour
    text += pick < 3 ? '.' : pick < 5 ? 'P' : 'p';
    if (pick == 3 || pick == 4) white |= std::uint64_t{1} << s;
    if (pick == 5) black |= std::uint64_t{1} << s;
    if (s % g.cols == g.cols - 1) text += '\n';
  }
  return text;
}

// `boards` boards as the judge writes them: the count, then each board after
// one empty line. With `blank_lines_between`, that many instead (0 and 2
// are tolerated, but not what the judge writes).
UvaInput judge_input(pawntb::Geometry g, int boards, std::uint32_t seed,
                     int blank_lines_between = 1) {
  std::mt19937 rng(seed);
  UvaInput input{g, std::to_string(boards) + "\n", {}};
  std::uint64_t line = 1;
  for (int b = 0; b < boards; ++b) {
    input.text.append(blank_lines_between, '\n');
    line += blank_lines_between;
    std::uint64_t white = 0, black = 0;
    input.text += random_board(g, rng, white, black);
    input.judge_boards.push_back(board_event(line + 1, white, black));
    line += g.rows;
  }
  return input;
}

// Well-formed boards with every kind of departure from the judge's layout
// among them, each now and then: what the line-by-line reader accepts or
// reports, and the boundaries of the read buffer fall anywhere.
UvaInput mixed_input(pawntb::Geometry g, int boards, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<std::string> texts;
  for (int b = 0; b < boards; ++b) {
    std::uint64_t white = 0, black = 0;
    std::string board = random_board(g, rng, white, black);
    const std::size_t row_start = (rng() % g.rows) * (g.cols + 1);
    const std::size_t square = row_start + rng() % g.cols;
    switch (rng() % 40) {
      case 0:
        board.insert(row_start + g.cols, "\r");  // CRLF on one row
        break;
      case 1:
        board.insert(row_start + g.cols, " ");  // a trailing space
        break;
      case 2:
        board.insert(row_start, "\t");  // a leading tab
        break;
      case 3:
        board[square] = "x\0\xff-*p "[rng() % 7];  // a bad byte, or 'p' (well formed)
        break;
      case 4:
        board.erase(square, 1);  // a short row
        break;
      case 5:
        board.insert(square, ".");  // a long row
        break;
      case 6:
        board.erase(row_start, g.cols + 1);  // a missing row
        break;
      case 7:
        board += "\n\n";  // more empty lines
        break;
      case 8:
        board += std::string(5000, '.') + "\n";  // an over-long extra row
        break;
      case 9:
        board += " \t\n";  // a blank but not empty line
        break;
      case 10:
        board += "  \n";  // another
        break;
      case 11:
        board.insert(row_start, " ");  // a leading space
        break;
      default:
        break;
    }
    texts.push_back(board);
  }
  // A count one off now and then: the boards past it or missing are reported.
  const int count = boards + static_cast<int>(seed % 3) - 1;
  UvaInput input{g, std::to_string(count) + "\n", {}};
  for (std::size_t b = 0; b < texts.size(); ++b) {
    input.text += (b % 17 == 5 ? "" : "\n") + texts[b];  // now and then no empty line
  }
  if (seed % 2) input.text.pop_back();  // no final newline
  return input;
}

// What a reader gives, in order: board_event() for a board, "LINE: MESSAGE"
// for a problem; and how many boards came from next_boards().
struct UvaEvents {
  std::vector<std::string> events;
  std::uint64_t from_buffer = 0;
};

// Reads `in` as read_uva does (`use_buffer`: next_boards() before each
// next()) or with next() alone.
UvaEvents read_events(std::FILE* in, pawntb::Geometry g, bool use_buffer) {
  pawntb::cli::LineReader lines(in);
  pawntb::cli::UvaReader reader(lines, g);
  UvaEvents out;
  pawntb::cli::UvaItem item;
  for (;;) {
    if (use_buffer) {
      std::array<pawntb::cli::UvaBoard, 64> parsed;
      const std::size_t boards = reader.next_boards(parsed);
      for (std::size_t i = 0; i < boards; ++i) {
        out.events.push_back(board_event(parsed[i].line, parsed[i].white, parsed[i].black));
      }
      out.from_buffer += boards;
      if (boards > 0) continue;
    }
    if (!reader.next(item)) return out;
    EXPECT_EQ(item.position.geometry, g);
    EXPECT_EQ(item.position.to_move, pawntb::Side::white);
    out.events.push_back(item.error.empty()
                             ? board_event(item.line, item.position.white, item.position.black)
                             : std::to_string(item.line) + ": " + item.error);
  }
}

// How the input reaches the reader.
enum class Feed {
  file,      // a regular file: read(2) fills the buffer
  pipe_1,    // a pipe written 1 byte at a time
  pipe_7,    // 7 bytes at a time
  pipe_64k,  // 64 KiB + 3 bytes at a time
  memory,    // fmemopen: no file descriptor, fread
};
constexpr Feed kFeeds[] = {Feed::file, Feed::pipe_1, Feed::pipe_7, Feed::pipe_64k, Feed::memory};

const char* feed_name(Feed f) {
  switch (f) {
    case Feed::file:
      return "file";
    case Feed::pipe_1:
      return "pipe, 1 byte writes";
    case Feed::pipe_7:
      return "pipe, 7 byte writes";
    case Feed::pipe_64k:
      return "pipe, 64 KiB + 3 byte writes";
    case Feed::memory:
      return "fmemopen";
  }
  return "?";
}

UvaEvents read_fed(const std::string& text, pawntb::Geometry g, Feed feed, bool use_buffer) {
  UvaEvents events;
  if (feed == Feed::file || feed == Feed::memory) {
    std::string copy = text;
    std::FILE* in = feed == Feed::file ? std::tmpfile() : fmemopen(copy.data(), copy.size(), "rb");
    EXPECT_NE(in, nullptr);
    if (!in) return events;
    if (feed == Feed::file) {
      std::fwrite(text.data(), 1, text.size(), in);
      std::rewind(in);
    }
    events = read_events(in, g, use_buffer);
    std::fclose(in);
    return events;
  }
  int fds[2];
  EXPECT_EQ(::pipe(fds), 0);
  const std::size_t chunk = feed == Feed::pipe_1 ? 1 : feed == Feed::pipe_7 ? 7 : (1 << 16) + 3;
  std::thread writer([&] {
    for (std::size_t at = 0; at < text.size(); at += chunk) {
      const std::size_t n = std::min(chunk, text.size() - at);
      for (std::size_t done = 0; done < n;) {
        const ssize_t w = ::write(fds[1], text.data() + at + done, n - done);
        if (w <= 0) break;
        done += static_cast<std::size_t>(w);
      }
    }
    ::close(fds[1]);
  });
  std::FILE* in = ::fdopen(fds[0], "rb");
  events = read_events(in, g, use_buffer);
  std::fclose(in);
  writer.join();
  return events;
}

// Whether each read fills the buffer (so only a board cut by its end is
// read line by line), unlike a pipe, whose reads bring what has been
// written so far.
bool reads_fill_the_buffer(Feed feed) {
  return feed == Feed::file || feed == Feed::memory;
}

// At most this many boards of `text` are read line by line when each read
// fills the buffer: the first (next() reads it after the count), and one
// per refill.
std::size_t boards_cut_by_refills(const std::string& text) {
  return text.size() / (pawntb::cli::LineReader::kBufferSize / 2) + 2;
}

TEST(UvaReader, JudgeLayoutIsParsedInTheBufferAsLineByLine) {
  for (const int blank_lines : {1, 0, 2}) {
    const UvaInput input = judge_input({4, 4}, 20000, 7, blank_lines);
    for (const Feed feed : kFeeds) {
      SCOPED_TRACE(std::string(feed_name(feed)) + ", " + std::to_string(blank_lines) +
                   " empty lines between boards");
      const UvaEvents fast = read_fed(input.text, input.geometry, feed, true);
      const UvaEvents slow = read_fed(input.text, input.geometry, feed, false);
      EXPECT_EQ(fast.events, input.judge_boards);
      EXPECT_EQ(slow.events, input.judge_boards);
      EXPECT_EQ(slow.from_buffer, 0u);
      if (reads_fill_the_buffer(feed)) {
        EXPECT_GE(fast.from_buffer + boards_cut_by_refills(input.text), input.judge_boards.size());
      }
    }
  }
}

TEST(UvaReader, EveryGeometryAndMalformedBoardsAsLineByLine) {
  for (int rows = pawntb::kMinSide; rows <= pawntb::kMaxSide; ++rows) {
    for (int cols = pawntb::kMinSide; cols <= pawntb::kMaxSide; ++cols) {
      const pawntb::Geometry g{rows, cols};
      for (const std::uint32_t seed : {1u, 2u, 3u}) {
        SCOPED_TRACE(pawntb::to_string(g) + ", seed " + std::to_string(seed));
        const UvaInput well_formed = judge_input(g, 300, seed);
        const UvaEvents fast = read_fed(well_formed.text, g, Feed::file, true);
        EXPECT_EQ(fast.events, well_formed.judge_boards);
        // All but the first board, which next() reads after the count.
        EXPECT_EQ(fast.from_buffer, well_formed.judge_boards.size() - 1);

        const UvaInput mixed = mixed_input(g, 300, seed);
        for (const Feed feed : {Feed::file, Feed::pipe_7, Feed::memory}) {
          SCOPED_TRACE(feed_name(feed));
          const UvaEvents mixed_fast = read_fed(mixed.text, g, feed, true);
          const UvaEvents mixed_slow = read_fed(mixed.text, g, feed, false);
          EXPECT_EQ(mixed_fast.events, mixed_slow.events);
          if (reads_fill_the_buffer(feed)) {
            EXPECT_GT(mixed_fast.from_buffer, 150u);
          }
        }
      }
    }
  }
}

// pawntb uva answers on two threads in batches. Over many batches of mostly
// judge-layout boards with malformed and unanswerable ones among them, from
// a file and from a pipe, it prints what reading line by line and probing
// one board at a time gives: every answer in order, and the errors in order.
TEST(UvaReader, CliAnswersAsLineByLineThroughManyBatches) {
  const pawntb::Geometry g{4, 4};
  const pawntb::Table table = pawntb::Table::open(kDefaultTable);
  // Boards with up to 4 pawns a side off their goal rows; now and then one
  // with a bad square, one with 5 white pawns, or one in CRLF rows. Most
  // chunks of answers have no error.
  std::mt19937 rng(5);
  const int boards = 90000;
  UvaInput input{g, std::to_string(boards) + "\n", {}};
  for (int b = 0; b < boards; ++b) {
    std::string text = "................";
    for (const char pawn : {'P', 'p'}) {
      const int count = static_cast<int>(rng() % 5);
      for (int placed = 0; placed < count;) {
        const int square = static_cast<int>(rng() % 12) + (pawn == 'P' ? 4 : 0);
        if (text[square] == '.') {
          text[square] = pawn;
          ++placed;
        }
      }
    }
    if (b % 2999 == 3) text[rng() % 16] = 'x';
    if (b % 1777 == 5) text.replace(4, 5, "PPPPP");
    const std::string end_of_row = b % 101 == 9 ? "\r\n" : "\n";
    input.text += "\n";
    for (int row = 0; row < 4; ++row) input.text += text.substr(4 * row, 4) + end_of_row;
  }
  // Boards and their answers from the line-by-line reader and the library.
  std::string expected_out;
  std::vector<std::string> expected_errors;
  std::FILE* in = fmemopen(input.text.data(), input.text.size(), "rb");
  ASSERT_NE(in, nullptr);
  pawntb::cli::LineReader lines(in);
  pawntb::cli::UvaReader reader(lines, g);
  std::uint64_t answered = 0;
  for (pawntb::cli::UvaItem item; reader.next(item);) {
    if (!item.error.empty()) {
      expected_errors.push_back("stdin:" + std::to_string(item.line) + ": " + item.error);
      continue;
    }
    const pawntb::ProbeResult r = table.probe(item.position);
    if (!r.ok()) {
      expected_errors.push_back("stdin:" + std::to_string(item.line) + ": " +
                                pawntb::describe(r.status));
      continue;
    }
    expected_out +=
        std::string(pawntb::side_name(r.winner)) + " (" + std::to_string(r.plies) + ")\n";
    ++answered;
  }
  std::fclose(in);
  ASSERT_GT(answered, 4u * (1u << 14));  // more than four batches hold
  ASSERT_GT(expected_errors.size(), 50u);
  ASSERT_LT(expected_errors.size(), 100u);  // all shown
  std::string expected_err;
  for (const std::string& e : expected_errors) expected_err += e + "\n";

  for (const bool pipe : {false, true}) {
    SCOPED_TRACE(pipe ? "stdin a pipe" : "stdin a file");
    RunOptions options;
    options.input = input.text;
    options.input_through_pipe = pipe;
    const RunResult r = run_cli({"uva"}, options);
    EXPECT_EQ(r.status, 2);
    EXPECT_TRUE(r.out == expected_out) << "stdout differs";
    EXPECT_EQ(r.err, expected_err);
  }
}

// The read buffer's end falls at every place of some board: the input is
// shifted by 0..board size bytes of leading empty lines.
TEST(UvaReader, BoardsCutByTheBufferEnd) {
  const pawntb::Geometry g{4, 4};
  const UvaInput base = judge_input(g, 10000, 11);
  for (int shift = 0; shift <= 21; ++shift) {
    SCOPED_TRACE("shift " + std::to_string(shift));
    std::vector<std::string> expected;
    for (const std::string& e : base.judge_boards) {  // lines move down by `shift`
      const std::size_t colon = e.find(':');
      expected.push_back(std::to_string(std::stoull(e.substr(0, colon)) + shift) + e.substr(colon));
    }
    const UvaEvents fast = read_fed(std::string(shift, '\n') + base.text, g, Feed::file, true);
    EXPECT_EQ(fast.events, expected);
    EXPECT_GE(fast.from_buffer + boards_cut_by_refills(base.text), expected.size());
  }
}

TEST(UvaReader, LastBoardWithoutFinalNewline) {
  const pawntb::Geometry g{4, 4};
  UvaInput input = judge_input(g, 100, 5);
  input.text.pop_back();
  for (const Feed feed : kFeeds) {
    SCOPED_TRACE(feed_name(feed));
    EXPECT_EQ(read_fed(input.text, g, feed, true).events, input.judge_boards);
  }
}

// Interactive use: a board is answered as soon as its last line has come,
// before the reader waits for more.
TEST(UvaReader, AnswersEachBoardBeforeWaitingForMore) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  std::atomic<int> answered{0};
  bool answered_in_time = false;
  std::thread writer([&] {
    const std::string first = "2\n\n" + kGoodBoard1;
    (void)!::write(fds[1], first.data(), first.size());
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (answered < 1 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    answered_in_time = answered == 1;
    const std::string second = "\n" + kGoodBoard2;
    (void)!::write(fds[1], second.data(), second.size());
    ::close(fds[1]);
  });
  std::FILE* in = ::fdopen(fds[0], "rb");
  pawntb::cli::LineReader lines(in);
  std::vector<std::uint64_t> first_lines;
  const std::uint64_t errors = pawntb::cli::read_uva(
      lines, {4, 4},
      [&](std::uint64_t line, const pawntb::Position&) {
        first_lines.push_back(line);
        ++answered;
      },
      [](const pawntb::cli::UvaError& e) { ADD_FAILURE() << e.line << ": " << e.message; });
  std::fclose(in);
  writer.join();
  EXPECT_TRUE(answered_in_time) << "the first board was not answered before more input came";
  EXPECT_EQ(errors, 0u);
  EXPECT_EQ(first_lines, (std::vector<std::uint64_t>{3, 8}));
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
  EXPECT_TRUE(contains(r.out, "white to move: black wins, game over\n")) << r;
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
    }
    const json& best = a["moves"][0];
    EXPECT_EQ(a["winner"], best["winner"]) << start;
    EXPECT_EQ(a["plies"].get<int>(), best["plies"].get<int>() + 1) << start;
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
  EXPECT_EQ(answers[1].value("where", ""), "stdin:3");
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
  EXPECT_EQ(answers[0].value("where", ""), "stdin:1");
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
  const RunResult r = run_cli({"probe", "ppp/3/PPP w"});
  EXPECT_EQ(r.status, 2) << r;
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(contains(r.err, "3x3")) << r;
  EXPECT_TRUE(contains(r.err, "4x4")) << r;
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
  EXPECT_EQ(answers[1].value("where", ""), "argument 2");
  EXPECT_EQ(answers[2]["plies"], 0);
  EXPECT_TRUE(contains(r.err, "argument 2:")) << r;
}

// ---------------------------------------------------------------------------
// Tables: lookup, info, verify, damage.

TEST(CliTable, DefaultTableIsFoundWithoutTheEnvironment) {
  RunOptions options;
  options.table_env = std::nullopt;
  options.cwd = fs::temp_directory_path();  // not the source tree
  const RunResult r = run_cli({"probe", "--json", kStart}, options);
  ASSERT_EQ(r.status, 0) << r;
  const std::vector<json> answers = json_lines(r.out);
  ASSERT_EQ(answers.size(), 1u);
  EXPECT_EQ(answers[0]["plies"], 7);
  const RunResult i = run_cli({"info"}, options);
  EXPECT_EQ(i.status, 0) << i;
  EXPECT_TRUE(contains(i.out, "4x4")) << i;
}

TEST(CliTable, InfoAndVerifyTheDefaultTable) {
  const RunResult i = run_cli({"info"});
  EXPECT_EQ(i.status, 0) << i;
  EXPECT_TRUE(contains(i.out, kDefaultTable.string())) << i;
  EXPECT_TRUE(contains(i.out, "4x4, up to 4 pawns a side")) << i;
  EXPECT_TRUE(contains(i.out, "longest game:      13 plies")) << i;

  const RunResult v = run_cli({"verify"});
  EXPECT_EQ(v.status, 0) << v;
  EXPECT_TRUE(contains(v.out, ": ok,")) << v;

  const RunResult explicit_path = run_cli({"verify", kDefaultTable.string()});
  EXPECT_EQ(explicit_path.status, 0) << explicit_path;
}

TEST(CliTable, InfoOnAMissingFile) {
  const RunResult r = run_cli({"info", "/nonexistent"});
  EXPECT_EQ(r.status, 1) << r;
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(contains(r.err, "/nonexistent")) << r;
}

TEST(CliTable, DamagedCopiesAreRefused) {
  TempDir dir;
  const std::string original = read_file(kDefaultTable);
  ASSERT_GT(original.size(), 1000u);
  const fs::path copy = dir / "damaged.pawntb";
  const std::size_t size = original.size();
  for (const std::size_t offset :
       {std::size_t{0}, std::size_t{12}, std::size_t{100}, size / 3, size / 2, size - 1}) {
    std::string bytes = original;
    bytes[offset] = static_cast<char>(bytes[offset] ^ 0x10);
    write_file(copy, bytes);
    const RunResult v = run_cli({"verify", copy.string()});
    EXPECT_EQ(v.status, 1) << "byte " << offset << "\n" << v;
    EXPECT_TRUE(contains(v.err, copy.string())) << "byte " << offset << "\n" << v;
  }
  // A truncated copy too, and every command refuses it.
  write_file(copy, original.substr(0, size - 100));
  for (const auto& args :
       std::vector<std::vector<std::string>>{{"verify", copy.string()},
                                             {"info", copy.string()},
                                             {"probe", "--table", copy.string(), kStart}}) {
    const RunResult r = run_cli(args);
    EXPECT_EQ(r.status, 1) << args[0] << "\n" << r;
    EXPECT_TRUE(contains(r.err, copy.string())) << r;
    EXPECT_EQ(r.out, "") << r;
  }
}

TEST(CliTable, NotATableIsRefused) {
  TempDir dir;
  const fs::path junk = dir / "junk.pawntb";
  write_file(junk, "this is not a table\n");
  const RunResult r = run_cli({"info", junk.string()});
  EXPECT_EQ(r.status, 1) << r;
  EXPECT_TRUE(contains(r.err, junk.string())) << r;
  const RunResult e = run_cli({"info", dir.path().string()});  // a directory
  EXPECT_EQ(e.status, 1) << e;
  const RunResult empty_file = [&] {
    write_file(junk, "");
    return run_cli({"verify", junk.string()});
  }();
  EXPECT_EQ(empty_file.status, 1) << empty_file;
}

// ---------------------------------------------------------------------------
// generate

TEST(CliGenerate, ThreeByThreeTableIsWrittenAndUsable) {
  TempDir dir;
  const fs::path table = dir / "t.pawntb";
  const RunResult g =
      run_cli({"generate", "--rows", "3", "--cols", "3", "--output", table.string()});
  ASSERT_EQ(g.status, 0) << g;
  EXPECT_TRUE(contains(g.out, "generated 3x3")) << g;
  ASSERT_TRUE(fs::exists(table));
  // Written atomically: no temporary file is left beside it.
  std::vector<std::string> entries;
  for (const auto& e : fs::directory_iterator(dir.path())) entries.push_back(e.path().filename());
  EXPECT_EQ(entries, std::vector<std::string>{"t.pawntb"});

  const RunResult p = run_cli({"probe", "--table", table.string(), "ppp/3/PPP w"});
  EXPECT_EQ(p.status, 0) << p;
  EXPECT_TRUE(contains(p.out, "white to move: black wins in 6 plies\n")) << p;

  const RunResult v = run_cli({"verify", table.string()});
  EXPECT_EQ(v.status, 0) << v;
  const RunResult i = run_cli({"info", table.string()});
  EXPECT_EQ(i.status, 0) << i;
  EXPECT_TRUE(contains(i.out, "3x3, up to 3 pawns a side")) << i;

  // The table through $PAWNTB_TABLE, and through uva.
  RunOptions env;
  env.table_env = table.string();
  env.input = "1\nppp\n...\nPPP\n";
  const RunResult u = run_cli({"uva"}, env);
  EXPECT_EQ(u.status, 0) << u;
  EXPECT_EQ(u.out, "black (6)\n");

  // The 4x4 table refuses the 3x3 board, and the 3x3 table the 4x4 one.
  const RunResult wrong = run_cli({"probe", "--table", table.string(), kStart});
  EXPECT_EQ(wrong.status, 2) << wrong;
  EXPECT_TRUE(contains(wrong.err, "4x4")) << wrong;
}

TEST(CliGenerate, OverwritesAnExistingFile) {
  TempDir dir;
  const fs::path table = dir / "t.pawntb";
  write_file(table, "old contents");
  const RunResult g = run_cli({"generate", "--rows", "3", "--cols", "3", "-o", table.string()});
  ASSERT_EQ(g.status, 0) << g;
  EXPECT_EQ(run_cli({"verify", table.string()}).status, 0);
}

TEST(CliGenerate, UnsupportedParametersAreRefused) {
  TempDir dir;
  const std::vector<std::vector<std::string>> cases = {
      {"generate", "--rows", "9"},
      {"generate", "--rows", "2"},
      {"generate", "--cols", "9"},
      {"generate", "--rows", "8", "--cols", "8", "--pawns", "9"},
      {"generate", "--pawns", "5"},  // more than the 4 columns
      {"generate", "--pawns", "-1"},
      {"generate", "--pawns", "0"},
      {"generate", "--threads", "100000"},
  };
  for (const auto& args : cases) {
    RunOptions options;
    options.cwd = dir.path();
    const RunResult r = run_cli(args, options);
    std::string joined;
    for (const auto& a : args) joined += a + " ";
    EXPECT_EQ(r.status, 2) << joined << "\n" << r;  // a usage error
    EXPECT_NE(r.err, "") << joined << "\n" << r;
    EXPECT_EQ(r.out, "") << joined << "\n" << r;
  }
  // Nothing was written, neither in the working directory nor in data/.
  EXPECT_TRUE(fs::is_empty(dir.path()));
  for (const char* name : {"9x4-k4.pawntb", "2x4-k4.pawntb", "4x9-k9.pawntb", "8x8-k9.pawntb",
                           "4x4-k5.pawntb", "4x4-k-1.pawntb"}) {
    EXPECT_FALSE(fs::exists(kSourceDir / "data" / name)) << name;
  }
}

TEST(CliGenerate, UnwritableOutputFailsAndLeavesNothing) {
  const RunResult r = run_cli({"generate", "--output", "/nonexistent-dir/x.pawntb"});
  EXPECT_EQ(r.status, 1) << r;
  EXPECT_TRUE(contains(r.err, "/nonexistent-dir")) << r;
  EXPECT_FALSE(fs::exists("/nonexistent-dir"));

  TempDir dir;
  const RunResult missing = run_cli(
      {"generate", "--rows", "3", "--cols", "3", "--output", (dir / "missing/x.pawntb").string()});
  EXPECT_EQ(missing.status, 1) << missing;
  EXPECT_TRUE(contains(missing.err, (dir / "missing").string())) << missing;
  EXPECT_TRUE(fs::is_empty(dir.path()));

  const RunResult directory =
      run_cli({"generate", "--rows", "3", "--cols", "3", "--output", dir.path().string()});
  EXPECT_EQ(directory.status, 1) << directory;
  EXPECT_TRUE(contains(directory.err, dir.path().string())) << directory;
  EXPECT_TRUE(fs::is_empty(dir.path()));
}

// ---------------------------------------------------------------------------
// Bad inputs: the catalogue in tests/bad_inputs.tsv, then input limits.

const fs::path kBadInputs = kSourceDir / "tests" / "bad_inputs.tsv";
constexpr long kRssLimitKib = 64 * 1024;

// Undoes the escapes of bad_inputs.tsv: \n \r \t \0 \xHH \\. Returns nullopt
// and says why in `problem` on a malformed escape.
std::optional<std::string> unescape(std::string_view text, std::string& problem) {
  auto hex_digit = [](char h) {
    if (h >= '0' && h <= '9') return h - '0';
    if (h >= 'a' && h <= 'f') return h - 'a' + 10;
    if (h >= 'A' && h <= 'F') return h - 'A' + 10;
    return -1;
  };
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\\') {
      out += text[i];
      continue;
    }
    if (++i == text.size()) {
      problem = "a backslash at the end of '" + std::string(text) + "'";
      return std::nullopt;
    }
    switch (text[i]) {
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case '0':
        out += '\0';
        break;
      case '\\':
        out += '\\';
        break;
      case 'x': {
        const int high = i + 1 < text.size() ? hex_digit(text[i + 1]) : -1;
        const int low = i + 2 < text.size() ? hex_digit(text[i + 2]) : -1;
        if (high < 0 || low < 0) {
          problem = "\\x needs two hex digits in '" + std::string(text) + "'";
          return std::nullopt;
        }
        out += static_cast<char>(high * 16 + low);
        i += 2;
        break;
      }
      default:
        problem = std::string("unknown escape \\") + text[i] + " in '" + std::string(text) + "'";
        return std::nullopt;
    }
  }
  return out;
}

// The fields of a line split at every tab, empty ones included.
std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> fields;
  for (std::size_t start = 0;;) {
    const std::size_t tab = line.find('\t', start);
    fields.push_back(line.substr(start, tab == std::string::npos ? tab : tab - start));
    if (tab == std::string::npos) return fields;
    start = tab + 1;
  }
}

// "stdin:N: ..." with N a line number, or the final count of unshown errors.
bool is_input_error_line(const std::string& line) {
  static const std::regex kLine(
      "stdin:[1-9][0-9]*: [\\s\\S]+|pawntb: [1-9][0-9]* more errors not shown");
  return std::regex_match(line, kLine);
}

// The "stdin:N" that starts each stderr line of input errors.
std::vector<std::string> error_places(const std::string& err) {
  std::vector<std::string> places;
  for (const std::string& line : lines_of(err)) {
    const std::size_t colon = line.find(':', line.find(':') + 1);
    if (line.rfind("stdin:", 0) == 0 && colon != std::string::npos) {
      places.push_back(line.substr(0, colon));
    }
  }
  return places;
}

TEST(BadInputCatalogue, EveryEntryGivesItsExpectedResult) {
  std::ifstream file(kBadInputs, std::ios::binary);
  ASSERT_TRUE(file) << "cannot read " << kBadInputs;
  const std::map<std::string, std::vector<std::string>> commands = {
      {"uva", {"uva"}}, {"probe", {"probe", "-"}}, {"probe-json", {"probe", "--json", "-"}}};
  std::map<std::string, int> entries;
  int number = 0;
  for (std::string text; std::getline(file, text);) {
    ++number;
    if (!text.empty() && text.back() == '\r') text.pop_back();
    if (text.empty() || text.front() == '#') continue;
    const std::string where = "bad_inputs.tsv:" + std::to_string(number);
    const std::vector<std::string> fields = split_tabs(text);
    if (fields.size() != 5) {
      ADD_FAILURE() << where << ": " << fields.size() << " tab-separated fields, expected 5";
      continue;
    }
    const auto command = commands.find(fields[0]);
    if (command == commands.end()) {
      ADD_FAILURE() << where << ": unknown command '" << fields[0] << "'";
      continue;
    }
    int expected_status = -1;
    const auto [end, ec] =
        std::from_chars(fields[2].data(), fields[2].data() + fields[2].size(), expected_status);
    if (ec != std::errc() || end != fields[2].data() + fields[2].size()) {
      ADD_FAILURE() << where << ": bad exit status '" << fields[2] << "'";
      continue;
    }
    std::string problem;
    const std::optional<std::string> input = unescape(fields[1], problem);
    const std::optional<std::string> err_part = unescape(fields[3], problem);
    const bool check_out = fields[4] != "*";
    const std::optional<std::string> out =
        check_out ? unescape(fields[4], problem) : std::optional<std::string>("");
    if (!input || !err_part || !out) {
      ADD_FAILURE() << where << ": " << problem;
      continue;
    }
    ++entries[fields[0]];

    const RunResult r = run_with_input(command->second, *input);
    const std::string context = where + ": " + fields[0] + " '" + fields[1] + "'\n";
    EXPECT_FALSE(r.signaled) << context << r;
    EXPECT_EQ(r.status, expected_status) << context << r;
    EXPECT_TRUE(contains(r.err, *err_part)) << context << "stderr lacks '" << fields[3] << "'\n"
                                            << r;
    if (check_out) {
      EXPECT_EQ(r.out, *out) << context << r;
    }
    if (r.status == 0) {
      EXPECT_EQ(r.err, "") << context << r;
    } else {
      EXPECT_NE(r.err, "") << context << r;
      for (const std::string& line : lines_of(r.err)) {
        EXPECT_TRUE(is_input_error_line(line))
            << context << "stderr line without a line number: '" << line << "'\n"
            << r;
      }
    }
    if (fields[0] == "probe-json") {
      // One JSON object per line: answers, and one error object per input
      // error, in the order (and with the places) of the stderr lines.
      std::vector<std::string> json_places;
      for (const std::string& line : lines_of(r.out)) {
        json value;
        try {
          value = json::parse(line);
        } catch (const json::exception& e) {
          ADD_FAILURE() << context << "stdout line is not JSON: '" << line << "': " << e.what();
          continue;
        }
        ASSERT_TRUE(value.is_object()) << context << line;
        if (value.contains("error")) {
          EXPECT_TRUE(value["error"].is_string()) << context << line;
          EXPECT_TRUE(value.contains("input") && value["input"].is_string()) << context << line;
          EXPECT_FALSE(value.contains("winner")) << context << line;
          ASSERT_TRUE(value.contains("where") && value["where"].is_string()) << context << line;
          json_places.push_back(value["where"].get<std::string>());
        } else {
          EXPECT_TRUE(value.contains("winner") && value.contains("plies")) << context << line;
        }
      }
      EXPECT_EQ(json_places, error_places(r.err)) << context << r;
    }
  }
  int total = 0;
  for (const auto& [name, count] : entries) total += count;
  EXPECT_GE(total, 25) << "the catalogue has only " << total << " entries";
  for (const auto& [name, args] : commands) {
    EXPECT_GT(entries[name], 0) << "no entries for " << name;
  }
}

// The CLI on many boards: the answers are the table's, and the same bytes,
// messages and status come from CRLF input, which is read line by line.
TEST(CliUva, ManyBoardsAnswerAsTheTableAndAsCrlfInput) {
  const pawntb::Table table = pawntb::Table::open(kDefaultTable);
  const pawntb::Geometry g = table.info().geometry;
  std::mt19937 rng(3);
  std::string input = "5000\n", expected_out;
  std::vector<std::string> expected_places;
  std::uint64_t line = 2;
  for (int b = 0; b < 5000; ++b) {
    std::uint64_t white = 0, black = 0;
    input += "\n" + random_board(g, rng, white, black);
    const pawntb::ProbeResult r =
        table.probe(pawntb::Position{g, white, black, pawntb::Side::white});
    if (r.ok()) {
      expected_out +=
          std::string(pawntb::side_name(r.winner)) + " (" + std::to_string(r.plies) + ")\n";
    } else {
      expected_places.push_back("stdin:" + std::to_string(line + 1));
    }
    line += g.rows + 1;
  }
  ASSERT_GT(expected_out.size(), 1000u);
  ASSERT_FALSE(expected_places.empty());
  const RunResult lf = run_with_input({"uva"}, input);
  EXPECT_EQ(lf.status, 2);
  EXPECT_EQ(lf.out, expected_out);
  std::vector<std::string> places = error_places(lf.err);
  places.resize(std::min(places.size(), expected_places.size()));
  expected_places.resize(std::min<std::size_t>(expected_places.size(), 100));
  EXPECT_EQ(places, expected_places);
  const RunResult crlf = run_with_input({"uva"}, to_crlf(input));
  EXPECT_EQ(crlf.status, lf.status);
  EXPECT_EQ(crlf.out, lf.out);
  EXPECT_EQ(crlf.err, lf.err);
}

// A line of 5,000,000 bytes is reported by line number and skipped, without
// being stored: the next position is still answered, in little memory.
TEST(InputLimits, FiveMillionByteLineToProbe) {
  const std::string huge(5'000'000, 'p');
  for (const bool json_output : {false, true}) {
    std::vector<std::string> args{"probe", "-"};
    if (json_output) args.insert(args.begin() + 1, "--json");
    const RunResult r = run_with_input(args, huge + "\n" + kStart + "\n");
    EXPECT_FALSE(r.signaled) << r;
    EXPECT_EQ(r.status, 2) << r;
    EXPECT_EQ(lines_of(r.err), std::vector<std::string>{"stdin:1: line longer than 4096 bytes"})
        << r;
    EXPECT_LT(r.peak_rss_kib, kRssLimitKib) << "peak RSS " << r.peak_rss_kib << " KiB";
    if (json_output) {
      const std::vector<json> answers = json_lines(r.out);
      ASSERT_EQ(answers.size(), 2u) << r;
      EXPECT_EQ(answers[0].value("where", ""), "stdin:1");
      EXPECT_TRUE(answers[0].contains("error"));
      EXPECT_EQ(answers[1]["plies"], 7);
    } else {
      EXPECT_TRUE(contains(r.out, "white to move: white wins in 7 plies\n")) << r;
    }
  }
  // The same line last, without a newline.
  const RunResult r = run_with_input({"probe", "-"}, std::string(kStart) + "\n" + huge);
  EXPECT_FALSE(r.signaled) << r;
  EXPECT_EQ(r.status, 2) << r;
  EXPECT_EQ(lines_of(r.err), std::vector<std::string>{"stdin:2: line longer than 4096 bytes"}) << r;
  EXPECT_TRUE(contains(r.out, "white to move: white wins in 7 plies\n")) << r;
  EXPECT_LT(r.peak_rss_kib, kRssLimitKib) << "peak RSS " << r.peak_rss_kib << " KiB";
}

TEST(InputLimits, FiveMillionByteBoardRowToUva) {
  const std::string input =
      "2\n" + std::string(5'000'000, 'p') + "\n....\n.PPP\n....\n\n" + kGoodBoard1;
  const RunResult r = run_with_input({"uva"}, input);
  EXPECT_FALSE(r.signaled) << r;
  EXPECT_EQ(r.status, 2) << r;
  EXPECT_EQ(r.out, "white (7)\n") << r;
  const std::vector<std::string> err = lines_of(r.err);
  ASSERT_EQ(err.size(), 1u) << r;
  EXPECT_TRUE(
      std::regex_match(err[0], std::regex("stdin:2: line (too long|longer than 4096 bytes)")))
      << r;
  EXPECT_LT(r.peak_rss_kib, kRssLimitKib) << "peak RSS " << r.peak_rss_kib << " KiB";
}

// 20,000,000 lines (empty ones, which probe skips, to keep the input at 20 MB):
// bounded memory, a few seconds at most, and line numbers still right. One
// input buffer serves both runs.
TEST(InputLimits, TwentyMillionLinesToProbe) {
  constexpr std::size_t kLines = 20'000'000;
  RunOptions options;
  options.input.emplace();
  options.input->reserve(kLines + 64);
  options.input->assign(kLines, '\n');
  *options.input += std::string(kStart) + "\n";
  {
    const auto start = std::chrono::steady_clock::now();
    const RunResult r = run_cli({"probe", "--json", "-"}, options);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_FALSE(r.signaled) << r;
    EXPECT_EQ(r.status, 0) << r;
    EXPECT_EQ(r.err, "") << r;
    const std::vector<json> answers = json_lines(r.out);
    ASSERT_EQ(answers.size(), 1u) << r;
    EXPECT_EQ(answers[0]["plies"], 7);
    EXPECT_LT(r.peak_rss_kib, kRssLimitKib) << "peak RSS " << r.peak_rss_kib << " KiB";
    EXPECT_LT(seconds, 10.0);
  }
  {
    options.input->resize(kLines);
    *options.input += "xyz w";  // line 20,000,001, without a newline
    const auto start = std::chrono::steady_clock::now();
    const RunResult r = run_cli({"probe", "-"}, options);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_FALSE(r.signaled) << r;
    EXPECT_EQ(r.status, 2) << r;
    EXPECT_EQ(r.out, "") << r;
    EXPECT_EQ(
        lines_of(r.err),
        std::vector<std::string>{"stdin:20000001: bad character 'x' in board: use P, p, . or 1-8"})
        << r;
    EXPECT_LT(r.peak_rss_kib, kRssLimitKib) << "peak RSS " << r.peak_rss_kib << " KiB";
    EXPECT_LT(seconds, 10.0);
  }
}

// After 100 messages the rest are only counted; with --json every error still
// gets its object on stdout.
TEST(InputLimits, AThousandBadLinesShowAHundredErrors) {
  std::string input;
  for (int i = 0; i < 1000; ++i) input += "xyz w\n";
  for (const bool json_output : {false, true}) {
    std::vector<std::string> args{"probe", "-"};
    if (json_output) args.insert(args.begin() + 1, "--json");
    const RunResult r = run_with_input(args, input);
    EXPECT_FALSE(r.signaled) << r;
    EXPECT_EQ(r.status, 2) << r;
    const std::vector<std::string> err = lines_of(r.err);
    ASSERT_EQ(err.size(), 101u) << r;
    for (int i = 0; i < 100; ++i) {
      EXPECT_EQ(err[i], "stdin:" + std::to_string(i + 1) +
                            ": bad character 'x' in board: use P, p, . or 1-8");
    }
    EXPECT_EQ(err[100], "pawntb: 900 more errors not shown");
    if (json_output) {
      const std::vector<json> answers = json_lines(r.out);
      ASSERT_EQ(answers.size(), 1000u);
      for (int i = 0; i < 1000; ++i) {
        ASSERT_EQ(answers[i].value("where", ""), "stdin:" + std::to_string(i + 1));
        ASSERT_TRUE(answers[i].contains("error"));
      }
    } else {
      EXPECT_EQ(r.out, "");
    }
  }

  // uva: 1,000 boards with a bad character, each on the board's first line.
  std::string boards = "1000\n";
  for (int i = 0; i < 1000; ++i) boards += ".ppx\n....\n.PPP\n....\n\n";
  const RunResult u = run_with_input({"uva"}, boards);
  EXPECT_FALSE(u.signaled) << u;
  EXPECT_EQ(u.status, 2) << u;
  EXPECT_EQ(u.out, "");
  const std::vector<std::string> err = lines_of(u.err);
  ASSERT_EQ(err.size(), 101u) << u;
  for (int i = 0; i < 100; ++i) {
    EXPECT_EQ(err[i],
              "stdin:" + std::to_string(2 + 5 * i) + ": bad character 'x' in board: use P, p or .");
  }
  EXPECT_EQ(err[100], "pawntb: 900 more errors not shown");
}

std::string byte_name(unsigned char b) {
  char text[5];
  std::snprintf(text, sizeof text, "0x%02x", b);
  return text;
}

// NUL and every byte 0x80-0xff, in the board and after the side to move:
// each line is an input error (exit 2) and, with --json, a valid JSON error
// object; a good position after them is still answered.
TEST(InputLimits, NulAndHighBytesInPositionLines) {
  std::vector<unsigned char> bytes{0};
  for (int b = 0x80; b <= 0xff; ++b) bytes.push_back(static_cast<unsigned char>(b));
  std::string input;
  for (const unsigned char b : bytes) {
    input += std::string(".pp") + static_cast<char>(b) + "/4/.PPP/4 w\n";  // in the board
    input += std::string(kStart) + static_cast<char>(b) + "\n";            // after the side
  }
  input += std::string(kStart) + "\n";
  const std::size_t bad_lines = 2 * bytes.size();

  const RunResult j = run_with_input({"probe", "--json", "-"}, input);
  EXPECT_FALSE(j.signaled) << j;
  EXPECT_EQ(j.status, 2) << j;
  const std::vector<json> answers = json_lines(j.out);
  ASSERT_EQ(answers.size(), bad_lines + 1) << j;
  for (std::size_t i = 0; i < bad_lines; ++i) {
    const json& a = answers[i];
    ASSERT_TRUE(a.is_object()) << a.dump();
    EXPECT_EQ(a.value("where", ""), "stdin:" + std::to_string(i + 1)) << a.dump();
    ASSERT_TRUE(a.contains("error") && a["error"].is_string()) << a.dump();
    EXPECT_TRUE(a.contains("input") && a["input"].is_string()) << a.dump();
    EXPECT_FALSE(a.contains("winner")) << a.dump();
    if (i % 2 == 0) {
      EXPECT_TRUE(contains(a["error"].get<std::string>(), "byte " + byte_name(bytes[i / 2])))
          << a.dump();
    } else {
      EXPECT_TRUE(contains(a["error"].get<std::string>(), "side to move")) << a.dump();
    }
  }
  // NUL is valid UTF-8: the input comes back exactly.
  EXPECT_EQ(answers[0].value("input", ""), std::string(".pp\0/4/.PPP/4 w", 15));
  EXPECT_EQ(answers[1].value("input", ""), std::string(kStart) + std::string(1, '\0'));
  EXPECT_EQ(answers[bad_lines]["plies"], 7);
  const std::vector<std::string> err = lines_of(j.err);
  ASSERT_EQ(err.size(), 101u) << j;
  EXPECT_EQ(err[0], "stdin:1: bad character byte 0x00 in board: use P, p, . or 1-8");
  EXPECT_EQ(err[2], "stdin:3: bad character byte 0x80 in board: use P, p, . or 1-8");
  for (std::size_t i = 0; i < 100; ++i) {
    EXPECT_EQ(err[i].rfind("stdin:" + std::to_string(i + 1) + ": ", 0), 0u) << err[i];
  }
  EXPECT_EQ(err[100], "pawntb: " + std::to_string(bad_lines - 100) + " more errors not shown");

  const RunResult h = run_with_input({"probe", "-"}, input);
  EXPECT_FALSE(h.signaled) << h;
  EXPECT_EQ(h.status, 2) << h;
  EXPECT_TRUE(contains(h.out, "white to move: white wins in 7 plies\n")) << h;
  EXPECT_EQ(lines_of(h.err).size(), 101u) << h;

  // uva: the same bytes in a board row.
  std::string boards = std::to_string(bytes.size() + 1) + "\n";
  for (const unsigned char b : bytes)
    boards += std::string(".p") + static_cast<char>(b) + "p\n....\n.PPP\n....\n\n";
  boards += kGoodBoard1;
  const RunResult u = run_with_input({"uva"}, boards);
  EXPECT_FALSE(u.signaled) << u;
  EXPECT_EQ(u.status, 2) << u;
  EXPECT_EQ(u.out, "white (7)\n") << u;
  const std::vector<std::string> uva_err = lines_of(u.err);
  ASSERT_EQ(uva_err.size(), 101u) << u;
  for (std::size_t i = 0; i < 100; ++i) {
    EXPECT_EQ(uva_err[i], "stdin:" + std::to_string(2 + 5 * i) + ": bad character byte " +
                              byte_name(bytes[i]) + " in board: use P, p or .");
  }
  EXPECT_EQ(uva_err[100],
            "pawntb: " + std::to_string(bytes.size() - 100) + " more errors not shown");
}

// A signal during generate: a message, exit 128 + signal, the old table
// untouched and no temporary file left. 4x5 with K = 5 takes about half a
// second, so the signal lands while it is solving.
TEST(CliGenerate, SignalLeavesTheOldTableAndNoTemporaryFile) {
  TempDir dir;
  const fs::path output = dir.path() / "table.pawntb";
  fs::copy_file(kDefaultTable, output);
  const fs::path err_path = dir.path() / "stderr.txt";
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const int err_fd = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ::dup2(err_fd, STDERR_FILENO);
    const int null_fd = ::open("/dev/null", O_WRONLY);
    ::dup2(null_fd, STDOUT_FILENO);
    ::execl(PAWNTB_CLI, PAWNTB_CLI, "generate", "--rows", "4", "--cols", "5", "--output",
            output.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
  ::kill(child, SIGTERM);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << "killed instead of stopping cleanly";
  EXPECT_EQ(WEXITSTATUS(status), 128 + SIGTERM);
  std::ifstream err(err_path);
  const std::string message{std::istreambuf_iterator<char>(err), {}};
  EXPECT_NE(message.find("interrupted"), std::string::npos) << message;
  std::ifstream old_in(output, std::ios::binary), default_in(kDefaultTable, std::ios::binary);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(old_in), {}),
            std::string(std::istreambuf_iterator<char>(default_in), {}))
      << "the old table changed";
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir.path())) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"stderr.txt", "table.pawntb"}));
}

}  // namespace
