// pawntb-serve: the web explorer's server, run by `pawntb serve` (which
// checks its options and execs it with them, common/serve_options.hpp) or
// directly. A program of its own because it links cpp-httplib, a shared
// library with OpenSSL, zlib and brotli, which the static pawntb would
// otherwise have to load for every command; and it links neither the CLI
// nor the generator.
#include <pthread.h>

#include <csignal>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>
#include <new>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "common/exit_status.hpp"
#include "common/serve_options.hpp"
#include "pawntb/notation.hpp"
#include "serve/server.hpp"

namespace pawntb::serve {
namespace {

using common::check_stdout;
using common::kOk;

int run_server(const common::ServeOptions& o) {
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
  const Api api(files.empty() ? TableSet::open_default() : TableSet::open(files));
  ServerOptions options;
  options.host = o.host;
  options.port = o.port;
  options.threads = o.threads;
  if (o.log) {
    options.log = [](const RequestLog& r) {
      std::fprintf(stderr, "%s %s %d %lld us\n", std::string(r.method).c_str(),
                   printable(r.target, 200).c_str(), r.status,
                   static_cast<long long>(r.microseconds));
    };
  }
  Server server(api, options);
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
}  // namespace pawntb::serve

// Reads the options as `pawntb serve` passes them, then serves.
int main(int argc, char** argv) {
  using namespace pawntb::common;
  const std::vector<std::string> args(argv + 1, argv + argc);
  const auto options = from_arguments(args);
  if (const auto* problem = std::get_if<std::string>(&options)) {
    std::cerr << "pawntb-serve: " << *problem
              << "\nusage: pawntb-serve [--table FILE]... [--host ADDRESS] [--port PORT] [--log] "
                 "[--threads N]\n(`pawntb serve --help` tells what they do)\n";
    return kUsageError;
  }
  try {
    return pawntb::serve::run_server(std::get<ServeOptions>(options));
  } catch (const std::bad_alloc&) {
    std::cerr << "pawntb serve: out of memory\n";
  } catch (const std::exception& e) {
    std::cerr << "pawntb serve: " << e.what() << "\n";
  }
  return kRuntimeFailure;
}
