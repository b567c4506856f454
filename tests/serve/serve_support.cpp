#include "serve/serve_support.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <random>

#include "support/hang_guard.hpp"

namespace pawntb_test {

using namespace pawntb;

RunningServer::RunningServer(serve::TableSet tables, serve::ServerOptions options)
    : api_(std::move(tables)) {
  std::signal(SIGPIPE, SIG_IGN);  // as `pawntb serve` does
  options.host = "127.0.0.1";
  options.port = 0;
  server_ = std::make_unique<serve::Server>(api_, std::move(options));
  port_ = server_->bind();
  thread_ = std::thread([this] { server_->run(); });
}

RunningServer::~RunningServer() {
  server_->stop();
  thread_.join();
}

std::unique_ptr<httplib::Client> RunningServer::client() const {
  auto c = std::make_unique<httplib::Client>("127.0.0.1", port_);
  c->set_keep_alive(true);
  c->set_tcp_nodelay(true);
  c->set_url_encode(false);  // the tests encode what they send
  c->set_read_timeout(kHangGuardSeconds, 0);
  c->set_write_timeout(kHangGuardSeconds, 0);
  return c;
}

serve::TableSet committed_tables() {
  return serve::TableSet::open({k3x3Table, kDefaultTable});
}

std::string raw_http(int port, const std::string& request) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return {};
  // A hung server fails the test instead of blocking it.
  timeval timeout{static_cast<time_t>(kHangGuardSeconds), 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::string answer;
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0 &&
      ::send(fd, request.data(), request.size(), 0) == static_cast<ssize_t>(request.size())) {
    char buffer[4096];
    for (ssize_t n; (n = ::recv(fd, buffer, sizeof buffer, 0)) > 0;) {
      answer.append(buffer, static_cast<std::size_t>(n));
    }
  }
  ::close(fd);
  return answer;
}

int connect_to(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  timeval timeout{static_cast<time_t>(kHangGuardSeconds), 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

bool send_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

// A send that fails is the server no longer reading: the answer is read then.
Upload chunked_upload(int port, std::uint64_t total) {
  Upload u;
  const int fd = connect_to(port);
  if (fd < 0) return u;
  send_all(fd,
           "POST /api/v1/positions HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: "
           "application/json\r\nTransfer-Encoding: chunked\r\n\r\n");
  std::string chunk(std::size_t{1} << 16, ' ');
  bool taken = true;
  while (taken && u.sent < total) {
    const std::uint64_t size = std::min<std::uint64_t>(chunk.size(), total - u.sent);
    chunk.assign(size, ' ');
    if (u.sent == 0) chunk[0] = '[';
    if (u.sent + size == total) chunk.back() = ']';
    char head[32];
    std::snprintf(head, sizeof head, "%llx\r\n", static_cast<unsigned long long>(size));
    taken = send_all(fd, head) && send_all(fd, chunk) && send_all(fd, "\r\n");
    if (taken) u.sent += size;
  }
  if (taken) send_all(fd, "0\r\n\r\n");
  char buffer[4096];
  for (ssize_t n; (n = ::recv(fd, buffer, sizeof buffer, 0)) > 0;) {
    u.answer.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(fd);
  u.status_line = u.answer.substr(0, u.answer.find("\r\n"));
  return u;
}

std::vector<Position> random_positions(Geometry g, int max_pawns, int count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Position> out;
  out.reserve(static_cast<std::size_t>(count));
  while (static_cast<int>(out.size()) < count) {
    Position p{g, 0, 0, rng() % 2 ? Side::white : Side::black};
    int white_left = static_cast<int>(rng() % static_cast<unsigned>(max_pawns + 2));
    int black_left = static_cast<int>(rng() % static_cast<unsigned>(max_pawns + 2));
    for (int square = 0; square < g.squares(); ++square) {
      const unsigned roll = rng() % 8;
      if (roll < 2 && white_left > 0) {
        p.white |= std::uint64_t{1} << square;
        --white_left;
      } else if (roll < 4 && black_left > 0) {
        p.black |= std::uint64_t{1} << square;
        --black_left;
      }
    }
    out.push_back(p);
  }
  return out;
}

std::string url_encode(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (std::isalnum(byte)) {
      out += c;
    } else {
      out += '%';
      out += kHex[byte >> 4];
      out += kHex[byte & 15];
    }
  }
  return out;
}

long rss_kib() {
  std::ifstream status("/proc/self/status");
  std::string key;
  while (status >> key) {
    if (key == "VmRSS:") {
      long kib = 0;
      status >> kib;
      return kib;
    }
    status.ignore(1 << 20, '\n');
  }
  return -1;
}

}  // namespace pawntb_test

// Under AddressSanitizer (the sanitizer build of tools/test.sh) freed memory
// waits in a quarantine of 256 MiB, which the memory test would read as
// growth: keep it small. Without the sanitizer nothing calls this.
extern "C" const char* __asan_default_options() {
  return "quarantine_size_mb=4";
}
