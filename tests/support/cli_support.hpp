// Helpers shared by the CLI test suites (tests/cli): running the pawntb
// executable as a subprocess and reading what it printed.
#pragma once

#include <chrono>
#include <functional>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "support/hang_guard.hpp"
#include "support/test_support.hpp"

namespace pawntb_test {

inline const fs::path kUvaSample = kSourceDir / "tests" / "data" / "uva-sample.txt";
inline constexpr char kSampleAnswer[] = "white (7)\nblack (2)\n";
inline constexpr char kStart[] = ".ppp/4/.PPP/4 w";

// ---------------------------------------------------------------------------
// Running the CLI.

struct RunResult {
  int status = -1;  // exit status; 128 + signal number if killed by a signal
  bool signaled = false;
  std::string out;
  std::string err;
  long peak_rss_kib = 0;  // the child's peak resident set size (ru_maxrss), KiB
};

std::ostream& operator<<(std::ostream& os, const RunResult& r);

struct RunOptions {
  std::optional<std::string> input;  // stdin bytes; /dev/null when absent
  // PAWNTB_TABLE in the child: the default table unless overridden; nullopt
  // removes it from the environment.
  std::optional<std::string> table_env = kDefaultTable.string();
  fs::path cwd;                     // the child's working directory; empty: inherited
  bool input_through_pipe = false;  // stdin a pipe the input is written into, not a file
};

// The pawntb executable run_cli runs: $PAWNTB_TEST_CLI if set (to run the
// suites against another build, such as one from before a fix), else the
// one this build made.
std::string cli_path();

// Runs the pawntb executable with `args`, stdin from `options.input`, and
// stdout and stderr captured separately (through files, so no pipe can fill
// up). A hung child is killed after kHangGuard (support/hang_guard.hpp). It runs
// under rss_launcher, which measures its peak RSS.
RunResult run_cli(const std::vector<std::string>& args, const RunOptions& options = {});

RunResult run_with_input(const std::vector<std::string>& args, std::string input);

// How a run that kill_when_ready started ended.
enum class KillEnd {
  killed,    // by SIGKILL, after ready() held
  finished,  // by itself, before ready() held or during the pause
  hung,      // neither finished nor became ready within kHangGuard: killed, and a failure added
};

// Starts the pawntb executable with `args` (stdout to dir/out.txt, stderr
// appended to dir/err.txt), polls ready() until it holds, waits `pause` and
// kills the run with SIGKILL; for the tests that resume a killed run. ready()
// watches an event, such as a file's content, and not the time.
KillEnd kill_when_ready(const std::vector<std::string>& args, const fs::path& dir,
                        const std::function<bool()>& ready,
                        std::chrono::microseconds pause = std::chrono::microseconds{0});

// ---------------------------------------------------------------------------
// Reading the output.

bool contains(const std::string& haystack, const std::string& needle);

std::vector<std::string> lines_of(const std::string& text);

std::string to_crlf(const std::string& text);

// One JSON value per line of `text`; fails the test on a line that is not JSON.
std::vector<nlohmann::json> json_lines(const std::string& text);

// The "stdin:N" after the command ("pawntb probe: ") on each stderr line of
// input errors.
std::vector<std::string> error_places(const std::string& err);

// ---------------------------------------------------------------------------
// UVa input.

// A UVa board: `rows` lines, then a blank line.
std::string board(std::initializer_list<const char*> rows);

inline const std::string kGoodBoard1 = board({".ppp", "....", ".PPP", "...."});  // white (7)
inline const std::string kGoodBoard2 = board({"...p", "...p", "pP.P", "...P"});  // black (2)

// ---------------------------------------------------------------------------
// Command examples in Markdown (README.md, docs/api.md).

// A "$ COMMAND" line of a ```text block and the lines shown after it, up to
// the next "$ " line or the end of the block, blank lines included.
struct Example {
  int line = 0;         // of the "$ " line in the Markdown text, from 1
  std::string command;  // after the prompt
  std::string output;   // the lines shown after it, each ending in '\n'
};

bool operator==(const Example& a, const Example& b);
std::ostream& operator<<(std::ostream& os, const Example& e);

// The examples of every ```text block of `markdown`.
std::vector<Example> examples_in(const std::string& markdown);

struct Command {
  std::vector<std::string> words;
  std::optional<std::string> input;  // the file after '<'
};

// Splits `text` into words as a POSIX shell does with quoting ('…', "…" and
// backslash) and one "< FILE". Anything needing a shell (expansions, pipes,
// other redirections, globs, comments) is an error message.
std::variant<Command, std::string> split_command(std::string_view text);

}  // namespace pawntb_test
