// The web explorer's API over loopback (pawntb serve's server, in-process):
// single GET /api/v1/position with one and two clients, the batch POST of
// 10,000 positions, and the batch's parts without HTTP. tools/bench/run.sh
// runs this and prints positions per second.
#include <benchmark/benchmark.h>
#include <httplib.h>

#include <csignal>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>

#include "pawntb/notation.hpp"
#include "pawntb/probe.hpp"
#include "serve/server.hpp"

namespace {

using namespace pawntb;

constexpr std::size_t kBatch = 10000;

// Positions of random games from the 4x4 start, as position text: what a
// user of the page looks at. The same on every run.
const std::vector<std::string>& game_positions() {
  static const std::vector<std::string> texts = [] {
    const Table table = Table::open_default();
    std::mt19937_64 rng(2026);
    std::vector<std::string> out;
    while (out.size() < kBatch) {
      Position p = table.start_position();
      while (classify(p) == Status::playable) {
        out.push_back(format_position(p));
        const MoveList moves = legal_moves(p);
        p = play(p, moves.moves[rng() % static_cast<unsigned>(moves.size)]);
      }
    }
    out.resize(kBatch);
    return out;
  }();
  return texts;
}

std::string url_encoded(const std::string& text) {
  std::string out;
  for (const char c : text) out += c == ' ' ? std::string("+") : std::string(1, c);
  return out;
}

const std::string& batch_body() {
  static const std::string body = nlohmann::json(game_positions()).dump();
  return body;
}

// The server of `pawntb serve` with the default 4x4 table, on a free port.
struct Running {
  serve::Api api{serve::TableSet::open({Table::default_path()})};
  serve::Server server{api, options()};
  int port = server.bind();
  std::thread thread{[this] { server.run(); }};
  static serve::ServerOptions options() {
    std::signal(SIGPIPE, SIG_IGN);
    serve::ServerOptions o;
    o.port = 0;
    return o;
  }
  ~Running() {
    server.stop();
    thread.join();
  }
};

Running& running() {
  static Running r;
  return r;
}

httplib::Client client() {
  httplib::Client c("127.0.0.1", running().port);
  c.set_keep_alive(true);
  c.set_tcp_nodelay(true);
  c.set_url_encode(false);
  return c;
}

// One position per request, on a kept-alive connection per client thread.
void BM_ServeGet(benchmark::State& state) {
  std::vector<std::string> paths;
  for (const std::string& text : game_positions()) {
    paths.push_back("/api/v1/position?position=" + url_encoded(text));
  }
  httplib::Client c = client();
  std::size_t i = static_cast<std::size_t>(state.thread_index()) * 977;
  for (auto _ : state) {
    const httplib::Result r = c.Get(paths[i++ % paths.size()].c_str());
    if (!r || r->status != 200) {
      state.SkipWithError("request failed");
      break;
    }
    benchmark::DoNotOptimize(r->body.data());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ServeGet)->Threads(1)->Threads(2)->UseRealTime()->Unit(benchmark::kMicrosecond);

// 10,000 positions in one POST.
void BM_ServeBatch(benchmark::State& state) {
  httplib::Client c = client();
  for (auto _ : state) {
    const httplib::Result r = c.Post("/api/v1/positions", batch_body(), "application/json");
    if (!r || r->status != 200) {
      state.SkipWithError("request failed");
      break;
    }
    benchmark::DoNotOptimize(r->body.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kBatch));
}
BENCHMARK(BM_ServeBatch)->UseRealTime()->Unit(benchmark::kMillisecond);

// The batch without HTTP: Api::positions() on the same body.
void BM_ApiBatch(benchmark::State& state) {
  const serve::Api& api = running().api;
  for (auto _ : state) {
    const serve::ApiResponse r = api.positions(batch_body());
    benchmark::DoNotOptimize(r.body.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kBatch));
}
BENCHMARK(BM_ApiBatch)->UseRealTime()->Unit(benchmark::kMillisecond);

// Its parts, each over the 10,000 positions: reading the JSON array, parsing
// the positions, probing them, formatting them back.
void BM_BatchPartJsonParse(benchmark::State& state) {
  for (auto _ : state) {
    const nlohmann::json j = nlohmann::json::parse(batch_body());
    benchmark::DoNotOptimize(j.size());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kBatch));
}
BENCHMARK(BM_BatchPartJsonParse)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_BatchPartParsePositions(benchmark::State& state) {
  for (auto _ : state) {
    for (const std::string& text : game_positions()) {
      benchmark::DoNotOptimize(parse_position(text));
    }
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kBatch));
}
BENCHMARK(BM_BatchPartParsePositions)->UseRealTime()->Unit(benchmark::kMillisecond);

std::vector<Position> parsed_positions() {
  std::vector<Position> out;
  for (const std::string& text : game_positions()) {
    out.push_back(std::get<Position>(parse_position(text)));
  }
  return out;
}

void BM_BatchPartProbe(benchmark::State& state) {
  const Table& table = running().api.table_set().tables().front().table;
  const std::vector<Position> positions = parsed_positions();
  std::vector<ProbeResult> results(positions.size());
  for (auto _ : state) {
    table.probe_many(positions.data(), positions.size(), results.data());
    benchmark::DoNotOptimize(results.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kBatch));
}
BENCHMARK(BM_BatchPartProbe)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_BatchPartFormat(benchmark::State& state) {
  const std::vector<Position> positions = parsed_positions();
  for (auto _ : state) {
    for (const Position& p : positions) benchmark::DoNotOptimize(format_position(p));
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kBatch));
}
BENCHMARK(BM_BatchPartFormat)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
