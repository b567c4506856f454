// The web explorer's HTTP server: the JSON API of api.hpp under /api/v1/ and
// the page's files (assets.hpp) at /, on cpp-httplib with a pool of worker
// threads. docs/api.md documents what it answers.
#pragma once

#include <atomic>
#include <cstddef>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include "serve/api.hpp"

namespace pawntb::serve {

// The server cannot listen: what() names the address and why.
class ServeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One request, as a logger gets it once the answer is sent.
struct RequestLog {
  std::chrono::system_clock::time_point time;  // when the request was read
  std::string_view client;                     // the client's address, e.g. "127.0.0.1"
  std::string_view method;
  std::string_view target;  // the path and query, as sent
  int status = 0;
  std::int64_t microseconds = 0;  // from reading the request line to the answer sent
};

// The largest request body (POST /api/v1/positions): 10,000 positions of an
// 8x8 board fit with room to spare.
inline constexpr std::size_t kMaxBody = 2 << 20;

struct ServerOptions {
  std::string host = "127.0.0.1";
  int port = 8080;  // 0: a free port
  // Worker threads started at once; each open connection holds one while it
  // is kept alive, and when none is free another is started, up to
  // max_threads (so that idle or slow clients cannot keep others waiting).
  unsigned threads = 8;
  unsigned max_threads = 256;
  std::size_t max_body = kMaxBody;  // bytes; larger bodies get 413
  // Called once per request from the worker thread that answered it; must
  // be thread-safe. Empty: no logging.
  std::function<void(const RequestLog&)> log;
};

class Server {
 public:
  // `api` must outlive the server.
  Server(const Api& api, ServerOptions options);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds options.host:options.port and listens; returns the port (the one
  // chosen for port 0). Throws ServeError naming the address and the cause.
  // Call once, before run().
  int bind();

  // Answers requests until stop(). Call once after bind(), from the thread
  // that is to wait.
  void run();

  // Makes run() return once the requests being answered are done (or at
  // once if it has not started). Thread-safe; call from any thread.
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::atomic<bool> stop_requested_{false};
  std::atomic<bool> in_run_{false};
};

}  // namespace pawntb::serve
