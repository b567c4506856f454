// The pawntb command line: option parsing and running a command.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "common/exit_status.hpp"

namespace pawntb::cli {

using common::check_stdout;
using common::ExitCode;
using common::kOk;
using common::kRuntimeFailure;
using common::kUsageError;

// Everything the command line can set; each command reads its own fields.
struct Options {
  std::string command;  // a name from the command table
  // generate
  int rows = 4;
  int cols = 4;
  int pawns = 0;                   // 1..cols; as many as columns unless --pawns is given
  unsigned threads = 0;            // 0: the library's default (one per hardware thread)
  std::string output;              // set by validation: ./RxC-kK.pawntb unless --output
  bool force = false;              // overwrite an existing output file
  std::string memory;              // --memory SIZE as given (generate, verify); empty: the default
  std::uint64_t memory_limit = 0;  // set by validation from --memory (bytes)
  std::string work_dir;            // --work-dir; empty: in memory when the table fits
  bool keep_work_dir = false;      // keep the unit files once the table is written
  bool plan = false;               // --plan: print the plan (as JSON with --json) and stop
  // info, verify, uva, probe
  std::string table;  // empty: the default table (see table_search_help())
  // verify
  std::string resume;  // --resume FILE: the progress file; empty: none
  // info, probe
  bool json = false;
  bool tiers = false;  // info --tiers
  // probe
  std::vector<std::string> positions;
  std::string moves;   // played from each position first
  bool start = false;  // the table's start position
  // play
  std::string first_position;         // --position; empty: the table's start
  std::string play_as;                // "white", "black", or empty: the side to move
  std::optional<std::uint64_t> seed;  // absent: a random seed
  // stats
  std::string svg_dir;  // empty: no plots
  // serve (and threads)
  std::vector<std::string> tables;  // --table, repeatable; empty: the default tables
  std::string host;
  int port = 0;
  bool log = false;
};

enum class ParseOutcome { ok, fail, exit };

// Parses the whole command line into `options`. Prints --help/--version text
// to `out` (outcome exit) and usage errors to `err` (outcome fail). Called
// from main (or a test) on one thread.
ParseOutcome parse_command_line(int argc, const char* const* argv, Options& options,
                                std::ostream& out, std::ostream& err);

// Runs a parsed command; returns the exit status. Throws TableError,
// GenerateError or std::runtime_error (stdout or stdin failing) for runtime
// failures; main turns them into status 1.
int run(const Options& options);

}  // namespace pawntb::cli
