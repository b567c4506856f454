#include "serve/server.hpp"

#include <httplib.h>
#include <netdb.h>
#include <strings.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include "serve/assets.hpp"

namespace pawntb::serve {

namespace {

using Clock = std::chrono::steady_clock;

// When this worker thread started on its current request (for the log).
thread_local Clock::time_point request_start;
thread_local std::chrono::system_clock::time_point request_time;

constexpr char kJson[] = "application/json";

// The methods each path answers, for 405 and its Allow header; empty for an
// unknown path.
const char* allowed_methods(std::string_view path) {
  if (path == "/api/v1/positions") return "POST";
  if (path == "/api/v1/position" || path == "/api/v1/mainline" || path == "/api/v1/tables" ||
      path == "/api/v1/stats" || path == "/") {
    return "GET, HEAD";
  }
  for (const Asset& a : assets()) {
    if (path.size() == 1 + std::strlen(a.name) && path.substr(1) == a.name) return "GET, HEAD";
  }
  return "";
}

// httplib answers each connection on one thread for as long as it is kept
// alive (5 s idle at most; a slow request, 5 s a read): a pool of a fixed
// size is starved by idle or slow clients. This one starts `ready` threads,
// and another whenever a connection comes with none free, up to `most`;
// those stay for later connections.
class ConnectionPool : public httplib::TaskQueue {
 public:
  ConnectionPool(unsigned ready, unsigned most) : most_(std::max(ready, most)) {
    const std::lock_guard lock(mutex_);
    while (threads_.size() < ready) start();
  }
  ~ConnectionPool() override { shutdown(); }

  void enqueue(std::function<void()> job) override {
    {
      const std::lock_guard lock(mutex_);
      jobs_.push_back(std::move(job));
      if (idle_ < jobs_.size() && threads_.size() < most_ && !stopping_) {
        try {
          start();
        } catch (const std::system_error&) {
          // No thread to be had: the job waits for a busy one.
        }
      }
    }
    wake_.notify_one();
  }

  // Runs the jobs left, then joins every thread (httplib calls it once the
  // accept loop is over, so that nothing is enqueued any more).
  void shutdown() override {
    {
      const std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : threads_) {
      if (t.joinable()) t.join();
    }
  }

 private:
  void start() {
    threads_.emplace_back([this] { work(); });
  }

  void work() {
    std::unique_lock lock(mutex_);
    for (;;) {
      ++idle_;
      wake_.wait(lock, [this] { return !jobs_.empty() || stopping_; });
      --idle_;
      if (jobs_.empty()) return;  // stopping
      std::function<void()> job = std::move(jobs_.front());
      jobs_.pop_front();
      lock.unlock();
      job();
      lock.lock();
    }
  }

  const unsigned most_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> jobs_;
  std::vector<std::thread> threads_;
  std::size_t idle_ = 0;  // threads waiting for a job
  bool stopping_ = false;
};

void send(httplib::Response& res, ApiResponse answer) {
  res.status = answer.status;
  res.body = std::move(answer.body);  // set_content() would copy it
  res.set_header("Content-Type", kJson);
}

void send_error(httplib::Response& res, int status, std::string_view message) {
  send(res, {status, error_json(message)});
}

// The position parameter, with '_' read as the space before the side to
// move, as lichess accepts in `fen` ("pppp/4/4/PPPP_w"): '_' is in no
// position otherwise.
std::string position_text(std::string value) {
  std::replace(value.begin(), value.end(), '_', ' ');
  return value;
}

// The API's answers (all read-only) may be read by pages of any origin, as
// the lichess API's are: a page elsewhere can call a server on localhost.
void send_readable_anywhere(httplib::Response& res, ApiResponse answer) {
  send(res, std::move(answer));
  res.set_header("Access-Control-Allow-Origin", "*");
}

// An error answer after which the connection is closed, its request body
// left unread: httplib closes a connection whose content provider fails,
// and this one fails once it has written the whole answer, and the client
// has had a moment to read it. A close with unread bytes resets the
// connection, and a client still sending can lose the answer to the reset
// (curl did, 2 times in 20, without the wait; 0 in 50 with it).
void send_error_and_close(httplib::Response& res, int status, std::string_view message) {
  res.status = status;
  res.set_header("Connection", "close");
  auto body = std::make_shared<const std::string>(error_json(message));
  res.set_content_provider(body->size(), kJson,
                           [body](std::size_t offset, std::size_t length, httplib::DataSink& sink) {
                             sink.write(body->data() + offset, length);
                             std::this_thread::sleep_for(std::chrono::milliseconds(200));
                             return false;
                           });
}

// An over-long body is read on, unkept, to its end if that comes within
// this many bytes: a client that sends its whole body before it reads (as
// most do) then gets the 413, and the connection stays usable. Past it the
// connection is closed at once.
constexpr std::uint64_t kDrainBytes = 16 << 20;

// The request body, however it comes (Content-Length, chunked, or none),
// read while it stays within max_body bytes. Otherwise false with a 413
// answer (for a body that breaks off, 400), which closes the connection
// unless the body was read to its end within kDrainBytes.
bool read_body(const httplib::Request& req, httplib::Response& res,
               const httplib::ContentReader& reader, std::size_t max_body, std::string& body) {
  const std::string too_large = "request body over " + std::to_string(max_body) + " bytes";
  const bool chunked = ::strcasecmp(req.get_header_value("Transfer-Encoding").c_str(), "chunked") == 0;
  if (!chunked && !req.has_header("Content-Length")) return true;  // no body (RFC 9112 6.3)
  if (!chunked) {
    const auto length = req.get_header_value<std::uint64_t>("Content-Length");
    if (length > kDrainBytes) {
      send_error_and_close(res, 413, too_large);
      return false;
    }
    // httplib skips (reads, unkept) a body over its payload limit, max_body.
    if (length > max_body) {
      if (reader([](const char*, std::size_t) { return true; }) || res.status != 413) {
        send_error_and_close(res, 400, "bad request body");
      } else {
        send_error(res, 413, too_large);
      }
      return false;
    }
  }
  std::uint64_t length = 0;
  const bool read = reader([&](const char* data, std::size_t size) {
    length += size;
    if (length <= max_body) body.append(data, size);
    return length <= kDrainBytes;
  });
  if (read && length <= max_body) return true;
  if (length <= max_body) {
    send_error_and_close(res, 400, "bad request body");
  } else if (read) {
    send_error(res, 413, too_large);
  } else {
    send_error_and_close(res, 413, too_large);
  }
  return false;
}

// The query parameter `name` (or `alias`, another name for it), or a 400
// answer.
bool parameter(const httplib::Request& req, httplib::Response& res, const char* name,
               std::string& value, const char* alias = nullptr) {
  if (req.has_param(name)) {
    value = req.get_param_value(name);
    return true;
  }
  if (alias && req.has_param(alias)) {
    value = req.get_param_value(alias);
    return true;
  }
  send_error(res, 400, std::string("missing parameter: ") + name);
  return false;
}

}  // namespace

struct Server::Impl {
  Impl(const Api& api_, ServerOptions options_) : api(api_), options(std::move(options_)) {}
  const Api& api;
  ServerOptions options;
  httplib::Server http;
};

Server::Server(const Api& api, ServerOptions options)
    : impl_(std::make_unique<Impl>(api, std::move(options))) {
  httplib::Server& http = impl_->http;
  const Api& a = impl_->api;
  const unsigned threads = impl_->options.threads, most = impl_->options.max_threads;
  http.new_task_queue = [threads, most] { return new ConnectionPool(threads, most); };
  // httplib skips (reads, unkept) a body whose Content-Length is over this;
  // read_body() leaves that to it, and holds a chunked body to the same limit.
  const std::size_t max_body = impl_->options.max_body;
  http.set_payload_max_length(max_body);
  // Answers are written in two parts (headers, body): without TCP_NODELAY
  // Nagle's algorithm holds the second until the client's delayed ACK.
  http.set_tcp_nodelay(true);
  // Not httplib's default SO_REUSEPORT, which would let a second server
  // share the port instead of failing with "Address already in use".
  http.set_socket_options([](int sock) {
    const int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });

  // `fen` is another name for `position`, as lichess clients send it.
  http.Get("/api/v1/position", [&a](const httplib::Request& req, httplib::Response& res) {
    std::string text;
    if (parameter(req, res, "position", text, "fen")) {
      send_readable_anywhere(res, a.position(position_text(std::move(text))));
    }
  });
  http.Get("/api/v1/mainline", [&a](const httplib::Request& req, httplib::Response& res) {
    std::string text;
    if (parameter(req, res, "position", text, "fen")) {
      send_readable_anywhere(res, a.mainline(position_text(std::move(text))));
    }
  });
  http.Post("/api/v1/positions", [&a, max_body](const httplib::Request& req,
                                                 httplib::Response& res,
                                                 const httplib::ContentReader& reader) {
    std::string body;
    if (read_body(req, res, reader, max_body, body)) {
      send_readable_anywhere(res, a.positions(body));
    }
  });
  http.Get("/api/v1/tables", [&a](const httplib::Request&, httplib::Response& res) {
    send_readable_anywhere(res, a.tables());
  });
  http.Get("/api/v1/stats", [&a](const httplib::Request& req, httplib::Response& res) {
    std::string name;
    if (parameter(req, res, "table", name)) send_readable_anywhere(res, a.stats(name));
  });
  // The page: "/" is index.html, "/NAME" the file NAME.
  http.Get("/[^/]*", [](const httplib::Request& req, httplib::Response& res) {
    const std::string_view name =
        req.path == "/" ? std::string_view("index.html") : std::string_view(req.path).substr(1);
    for (const Asset& asset : assets()) {
      if (name == asset.name) {
        res.set_content(reinterpret_cast<const char*>(asset.bytes.data()), asset.bytes.size(),
                        content_type(name));
        return;
      }
    }
    send_error(res, 404, "not found: " + req.path);
  });
  // Everything else: 405 on a known path, else 404.
  auto unknown = [](const httplib::Request& req, httplib::Response& res) {
    const char* allowed = allowed_methods(req.path);
    if (*allowed) {
      res.set_header("Allow", allowed);
      return send_error(res, 405, "method not allowed");
    }
    send_error(res, 404, "not found: " + req.path);
  };
  // With a body: read it first (within the limit), as for a known method.
  auto unknown_with_body = [unknown, max_body](const httplib::Request& req,
                                               httplib::Response& res,
                                               const httplib::ContentReader& reader) {
    std::string body;
    if (read_body(req, res, reader, max_body, body)) unknown(req, res);
  };
  http.Get(".*", unknown);
  http.Post(".*", unknown_with_body);
  http.Put(".*", unknown_with_body);
  http.Patch(".*", unknown_with_body);
  http.Delete(".*", unknown_with_body);
  // A browser's CORS preflight, before a cross-origin request with a JSON
  // body or its own headers: allowed on every API path, for its methods.
  http.Options(".*", [unknown](const httplib::Request& req, httplib::Response& res) {
    const std::string_view allowed = allowed_methods(req.path);
    if (allowed.empty() || !req.path.starts_with("/api/v1/")) return unknown(req, res);
    res.status = 204;
    res.set_header("Allow", std::string(allowed));
    res.set_header("Access-Control-Allow-Origin", "*");
    res.set_header("Access-Control-Allow-Methods", std::string(allowed));
    res.set_header("Access-Control-Allow-Headers", "Content-Type");
    res.set_header("Access-Control-Max-Age", "86400");
  });

  // Statuses httplib sets itself, and any other error without a body.
  http.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty() || res.content_provider_) return;
    switch (res.status) {
      case 404:
        return send_error(res, 404, "not found: " + req.path);
      case 405:
        return send_error(res, 405, "method not allowed");
      case 414:
        return send_error(
            res, 414,
            "request line over " + std::to_string(CPPHTTPLIB_REQUEST_URI_MAX_LENGTH) + " bytes");
      case 400:
        return send_error(res, 400, "bad request");
      default:
        return send_error(res, res.status, "HTTP status " + std::to_string(res.status));
    }
  });
  http.set_exception_handler(
      [](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
        std::string what = "unknown error";
        try {
          std::rethrow_exception(ep);
        } catch (const std::exception& e) {
          what = e.what();
        } catch (...) {
        }
        send_error(res, 500, "internal error: " + what);
      });
  http.set_pre_routing_handler([](const httplib::Request& req, httplib::Response&) {
    request_start = Clock::now();
    request_time = std::chrono::system_clock::now();
    // No compression: httplib's brotli, at its default quality, takes about
    // 7 ms for one position's answer, far more than the bytes it saves on
    // loopback. httplib compresses when the request accepts it, and owns
    // the (non-const) request object.
    const_cast<httplib::Request&>(req).headers.erase("Accept-Encoding");
    return httplib::Server::HandlerResponse::Unhandled;
  });
  if (impl_->options.log) {
    http.set_logger([this](const httplib::Request& req, const httplib::Response& res) {
      const auto spent =
          request_start == Clock::time_point{} ? Clock::duration{} : Clock::now() - request_start;
      request_start = {};
      impl_->options.log({request_time == std::chrono::system_clock::time_point{}
                              ? std::chrono::system_clock::now()
                              : request_time,
                          req.remote_addr, req.method, req.target, res.status,
                          std::chrono::duration_cast<std::chrono::microseconds>(spent).count()});
      request_time = {};
    });
  }
}

Server::~Server() {
  stop();
}

int Server::bind() {
  const ServerOptions& o = impl_->options;
  const auto fail = [&](const std::string& why) {
    throw ServeError("cannot listen on " + o.host + ":" + std::to_string(o.port) + ": " + why);
  };
  // httplib looks the host up too, but does not say why that failed.
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (const int rc = ::getaddrinfo(o.host.c_str(), nullptr, &hints, &found); rc != 0) {
    fail(::gai_strerror(rc));
  }
  ::freeaddrinfo(found);
  errno = 0;
  int port = o.port;
  bool bound = false;
  if (o.port == 0) {
    port = impl_->http.bind_to_any_port(o.host);
    bound = port > 0;
  } else {
    bound = impl_->http.bind_to_port(o.host, o.port);
  }
  if (!bound) fail(errno ? std::strerror(errno) : "cannot bind");
  return port;
}

void Server::run() {
  in_run_ = true;
  if (!stop_requested_) impl_->http.listen_after_bind();
  in_run_ = false;
}

void Server::stop() {
  stop_requested_ = true;
  // run() may be between its check and httplib's start: wait for either.
  while (in_run_ && !impl_->http.is_running()) std::this_thread::yield();
  impl_->http.stop();
}

}  // namespace pawntb::serve
