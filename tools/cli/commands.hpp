// The pawntb command line: option parsing and the subcommands.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace pawntb::cli {

enum ExitCode : int { kOk = 0, kRuntimeFailure = 1, kUsageError = 2 };

struct Options {
  std::string command;  // generate, info, verify, uva, probe
  // generate
  int rows = 4;
  int cols = 4;
  int pawns = 0;  // 1..cols; as many as columns unless --pawns is given
  int threads = 0;
  std::string output;  // empty: the default table path for the geometry
  // info, verify, uva, probe
  std::string table;  // empty: the default table
  // probe
  bool json = false;
  std::vector<std::string> positions;
};

enum class ParseOutcome { ok, fail, exit };

// Parses the whole command line into `options`. Prints --help/--version text
// to `out` (outcome exit) and usage errors to `err` (outcome fail).
ParseOutcome parse_command_line(int argc, const char* const* argv, Options& options,
                                std::ostream& out, std::ostream& err);

// Runs a parsed command; returns the exit status. Throws TableError,
// GenerateError or std::runtime_error (stdout or stdin failing) for runtime
// failures; main turns them into status 1.
int run(const Options& options);

// The commands, one file each (generate.cpp, info.cpp, verify.cpp,
// uva_command.cpp, probe_command.cpp); run() calls them.
int run_generate(const Options& options);
int run_info(const Options& options);
int run_verify(const Options& options);
int run_uva(const Options& options);
int run_probe(const Options& options);

}  // namespace pawntb::cli
