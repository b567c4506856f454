// Bad requests get the documented status and an error naming the problem;
// the server stays correct under concurrent clients and after thousands of
// malformed requests, without its memory growing.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "pawntb/notation.hpp"
#include "serve/api.hpp"
#include "serve/serve_support.hpp"
#include "support/hang_guard.hpp"

namespace pawntb_test {
namespace {

using namespace pawntb;
using json = nlohmann::json;

// The status and the "error" of an answer; fails the test unless it is
// JSON with exactly that one key.
std::pair<int, std::string> error_of(const httplib::Result& r) {
  EXPECT_TRUE(r) << httplib::to_string(r.error());
  if (!r) return {0, ""};
  EXPECT_EQ(r->get_header_value("Content-Type"), "application/json");
  const json body = json::parse(r->body, nullptr, false);
  EXPECT_TRUE(body.is_object() && body.size() == 1 && body.contains("error")) << r->body;
  return {r->status, body.value("error", "")};
}

std::string parse_message(std::string_view text) {
  return std::get<ParseError>(parse_position(text)).message;
}

class BadRequests : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { server_ = new RunningServer(committed_tables()); }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  static RunningServer* server_;
};
RunningServer* BadRequests::server_ = nullptr;

using Expected = std::pair<int, std::string>;

TEST_F(BadRequests, BadPositionText) {
  auto c = server_->client();
  for (const char* text : {"xyz", "", "ppp/3/PP w", "ppp/3/PPP", "ppp/3/PPP x", "ppp/\xff/PPP w"}) {
    EXPECT_EQ(error_of(c->Get(("/api/v1/position?position=" + url_encode(text)).c_str())),
              Expected(400, parse_message(text)))
        << text;
    EXPECT_EQ(error_of(c->Get(("/api/v1/mainline?position=" + url_encode(text)).c_str())),
              Expected(400, parse_message(text)))
        << text;
  }
  EXPECT_EQ(error_of(c->Get("/api/v1/position?position=P2/3/3+w")),
            Expected(400, "invalid position: " + invalid_reason(parse("P2/3/3 w"))));
  EXPECT_EQ(error_of(c->Get("/api/v1/position")), Expected(400, "missing parameter: position"));
  EXPECT_EQ(error_of(c->Get("/api/v1/mainline?pos=ppp/3/PPP+w")),
            Expected(400, "missing parameter: position"));
}

TEST_F(BadRequests, UnknownBoardSizeAndTable) {
  auto c = server_->client();
  EXPECT_EQ(error_of(c->Get("/api/v1/position?position=pppp/4/4/4/PPPP+w")),
            Expected(400, "no table for 5x4 (loaded: 3x3-k3, 4x4-k4)"));
  EXPECT_EQ(error_of(c->Get("/api/v1/stats?table=5x5-k5")),
            Expected(400, "no table 5x5-k5 (loaded: 3x3-k3, 4x4-k4)"));
  EXPECT_EQ(error_of(c->Get("/api/v1/stats")), Expected(400, "missing parameter: table"));
}

TEST_F(BadRequests, HugeQueryString) {
  auto c = server_->client();
  // Long enough to be refused before it is parsed.
  const std::string huge(20000, 'p');
  EXPECT_EQ(error_of(c->Get(("/api/v1/position?position=" + huge).c_str())),
            Expected(414, "request line over 8192 bytes"));
  // Long but within the limit: the position is what is wrong.
  const std::string long_text(6000, 'p');
  EXPECT_EQ(error_of(c->Get(("/api/v1/position?position=" + long_text).c_str())),
            Expected(400, parse_message(long_text)));
  // And the server goes on answering.
  const httplib::Result ok = c->Get("/api/v1/position?position=ppp/3/PPP+w");
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->status, 200);
}

TEST_F(BadRequests, OversizedBody) {
  auto c = server_->client();
  const std::string body(serve::kMaxBody + 1, ' ');
  EXPECT_EQ(error_of(c->Post("/api/v1/positions", body, "application/json")),
            Expected(413, "request body over " + std::to_string(serve::kMaxBody) + " bytes"));
  // A body of exactly the limit is read (and is not JSON).
  const std::string at_limit(serve::kMaxBody, ' ');
  const auto [status, error] = error_of(c->Post("/api/v1/positions", at_limit, "application/json"));
  EXPECT_EQ(status, 400);
  EXPECT_EQ(error.rfind("body is not JSON: ", 0), 0u) << error;
}

// A body is the batch whatever its Content-Type says, such as curl -d's
// form type, up to the one limit.
TEST_F(BadRequests, LargeFormBody) {
  auto c = server_->client();
  const json body(std::vector<std::string>(1000, "ppp/3/PPP w"));
  for (const char* type : {"application/x-www-form-urlencoded", "application/json"}) {
    const httplib::Result ok = c->Post("/api/v1/positions", body.dump(), type);
    ASSERT_TRUE(ok) << type;
    EXPECT_EQ(ok->status, 200) << type;
    EXPECT_EQ(json::parse(ok->body).size(), 1000u) << type;
  }
}

// A chunked body is held to the same limit as one with Content-Length.
TEST_F(BadRequests, ChunkedBodies) {
  auto c = server_->client();
  const std::string batch = json(std::vector<std::string>(3, "ppp/3/PPP w")).dump();
  auto chunked = [&](const std::string& body) {
    return c->Post(
        "/api/v1/positions",
        [&body](std::size_t, httplib::DataSink& sink) {
          for (std::size_t at = 0; at < body.size(); at += 1000) {
            sink.write(body.data() + at, std::min<std::size_t>(1000, body.size() - at));
          }
          sink.done();
          return true;
        },
        "application/json");
  };
  const httplib::Result ok = chunked(batch);
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->status, 200);
  EXPECT_EQ(json::parse(ok->body).size(), 3u);
  // At the limit it is read (and is not JSON); one byte over, 413.
  const auto [status, error] = error_of(chunked(std::string(serve::kMaxBody, ' ')));
  EXPECT_EQ(status, 400);
  EXPECT_EQ(error.rfind("body is not JSON: ", 0), 0u) << error;
  EXPECT_EQ(error_of(chunked(std::string(serve::kMaxBody + 1, ' '))),
            Expected(413, "request body over " + std::to_string(serve::kMaxBody) + " bytes"));
  // The connection was closed, not left half read: the client goes on.
  const httplib::Result after = c->Get("/api/v1/position?position=ppp/3/PPP+w");
  ASSERT_TRUE(after);
  EXPECT_EQ(after->status, 200);
}

// A lichess client's way: `fen` for `position`; and a browser's CORS
// preflight before a cross-origin POST.
TEST_F(BadRequests, FenAndPreflight) {
  auto c = server_->client();
  for (const char* path :
       {"/api/v1/position?fen=ppp/3/PPP_w", "/api/v1/mainline?fen=ppp/3/PPP_w"}) {
    const httplib::Result r = c->Get(path);
    ASSERT_TRUE(r) << path;
    EXPECT_EQ(r->status, 200) << path;
    EXPECT_EQ(json::parse(r->body)["winner"], "black") << path << r->body;
  }
  const httplib::Headers preflight = {{"Origin", "http://example.org"},
                                      {"Access-Control-Request-Method", "POST"},
                                      {"Access-Control-Request-Headers", "content-type"}};
  const httplib::Result r = c->Options("/api/v1/positions", preflight);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 204);
  EXPECT_EQ(r->get_header_value("Access-Control-Allow-Origin"), "*");
  EXPECT_EQ(r->get_header_value("Access-Control-Allow-Methods"), "POST");
  EXPECT_EQ(r->get_header_value("Access-Control-Allow-Headers"), "Content-Type");
  const httplib::Result get = c->Options("/api/v1/position", preflight);
  ASSERT_TRUE(get);
  EXPECT_EQ(get->status, 204);
  EXPECT_EQ(get->get_header_value("Access-Control-Allow-Methods"), "GET, HEAD");
  // The answer itself may be read from anywhere too.
  const httplib::Result post =
      c->Post("/api/v1/positions", "[\"ppp/3/PPP w\"]", "application/json");
  ASSERT_TRUE(post);
  EXPECT_EQ(post->get_header_value("Access-Control-Allow-Origin"), "*");
  EXPECT_EQ(error_of(c->Options("/nope", preflight)), Expected(404, "not found: /nope"));
}

// Answers are never compressed (see server.cpp), whatever the client accepts.
TEST_F(BadRequests, AnswersAreNotCompressed) {
  auto c = server_->client();
  c->set_decompress(false);
  for (const char* path : {"/api/v1/position?position=ppp/3/PPP+w", "/", "/api/v1/tables"}) {
    const httplib::Result r = c->Get(path, {{"Accept-Encoding", "gzip, deflate, br"}});
    ASSERT_TRUE(r) << path;
    EXPECT_EQ(r->status, 200) << path;
    EXPECT_FALSE(r->has_header("Content-Encoding")) << path;
  }
}

// Until its script has the tables' answers, the page says it is loading
// (a screenshot taken at once showed an empty page).
TEST_F(BadRequests, ThePageSaysItIsLoading) {
  const httplib::Result r = server_->client()->Get("/");
  ASSERT_TRUE(r);
  EXPECT_NE(r->body.find("data-testid=\"status\" class=\"status\" role=\"status\" "
                         "aria-live=\"polite\">Loading&hellip;</p>"),
            std::string::npos)
      << r->body;
}

TEST_F(BadRequests, WrongMethod) {
  auto c = server_->client();
  EXPECT_EQ(error_of(c->Get("/api/v1/positions")), Expected(405, "method not allowed"));
  EXPECT_EQ(c->Get("/api/v1/positions")->get_header_value("Allow"), "POST");
  for (const char* path : {"/api/v1/position", "/api/v1/tables", "/", "/index.html"}) {
    const httplib::Result r = c->Post(path, "[]", "application/json");
    EXPECT_EQ(error_of(r), Expected(405, "method not allowed")) << path;
    EXPECT_EQ(r->get_header_value("Allow"), "GET, HEAD") << path;
  }
  EXPECT_EQ(error_of(c->Delete("/api/v1/mainline")), Expected(405, "method not allowed"));
  EXPECT_EQ(error_of(c->Put("/api/v1/stats", "x", "text/plain")),
            Expected(405, "method not allowed"));
}

TEST_F(BadRequests, UnknownPath) {
  auto c = server_->client();
  for (const char* path :
       {"/nope", "/api/v1", "/api/v2/position", "/api/v1/position/x", "/no-such-file.js"}) {
    EXPECT_EQ(error_of(c->Get(path)), Expected(404, std::string("not found: ") + path)) << path;
  }
  EXPECT_EQ(error_of(c->Post("/nope", "[]", "application/json")),
            Expected(404, "not found: /nope"));
}

TEST_F(BadRequests, BatchBodies) {
  auto c = server_->client();
  auto post = [&](const std::string& body) {
    return error_of(c->Post("/api/v1/positions", body, "application/json"));
  };
  for (const char* body : {"", "[", "[\"ppp/3/PPP w\",]", "{\"a\":", "[\"\xff\"]", "nul"}) {
    const auto [status, error] = post(body);
    EXPECT_EQ(status, 400) << body;
    EXPECT_EQ(error.rfind("body is not JSON: ", 0), 0u) << body << ": " << error;
  }
  for (const char* body : {"{}", "\"ppp/3/PPP w\"", "3", "null"}) {
    EXPECT_EQ(post(body), Expected(400, "body is not a JSON array of position strings")) << body;
  }
  EXPECT_EQ(post("[\"ppp/3/PPP w\", 3]"),
            Expected(400, "element 1 of the array is a JSON number, not a position string"));
  EXPECT_EQ(post("[null]"),
            Expected(400, "element 0 of the array is a JSON null, not a position string"));
  EXPECT_EQ(post("[[\"ppp/3/PPP w\"]]"),
            Expected(400, "element 0 of the array is a JSON array, not a position string"));
  const json at_limit(std::vector<std::string>(serve::kMaxBatch, "ppp/3/PPP w"));
  const httplib::Result ok = c->Post("/api/v1/positions", at_limit.dump(), "application/json");
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->status, 200);
  EXPECT_EQ(json::parse(ok->body).size(), serve::kMaxBatch);
  const json over(std::vector<std::string>(serve::kMaxBatch + 1, "ppp/3/PPP w"));
  EXPECT_EQ(post(over.dump()), Expected(400, "array of 10001 positions, over the limit of 10000"));
}

// A damaged block is the server's fault, not the request's: 500, in
// probe_problem()'s words, which name the file, from /position and from
// /positions (the whole batch). The table is opened on demand so that it
// opens at all; the position is found by walking games from the start.
TEST(DamagedTable, IsAServerErrorNamingTheFile) {
  const TempDir dir;
  const fs::path path = dir / "4x4-k4.pawntb";
  write_file(path, default_table_with_blocks_1_and_3_damaged());
  const serve::Api api(serve::TableSet::open({path}, Table::Load::on_demand));
  const Table table = Table::open(path, Table::Load::on_demand);
  std::vector<Position> todo{table.start_position()};
  std::optional<Position> damaged;
  for (std::size_t i = 0; i < todo.size() && !damaged && i < 100000; ++i) {
    if (table.probe(todo[i]).status == ProbeStatus::damaged_table) damaged = todo[i];
    for (const Move m : legal_moves(todo[i])) todo.push_back(play(todo[i], m));
  }
  ASSERT_TRUE(damaged) << "no position meets a damaged block";
  const std::string text = format_position(*damaged);
  const json expected = {
      {"error", path.string() + ": the table is damaged: a block failed its check"}};
  const serve::ApiResponse one = api.position(text);
  EXPECT_EQ(one.status, 500);
  EXPECT_EQ(json::parse(one.body), expected);
  const serve::ApiResponse batch = api.positions(json({"ppp/3/PPP w", text}).dump());
  EXPECT_EQ(batch.status, 500);
  EXPECT_EQ(json::parse(batch.body), expected);
}

// One answer read from fd: its status line, once its headers and its
// Content-Length of body have come; empty if the connection ends first.
std::string read_answer(int fd) {
  std::string text;
  char buffer[4096];
  for (;;) {
    const std::size_t end = text.find("\r\n\r\n");
    if (end != std::string::npos) {
      std::size_t length = 0;
      const std::size_t at = text.find("Content-Length: ");
      if (at != std::string::npos && at < end) length = std::stoul(text.substr(at + 16));
      if (text.size() >= end + 4 + length) return text.substr(0, text.find("\r\n"));
    }
    const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
    if (n <= 0) return {};
    text.append(buffer, static_cast<std::size_t>(n));
  }
}

// Whether the server has not closed fd (nothing to read, or data: not EOF).
bool still_open(int fd) {
  char c;
  const ssize_t n = ::recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);
  return n > 0 || (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK));
}

// The server answers each connection on a thread it holds while the
// connection is kept alive (5 s idle), or while a slow request comes (5 s a
// read). With 2 threads started, 10 idle and 10 slow connections, a new
// request is answered while all of them are still open: not once some have
// timed out and freed their threads.
TEST(Connections, IdleAndSlowClientsDoNotKeepOthersWaiting) {
  serve::ServerOptions options;
  options.threads = 2;
  const RunningServer server(committed_tables(), options);
  const std::string request = "GET /api/v1/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
  std::vector<int> idle, slow;
  for (int i = 0; i < 10; ++i) {
    const int fd = connect_to(server.port());
    ASSERT_GE(fd, 0);
    idle.push_back(fd);
    ASSERT_TRUE(send_all(fd, request));
    ASSERT_EQ(read_answer(fd), "HTTP/1.1 200 OK") << "idle connection " << i;
  }
  for (int i = 0; i < 10; ++i) {
    const int fd = connect_to(server.port());
    ASSERT_GE(fd, 0);
    slow.push_back(fd);
    ASSERT_TRUE(send_all(fd, "GET /api/v1/tables HTTP/1.1\r\nHost: 127"));  // and no more yet
  }
  const auto start = std::chrono::steady_clock::now();
  const httplib::Result r = server.client()->Get("/api/v1/position?position=ppp/3/PPP+w");
  const auto waited = std::chrono::steady_clock::now() - start;
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  RecordProperty(
      "answer_ms",
      std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(waited).count()));
  for (std::size_t i = 0; i < idle.size(); ++i) {
    EXPECT_TRUE(still_open(idle[i])) << "idle connection " << i << " was closed first";
    EXPECT_TRUE(still_open(slow[i])) << "slow connection " << i << " was closed first";
  }
  // And they are still served: the slow ones finish their requests, the idle
  // ones send another.
  for (std::size_t i = 0; i < idle.size(); ++i) {
    ASSERT_TRUE(send_all(slow[i], ".0.0.1\r\n\r\n"));
    EXPECT_EQ(read_answer(slow[i]), "HTTP/1.1 200 OK") << "slow connection " << i;
    ASSERT_TRUE(send_all(idle[i], request));
    EXPECT_EQ(read_answer(idle[i]), "HTTP/1.1 200 OK") << "idle connection " << i;
  }
  for (const int fd : idle) ::close(fd);
  for (const int fd : slow) ::close(fd);
}

// A chunked body far over the limit: 413 once the limit is passed, and the
// rest is never read, so the server's memory does not grow with it.
TEST(Connections, ChunkedBodyOverTheLimitIsCutOff) {
  constexpr std::uint64_t kTotal = 200'000'000;
  {
    // The real limit: 413 with the documented error, long before the end.
    const RunningServer server(committed_tables());
    const auto start = std::chrono::steady_clock::now();
    const Upload u = chunked_upload(server.port(), kTotal);
    const auto spent = std::chrono::steady_clock::now() - start;
    EXPECT_EQ(u.status_line, "HTTP/1.1 413 Payload Too Large") << u.answer.substr(0, 300);
    EXPECT_NE(u.answer.find(serve::error_json("request body over " +
                                              std::to_string(serve::kMaxBody) + " bytes")),
              std::string::npos)
        << u.answer.substr(0, 300);
    EXPECT_LT(u.sent, kTotal / 4) << "the server read on past the limit";
    RecordProperty("sent_bytes", std::to_string(u.sent));
    RecordProperty(
        "ms", std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(spent).count()));
  }
  // Memory: with a small limit, so that the body kept is no part of the
  // growth (in-process: the client's buffer is the 64 KiB chunk).
  serve::ServerOptions options;
  options.max_body = 4096;
  const RunningServer server(committed_tables(), options);
  EXPECT_EQ(chunked_upload(server.port(), 100'000).status_line, "HTTP/1.1 413 Payload Too Large");
  const long before = rss_kib();
  const Upload u = chunked_upload(server.port(), kTotal);
  const long after = rss_kib();
  EXPECT_EQ(u.status_line, "HTTP/1.1 413 Payload Too Large") << u.answer.substr(0, 300);
  RecordProperty("vmrss_growth_kib", std::to_string(after - before));
  if (kSanitized) GTEST_SKIP() << kNoMemoryBound;
  EXPECT_LT(after - before, 4 * 1024) << "VmRSS " << before << " -> " << after << " KiB";
}

// 8 clients at once over loopback, each with its own connection, every
// answer checked against the library.
TEST(Concurrency, EightClients) {
  const RunningServer server(committed_tables());
  const Table& table = server.tables().for_geometry({4, 4})->table;
  const std::vector<Position> positions = random_positions({4, 4}, 4, 1600, 29);
  std::atomic<int> wrong{0}, answered{0};
  std::vector<std::thread> clients;
  for (int t = 0; t < 8; ++t) {
    clients.emplace_back([&, t] {
      auto c = server.client();
      for (std::size_t i = static_cast<std::size_t>(t); i < positions.size(); i += 8) {
        const Position& p = positions[i];
        const ProbeResult v = table.probe(p);
        const httplib::Result r =
            c->Get(("/api/v1/position?position=" + url_encode(format_position(p))).c_str());
        const json body = r ? json::parse(r->body, nullptr, false) : json();
        const bool right =
            r && (v.ok() ? r->status == 200 && body["winner"] == side_name(v.winner) &&
                               body["plies"] == v.plies
                         : r->status == 400 && body.contains("error"));
        if (!right) ++wrong;
        ++answered;
      }
    });
  }
  for (std::thread& c : clients) c.join();
  EXPECT_EQ(answered, 1600);
  EXPECT_EQ(wrong, 0);
}

// 10,000 malformed requests of every kind, then correct answers, and the
// resident memory (of this process: server and clients) stays bounded.
TEST(Malformed, TenThousandThenCorrectAnswersWithStableMemory) {
  serve::ServerOptions options;
  options.max_body = 4096;  // so that oversized bodies stay cheap to send
  const RunningServer server(committed_tables(), options);
  auto c = server.client();
  const std::string huge_query = "/api/v1/position?position=" + std::string(9000, 'P');
  const std::string oversized(5000, '[');
  int unexpected = 0;
  // Request i and the status it must get.
  auto send = [&](int i) -> std::pair<httplib::Result, int> {
    switch (i % 6) {
      case 0:
        return {
            c->Get(("/api/v1/position?position=" + url_encode("ppp/" + std::to_string(i) + " w"))
                       .c_str()),
            400};
      case 1:
        return {c->Get(huge_query.c_str()), 414};
      case 2:
        return {c->Post("/api/v1/positions", oversized, "application/json"), 413};
      case 3:
        return {c->Delete("/api/v1/position"), 405};
      case 4:
        return {c->Post("/api/v1/positions", "[\"ppp/3/PPP w\", {", "application/json"), 400};
      default:
        return {c->Get(("/no/such/path/" + std::to_string(i)).c_str()), 404};
    }
  };
  auto malformed = [&](int i) {
    const auto [r, expected] = send(i);
    if (!r || r->status != expected) ++unexpected;
  };
  for (int i = 0; i < 1000; ++i) malformed(i);  // warm up: pools, arenas, caches
  const long before = rss_kib();
  for (int i = 0; i < 10000; ++i) malformed(i);
  const long after = rss_kib();
  EXPECT_EQ(unexpected, 0);
  // Growth measured: about 10 KiB; under AddressSanitizer, freed memory
  // waits in its 4 MiB quarantine first (serve_support), which showed as up
  // to 6 MiB: not checked there (kNoMemoryBound). A leak of 1 KiB a request
  // would show as 10 MiB.
  RecordProperty("vmrss_growth_kib", std::to_string(after - before));
  if (!kSanitized) {
    EXPECT_LT(after - before, 8 * 1024) << "VmRSS " << before << " -> " << after << " KiB";
  }
  const Table& table = server.tables().for_geometry({4, 4})->table;
  for (const Position& p : random_positions({4, 4}, 4, 200, 31)) {
    const ProbeResult v = table.probe(p);
    const httplib::Result r =
        c->Get(("/api/v1/position?position=" + url_encode(format_position(p))).c_str());
    ASSERT_TRUE(r);
    ASSERT_EQ(r->status, v.ok() ? 200 : 400) << format_position(p);
    if (v.ok()) {
      EXPECT_EQ(json::parse(r->body)["plies"], v.plies);
    }
  }
}

}  // namespace
}  // namespace pawntb_test
