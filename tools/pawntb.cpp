// pawntb command-line tool. Parses options, runs the command, and turns
// exceptions into messages on stderr and exit statuses.
#include <iostream>
#include <new>

#include "cli/commands.hpp"

int main(int argc, char** argv) {
  using namespace pawntb::cli;
  CommandLine line;
  const ParseOutcome parsed = parse_command_line(argc, argv, line, std::cout, std::cerr);
  if (parsed == ParseOutcome::fail) return kUsageError;
  const std::string prefix = line.command ? "pawntb " + std::string(line.command->name) : "pawntb";
  try {
    if (parsed == ParseOutcome::exit) {  // --help or --version went to stdout
      check_stdout();
      return kOk;
    }
    return run(line);
  } catch (const std::bad_alloc&) {
    std::cerr << prefix << ": out of memory\n";
  } catch (const std::exception& e) {  // TableError, GenerateError, stdout or stdin failing
    std::cerr << prefix << ": " << e.what() << "\n";
  }
  return kRuntimeFailure;
}
