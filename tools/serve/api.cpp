#include "serve/api.hpp"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cstring>
#include <variant>

#include "pawntb/notation.hpp"
#include "pawntb/util/threads.hpp"
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

std::string no_table(const TableSet& tables, Geometry g) {
  return "no table for " + to_string(g) + " (loaded: " + tables.names() + ")";
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

// Batches are answered in chunks of this many positions, each chunk by
// whichever thread takes it first.
constexpr std::size_t kChunk = 256;

// The body of POST /api/v1/positions, read as SAX events without building
// a document: the strings of a top-level array, or what is wrong with it.
// Problems other than bad JSON are noted and parsing goes on, so that bad
// JSON is reported first, as a parser building a document would.
// The strings are stored in buffers sized for the whole body, which never
// move, and published as they come: another thread may answer the first
// ones (element(), wait_for()) while the parser reads the rest.
struct BatchReader final : nlohmann::json_sax<Json> {
  // A JSON string's text is never shorter than the string it stands for.
  explicit BatchReader(std::size_t body_size)
      : text(std::make_unique_for_overwrite<char[]>(body_size)),
        ends(std::make_unique_for_overwrite<std::size_t[]>(kMaxBatch)) {}

  std::unique_ptr<char[]> text;         // the elements, one after another
  std::unique_ptr<std::size_t[]> ends;  // where each element of `text` ends
  std::size_t stored = 0;               // elements in `text`
  std::size_t elements = 0;             // of the top-level array, kept or not
  bool top_is_array = false;
  std::string element_problem;  // the first element that is not a string
  std::string json_error;       // why the body is not JSON
  int depth = 0;

  // `stored` as other threads may see it, with kDone once parsing has ended.
  static constexpr std::size_t kDone = std::size_t{1} << 63;
  std::atomic<std::size_t> published{0};

  // Ends publishing: waiting threads see every element there is, or none
  // when the body is refused (`keep` false).
  void finish(bool keep) {
    published.store((keep ? stored : 0) | kDone, std::memory_order_release);
    published.notify_all();
  }
  // Waits until `count` elements are published or parsing has ended, and
  // returns how many of the first `count` there are.
  std::size_t wait_for(std::size_t count) const {
    for (;;) {
      const std::size_t now = published.load(std::memory_order_acquire);
      if ((now & ~kDone) >= count || (now & kDone)) return std::min(now & ~kDone, count);
      published.wait(now, std::memory_order_acquire);
    }
  }
  // Element i, once published.
  std::string_view element(std::size_t i) const {
    const std::size_t begin = i ? ends[i - 1] : 0;
    return {text.get() + begin, ends[i] - begin};
  }
  // A value that is not a string: at depth 1 it is an element.
  bool other(const char* type) {
    if (depth == 1 && element_problem.empty()) {
      element_problem = "element " + std::to_string(elements) + " of the array is a JSON " + type +
                        ", not a position string";
    }
    if (depth == 1) ++elements;
    return true;
  }
  bool null() override { return other("null"); }
  bool boolean(bool) override { return other("boolean"); }
  bool number_integer(number_integer_t) override { return other("number"); }
  bool number_unsigned(number_unsigned_t) override { return other("number"); }
  bool number_float(number_float_t, const string_t&) override { return other("number"); }
  bool binary(binary_t&) override { return other("binary"); }
  bool string(string_t& s) override {
    if (depth != 1) return true;
    if (++elements <= kMaxBatch) {
      const std::size_t begin = stored ? ends[stored - 1] : 0;
      std::memcpy(text.get() + begin, s.data(), s.size());
      ends[stored++] = begin + s.size();
      published.store(stored, std::memory_order_release);
      if (stored % kChunk == 0) published.notify_all();
    }
    return true;
  }
  bool start_object(std::size_t) override {
    other("object");
    ++depth;
    return true;
  }
  bool key(string_t&) override { return true; }
  bool end_object() override {
    --depth;
    return true;
  }
  bool start_array(std::size_t) override {
    if (depth == 0) top_is_array = true;
    other("array");
    ++depth;
    return true;
  }
  bool end_array() override {
    --depth;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
    json_error = e.what();
    return false;
  }
};

// Bodies from this size on (about 2,000 positions) are answered on two
// threads, the answers starting while the JSON is still parsed.
constexpr std::size_t kParallelBody = 32 * 1024;

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
// "plies", "category"} or {"error"}. Written directly, not through a
// document: the position text (from format_position) and the names need
// no escaping; error messages go through the JSON library.
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
  if (!v.ok()) return error(position_problem(table->table, p, v));
  out += "{\"position\":\"";
  out += format_position(p);
  out += "\",\"winner\":\"";
  out += side_name(v.winner);
  out += "\",\"plies\":";
  char digits[4];
  const auto end = std::to_chars(digits, digits + sizeof digits, v.plies).ptr;
  out.append(digits, end);
  out += ",\"category\":\"";
  out += category(p.to_move, v.winner);
  out += "\"}";
}

// Reads `body` into `reader`: why it is not a JSON array of at most
// kMaxBatch position strings, or empty.
std::string read_batch(std::string_view body, BatchReader& reader) {
  if (!Json::sax_parse(body, &reader)) return "body is not JSON: " + reader.json_error;
  if (!reader.top_is_array) return "body is not a JSON array of position strings";
  if (reader.elements > kMaxBatch) {
    return "array of " + std::to_string(reader.elements) + " positions, over the limit of " +
           std::to_string(kMaxBatch);
  }
  return reader.element_problem;
}

// About what an answer takes ({"position":"1ppp/4/1PPP/4 w","winner":"white",
// "plies":7,"category":"win"} and a comma): longer ones make the string grow.
constexpr std::size_t kAnswerBytes = 80;

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
    if (!v.ok()) return bad_request(position_problem(table, p, v));  // a damaged block
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
  BatchReader reader(body.size());
  // Item 0 parses the body; item 1 + c answers chunk c, the elements [c *
  // kChunk, (c + 1) * kChunk), comma-separated, as soon as the parser has
  // published them. Items are taken in order, so the parse is under way
  // before any chunk waits for it: on two threads (util::parallel_for,
  // "serve batch") the answers start while the parser still reads the rest.
  std::vector<std::string> chunks((kMaxBatch + kChunk - 1) / kChunk);
  std::string problem;
  const unsigned threads = body.size() >= kParallelBody ? 2 : 1;
  util::parallel_for("serve batch", threads, 1 + chunks.size(), [&](std::uint64_t item, unsigned) {
    if (item == 0) {
      // However the parse ends, waiting chunks go on: with every element
      // there is, or none when the body is refused (or the parse throws).
      bool refused = true;
      const struct Finish {
        BatchReader& reader;
        const bool& refused;
        ~Finish() { reader.finish(!refused); }
      } finish{reader, refused};
      problem = read_batch(body, reader);
      refused = !problem.empty();
      return;
    }
    const std::size_t c = item - 1, from = c * kChunk;
    const std::size_t to = reader.wait_for(from + kChunk);
    if (from >= to) return;
    TableCache tables{tables_};
    std::string& out = chunks[c];
    out.reserve((to - from) * kAnswerBytes);
    for (std::size_t i = from; i < to; ++i) {
      if (i > from) out += ',';
      add_batch_answer(tables, reader.element(i), out);
    }
  });
  if (!problem.empty()) return bad_request(problem);
  std::size_t size = 2;
  for (const std::string& chunk : chunks) size += chunk.size() + 1;
  std::string out;
  out.reserve(size);
  out += '[';
  for (std::size_t c = 0; c * kChunk < reader.stored; ++c) {
    if (c) out += ',';
    out += chunks[c];
  }
  out += ']';
  return {200, std::move(out)};
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
