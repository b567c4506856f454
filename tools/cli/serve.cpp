#include "serve.hpp"

#include <unistd.h>

#include <boost/program_options.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

#include "command_support.hpp"
#include "common/serve_options.hpp"
#include "pawntb/notation.hpp"

namespace pawntb::cli {

namespace {

using common::kMaxServeThreads;
using common::ServeOptions;

ServeOptions serve_options_of(const ServeArgs& o) {
  return {o.tables, o.host, o.port, o.threads, o.log};
}

// The server is the program pawntb-serve, next to this one: it links
// cpp-httplib, which Debian ships only as a shared library with OpenSSL,
// zlib and brotli, and loading those would slow every other command (the
// static pawntb starts in a fraction of the time). Same options, as
// common/serve_options.hpp passes them.
int run_serve(const ServeArgs& o) {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  const std::filesystem::path program = self.parent_path() / "pawntb-serve";
  std::vector<std::string> args{program.string()};
  for (std::string& a : common::to_arguments(serve_options_of(o))) args.push_back(std::move(a));
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::fflush(stdout);
  ::execv(program.c_str(), argv.data());
  throw std::runtime_error("cannot start " + program.string() + ": " + std::strerror(errno) +
                           " (the web explorer is the program pawntb-serve, which must be next "
                           "to pawntb: install both, or copy both)");
}

void serve_options(boost::program_options::options_description& desc, ServeArgs& o) {
  namespace po = boost::program_options;
  const ServeOptions defaults;
  desc.add_options()("table,t", po::value(&o.tables)->value_name("FILE"),
                     "a table to serve (repeatable; default: see above)")(
      "host", po::value(&o.host)->default_value(defaults.host)->value_name("ADDRESS"),
      "address to listen on")("port,p",
                              po::value(&o.port)->default_value(defaults.port)->value_name("PORT"),
                              "port to listen on, 0 for a free one")(
      "log", po::bool_switch(&o.log), "one line per request on stderr")(
      "threads,j", po::value(&o.threads)->default_value(defaults.threads)->value_name("N"),
      ("worker threads started at once, 0 for one per hardware thread; each open "
       "connection holds one while it is kept alive, and more are started as "
       "connections need them, up to " +
       std::to_string(kMaxServeThreads))
          .c_str());
}

std::string validate_serve(const boost::program_options::variables_map&,
                           const std::vector<std::string>& operands, ServeArgs& o) {
  if (!operands.empty()) return "unexpected argument '" + operands.front() + "'";
  return common::check(serve_options_of(o));
}

}  // namespace

extern const Command kServe = command_entry<ServeArgs, serve_options, validate_serve, run_serve>(
    "serve", "the web explorer: a board page and a JSON API on localhost",
    "pawntb serve [--table FILE]... [--host 127.0.0.1] [--port 8080] [--log] [--threads N]",
    "Serves the tables over HTTP: a page to explore positions at / and a JSON API\n"
    "under /api/v1/. Prints `pawntb serve: listening on http://HOST:PORT/` once\n"
    "ready; SIGINT (Ctrl-C) or SIGTERM stops it. The API (docs/api.md has it all):\n"
    "  GET  /api/v1/position?position=TEXT  value, moves best first, line\n"
    "  GET  /api/v1/mainline?position=TEXT  best play, with the value after each ply\n"
    "  POST /api/v1/positions               a JSON array of up to 10000 positions\n"
    "  GET  /api/v1/tables                  the tables served\n"
    "  GET  /api/v1/stats?table=4x4-k4      `pawntb stats --json` of a table\n"
    "Errors are JSON {\"error\": \"...\"} with status 400, 404, 405 or 413.\n"
    "\n"
    "Without --table it serves the tables `pawntb tables` lists: the files named\n"
    "RxC-kK.pawntb along the search path (`pawntb probe --help` shows it), the\n"
    "first found for each board size and K. A file found that cannot be opened is\n"
    "skipped, said on stderr and listed by /api/v1/tables. A position is answered\n"
    "by the table of its board size with the most pawns. --log prints a line per\n"
    "request: the time (UTC), the client's address, the request and its status.",
    DefaultTable::none);

}  // namespace pawntb::cli
