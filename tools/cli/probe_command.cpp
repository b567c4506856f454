#include "probe_command.hpp"

#include <boost/program_options.hpp>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <utility>
#include <variant>

#include "command_support.hpp"
#include "common/answers.hpp"
#include "line_reader.hpp"
#include "output.hpp"
#include "pawntb/notation.hpp"
#include "pawntb/probe.hpp"

namespace pawntb::cli {

namespace {

// Where a position came from: line `number` of stdin, operand `number` of
// the command line (both counted from 1), or --start.
struct Place {
  enum class Kind : std::uint8_t { stdin_line, argument, start };
  Kind kind;
  std::uint64_t number = 0;
  // As messages name it: "pawntb probe: stdin:3" (a file and line, as
  // compilers do), "pawntb probe: argument 2", "pawntb probe: --start".
  std::string name() const {
    switch (kind) {
      case Kind::stdin_line:
        return "pawntb probe: " + stdin_line(number);
      case Kind::argument:
        return "pawntb probe: argument " + std::to_string(number);
      case Kind::start:
        break;
    }
    return "pawntb probe: --start";
  }
  // The first key of a JSON object: "input_line": N, "argument": N or
  // "start": true.
  void add_to(nlohmann::ordered_json& j) const {
    switch (kind) {
      case Kind::stdin_line:
        j["input_line"] = number;
        return;
      case Kind::argument:
        j["argument"] = number;
        return;
      case Kind::start:
        break;
    }
    j["start"] = true;
  }
};

std::string human_answer(const Position& p, const RootResult& root) {
  const Geometry g = p.geometry;
  std::string out = format_position(p) + "\n" + draw_board(p);
  const ProbeResult& v = root.value;
  out += std::string(side_name(p.to_move)) + " to move: " + common::value_text(v.winner, v.plies) +
         "\n";
  if (v.plies == 0) return out + "\n";
  out += "best move: " + move_name(g, root.moves.front().move) + "\nline:";
  for (const Move m : root.principal_variation) out += " " + move_name(g, m);
  out += "\nmoves:";
  for (const MoveValue& m : root.moves) {
    out += " " + move_name(g, m.move) + " (" + side_name(m.winner) + " " + std::to_string(m.plies) +
           ")";
  }
  return out + "\n\n";
}

// An answer as one line of JSON, its keys in this order (documented in
// --help): the place, then those of common::add_answer().
std::string json_answer(const Place& place, const Position& p, int max_pawns,
                        const RootResult& root) {
  common::Json j = common::Json::object();
  j.get_ref<common::Json::object_t&>().reserve(13);  // the keys: no regrowing
  place.add_to(j);
  common::add_answer(j, p, max_pawns, root);
  std::string text = j.dump();
  text += '\n';
  return text;
}

std::string json_error(const Place& place, std::string_view input, const std::string& what) {
  nlohmann::ordered_json j;
  place.add_to(j);
  j["input"] = std::string(input);
  j["error"] = what;
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

// The tables answers come from: the one --table names, else for each board
// size the one open_table() finds, opened when first needed.
class Tables {
 public:
  explicit Tables(std::string path) : path_(std::move(path)) {
    if (!path_.empty()) given_.emplace(Table::open(path_));
  }
  // The table for g, or null with `problem` set when there is none (which is
  // the position's problem, not a failure). Throws TableError when a table
  // is found but cannot be opened.
  const Table* find(Geometry g, std::string& problem) {
    if (given_) return &*given_;
    auto [it, added] = by_size_.try_emplace({g.rows, g.cols});
    Found& found = it->second;
    if (added) {
      try {
        found.table.emplace(open_table(path_, g));
      } catch (const TableError& e) {
        if (Table::find(g)) throw;
        found.problem = e.what();
        missing_ = true;
      }
    }
    problem = found.problem;
    return found.table ? &*found.table : nullptr;
  }
  // A position's board had no table: a runtime failure (exit 1), as a
  // missing table is for every command, once the other positions are answered.
  bool missing() const { return missing_; }
  // The table for --start: the one --table names, else the default table.
  const Table& for_start() {
    if (!given_) given_.emplace(open_default_table(path_));
    return *given_;
  }

 private:
  struct Found {
    std::optional<Table> table;
    std::string problem;  // why there is no table
  };
  std::string path_;
  std::optional<Table> given_;
  std::map<std::pair<int, int>, Found> by_size_;
  bool missing_ = false;
};

int run_probe(const ProbeArgs& o) {
  Tables tables(o.table);
  Output out;
  ErrorLog errors(ErrorLog::kAll);
  // A position that cannot be answered: on stderr, and in JSON on stdout too.
  auto report = [&](const Place& place, std::string_view input, const std::string& problem) {
    errors.report(place.name(), problem);
    if (o.json) out.write(json_error(place, input, problem));
  };
  // Answers `start` after --moves; `text` is what was given, for errors.
  auto answer_position = [&](const Table* table, Position start, std::string_view text,
                             const Place& place) {
    const auto after = play_moves(start, o.moves);
    if (const auto* e = std::get_if<ParseError>(&after)) {
      return report(place, text, "--moves: " + e->message);
    }
    const Position& p = std::get<Position>(after);
    std::string problem;
    if (!table) table = tables.find(p.geometry, problem);
    if (!table) return report(place, text, problem);
    const RootResult root = table->probe_root(p);
    check_table(*table, p, root.value);
    problem = probe_problem(*table, p, root.value);
    if (!problem.empty()) return report(place, text, problem);
    if (o.json) {
      out.write(json_answer(place, p, table->info().max_pawns, root));
    } else {
      out.write(human_answer(p, root));
    }
  };
  auto answer = [&](std::string_view text, const Place& place) {
    const auto parsed = parse_position(text);
    if (const auto* e = std::get_if<ParseError>(&parsed)) return report(place, text, e->message);
    answer_position(nullptr, std::get<Position>(parsed), text, place);
  };
  if (o.start) {
    const Table& table = tables.for_start();
    answer_position(&table, table.start_position(), "", Place{Place::Kind::start});
  }
  for (std::size_t i = 0; i < o.positions.size(); ++i) {
    // Spaces and tabs around a position are dropped, as on stdin.
    if (const std::string_view text = trim(o.positions[i]); text != "-") {
      answer(text, Place{Place::Kind::argument, i + 1});
      continue;
    }
    // Every line but a blank one gets one answer or one error, in order.
    LineReader in(stdin, [&] { out.flush(); });
    LineReader::Line line;
    while (in.next(line)) {
      const Place place{Place::Kind::stdin_line, line.number};
      if (line.too_long) {
        report(place, "", LineReader::too_long_message());
        continue;
      }
      // Spaces and tabs around a position are allowed.
      const std::string_view text = trim(line.text);
      if (!text.empty()) answer(text, place);
    }
    if (in.read_error()) throw std::runtime_error("stdin: read error");
  }
  out.flush();
  if (tables.missing()) return kRuntimeFailure;
  return errors.count() ? kUsageError : kOk;
}

void probe_options(boost::program_options::options_description& desc, ProbeArgs& o) {
  namespace po = boost::program_options;
  desc.add_options()("json", po::bool_switch(&o.json), "one JSON object per line")(
      "moves", po::value(&o.moves)->value_name("LIST"),
      "play these moves first (UCI, separated by commas or spaces, e.g. c2c3,b4c3)")(
      "start", po::bool_switch(&o.start), "the table's start position, instead of POSITION");
}

std::string validate_probe(const boost::program_options::variables_map&,
                           const std::vector<std::string>& operands, ProbeArgs& o) {
  if (o.start && !operands.empty()) return "--start takes no POSITION";
  if (!o.start && operands.empty()) {
    return "expected positions, or - to read them from stdin, or --start";
  }
  o.positions = operands;
  return {};
}

}  // namespace

extern const Command kProbe = command_entry<ProbeArgs, probe_options, validate_probe, run_probe>(
    "probe", "answer positions given as arguments, or one per line with -",
    "pawntb probe [--table FILE] [--json] [--moves LIST] POSITION... | - | --start",
    "Answers positions such as '.ppp/4/.PPP/4 w' (rows from the top, '/' between\n"
    "rows, digits for empty squares, then w or b). With - reads one per line from\n"
    "stdin, spaces around it allowed: each line gets one answer, or one error on\n"
    "stderr, in input order; blank lines get nothing. --start answers the table's\n"
    "start position. --moves plays the given moves from each position first and\n"
    "answers the position they lead to:\n"
    "  pawntb probe --start --moves a1a2,a4a3\n"
    "\n"
    "--json prints one object per line for each answer and each error, in order.\n"
    "Each starts with where its input came from: \"input_line\": N (line N of stdin),\n"
    "\"argument\": N (the Nth operand) or \"start\": true. An answer then has, in\n"
    "this order:\n"
    "  position   the position, normalised\n"
    "  geometry   {\"rows\", \"cols\", \"max_pawns\"}: the board and the table's K\n"
    "  to_move    \"white\" or \"black\"\n"
    "  winner     who wins with best play\n"
    "  plies      plies to the end with best play (0: the game is over)\n"
    "  dtm        plies signed for the side to move, as lichess's: > 0 it wins,\n"
    "             < 0 it loses, 0 the game is over\n"
    "  category   \"win\" or \"loss\" for the side to move\n"
    "  reason     only when the game is over: \"goal\" (the opponent reached its\n"
    "             goal row), \"no_pawns\" or \"no_moves\" (the side to move has none)\n"
    "  best       the best move (UCI, e.g. \"c2c3\"), or null when the game is over\n"
    "  moves      every legal move, best first: {\"uci\", \"winner\", \"plies\", \"dtm\",\n"
    "             \"category\" (for the side to move after it), \"position\" (after it)}\n"
    "  line       the moves of best play to the end\n"
    "An error object has \"input\" (the text given) and \"error\" instead.",
    DefaultTable::by_board_size);

}  // namespace pawntb::cli
