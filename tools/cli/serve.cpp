#include <pthread.h>

#include <csignal>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <thread>
#include <vector>

#include "commands.hpp"
#include "common.hpp"
#include "pawntb/notation.hpp"
#include "serve/server.hpp"

namespace pawntb::cli {

namespace {

constexpr unsigned kMaxServeThreads = 256;

int run_serve(const Options& o) {
  // SIGINT and SIGTERM are taken by one thread (below), so every thread
  // started from here on must block them; a client that closes its
  // connection early must not kill the server with SIGPIPE.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  std::signal(SIGPIPE, SIG_IGN);

  std::vector<std::filesystem::path> files(o.tables.begin(), o.tables.end());
  const serve::Api api(files.empty() ? serve::TableSet::open_default()
                                     : serve::TableSet::open(files));
  serve::ServerOptions options;
  options.host = o.host;
  options.port = o.port;
  options.threads = o.threads;
  if (o.log) {
    options.log = [](const serve::RequestLog& r) {
      std::fprintf(stderr, "%s %s %d %lld us\n", std::string(r.method).c_str(),
                   printable(r.target, 200).c_str(), r.status,
                   static_cast<long long>(r.microseconds));
    };
  }
  serve::Server server(api, options);
  const int port = server.bind();
  const bool ipv6 = o.host.find(':') != std::string::npos;
  std::printf("pawntb serve: listening on http://%s%s%s:%d/\n", ipv6 ? "[" : "", o.host.c_str(),
              ipv6 ? "]" : "", port);
  check_stdout();  // before the stopper starts: no thread to join if it throws
  std::thread stopper([&] {
    int signal = 0;
    sigwait(&stop_signals, &signal);
    server.stop();
  });
  std::exception_ptr failure;  // the stopper is joined whatever happens
  try {
    server.run();
  } catch (...) {
    failure = std::current_exception();
  }
  // Over without a signal: wake the stopper.
  pthread_kill(stopper.native_handle(), SIGTERM);
  stopper.join();
  if (failure) std::rethrow_exception(failure);
  return kOk;
}

void serve_options(boost::program_options::options_description& desc, Options& o) {
  namespace po = boost::program_options;
  desc.add_options()("table,t", po::value(&o.tables)->value_name("FILE"),
                     "a table to serve (repeatable; default: see above)")(
      "host", po::value(&o.host)->default_value("127.0.0.1")->value_name("ADDRESS"),
      "address to listen on")("port,p", po::value(&o.port)->default_value(8080)->value_name("PORT"),
                              "port to listen on, 0 for a free one")(
      "log", po::bool_switch(&o.log), "one line per request on stderr")(
      "threads,j", po::value(&o.threads)->default_value(8)->value_name("N"),
      ("worker threads, 1.." + std::to_string(kMaxServeThreads) +
       "; each open connection holds one while it is kept alive")
          .c_str());
}

std::string validate_serve(const boost::program_options::variables_map&,
                           const std::vector<std::string>& operands, Options& o) {
  if (!operands.empty()) return "unexpected argument '" + operands.front() + "'";
  if (o.port < 0 || o.port > 65535) return "--port must be 0..65535";
  if (o.threads < 1 || o.threads > kMaxServeThreads) {
    return "--threads must be 1.." + std::to_string(kMaxServeThreads);
  }
  return {};
}

}  // namespace

extern const Command kServe{
    "serve",
    "the web explorer: a board page and a JSON API on localhost",
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
    "Without --table it serves the default table and every *.pawntb file in the\n"
    "directories of the search path (`pawntb probe --help` shows it), the first\n"
    "found for each board size and K. A position is answered by the table of its\n"
    "board size with the most pawns.",
    DefaultTable::none,
    serve_options,
    validate_serve,
    run_serve};

}  // namespace pawntb::cli
