#include "serve/api.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <variant>

#include "common/answers.hpp"
#include "pawntb/notation.hpp"
#include "stats/stats_json.hpp"

namespace pawntb::serve {

namespace {

using common::add_answer;
using common::Json;

std::string dump(const Json& j) {
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

ApiResponse bad_request(std::string_view message) {
  return {400, error_json(message)};
}

// The answer to a probe that failed (r not ok): 400 for the position's
// fault, 500 for a damaged table's.
ApiResponse probe_failed(const Table& table, const Position& p, ProbeResult r) {
  return {r.status == ProbeStatus::damaged_table ? 500 : 400,
          error_json(probe_problem(table, p, r))};
}

std::string no_table(const TableSet& tables, Geometry g) {
  return no_table_for(g, " (loaded: " + tables.names() + ")");
}

// A position and the table that answers it.
struct Target {
  Position position;
  const LoadedTable* table = nullptr;
};

// The position `text` and its table, or why there is none.
std::variant<Target, std::string> target(const TableSet& tables, std::string_view text) {
  auto parsed = parse_position(text);
  if (auto* e = std::get_if<ParseError>(&parsed)) return std::move(e->message);
  const Position& p = std::get<Position>(parsed);
  const LoadedTable* table = tables.for_geometry(p.geometry);
  if (!table) return no_table(tables, p.geometry);
  return Target{p, table};
}

// The probe of a position, or the answer saying why it cannot be answered.
struct Probed {
  Target target;
  RootResult root;
};
std::variant<Probed, ApiResponse> probe_root(const TableSet& tables, std::string_view text) {
  auto found = target(tables, text);
  if (auto* problem = std::get_if<std::string>(&found)) return bad_request(*problem);
  const Target& t = std::get<Target>(found);
  RootResult root = t.table->table.probe_root(t.position);
  if (!root.value.ok()) return probe_failed(t.table->table, t.position, root.value);
  return Probed{t, std::move(root)};
}

Json tables_json(const TableSet& set) {
  Json list = Json::array();
  for (const LoadedTable& t : set.tables()) {
    const TableInfo& info = t.table.info();
    Json& j = list.emplace_back(Json::object());
    j["name"] = t.name;
    j["path"] = info.path.string();
    j["geometry"] = common::geometry_json(info.geometry, info.max_pawns);
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(t.checksum));
    j["checksum"] = hex;
    j["entries"] = info.entries;
    j["white_wins"] = info.white_wins;
    j["longest_game_plies"] = info.longest_game_plies;
    j["longest_game_example"] = info.longest_game_example;
    j["start"] = format_position(t.table.start_position());
  }
  Json j = Json::object();
  j["tables"] = std::move(list);
  // Files found along the search path that are not served, and why.
  Json& skipped = j["skipped"] = Json::array();
  for (const SkippedFile& s : set.skipped()) {
    skipped.push_back({{"path", s.path.string()}, {"error", s.error}});
  }
  return j;
}

// The table of a board size, remembering the last one asked for.
struct TableCache {
  const TableSet& set;
  Geometry last{0, 0};
  const LoadedTable* table = nullptr;
  const LoadedTable* find(Geometry g) {
    if (g != last) {
      last = g;
      table = set.for_geometry(g);
    }
    return table;
  }
};

// Appends the answer to one position of a batch: {"position", "winner",
// "plies", "dtm", "category"}, with "reason" when the game is over, or
// {"error"}. Written directly, not through a document: the position text
// (from format_position) and the names need no escaping; error messages go
// through the JSON library. A damaged block throws TableError: the whole
// batch fails.
void add_batch_answer(TableCache& tables, std::string_view text, std::string& out) {
  auto error = [&](const std::string& message) {
    out += "{\"error\":";
    out += dump(Json(message));
    out += '}';
  };
  const auto parsed = parse_position(text);
  if (const auto* e = std::get_if<ParseError>(&parsed)) return error(e->message);
  const Position& p = std::get<Position>(parsed);
  const LoadedTable* table = tables.find(p.geometry);
  if (!table) {
    return error(no_table(tables.set, p.geometry));
  }
  const ProbeResult v = table->table.probe(p);
  if (v.status == ProbeStatus::damaged_table) throw TableError(probe_problem(table->table, p, v));
  if (!v.ok()) return error(probe_problem(table->table, p, v));
  out += "{\"position\":\"";
  out += format_position(p);
  out += '"';
  common::append_value(out, p, v.winner, v.plies);
  out += '}';
}

// About what an answer takes ({"position":"1ppp/4/1PPP/4 w","winner":"white",
// "plies":7,"dtm":7,"category":"win"} and a comma): longer ones make the
// string grow.
constexpr std::size_t kAnswerBytes = 88;

}  // namespace

struct Api::StatsCache {
  std::once_flag once;
  std::string json;
};

std::string error_json(std::string_view message) {
  Json j = Json::object();
  j["error"] = std::string(message);
  return dump(j);
}

Api::Api(TableSet tables) : tables_(std::move(tables)), tables_json_(dump(tables_json(tables_))) {
  for (std::size_t i = 0; i < tables_.tables().size(); ++i) {
    stats_.push_back(std::make_unique<StatsCache>());
  }
}

Api::~Api() = default;

ApiResponse Api::position(std::string_view text) const {
  auto probed = probe_root(tables_, text);
  if (auto* refused = std::get_if<ApiResponse>(&probed)) return std::move(*refused);
  const Probed& r = std::get<Probed>(probed);
  Json j = Json::object();
  j.get_ref<Json::object_t&>().reserve(12);
  add_answer(j, r.target.position, r.target.table->table.info().max_pawns, r.root);
  return {200, dump(j)};
}

ApiResponse Api::mainline(std::string_view text) const {
  auto probed = probe_root(tables_, text);
  if (auto* refused = std::get_if<ApiResponse>(&probed)) return std::move(*refused);
  const Probed& r = std::get<Probed>(probed);
  const Table& table = r.target.table->table;
  const Geometry g = r.target.position.geometry;
  // The keys of /position's answer that say the position and its value.
  Json j = Json::object();
  j["position"] = format_position(r.target.position);
  j["geometry"] = common::geometry_json(g, table.info().max_pawns);
  j["to_move"] = side_name(r.target.position.to_move);
  common::add_value(j, r.target.position, r.root.value.winner, r.root.value.plies);
  Json& line = j["mainline"] = Json::array();
  Position p = r.target.position;
  for (const Move m : r.root.principal_variation) {
    p = play(p, m);
    const ProbeResult v = table.probe(p);
    if (!v.ok()) return probe_failed(table, p, v);  // a damaged block
    Json& ply = line.emplace_back(Json::object());
    ply["uci"] = move_name(g, m);
    ply["position"] = format_position(p);
    common::add_value(ply, p, v.winner, v.plies);
  }
  return {200, dump(j)};
}

ApiResponse Api::positions(std::string_view body) const {
  BatchAnswers batch;
  try {
    batch = answer_batch(body, [&](const BatchElements& elements, std::string& out) {
      TableCache tables{tables_};
      out.reserve(elements.size() * kAnswerBytes);
      for (std::size_t i = 0; i < elements.size(); ++i) {
        if (i) out += ',';
        add_batch_answer(tables, elements[i], out);
      }
    });
  } catch (const TableError& e) {  // a damaged block
    return {500, error_json(e.what())};
  }
  if (!batch.problem.empty()) return bad_request(batch.problem);
  return {200, std::move(batch.json)};
}

ApiResponse Api::tables() const {
  return {200, tables_json_};
}

ApiResponse Api::stats(std::string_view table_name) const {
  const LoadedTable* table = tables_.named(table_name);
  if (!table) {
    return bad_request("no table " + printable(table_name) + " (loaded: " + tables_.names() + ")");
  }
  StatsCache& cache = *stats_[static_cast<std::size_t>(table - tables_.tables().data())];
  std::call_once(cache.once,
                 [&] { cache.json = dump(stats::to_json(analysis::compute_stats(table->table))); });
  return {200, cache.json};
}

}  // namespace pawntb::serve
