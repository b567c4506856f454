// The pawntb command line: the command table's entry, each command's
// options, option parsing and running a command.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
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

// What the command line sets for one command: a struct of the command's own,
// derived from this, declared in the command's header with its entry
// (GenerateArgs and kGenerate in generate.hpp, ...). Named Args, not Options: the
// libraries' GenerateRequest and ServeOptions are what a command makes of them.
struct CommandArgs {
  virtual ~CommandArgs() = default;
  std::string table;  // --table FILE or the FILE operand; empty: the default table
  std::vector<std::string> command_line;  // the words as given, the program's first (--report)
};

// --memory SIZE (generate, verify, stats).
struct MemoryArg {
  std::string given;        // as given; empty: the default
  std::uint64_t bytes = 0;  // set by check_memory (command_support.hpp); 0: the default
};

// Which table a command uses without --table.
enum class DefaultTable : std::uint8_t {
  none,           // the command takes no table (no --table option)
  four_by_four,   // the 4x4 table: Table::default_path()
  by_board_size,  // for each position, the table of its board size: Table::find()
};

// One command: adding a command means a header declaring its Args and its
// entry (like generate.hpp), defining the entry with command_entry next to
// its run function, and listing it in kCommands (commands.cpp).
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
