// The pawntb command line: the command table's entry, each command's
// options, option parsing and running a command.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "common/exit_status.hpp"

namespace boost::program_options {
class options_description;
class variables_map;
}  // namespace boost::program_options

namespace pawntb::cli {

using common::check_stdout;
using common::ExitCode;
using common::kOk;
using common::kRuntimeFailure;
using common::kUsageError;

// What the command line sets for one command: a struct of the command's own
// (GenerateArgs, ...), derived from this. Named Args, not Options: the
// libraries' GenerateRequest and ServeOptions are what a command makes of them.
struct CommandArgs {
  virtual ~CommandArgs() = default;
  std::string table;  // --table FILE or the FILE operand; empty: the default table
};

// --memory SIZE (generate, verify, stats).
struct MemoryArg {
  std::string given;        // as given; empty: the default
  std::uint64_t bytes = 0;  // set by check_memory (command_support.hpp); 0: the default
};

struct GenerateArgs : CommandArgs {
  int rows = 4;
  int cols = 4;
  int pawns = 0;         // 1..cols; as many as columns unless --pawns is given
  unsigned threads = 0;  // 0: the library's default (one per hardware thread)
  std::string output;    // set by validation: ./RxC-kK.pawntb unless --output
  bool force = false;    // overwrite an existing output file
  MemoryArg memory;
  std::string work_dir;        // empty: in memory when the table fits
  bool keep_work_dir = false;  // keep the unit files once the table is written
  bool plan = false;           // print the plan (as JSON with --json) and stop
  bool json = false;
  int ranks = 0;               // with --plan: the ranks to plan for; 0: this run's
  int sample = 0;              // with --plan: units solved to measure the rate; 0: none
};

struct InfoArgs : CommandArgs {
  bool json = false;
  bool tiers = false;
  unsigned threads = 0;
};

struct VerifyArgs : CommandArgs {
  MemoryArg memory;
  std::string resume;  // the progress file; empty: none
  bool plan = false;   // print what the check will hold in memory, and stop
  unsigned threads = 0;
};

struct UvaArgs : CommandArgs {};

struct ProbeArgs : CommandArgs {
  bool json = false;
  std::vector<std::string> positions;
  std::string moves;   // played from each position first
  bool start = false;  // the table's start position
};

struct PlayArgs : CommandArgs {
  std::string first_position;         // --position; empty: the table's start
  std::string play_as;                // "white", "black", or empty: the side to move
  std::optional<std::uint64_t> seed;  // absent: a random seed
};

struct StatsArgs : CommandArgs {
  bool json = false;
  std::string svg_dir;  // empty: no plots
  MemoryArg memory;
  unsigned threads = 0;
};

struct ServeArgs : CommandArgs {
  std::vector<std::string> tables;  // --table, repeatable; empty: the default tables
  std::string host;
  int port = 0;
  bool log = false;
  unsigned threads = 0;
};

struct TablesArgs : CommandArgs {
  bool json = false;
};

// Which table a command uses without --table.
enum class DefaultTable : std::uint8_t {
  none,           // the command takes no table (no --table option)
  four_by_four,   // the 4x4 table: Table::default_path()
  by_board_size,  // for each position, the table of its board size: Table::find()
};

// One command: adding a command means defining one of these with
// command_entry (next to its run function) and listing it in kCommands
// (commands.cpp).
struct Command {
  const char* name;
  const char* summary;   // one line in `pawntb --help`
  const char* synopsis;  // "pawntb NAME [OPTIONS] ..."
  const char* details;   // the --help text after the synopsis
  // Without --table, which table the command uses; --help then says where
  // it is looked for (table_search_help()).
  DefaultTable default_table;
  // The command's args with their defaults (its XxxArgs); the hooks below
  // get that object back.
  std::unique_ptr<CommandArgs> (*make_args)();
  // Adds the command's options (besides --help, --version and --table),
  // bound to fields of `args`. May be null.
  void (*add_options)(boost::program_options::options_description& desc, CommandArgs& args);
  // Checks the operands and option values once parsed and completes `args`.
  // Returns a usage error message, or empty when all is well. May be null:
  // then the command takes no operands.
  std::string (*validate)(const boost::program_options::variables_map& given,
                          const std::vector<std::string>& operands, CommandArgs& args);
  int (*run)(const CommandArgs& args);
};

// The Command of a command whose args are `Args` and whose hooks take them:
// add_options(desc, Args&), validate(given, operands, Args&) (either may be
// nullptr) and run(const Args&). The entry's hooks cast back to Args, which
// make_args made.
template <class Args, auto add_options, auto validate, auto run>
constexpr Command command_entry(const char* name, const char* summary, const char* synopsis,
                                const char* details, DefaultTable default_table) {
  Command c{name, summary, synopsis, details, default_table, nullptr, nullptr, nullptr, nullptr};
  c.make_args = []() -> std::unique_ptr<CommandArgs> { return std::make_unique<Args>(); };
  if constexpr (!std::is_null_pointer_v<decltype(add_options)>) {
    c.add_options = [](boost::program_options::options_description& desc, CommandArgs& args) {
      add_options(desc, static_cast<Args&>(args));
    };
  }
  if constexpr (!std::is_null_pointer_v<decltype(validate)>) {
    c.validate = [](const boost::program_options::variables_map& given,
                    const std::vector<std::string>& operands, CommandArgs& args) {
      return validate(given, operands, static_cast<Args&>(args));
    };
  }
  c.run = [](const CommandArgs& args) { return run(static_cast<const Args&>(args)); };
  return c;
}

// The command table's entries, one per command file.
extern const Command kGenerate, kInfo, kVerify, kUva, kProbe, kPlay, kStats, kServe, kTables;

// Every command, in the order `pawntb --help` lists them.
std::span<const Command* const> all_commands();

// The command called `name`, or null.
const Command* find_command(std::string_view name);

// A parsed command line: the command and its args.
struct CommandLine {
  const Command* command = nullptr;  // null until the command is known
  std::unique_ptr<CommandArgs> args;

  // The args as the command's own type; throws std::bad_cast for another.
  template <class Args>
  const Args& args_as() const {
    return dynamic_cast<const Args&>(*args);
  }
};

enum class ParseOutcome { ok, fail, exit };

// Parses the whole command line into `line`. Prints --help/--version text to
// `out` (outcome exit) and usage errors to `err` (outcome fail). Called from
// main (or a test) on one thread.
ParseOutcome parse_command_line(int argc, const char* const* argv, CommandLine& line,
                                std::ostream& out, std::ostream& err);

// Runs a parsed command; returns the exit status. Throws TableError,
// GenerateError or std::runtime_error (stdout or stdin failing) for runtime
// failures; main turns them into status 1.
int run(const CommandLine& line);

}  // namespace pawntb::cli
