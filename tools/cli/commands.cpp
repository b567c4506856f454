#include "commands.hpp"

#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <variant>

#include "line_reader.hpp"
#include "output.hpp"
#include "pawntb/detail/layout.hpp"
#include "pawntb/generator.hpp"
#include "pawntb/notation.hpp"
#include "pawntb/probe.hpp"
#include "uva.hpp"
#include "uva_answers.hpp"

namespace pawntb::cli {

namespace {

Table open_table(const std::string& path) {
  return path.empty() ? Table::open_default() : Table::open(path);
}

std::string with_commas(std::uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string hex(std::uint64_t v) {
  char text[19];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(v));
  return text;
}

// Shows progress on a terminal: "\rstage  42%  ~3 s left".
class ProgressLine {
 public:
  ProgressLine() : enabled_(::isatty(STDERR_FILENO) == 1) {}
  ~ProgressLine() {
    if (shown_) std::cerr << "\r" << std::string(48, ' ') << "\r" << std::flush;
  }
  void update(const char* stage, double done) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (stage != stage_) {
      stage_ = stage;
      stage_start_ = now;
    }
    if (now - last_ < std::chrono::milliseconds(200)) return;
    last_ = now;
    shown_ = true;
    const double elapsed = std::chrono::duration<double>(now - stage_start_).count();
    std::ostringstream line;
    line << "\r" << stage << " " << static_cast<int>(done * 100) << "%";
    if (done > 0.02 && elapsed > 0.5) {
      line << "  ~" << static_cast<int>(elapsed / done - elapsed + 0.5) << " s left";
    }
    std::cerr << line.str() << "        " << std::flush;
  }

 private:
  bool enabled_;
  bool shown_ = false;
  const char* stage_ = nullptr;
  std::chrono::steady_clock::time_point stage_start_{}, last_{};
};

std::filesystem::path default_output(const Options& o) {
  const std::string name = std::to_string(o.rows) + "x" + std::to_string(o.cols) + "-k" +
                           std::to_string(o.pawns) + ".pawntb";
  return Table::default_locations().back().parent_path() / name;
}

// SIGINT, SIGTERM or SIGHUP while `generate` runs: remove the temporary
// file if there is one, say so and stop. The table is renamed into place only
// once complete, so the output file is untouched and an existing table stays
// as it was. Only async-signal-safe calls in the handler.
char temp_file[4096];                       // the writer's temporary file, when
volatile std::sig_atomic_t have_temp_file;  // have_temp_file is 1

void note_temp_file(const char* path) {
  have_temp_file = 0;
  if (path && std::strlen(path) < sizeof temp_file) {
    std::strcpy(temp_file, path);
    have_temp_file = 1;
  }
}

extern "C" void on_generate_signal(int signal) {
  if (have_temp_file) ::unlink(temp_file);
  static const char message[] = "pawntb generate: interrupted; the output file was not changed\n";
  (void)!::write(STDERR_FILENO, message, sizeof message - 1);
  ::_exit(128 + signal);
}

constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP};

// Installs the handler, except for signals the caller ignores (nohup).
void stop_cleanly_on_signals() {
  struct sigaction action {};
  action.sa_handler = on_generate_signal;
  sigemptyset(&action.sa_mask);
  for (const int signal : kStopSignals) {
    struct sigaction previous {};
    ::sigaction(signal, nullptr, &previous);
    if (previous.sa_handler != SIG_IGN) ::sigaction(signal, &action, nullptr);
  }
}

// Once the table is in place the message above would be wrong: back to the
// default actions (signals still ignored stay ignored).
void restore_signals() {
  for (const int signal : kStopSignals) {
    struct sigaction previous {};
    ::sigaction(signal, nullptr, &previous);
    if (previous.sa_handler == on_generate_signal) std::signal(signal, SIG_DFL);
  }
}

int generate(const Options& o) {
  stop_cleanly_on_signals();
  const std::filesystem::path output =
      o.output.empty() ? default_output(o) : std::filesystem::path(o.output);
  const Geometry g{o.rows, o.cols};
  memory_needed(g, o.pawns);  // refuses bad parameters before any work
  const auto start = std::chrono::steady_clock::now();
  ProgressLine progress;
  GenerateOptions options;
  options.geometry = g;
  options.max_pawns = o.pawns;
  options.threads = o.threads;
  options.on_progress = [&](const Progress& p) { progress.update(p.stage, p.fraction_done); };
  const SolvedTable table = solve(options);
  progress.update("compress", 0);
  const WriteSummary written =
      write_table(table, output, o.threads, note_temp_file, options.on_progress);
  restore_signals();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const Table check = Table::open(output);  // reads back what was written
  const TableInfo& info = check.info();
  std::printf("generated %s, K = %d: %s positions (white to move, after reductions)\n",
              to_string(g).c_str(), o.pawns, with_commas(info.entries).c_str());
  std::printf("placements: %s of up to %d pawns a side, either side to move\n",
              with_commas(info.placements).c_str(), o.pawns);
  std::printf("longest win: %d plies, e.g. %s\n", info.max_plies, info.longest_example.c_str());
  std::printf("time: %.3f s\nfile: %s, %s bytes in %u blocks\n", seconds, output.c_str(),
              with_commas(written.file_size).c_str(), written.block_count);
  return kOk;
}

std::uint64_t file_checksum(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  const std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in), {}};
  if (!in && !in.eof()) throw TableError(path.string() + ": read error");
  return detail::checksum64(bytes);
}

int info(const Options& o) {
  const Table table = open_table(o.table);
  const TableInfo& i = table.info();
  std::printf("file:              %s\n", i.path.c_str());
  std::printf("format version:    %d\n", i.format_version);
  std::printf("geometry:          %s, up to %d pawns a side\n", to_string(i.geometry).c_str(),
              i.max_pawns);
  std::printf("entries:           %s (white to move, not terminal by rule)\n",
              with_commas(i.entries).c_str());
  std::printf("placements:        %s (0..%d pawns a side), either side to move\n",
              with_commas(i.placements).c_str(), i.max_pawns);
  std::printf("white wins:        %s of the entries\n", with_commas(i.white_wins).c_str());
  std::printf("longest game:      %d plies, e.g. %s\n", i.max_plies, i.longest_example.c_str());
  std::printf("file size:         %s bytes (%s raw entries)\n", with_commas(i.file_size).c_str(),
              with_commas(i.entries).c_str());
  std::printf("blocks:            %u of %s entries, zstd\n", i.blocks,
              with_commas(i.block_entries).c_str());
  std::printf("header checksum:   %s (XXH3-64)\n", hex(i.header_checksum).c_str());
  std::printf("index checksum:    %s (XXH3-64)\n", hex(i.index_checksum).c_str());
  std::printf("rules fingerprint: %s\n", hex(i.rules_fingerprint).c_str());
  std::printf("file checksum:     %s (XXH3-64 of the whole file, as in data/checksums.txt)\n",
              hex(file_checksum(i.path)).c_str());
  std::printf("checked at open:   %s\n", i.fully_loaded ? "every block" : "header and block index");
  return kOk;
}

int verify_command(const Options& o) {
  const Table table = open_table(o.table);
  std::fprintf(stderr, "%s: header, block index and %s checksums ok\n", table.info().path.c_str(),
               table.info().fully_loaded ? "all block" : "lazy block");
  ProgressLine progress;
  const VerifyReport report = verify(
      table, [](double done, void* p) { static_cast<ProgressLine*>(p)->update("verify", done); },
      &progress);
  if (!report.ok()) {
    std::fprintf(stderr, "%s: %s of %s values wrong; first: %s\n", table.info().path.c_str(),
                 with_commas(report.mismatches).c_str(), with_commas(report.checked).c_str(),
                 report.first_mismatch.c_str());
    return kRuntimeFailure;
  }
  std::printf("%s: ok, %s positions agree with their successors\n", table.info().path.c_str(),
              with_commas(report.checked).c_str());
  return kOk;
}

int uva(const Options& o) {
  const Table table = open_table(o.table);
  UvaAnswers answers(table);
  LineReader in(stdin, [&] { answers.finish(); });
  read_uva(in, table.info().geometry, answers);
  answers.finish();
  return answers.error_count() ? kUsageError : kOk;
}

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

std::string human_answer(const Table& table, const Position& p, const RootResult& root) {
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
  (void)table;
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

int probe_command(const Options& o) {
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
          out.write(human_answer(table, p, root));
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

}  // namespace

int run(const Options& o) {
  int status = kOk;
  if (o.command == "generate") {
    status = generate(o);
  } else if (o.command == "info") {
    status = info(o);
  } else if (o.command == "verify") {
    status = verify_command(o);
  } else if (o.command == "uva") {
    status = uva(o);
  } else {
    status = probe_command(o);
  }
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    throw std::runtime_error(std::string("stdout: write error: ") + std::strerror(errno));
  }
  return status;
}

}  // namespace pawntb::cli
