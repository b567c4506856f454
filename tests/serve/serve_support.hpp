// What the serve tests share: a server running in-process on 127.0.0.1 (a
// free port), random positions, and HTTP helpers.
#pragma once

#include <httplib.h>

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "pawntb/probe.hpp"
#include "serve/server.hpp"
#include "support/test_support.hpp"

namespace pawntb_test {

inline const fs::path k3x3Table = kDataDir / "3x3-k3.pawntb";

// A server on 127.0.0.1 and a free port, answering from its own thread
// until destroyed.
class RunningServer {
 public:
  explicit RunningServer(pawntb::serve::TableSet tables, pawntb::serve::ServerOptions options = {});
  ~RunningServer();
  int port() const { return port_; }
  const pawntb::serve::TableSet& tables() const { return api_.table_set(); }
  // A client of this server (keep-alive, generous timeouts).
  std::unique_ptr<httplib::Client> client() const;

 private:
  pawntb::serve::Api api_;
  std::unique_ptr<pawntb::serve::Server> server_;
  int port_ = 0;
  std::thread thread_;
};

// The committed 3x3 and 4x4 tables.
pawntb::serve::TableSet committed_tables();

// `count` random positions of g with up to `max_pawns` + 1 pawns a side
// (so some are over the table's limit), placed square by square on any
// square (so some are invalid or over), either side to move. Fixed seed.
std::vector<pawntb::Position> random_positions(pawntb::Geometry g, int max_pawns, int count,
                                               std::uint64_t seed);

// Sends `request` as it is to 127.0.0.1:port and returns all the server
// writes until it closes the connection (the request should say
// "Connection: close"). Empty if it cannot connect.
std::string raw_http(int port, const std::string& request);

// A connection to 127.0.0.1:port, whose reads and writes give up after the
// hang guard; -1 if it cannot connect.
int connect_to(int port);

// Sends all of `bytes` (no SIGPIPE); false if the connection fails first.
bool send_all(int fd, std::string_view bytes);

// What a chunked upload to POST /api/v1/positions got: the answer's status
// line and all of it, and how many body bytes were sent before the server
// stopped taking them (or all).
struct Upload {
  std::string status_line;
  std::string answer;
  std::uint64_t sent = 0;
};

// Streams `total` bytes ("[", spaces, "]") in chunks of 64 KiB (never held
// whole) to 127.0.0.1:port, then reads the answer.
Upload chunked_upload(int port, std::uint64_t total);

// Percent-encodes every byte but letters and digits.
std::string url_encode(std::string_view text);

// VmRSS of this process, KiB.
long rss_kib();

}  // namespace pawntb_test
