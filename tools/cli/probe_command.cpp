#include <cstdio>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <variant>

#include "commands.hpp"
#include "common.hpp"
#include "line_reader.hpp"
#include "output.hpp"
#include "pawntb/notation.hpp"
#include "pawntb/probe.hpp"

namespace pawntb::cli {

namespace {

// Why a parsed position cannot be answered, or empty if it can.
std::string position_problem(const Table& table, const Position& p, const ProbeResult& r) {
  if (r.ok()) return {};
  const TableInfo& info = table.info();
  if (r.status == ProbeStatus::geometry_mismatch) {
    return "board is " + to_string(p.geometry) + ", the table " + info.path.string() + " is " +
           to_string(info.geometry);
  }
  if (r.status == ProbeStatus::too_many_pawns) {
    return "more than " + std::to_string(info.max_pawns) + " pawns a side, the table's limit";
  }
  return describe(r.status);
}

std::string human_answer(const Position& p, const RootResult& root) {
  const Geometry g = p.geometry;
  std::string out = format_position(p) + "\n" + draw_board(p);
  const ProbeResult& v = root.value;
  out += std::string(side_name(p.to_move)) + " to move: " + side_name(v.winner) + " wins";
  if (v.plies == 0) return out + ", game over\n\n";
  out += " in " + std::to_string(v.plies) + (v.plies == 1 ? " ply\n" : " plies\n");
  out += "best move: " + move_name(g, root.moves.front().move) + "\nline:";
  for (const Move m : root.principal_variation) out += " " + move_name(g, m);
  out += "\nmoves:";
  for (const MoveValue& m : root.moves) {
    out += " " + move_name(g, m.move) + " (" + side_name(m.winner) + " " + std::to_string(m.plies) +
           ")";
  }
  return out + "\n\n";
}

// Appends one JSON object per answer to `out`. Every string in it comes from
// format_position() or move_name() (letters, digits, '/', '.', ' '), so none
// needs escaping and the object is written directly; the tests parse it with
// nlohmann::json.
void append_json(std::string& out, const Position& p, const RootResult& root) {
  const Geometry g = p.geometry;
  auto field = [&](const char* name, std::string_view text) {
    out.append(",\"").append(name).append("\":\"").append(text).append("\"");
  };
  out.append("{\"position\":\"").append(format_position(p)).append("\"");
  field("to_move", side_name(p.to_move));
  field("winner", side_name(root.value.winner));
  out.append(",\"plies\":").append(std::to_string(root.value.plies));
  if (root.moves.empty()) {
    out.append(",\"best\":null");
  } else {
    field("best", move_name(g, root.moves.front().move));
  }
  out.append(",\"moves\":[");
  for (std::size_t i = 0; i < root.moves.size(); ++i) {
    const MoveValue& m = root.moves[i];
    out.append(i ? ",{\"uci\":\"" : "{\"uci\":\"").append(move_name(g, m.move)).append("\"");
    field("winner", side_name(m.winner));
    out.append(",\"plies\":").append(std::to_string(m.plies)).append("}");
  }
  out.append("],\"line\":[");
  for (std::size_t i = 0; i < root.principal_variation.size(); ++i) {
    out.append(i ? ",\"" : "\"").append(move_name(g, root.principal_variation[i])).append("\"");
  }
  out.append("]}\n");
}

std::string json_error(std::string_view input, const std::string& where, const std::string& what) {
  nlohmann::json j;
  j["input"] = std::string(input);
  j["error"] = what;
  j["where"] = where;
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

int run_probe(const Options& o) {
  const Table table = open_table(o.table);
  Output out;
  ErrorLog errors;
  auto answer = [&](std::string_view text, const std::string& where) {
    const auto parsed = parse_position(text);
    std::string problem;
    if (const auto* e = std::get_if<ParseError>(&parsed)) {
      problem = e->message;
    } else {
      const Position& p = std::get<Position>(parsed);
      const RootResult root = table.probe_root(p);
      check_table(table, root.value);
      problem = position_problem(table, p, root.value);
      if (problem.empty()) {
        if (o.json) {
          out.append_with(append_json, p, root);
        } else {
          out.write(human_answer(p, root));
        }
        return;
      }
    }
    errors.report(where, problem);
    if (o.json) out.write(json_error(text, where, problem));
  };
  for (std::size_t i = 0; i < o.positions.size(); ++i) {
    if (o.positions[i] != "-") {
      answer(o.positions[i], "argument " + std::to_string(i + 1));
      continue;
    }
    LineReader in(stdin, [&] { out.flush(); });
    LineReader::Line line;
    while (in.next(line)) {
      const std::string where = stdin_line(line.number);
      if (line.too_long) {
        const std::string problem =
            "line longer than " + std::to_string(LineReader::kMaxLine) + " bytes";
        errors.report(where, problem);
        if (o.json) out.write(json_error("", where, problem));
        continue;
      }
      // Spaces and tabs around a position are allowed; blank lines are skipped.
      std::string_view text = line.text;
      while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
      while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
      if (text.empty()) continue;
      answer(text, where);
    }
    if (in.read_error()) throw std::runtime_error("stdin: read error");
  }
  out.flush();
  return errors.count() ? kUsageError : kOk;
}

void probe_options(boost::program_options::options_description& desc, Options& o) {
  desc.add_options()("json", boost::program_options::bool_switch(&o.json),
                     "one JSON object per line");
}

std::string validate_probe(const boost::program_options::variables_map&,
                           const std::vector<std::string>& operands, Options& o) {
  if (operands.empty()) return "expected positions, or - to read them from stdin";
  o.positions = operands;
  return {};
}

}  // namespace

extern const Command kProbe{
    "probe",
    "answer positions given as arguments, or one per line with -",
    "pawntb probe [--table FILE] [--json] POSITION... | -",
    "Answers positions such as '.ppp/4/.PPP/4 w' (rows from the top, '/' between\n"
    "rows, digits for empty squares, then w or b). With - reads one per line from stdin.",
    DefaultTable::four_by_four,
    probe_options,
    validate_probe,
    run_probe};

}  // namespace pawntb::cli
