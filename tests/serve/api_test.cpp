// The API against the library: every endpoint's answers are computed here
// from Table::probe()/probe_root() and compared with the server's, over
// loopback, on thousands of positions of the 3x3 and 4x4 tables.
#include "serve/api.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <utility>
#include <vector>

#include "common/answers.hpp"
#include "pawntb/format/layout.hpp"
#include "pawntb/notation.hpp"
#include "serve/assets.hpp"
#include "serve/serve_support.hpp"
#include "pawntb/analysis.hpp"
#include "stats/stats_json.hpp"

namespace pawntb_test {
namespace {

using namespace pawntb;
using json = nlohmann::json;

const char* category(Side side, Side winner) {
  return side == winner ? "win" : "loss";
}

// lichess's dtm: positive when the side to move wins.
int dtm(Side side, Side winner, int plies) {
  return side == winner ? plies : -plies;
}

// Why the game is over at p, worked out here from the board: the opponent
// on its goal row, or no pawns, or no move.
std::string reason(const Position& p) {
  const Geometry g = p.geometry;
  const std::uint64_t top = (std::uint64_t{1} << g.cols) - 1;
  const std::uint64_t bottom = top << (g.cols * (g.rows - 1));
  const bool opponent_arrived = p.to_move == Side::white ? (p.black & bottom) : (p.white & top);
  if (opponent_arrived) return "goal";
  const std::uint64_t mine = p.to_move == Side::white ? p.white : p.black;
  return mine == 0 ? "no_pawns" : "no_moves";
}

// winner, plies, dtm, category and, at the end of a game, reason.
void add_value(json& j, const Position& p, Side winner, int plies) {
  j["winner"] = side_name(winner);
  j["plies"] = plies;
  j["dtm"] = dtm(p.to_move, winner, plies);
  j["category"] = category(p.to_move, winner);
  if (plies == 0) j["reason"] = reason(p);
}

class Api : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { server_ = new RunningServer(committed_tables()); }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  static const Table& table_for(Geometry g) { return server_->tables().for_geometry(g)->table; }
  // GET `path`; fails the test unless the answer is JSON.
  static std::pair<int, json> get(httplib::Client& client, const std::string& path) {
    const httplib::Result r = client.Get(path.c_str());
    EXPECT_TRUE(r) << path << ": " << httplib::to_string(r.error());
    if (!r) return {0, json()};
    EXPECT_EQ(r->get_header_value("Content-Type"), "application/json") << path;
    return {r->status, json::parse(r->body)};
  }
  static RunningServer* server_;
};
RunningServer* Api::server_ = nullptr;

// The answer to `p` as the API documents it, from probe_root(); null when
// the position cannot be answered.
json expected_position(const Table& table, const Position& p) {
  const RootResult root = table.probe_root(p);
  if (!root.value.ok()) return json();
  const Geometry g = p.geometry;
  json moves = json::array();
  for (const MoveValue& m : root.moves) {
    moves.push_back({{"uci", move_name(g, m.move)},
                     {"winner", side_name(m.winner)},
                     {"plies", m.plies},
                     {"dtm", dtm(opponent(p.to_move), m.winner, m.plies)},
                     {"category", category(opponent(p.to_move), m.winner)},
                     {"position", format_position(play(p, m.move))}});
  }
  json line = json::array();
  for (const Move m : root.principal_variation) line.push_back(move_name(g, m));
  json j = {{"position", format_position(p)},
            {"geometry", {{"rows", g.rows}, {"cols", g.cols}, {"max_pawns", table.info().max_pawns}}},
            {"to_move", side_name(p.to_move)}};
  add_value(j, p, root.value.winner, root.value.plies);
  j["best"] = root.moves.empty() ? json() : json(move_name(g, root.moves[0].move));
  j["moves"] = moves;
  j["line"] = line;
  return j;
}

// The error for a position the table cannot answer, in the CLI's words.
std::string expected_error(const Table& table, const Position& p, ProbeStatus status) {
  if (status == ProbeStatus::invalid_position) return "invalid position: " + invalid_reason(p);
  EXPECT_EQ(status, ProbeStatus::too_many_pawns) << format_position(p);
  return "more than " + std::to_string(table.info().max_pawns) + " pawns a side, the table's limit";
}

TEST_F(Api, PositionAgreesWithProbeRoot) {
  auto client = server_->client();
  for (const auto& [g, k, count] :
       {std::tuple{Geometry{4, 4}, 4, 1500}, {Geometry{3, 3}, 3, 500}}) {
    const Table& table = table_for(g);
    int answered = 0;
    for (const Position& p : random_positions(g, k, count, 13)) {
      const std::string text = format_position(p);
      const auto [status, body] = get(*client, "/api/v1/position?position=" + url_encode(text));
      const json expected = expected_position(table, p);
      if (expected.is_null()) {
        EXPECT_EQ(status, 400) << text;
        EXPECT_EQ(body, json({{"error", expected_error(table, p, table.probe(p).status)}})) << text;
        continue;
      }
      ++answered;
      ASSERT_EQ(status, 200) << text << ": " << body;
      EXPECT_EQ(body, expected) << text;
    }
    EXPECT_GT(answered, count / 4) << to_string(g);  // the sample is mostly answerable
  }
}

TEST_F(Api, PositionKeepsTheDocumentedKeyOrder) {
  auto client = server_->client();
  const httplib::Result r = client->Get("/api/v1/position?position=.ppp/4/.PPP/4+w");
  ASSERT_TRUE(r);
  const auto ordered = nlohmann::ordered_json::parse(r->body);
  std::vector<std::string> keys;
  for (const auto& item : ordered.items()) keys.push_back(item.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"position", "geometry", "to_move", "winner", "plies",
                                            "dtm", "category", "best", "moves", "line"}));
  keys.clear();
  for (const auto& item : ordered["moves"][0].items()) keys.push_back(item.key());
  EXPECT_EQ(keys,
            (std::vector<std::string>{"uci", "winner", "plies", "dtm", "category", "position"}));
  // At the end of a game, "reason" after the value.
  const httplib::Result over = client->Get("/api/v1/position?position=2P/p2/3+b");
  ASSERT_TRUE(over);
  keys.clear();
  const auto over_body = nlohmann::ordered_json::parse(over->body);
  for (const auto& item : over_body.items()) keys.push_back(item.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"position", "geometry", "to_move", "winner", "plies",
                                            "dtm", "category", "reason", "best", "moves", "line"}));
}

// The signed dtm and the reason a game is over, on positions chosen for
// each case: the API, `probe --json` and the C API give them.
TEST_F(Api, DtmAndReason) {
  auto client = server_->client();
  const auto value = [&](const std::string& text) {
    return get(*client, "/api/v1/position?position=" + url_encode(text)).second;
  };
  EXPECT_EQ(value(".ppp/4/.PPP/4 w")["dtm"], 7);
  EXPECT_EQ(value(".ppp/4/.PPP/4 w")["moves"][0]["dtm"], -6);  // black to move then, and lost
  const json goal = value("2P/p2/3 b");
  EXPECT_EQ(goal["dtm"], 0);
  EXPECT_EQ(goal["reason"], "goal");
  EXPECT_EQ(value("3/3/PPP b")["reason"], "no_pawns");
  EXPECT_EQ(value("3/p2/P2 w")["reason"], "no_moves");
  EXPECT_FALSE(value("ppp/3/PPP w").contains("reason"));
}

// The read-only GET answers carry Access-Control-Allow-Origin: *, as the
// lichess API's do; `_` stands for the space in the position parameter, as
// lichess accepts in `fen`.
TEST_F(Api, GetAnswersAreReadableAnywhereAndTakeUnderscores) {
  auto client = server_->client();
  for (const char* path : {"/api/v1/position?position=ppp/3/PPP_w",
                           "/api/v1/mainline?position=ppp/3/PPP_w", "/api/v1/tables",
                           "/api/v1/stats?table=3x3-k3", "/api/v1/position?position=ppp/3/PP_w"}) {
    const httplib::Result r = client->Get(path);
    ASSERT_TRUE(r) << path;
    EXPECT_EQ(r->get_header_value("Access-Control-Allow-Origin"), "*") << path;
  }
  EXPECT_EQ(get(*client, "/api/v1/position?position=ppp/3/PPP_w").second,
            get(*client, "/api/v1/position?position=ppp/3/PPP+w").second);
  EXPECT_EQ(get(*client, "/api/v1/mainline?position=ppp/3/PPP_b").second,
            get(*client, "/api/v1/mainline?position=ppp/3/PPP%20b").second);
}

// POST to a GET path is 405 with or without a body: httplib refused one
// without Content-Length with a bare 400.
TEST_F(Api, PostWithoutABodyIsAnsweredAsWithAnEmptyOne) {
  for (const std::string& length : {std::string(), std::string("Content-Length: 0\r\n")}) {
    const std::string answer = raw_http(server_->port(), "POST /api/v1/position HTTP/1.1\r\nHost: x\r\n" +
                                                            length + "Connection: close\r\n\r\n");
    EXPECT_TRUE(answer.starts_with("HTTP/1.1 405")) << answer;
    EXPECT_NE(answer.find("Allow: GET, HEAD"), std::string::npos) << answer;
    EXPECT_TRUE(answer.ends_with("{\"error\":\"method not allowed\"}")) << answer;
  }
  // The batch without a body: its own answer for an empty body.
  const std::string batch =
      raw_http(server_->port(), "POST /api/v1/positions HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  EXPECT_TRUE(batch.starts_with("HTTP/1.1 400")) << batch;
  EXPECT_NE(batch.find("body is not JSON"), std::string::npos) << batch;
}

TEST_F(Api, MainlineAgreesWithProbe) {
  auto client = server_->client();
  for (const auto& [g, k] : {std::pair{Geometry{4, 4}, 4}, {Geometry{3, 3}, 3}}) {
    const Table& table = table_for(g);
    for (const Position& start : random_positions(g, k, 300, 17)) {
      const std::string text = format_position(start);
      const auto [status, body] = get(*client, "/api/v1/mainline?position=" + url_encode(text));
      const RootResult root = table.probe_root(start);
      if (!root.value.ok()) {
        EXPECT_EQ(status, 400) << text;
        continue;
      }
      ASSERT_EQ(status, 200) << text;
      json line = json::array();
      Position p = start;
      for (const Move m : root.principal_variation) {
        p = play(p, m);
        const ProbeResult v = table.probe(p);
        json ply = {{"uci", move_name(g, m)}, {"position", format_position(p)}};
        add_value(ply, p, v.winner, v.plies);
        line.push_back(ply);
      }
      // The line ends the game, and each ply brings the end one closer.
      EXPECT_EQ(classify(p), Status::over) << text;
      json expected = {{"position", text},
                       {"geometry", {{"rows", g.rows}, {"cols", g.cols}, {"max_pawns", k}}},
                       {"to_move", side_name(start.to_move)}};
      add_value(expected, start, root.value.winner, root.value.plies);
      expected["mainline"] = line;
      EXPECT_EQ(body, expected) << text;
    }
  }
}

TEST_F(Api, BatchAgreesWithProbe) {
  std::vector<std::string> texts;
  std::vector<Position> positions = random_positions({4, 4}, 4, 7000, 19);
  const auto small = random_positions({3, 3}, 3, 3000, 23);
  positions.insert(positions.end(), small.begin(), small.end());
  for (const Position& p : positions) texts.push_back(format_position(p));
  auto client = server_->client();
  const httplib::Result r =
      client->Post("/api/v1/positions", json(texts).dump(), "application/json");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body.substr(0, 200);
  const json answers = json::parse(r->body);
  ASSERT_EQ(answers.size(), positions.size());
  for (std::size_t i = 0; i < positions.size(); ++i) {
    const Position& p = positions[i];
    const Table& table = table_for(p.geometry);
    const ProbeResult v = table.probe(p);
    json expected = json{{"position", texts[i]}};
    if (v.ok()) {
      add_value(expected, p, v.winner, v.plies);
    } else {
      expected = json{{"error", expected_error(table, p, v.status)}};
    }
    EXPECT_EQ(answers[i], expected) << texts[i];
  }
}

TEST_F(Api, BatchNormalisesAndReportsEachPosition) {
  auto client = server_->client();
  const json request = {".ppp/4/.PPP/4 w", "ppp/3/PPP b", "pppp/4/4/4/PPPP w", "x", ""};
  const httplib::Result r = client->Post("/api/v1/positions", request.dump(), "application/json");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200);
  const json answers = json::parse(r->body);
  ASSERT_EQ(answers.size(), 5u);
  EXPECT_EQ(answers[0]["position"], "1ppp/4/1PPP/4 w");
  EXPECT_EQ(answers[1]["position"], "ppp/3/PPP b");
  EXPECT_EQ(answers[2], json({{"error", "no table for 5x4 (loaded: 3x3-k3, 4x4-k4)"}}));
  EXPECT_EQ(answers[3], json({{"error", std::get<ParseError>(parse_position("x")).message}}));
  EXPECT_EQ(answers[4], json({{"error", std::get<ParseError>(parse_position("")).message}}));
  const httplib::Result empty = client->Post("/api/v1/positions", "[]", "application/json");
  ASSERT_TRUE(empty);
  EXPECT_EQ(empty->status, 200);
  EXPECT_EQ(empty->body, "[]");
}

// Each answer of a batch is the single GET's answer cut to its first keys,
// or the same error, in order. The batch repeats the positions until it is
// large enough to be answered on two threads, in many chunks.
TEST_F(Api, BatchAnswersAreTheSingleAnswers) {
  std::vector<std::string> texts;
  for (const Position& p : random_positions({4, 4}, 4, 300, 37)) {
    texts.push_back(format_position(p));
  }
  for (const Position& p : random_positions({3, 3}, 3, 100, 41)) {
    texts.push_back(format_position(p));
  }
  texts.insert(texts.end(), {".ppp/4/.PPP/4 w", "pppp/4/4/4/PPPP w", "x", "", "ppp/3/PPP",
                             "pp/PP w", "ppp/3/PPP w\xc3\xa9", "p2/3/PPP b"});
  auto client = server_->client();
  std::vector<nlohmann::ordered_json> singles;
  for (const std::string& text : texts) {
    const httplib::Result r =
        client->Get(("/api/v1/position?position=" + url_encode(text)).c_str());
    ASSERT_TRUE(r) << text;
    ASSERT_TRUE(r->status == 200 || r->status == 400) << text << ": " << r->status;
    const auto single = nlohmann::ordered_json::parse(r->body);
    if (r->status != 200) {
      singles.push_back(single);
      continue;
    }
    nlohmann::ordered_json cut = nlohmann::ordered_json::object();
    for (const char* key : {"position", "winner", "plies", "dtm", "category", "reason"}) {
      if (single.contains(key)) cut[key] = single[key];
    }
    singles.push_back(cut);
  }
  std::vector<std::string> batch;
  while (batch.size() < serve::kMaxBatch - texts.size()) {
    batch.insert(batch.end(), texts.begin(), texts.end());
  }
  const httplib::Result r =
      client->Post("/api/v1/positions", json(batch).dump(), "application/json");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body.substr(0, 200);
  const auto answers = nlohmann::ordered_json::parse(r->body);
  ASSERT_EQ(answers.size(), batch.size());
  std::size_t answered = 0;
  for (std::size_t i = 0; i < batch.size(); ++i) {
    EXPECT_EQ(answers[i], singles[i % texts.size()]) << i << ": " << batch[i];
    answered += answers[i].contains("position");
  }
  EXPECT_GT(answered, batch.size() / 4);  // mostly answerable
}

TEST_F(Api, TablesListsEachTableWithItsFileChecksum) {
  auto client = server_->client();
  const auto [status, body] = get(*client, "/api/v1/tables");
  ASSERT_EQ(status, 200);
  json expected = json::array();
  for (const fs::path& file : {k3x3Table, kDefaultTable}) {
    const Table table = Table::open(file);
    const TableInfo& info = table.info();
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx",
                  static_cast<unsigned long long>(format::checksum64(read_bytes(file))));
    expected.push_back({{"name", to_string(info.geometry) + "-k" + std::to_string(info.max_pawns)},
                        {"path", file.string()},
                        {"geometry",
                         {{"rows", info.geometry.rows},
                          {"cols", info.geometry.cols},
                          {"max_pawns", info.max_pawns}}},
                        {"checksum", hex},
                        {"entries", info.entries},
                        {"white_wins", info.white_wins},
                        {"longest_game_plies", info.longest_game_plies},
                        {"longest_game_example", info.longest_game_example},
                        {"start", format_position(table.start_position())}});
  }
  EXPECT_EQ(body, json({{"tables", expected}, {"skipped", json::array()}}));
  EXPECT_EQ(body["tables"][0]["name"], "3x3-k3");
  EXPECT_EQ(body["tables"][1]["start"], "pppp/4/4/PPPP w");
}

TEST_F(Api, StatsIsTheStatsDocumentOfTheTable) {
  auto client = server_->client();
  for (const char* name : {"3x3-k3", "4x4-k4"}) {
    const auto [status, body] = get(*client, std::string("/api/v1/stats?table=") + name);
    ASSERT_EQ(status, 200) << name;
    const Table& table = server_->tables().named(name)->table;
    EXPECT_EQ(body, json::parse(stats::to_json(analysis::compute_stats(table)).dump())) << name;
  }
}

TEST_F(Api, ServesEveryFileOfThePageWithItsType) {
  auto client = server_->client();
  const fs::path web = kSourceDir / "tools" / "serve" / "web";
  std::size_t files = 0;
  for (const auto& entry : fs::directory_iterator(web)) {
    const std::string name = entry.path().filename().string();
    const httplib::Result r = client->Get(("/" + name).c_str());
    ASSERT_TRUE(r) << name;
    EXPECT_EQ(r->status, 200) << name;
    EXPECT_EQ(r->body, read_file(entry.path())) << name;
    EXPECT_EQ(r->get_header_value("Content-Type"), serve::content_type(name)) << name;
    ++files;
  }
  EXPECT_EQ(files, serve::assets().size());
  const httplib::Result index = client->Get("/");
  ASSERT_TRUE(index);
  EXPECT_EQ(index->status, 200);
  EXPECT_EQ(index->body, read_file(web / "index.html"));
  EXPECT_EQ(index->get_header_value("Content-Type"), "text/html; charset=utf-8");
}

TEST(ContentType, ByExtension) {
  EXPECT_STREQ(serve::content_type("index.html"), "text/html; charset=utf-8");
  EXPECT_STREQ(serve::content_type("app.js"), "text/javascript; charset=utf-8");
  EXPECT_STREQ(serve::content_type("style.css"), "text/css; charset=utf-8");
  EXPECT_STREQ(serve::content_type("favicon.svg"), "image/svg+xml");
  EXPECT_STREQ(serve::content_type("explorer.png"), "image/png");
  EXPECT_STREQ(serve::content_type("README"), "application/octet-stream");
}

// The explorer words a value as the CLI does: app.js's valueText() (and the
// pliesText() it uses), run by node, against common::value_text(). The
// words themselves are checked here too. Skipped without node.
TEST(ExplorerWords, ValueTextAgreesWithTheCli) {
  EXPECT_EQ(common::value_text(Side::white, 7), "white wins in 7 plies");
  EXPECT_EQ(common::value_text(Side::black, 1), "black wins in 1 ply");
  EXPECT_EQ(common::value_text(Side::black, 0), "black has won");
  if (std::system("node --version >/dev/null 2>&1") != 0) GTEST_SKIP() << "no node";
  const std::string app = read_file(kSourceDir / "tools/serve/web/app.js");
  const auto piece = [&](const std::string& first, const std::string& last) {
    const std::size_t begin = app.find(first);
    const std::size_t end = app.find(last, begin);
    EXPECT_NE(end, std::string::npos) << first;
    return end == std::string::npos ? std::string() : app.substr(begin, end + last.size() - begin);
  };
  const TempDir dir;
  const fs::path script = dir / "words.js";
  std::string js = piece("const pliesText", ";\n") + piece("function valueText", "\n}\n");
  const std::vector<std::pair<Side, int>> values = {
      {Side::white, 0}, {Side::black, 0}, {Side::white, 1}, {Side::black, 2}, {Side::white, 33}};
  std::string expected;
  for (const auto& [winner, plies] : values) {
    js += "console.log(valueText({winner: '" + std::string(side_name(winner)) +
          "', plies: " + std::to_string(plies) + "}));\n";
    expected += common::value_text(winner, plies) + "\n";
  }
  write_file(script, js);
  const fs::path out = dir / "out.txt";
  ASSERT_EQ(std::system(("node " + script.string() + " >" + out.string()).c_str()), 0) << js;
  EXPECT_EQ(read_file(out), expected) << js;
}

}  // namespace
}  // namespace pawntb_test
