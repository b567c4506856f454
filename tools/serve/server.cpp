#include "serve/server.hpp"

#include <httplib.h>
#include <netdb.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

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

// httplib reads a form body (curl -d's Content-Type) into parameters, and
// refuses one over 8,192 bytes with 413 before any handler runs.
bool is_form(const httplib::Request& req) {
  return req.get_header_value("Content-Type") == "application/x-www-form-urlencoded";
}
const std::string kFormTooLarge =
    "request body over " + std::to_string(CPPHTTPLIB_FORM_URL_ENCODED_PAYLOAD_MAX_LENGTH) +
    " bytes with Content-Type application/x-www-form-urlencoded: send it as application/json";

void send(httplib::Response& res, ApiResponse answer) {
  res.status = answer.status;
  res.body = std::move(answer.body);  // set_content() would copy it
  res.set_header("Content-Type", kJson);
}

// The read-only GET answers may be read by pages of any origin, as the
// lichess API's are: a page elsewhere can call a server on localhost.
void send_readable_anywhere(httplib::Response& res, ApiResponse answer) {
  send(res, std::move(answer));
  res.set_header("Access-Control-Allow-Origin", "*");
}

// The position parameter, with '_' read as the space before the side to
// move, as lichess accepts in `fen` ("pppp/4/4/PPPP_w"): '_' is in no
// position otherwise.
std::string position_text(std::string value) {
  std::replace(value.begin(), value.end(), '_', ' ');
  return value;
}

void send_error(httplib::Response& res, int status, std::string_view message) {
  send(res, {status, error_json(message)});
}

// The query parameter `name`, or a 400 answer.
bool parameter(const httplib::Request& req, httplib::Response& res, const char* name,
               std::string& value) {
  if (!req.has_param(name)) {
    send_error(res, 400, std::string("missing parameter: ") + name);
    return false;
  }
  value = req.get_param_value(name);
  return true;
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
  const unsigned threads = impl_->options.threads;
  http.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  http.set_payload_max_length(impl_->options.max_body);
  // Answers are written in two parts (headers, body): without TCP_NODELAY
  // Nagle's algorithm holds the second until the client's delayed ACK.
  http.set_tcp_nodelay(true);
  // Not httplib's default SO_REUSEPORT, which would let a second server
  // share the port instead of failing with "Address already in use".
  http.set_socket_options([](int sock) {
    const int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });

  http.Get("/api/v1/position", [&a](const httplib::Request& req, httplib::Response& res) {
    std::string text;
    if (parameter(req, res, "position", text)) {
      send_readable_anywhere(res, a.position(position_text(std::move(text))));
    }
  });
  http.Get("/api/v1/mainline", [&a](const httplib::Request& req, httplib::Response& res) {
    std::string text;
    if (parameter(req, res, "position", text)) {
      send_readable_anywhere(res, a.mainline(position_text(std::move(text))));
    }
  });
  http.Post("/api/v1/positions", [&a](const httplib::Request& req, httplib::Response& res) {
    send(res, a.positions(req.body));
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
  http.Get(".*", unknown);
  http.Post(".*", unknown);
  http.Put(".*", unknown);
  http.Patch(".*", unknown);
  http.Delete(".*", unknown);
  http.Options(".*", unknown);

  // Statuses httplib sets itself, and any other error without a body.
  const std::size_t max_body = impl_->options.max_body;
  http.set_error_handler([max_body, &a](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return;
    switch (res.status) {
      case 404:
        return send_error(res, 404, "not found: " + req.path);
      case 405:
        return send_error(res, 405, "method not allowed");
      case 413:
        if (is_form(req) && req.get_header_value<std::uint64_t>("Content-Length") <= max_body) {
          return send_error(res, 413, kFormTooLarge);
        }
        return send_error(res, 413, "request body over " + std::to_string(max_body) + " bytes");
      case 414:
        return send_error(
            res, 414,
            "request line over " + std::to_string(CPPHTTPLIB_REQUEST_URI_MAX_LENGTH) + " bytes");
      case 400: {
        // httplib refuses a POST, PUT or PATCH without Content-Length (curl
        // -X POST sends none) before routing. Answer it as the same request
        // with an empty body: 405 on a path without that method, the
        // batch's own answer on /api/v1/positions.
        const std::string_view allowed = allowed_methods(req.path);
        if (!allowed.empty() && allowed.find(req.method) == std::string_view::npos) {
          res.set_header("Allow", std::string(allowed));
          return send_error(res, 405, "method not allowed");
        }
        if (req.path == "/api/v1/positions" && req.method == "POST") return send(res, a.positions(""));
        return send_error(res, 400, "bad request");
      }
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
