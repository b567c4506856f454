// pawntb-serve: the web explorer's server, run by `pawntb serve` (which
// checks its options and execs it with them, common/serve_options.hpp) or
// directly. A program of its own because it links cpp-httplib, a shared
// library with OpenSSL, zlib and brotli, which the static pawntb would
// otherwise have to load for every command; and it links neither the CLI
// nor the generator.
#include <malloc.h>
#include <pthread.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <ctime>
#include <exception>
#include <filesystem>
#include <iostream>
#include <new>
#include <string>
#include <variant>
#include <vector>

#include "common/exit_status.hpp"
#include "common/serve_options.hpp"
#include "common/table_env.hpp"
#include "pawntb/notation.hpp"
#include "pawntb/util/threads.hpp"
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
  // Request bodies of up to 2 MiB are read on worker threads, each with its
  // own malloc arena: with glibc's threshold, which rises to the largest
  // block freed, each arena would keep the memory of its largest body. A
  // fixed one maps every large block and gives it back when freed.
  ::mallopt(M_MMAP_THRESHOLD, 256 << 10);

  std::vector<std::filesystem::path> files(o.tables.begin(), o.tables.end());
  const Api api(files.empty() ? TableSet::open_default() : TableSet::open(files));
  // A file found along the search path that cannot be opened does not stop
  // the server: it is said here and listed by /api/v1/tables.
  if (const std::string problem = common::table_env_problem(); files.empty() && !problem.empty()) {
    std::fprintf(stderr, "pawntb serve: %s\n", problem.c_str());
  }
  for (const SkippedFile& s : api.table_set().skipped()) {
    std::fprintf(stderr, "pawntb serve: skipped: %s\n", s.error.c_str());
  }
  ServerOptions options;
  options.host = o.host;
  options.port = o.port;
  options.threads = util::thread_count(o.threads);
  options.max_threads = common::kMaxServeThreads;
  if (o.log) {
    // "2026-11-27T08:30:01.123Z 127.0.0.1 GET /api/v1/tables 200 85 us": the
    // time (UTC, ISO 8601), the client's address, the request, the status.
    options.log = [](const RequestLog& r) {
      const auto since_epoch = r.time.time_since_epoch();
      const std::time_t seconds =
          std::chrono::duration_cast<std::chrono::seconds>(since_epoch).count();
      const auto millis =
          std::chrono::duration_cast<std::chrono::milliseconds>(since_epoch).count() % 1000;
      std::tm utc{};
      ::gmtime_r(&seconds, &utc);
      char when[32];
      std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S", &utc);
      std::fprintf(stderr, "%s.%03dZ %s %s %s %d %lld us\n", when, static_cast<int>(millis),
                   printable(r.client, 64).c_str(), std::string(r.method).c_str(),
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
  util::BackgroundTask stopper([&] {
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
