// `pawntb serve` as a process: the line it prints, its signals, its exit
// statuses and log, and the curl examples of docs/api.md run against it.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "serve/serve_support.hpp"
#include "support/cli_support.hpp"

extern char** environ;

namespace pawntb_test {
namespace {

using json = nlohmann::json;

// `pawntb serve --port 0 ARGS` started in `cwd` without PAWNTB_TABLE (as a
// reader of the docs runs it), once it has printed its URL.
class ServeProcess {
 public:
  ServeProcess(const std::vector<std::string>& args, const fs::path& cwd) {
    int out[2];
    if (::pipe2(out, O_CLOEXEC) != 0) throw std::runtime_error("pipe");
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, (err_dir_ / "stderr").c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
    std::vector<std::string> words{PAWNTB_CLI, "serve", "--port", "0"};
    words.insert(words.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& w : words) argv.push_back(w.data());
    argv.push_back(nullptr);
    std::vector<char*> env;
    for (char** e = environ; *e; ++e) {
      if (std::strncmp(*e, "PAWNTB_TABLE=", 13) != 0) env.push_back(*e);
    }
    env.push_back(nullptr);
    const int spawned = posix_spawn(&pid_, PAWNTB_CLI, &actions, nullptr, argv.data(), env.data());
    posix_spawn_file_actions_destroy(&actions);
    ::close(out[1]);
    if (spawned != 0) {
      ::close(out[0]);
      throw std::runtime_error("cannot start " + std::string(PAWNTB_CLI));
    }
    // The first line; a server that says nothing is given up on after kHangGuard.
    pollfd p{out[0], POLLIN, 0};
    char c = 0;
    while (::poll(&p, 1, static_cast<int>(kHangGuardSeconds * 1000)) == 1 &&
           ::read(out[0], &c, 1) == 1 && c != '\n')
      first_line_ += c;
    ::close(out[0]);
    const std::regex ready("pawntb serve: listening on (http://127\\.0\\.0\\.1:([0-9]+)/)");
    std::smatch m;
    if (std::regex_match(first_line_, m, ready)) {
      url_ = m[1];
      port_ = std::stoi(m[2]);
    }
  }
  ~ServeProcess() {
    if (pid_ > 0) stop(SIGKILL);
  }
  const std::string& first_line() const { return first_line_; }
  const std::string& url() const { return url_; }
  int port() const { return port_; }
  pid_t pid() const { return pid_; }  // the server's (pawntb execs pawntb-serve)
  std::string err() const { return read_file(err_dir_ / "stderr"); }
  // Sends `signal` and returns the exit status (128 + N if killed by N).
  int stop(int signal) {
    ::kill(pid_, signal);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }

 private:
  TempDir err_dir_;
  pid_t pid_ = -1;
  std::string first_line_, url_;
  int port_ = 0;
};

httplib::Client client_of(int port) {
  httplib::Client c("127.0.0.1", port);
  c.set_url_encode(false);
  c.set_read_timeout(kHangGuardSeconds, 0);
  return c;
}

TEST(ServeCommand, PrintsItsUrlAnswersAndStopsOnSigtermOrSigint) {
  for (const int signal : {SIGTERM, SIGINT}) {
    ServeProcess serve({"--table", kDefaultTable.string()}, kSourceDir);
    ASSERT_GT(serve.port(), 0) << serve.first_line() << serve.err();
    const httplib::Result r =
        client_of(serve.port()).Get("/api/v1/position?position=.ppp/4/.PPP/4+w");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200);
    EXPECT_EQ(json::parse(r->body)["plies"], 7);
    EXPECT_EQ(serve.stop(signal), 0) << serve.err();
    EXPECT_EQ(serve.err(), "");
  }
}

TEST(ServeCommand, ServesEveryTableOfTheDataDirectoryByDefault) {
  ServeProcess serve({}, kSourceDir);
  ASSERT_GT(serve.port(), 0) << serve.first_line() << serve.err();
  std::set<std::string> expected;
  for (const auto& entry : fs::directory_iterator(kDataDir)) {
    if (entry.path().extension() != ".pawntb") continue;  // all are named RxC-kK.pawntb
    const pawntb::Table table = pawntb::Table::open(entry.path());
    expected.insert(pawntb::serve::table_name(table.info()));
  }
  const httplib::Result r = client_of(serve.port()).Get("/api/v1/tables");
  ASSERT_TRUE(r);
  std::set<std::string> names;
  const json body = json::parse(r->body);
  for (const json& t : body["tables"]) names.insert(t["name"].get<std::string>());
  EXPECT_EQ(names, expected);
  EXPECT_TRUE(names.contains("3x3-k3") && names.contains("4x4-k4"));
  EXPECT_EQ(serve.stop(SIGTERM), 0);
}

// Without --table, serve takes the tables probe would find (files named
// RxC-kK.pawntb, Table::find_all()); a bad one found is said on stderr,
// listed under "skipped" in /api/v1/tables, and does not stop the server
// (an empty notes.pawntb once stopped it).
TEST(ServeCommand, ABadFileFoundIsSkippedAndListed) {
  TempDir dir;
  write_file(dir / "notes.pawntb", "");
  write_file(dir / "3x4-k4.pawntb", "not a table");
  fs::copy_file(k3x3Table, dir / "3x3-k3.pawntb");
  ServeProcess serve({}, dir.path());
  ASSERT_GT(serve.port(), 0) << serve.first_line() << serve.err();
  const httplib::Result r = client_of(serve.port()).Get("/api/v1/tables");
  ASSERT_TRUE(r);
  const json body = json::parse(r->body);
  std::set<std::string> paths;
  for (const json& t : body["tables"]) paths.insert(t["path"].get<std::string>());
  EXPECT_TRUE(paths.contains("./3x3-k3.pawntb")) << r->body;
  ASSERT_EQ(body["skipped"].size(), 1u) << r->body;
  EXPECT_EQ(body["skipped"][0]["path"], "./3x4-k4.pawntb");
  EXPECT_TRUE(contains(body["skipped"][0]["error"].get<std::string>(), "3x4-k4.pawntb"));
  EXPECT_FALSE(contains(r->body, "notes")) << r->body;
  EXPECT_EQ(serve.stop(SIGTERM), 0);
  EXPECT_TRUE(serve.err().starts_with("pawntb serve: skipped: ./3x4-k4.pawntb")) << serve.err();
}

TEST(ServeCommand, LogPrintsOneLinePerRequest) {
  ServeProcess serve({"--log"}, kSourceDir);
  ASSERT_GT(serve.port(), 0) << serve.first_line() << serve.err();
  httplib::Client c = client_of(serve.port());
  ASSERT_TRUE(c.Get("/api/v1/tables"));
  ASSERT_TRUE(c.Get("/nope"));
  ASSERT_TRUE(c.Post("/api/v1/positions", "[\"ppp/3/PPP w\"]", "application/json"));
  EXPECT_EQ(serve.stop(SIGTERM), 0);
  // A line is written once its response is sent, by the thread that sent it:
  // the order of the lines need not be the order of the requests.
  std::vector<std::string> lines = lines_of(serve.err());
  ASSERT_EQ(lines.size(), 3u) << serve.err();
  std::sort(lines.begin(), lines.end());
  // Each line: the time (UTC, ISO 8601, ms), the client, the request.
  const std::string start =
      "[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z 127\\.0\\.0\\.1 ";
  for (std::string& line : lines) {
    std::smatch m;
    ASSERT_TRUE(std::regex_search(line, m, std::regex("^" + start))) << line;
    line = m.suffix();
  }
  std::sort(lines.begin(), lines.end());
  EXPECT_TRUE(std::regex_match(lines[0], std::regex("GET /api/v1/tables 200 [0-9]+ us")))
      << lines[0];
  EXPECT_TRUE(std::regex_match(lines[1], std::regex("GET /nope 404 [0-9]+ us"))) << lines[1];
  EXPECT_TRUE(std::regex_match(lines[2], std::regex("POST /api/v1/positions 200 [0-9]+ us")))
      << lines[2];
}

TEST(ServeCommand, PortInUseIsARuntimeFailure) {
  const RunningServer taken(committed_tables());
  const std::string port = std::to_string(taken.port());
  const RunResult r = run_cli({"serve", "--port", port});
  EXPECT_EQ(r.status, 1) << r;
  EXPECT_EQ(r.out, "") << r;
  EXPECT_EQ(r.err,
            "pawntb serve: cannot listen on 127.0.0.1:" + port + ": Address already in use\n")
      << r;
}

TEST(ServeCommand, BadTableIsARuntimeFailure) {
  TempDir dir;
  write_file(dir / "text.pawntb", "not a table");
  for (const fs::path& table : {dir / "missing.pawntb", dir / "text.pawntb"}) {
    const RunResult r = run_cli({"serve", "--port", "0", "--table", table.string()});
    EXPECT_EQ(r.status, 1) << r;
    EXPECT_EQ(r.out, "") << r;
    EXPECT_EQ(r.err.rfind("pawntb serve: " + table.string() + ": ", 0), 0u) << r;
    // In probe's words.
    const RunResult probe = run_cli({"probe", "--table", table.string(), "ppp/3/PPP w"});
    EXPECT_EQ(r.err.substr(r.err.find(": ") + 2), probe.err.substr(probe.err.find(": ") + 2))
        << r << probe;
  }
  // One table per board size and K.
  const RunResult twice = run_cli({"serve", "--port", "0", "--table", kDefaultTable.string(),
                                   "--table", kDefaultTable.string()});
  EXPECT_EQ(twice.status, 1) << twice;
  EXPECT_TRUE(contains(twice.err, "a second table for 4x4-k4")) << twice;
}

// VmRSS of process `pid`, KiB; -1 if unknown.
long rss_kib_of(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string key;
  while (status >> key) {
    if (key == "VmRSS:") {
      long kib = -1;
      status >> kib;
      return kib;
    }
    status.ignore(1 << 20, '\n');
  }
  return -1;
}

// Chunked bodies of 200 MB each, over the 2 MiB limit: each gets 413, and
// the server's memory does not grow by them, neither by the rest of the
// body (never read) nor by the 2 MiB read before the limit (given back to
// the system, on whichever worker thread read it). Under AddressSanitizer,
// freed memory would wait in its quarantine: none for this server.
TEST(ServeCommand, ChunkedBodiesOverTheLimitLeaveMemoryAlone) {
  const char* asan = std::getenv("ASAN_OPTIONS");
  const std::string options =
      std::string(asan ? asan : "") + (asan ? ":" : "") + "quarantine_size_mb=0";
  ::setenv("ASAN_OPTIONS", options.c_str(), 1);
  ServeProcess serve({"--table", (kDataDir / "3x3-k3.pawntb").string(), "--threads", "4"},
                     kSourceDir);
  ASSERT_GT(serve.port(), 0) << serve.first_line() << serve.err();
  // Every worker thread once, for what a thread's first request costs.
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(chunked_upload(serve.port(), 3'000'000).status_line,
              "HTTP/1.1 413 Payload Too Large");
  }
  const long before = rss_kib_of(serve.pid());
  for (int i = 0; i < 8; ++i) {
    const Upload u = chunked_upload(serve.port(), 200'000'000);
    EXPECT_EQ(u.status_line, "HTTP/1.1 413 Payload Too Large") << u.answer.substr(0, 300);
    EXPECT_LT(u.sent, 50'000'000u);
  }
  const long after = rss_kib_of(serve.pid());
  RecordProperty("vmrss_growth_kib", std::to_string(after - before));
  EXPECT_EQ(serve.stop(SIGTERM), 0) << serve.err();
  if (kSanitized) GTEST_SKIP() << kNoMemoryBound;
  EXPECT_LT(after - before, 4 * 1024) << "VmRSS " << before << " -> " << after << " KiB";
}

// 0 threads: one per hardware thread, as everywhere.
TEST(ServeCommand, ZeroThreadsIsOnePerHardwareThread) {
  ServeProcess serve({"--table", kDefaultTable.string(), "--threads", "0"}, kSourceDir);
  ASSERT_GT(serve.port(), 0) << serve.first_line() << serve.err();
  const httplib::Result r = client_of(serve.port()).Get("/api/v1/tables");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(serve.stop(SIGTERM), 0) << serve.err();
}

TEST(ServeCommand, BadOptionsAreUsageErrors) {
  for (const std::vector<std::string>& args : {std::vector<std::string>{"serve", "--port", "70000"},
                                               {"serve", "--port", "-1"},
                                               {"serve", "--port", "http"},
                                               {"serve", "--threads", "257"},
                                               {"serve", "extra"},
                                               {"serve", "--bogus"}}) {
    const RunResult r = run_cli(args);
    EXPECT_EQ(r.status, 2) << r;
    EXPECT_TRUE(contains(r.err, "usage: pawntb serve")) << r;
  }
  const RunResult help = run_cli({"serve", "--help"});
  EXPECT_EQ(help.status, 0) << help;
  EXPECT_TRUE(contains(help.out, "docs/api.md")) << help;
}

// One `curl` example of docs/api.md, done with httplib: the options used
// there are -s, -w FORMAT (%{http_code} and \n), -d BODY (a POST),
// -H 'NAME: VALUE' and -X METHOD.
std::string run_curl(const std::vector<std::string>& words, const std::string& base_url, int port) {
  std::string method = "GET", body, format, url;
  httplib::Headers headers;
  bool post = false;
  for (std::size_t i = 1; i < words.size(); ++i) {
    const std::string& w = words[i];
    const bool has_value = i + 1 < words.size();
    if (w == "-s") continue;
    if (w == "-w" && has_value) {
      format = words[++i];
    } else if (w == "-d" && has_value) {
      body = words[++i];
      post = true;
    } else if (w == "-X" && has_value) {
      method = words[++i];
    } else if (w == "-H" && has_value) {
      const std::string& header = words[++i];
      const std::size_t colon = header.find(": ");
      if (colon == std::string::npos) {
        ADD_FAILURE() << "not a header: " << header;
        return "";
      }
      headers.emplace(header.substr(0, colon), header.substr(colon + 2));
    } else if (w.rfind("http://", 0) == 0 && url.empty()) {
      url = w;
    } else {
      ADD_FAILURE() << "curl option not supported by the test: " << w;
      return "";
    }
  }
  if (post && method == "GET") method = "POST";
  const std::string documented_base = "http://127.0.0.1:8080/";
  if (url.rfind(documented_base, 0) != 0) {
    ADD_FAILURE() << "an example must use " << documented_base << ": " << url;
    return "";
  }
  httplib::Client c = client_of(port);
  const std::string path = "/" + url.substr(documented_base.size());
  httplib::Request req;
  req.method = method;
  req.path = path;
  req.headers = headers;
  if (post) {
    req.body = body;
    if (!req.has_header("Content-Type")) {
      req.set_header("Content-Type", "application/x-www-form-urlencoded");  // as curl -d
    }
  }
  const httplib::Result r = c.send(req);
  if (!r) {
    ADD_FAILURE() << "no answer from " << base_url << ": " << httplib::to_string(r.error());
    return "";
  }
  std::string out = r->body;
  for (std::size_t i = 0; i < format.size(); ++i) {
    if (format.compare(i, 12, "%{http_code}") == 0) {
      out += std::to_string(r->status);
      i += 11;
    } else if (format.compare(i, 2, "\\n") == 0) {
      out += '\n';
      ++i;
    } else {
      out += format[i];
    }
  }
  return out;
}

TEST(ApiDocs, EveryCurlExampleGivesItsOutput) {
  const fs::path docs = kSourceDir / "docs" / "api.md";
  const std::string markdown = read_file(docs);
  ASSERT_FALSE(markdown.empty()) << "cannot read " << docs;
  const std::vector<Example> examples = examples_in(markdown);
  ASSERT_GE(examples.size(), 10u) << docs << ": its examples are not tested";
  ServeProcess serve({}, kSourceDir);
  ASSERT_GT(serve.port(), 0) << serve.first_line() << serve.err();
  for (const Example& example : examples) {
    const std::string where =
        "docs/api.md:" + std::to_string(example.line) + ": $ " + example.command;
    auto split = split_command(example.command);
    if (auto* problem = std::get_if<std::string>(&split)) {
      ADD_FAILURE() << where << "\ncannot run this without a shell: " << *problem;
      continue;
    }
    const Command& command = std::get<Command>(split);
    if (command.words[0] != "curl" || command.input) {
      ADD_FAILURE() << where << "\nan example must be a curl command";
      continue;
    }
    EXPECT_EQ(run_curl(command.words, serve.url(), serve.port()), example.output) << where;
  }
  EXPECT_EQ(serve.stop(SIGTERM), 0) << serve.err();
}

}  // namespace
}  // namespace pawntb_test
