// pawntb-serve: the web explorer's server, run by `pawntb serve` (which
// execs it with the same options) or directly. A program of its own because
// it links cpp-httplib, a shared library with OpenSSL, zlib and brotli, which
// the static pawntb would otherwise have to load for every command.
#include <pthread.h>

#include <csignal>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>
#include <new>
#include <thread>
#include <vector>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "pawntb/notation.hpp"
#include "serve/server.hpp"

namespace pawntb::cli {
namespace {

int run_server(const Options& o) {
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

}  // namespace
}  // namespace pawntb::cli

// Parses the options as `pawntb serve` does (the same command table entry),
// then serves.
int main(int argc, char** argv) {
  using namespace pawntb::cli;
  std::vector<const char*> args{"pawntb", "serve"};
  args.insert(args.end(), argv + 1, argv + argc);
  Options options;
  const ParseOutcome parsed =
      parse_command_line(static_cast<int>(args.size()), args.data(), options, std::cout, std::cerr);
  if (parsed == ParseOutcome::fail) return kUsageError;
  try {
    if (parsed == ParseOutcome::exit) {
      check_stdout();
      return kOk;
    }
    return run_server(options);
  } catch (const std::bad_alloc&) {
    std::cerr << "pawntb serve: out of memory\n";
  } catch (const std::exception& e) {
    std::cerr << "pawntb serve: " << e.what() << "\n";
  }
  return kRuntimeFailure;
}
