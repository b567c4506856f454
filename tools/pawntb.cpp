// pawntb command-line tool. Parses options, runs the command, and turns
// exceptions into messages on stderr and exit statuses.
#include <iostream>
#include <new>

#include "cli/commands.hpp"
#include "pawntb/generator.hpp"
#include "pawntb/probe.hpp"

int main(int argc, char** argv) {
  using namespace pawntb::cli;
  Options options;
  switch (parse_command_line(argc, argv, options, std::cout, std::cerr)) {
    case ParseOutcome::exit:
      return kOk;
    case ParseOutcome::fail:
      return kUsageError;
    case ParseOutcome::ok:
      break;
  }
  try {
    return run(options);
  } catch (const pawntb::TableError& e) {
    std::cerr << "pawntb " << options.command << ": " << e.what() << "\n";
  } catch (const pawntb::GenerateError& e) {
    std::cerr << "pawntb " << options.command << ": " << e.what() << "\n";
  } catch (const std::bad_alloc&) {
    std::cerr << "pawntb " << options.command << ": out of memory\n";
  } catch (const std::exception& e) {
    std::cerr << "pawntb " << options.command << ": " << e.what() << "\n";
  }
  return kRuntimeFailure;
}
