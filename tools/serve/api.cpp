#include "serve/api.hpp"

#include <variant>

#include "pawntb/notation.hpp"
#include "serve/answers.hpp"
#include "stats/table_stats.hpp"

namespace pawntb::serve {

namespace {

std::string dump(const Json& j) {
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

ApiResponse bad_request(std::string_view message) {
  return {400, error_json(message)};
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
  if (!table) return "no table for " + to_string(p.geometry) + " (loaded: " + tables.names() + ")";
  return Target{p, table};
}

// The probe of a position, or why it cannot be answered.
struct Probed {
  Target target;
  RootResult root;
};
std::variant<Probed, std::string> probe_root(const TableSet& tables, std::string_view text) {
  auto found = target(tables, text);
  if (auto* problem = std::get_if<std::string>(&found)) return std::move(*problem);
  const Target& t = std::get<Target>(found);
  RootResult root = t.table->table.probe_root(t.position);
  std::string problem = position_problem(t.table->table, t.position, root.value);
  if (!problem.empty()) return problem;
  return Probed{t, std::move(root)};
}

Json tables_json(const TableSet& set) {
  Json list = Json::array();
  for (const LoadedTable& t : set.tables()) {
    const TableInfo& info = t.table.info();
    Json& j = list.emplace_back(Json::object());
    j["name"] = t.name;
    j["path"] = info.path.string();
    j["geometry"] = {
        {"rows", info.geometry.rows}, {"cols", info.geometry.cols}, {"max_pawns", info.max_pawns}};
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(t.checksum));
    j["checksum"] = hex;
    j["entries"] = info.entries;
    j["white_wins"] = info.white_wins;
    j["max_plies"] = info.max_plies;
    j["start"] = format_position(t.table.start_position());
  }
  Json j = Json::object();
  j["tables"] = std::move(list);
  return j;
}

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
  if (auto* problem = std::get_if<std::string>(&probed)) return bad_request(*problem);
  const Probed& r = std::get<Probed>(probed);
  Json j = Json::object();
  j.get_ref<Json::object_t&>().reserve(10);
  add_answer(j, r.target.position, r.target.table->table.info().max_pawns, r.root);
  return {200, dump(j)};
}

ApiResponse Api::mainline(std::string_view text) const {
  auto probed = probe_root(tables_, text);
  if (auto* problem = std::get_if<std::string>(&probed)) return bad_request(*problem);
  const Probed& r = std::get<Probed>(probed);
  const Table& table = r.target.table->table;
  const Geometry g = r.target.position.geometry;
  Json j = Json::object();
  j["position"] = format_position(r.target.position);
  j["winner"] = side_name(r.root.value.winner);
  j["plies"] = r.root.value.plies;
  Json& line = j["mainline"] = Json::array();
  Position p = r.target.position;
  for (const Move m : r.root.principal_variation) {
    p = play(p, m);
    const ProbeResult v = table.probe(p);
    Json& ply = line.emplace_back(Json::object());
    ply["uci"] = move_name(g, m);
    ply["position"] = format_position(p);
    ply["winner"] = side_name(v.winner);
    ply["plies"] = v.plies;
    ply["category"] = category(p.to_move, v.winner);
  }
  return {200, dump(j)};
}

ApiResponse Api::positions(std::string_view body) const {
  Json request;
  try {
    request = Json::parse(body);
  } catch (const Json::parse_error& e) {
    return bad_request("body is not JSON: " + std::string(e.what()));
  }
  if (!request.is_array()) return bad_request("body is not a JSON array of position strings");
  if (request.size() > kMaxBatch) {
    return bad_request("array of " + std::to_string(request.size()) +
                       " positions, over the limit of " + std::to_string(kMaxBatch));
  }
  for (std::size_t i = 0; i < request.size(); ++i) {
    if (!request[i].is_string()) {
      return bad_request("element " + std::to_string(i) + " of the array is a JSON " +
                         request[i].type_name() + ", not a position string");
    }
  }
  Json answers = Json::array();
  for (const Json& element : request) {
    Json& a = answers.emplace_back(Json::object());
    auto found = target(tables_, element.get_ref<const std::string&>());
    if (auto* problem = std::get_if<std::string>(&found)) {
      a["error"] = std::move(*problem);
      continue;
    }
    const Target& t = std::get<Target>(found);
    const ProbeResult v = t.table->table.probe(t.position);
    if (std::string problem = position_problem(t.table->table, t.position, v); !problem.empty()) {
      a["error"] = std::move(problem);
      continue;
    }
    a["position"] = format_position(t.position);
    a["winner"] = side_name(v.winner);
    a["plies"] = v.plies;
    a["category"] = category(t.position.to_move, v.winner);
  }
  return {200, dump(answers)};
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
                 [&] { cache.json = dump(stats::to_json(stats::compute_stats(table->table))); });
  return {200, cache.json};
}

}  // namespace pawntb::serve
