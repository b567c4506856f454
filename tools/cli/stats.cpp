#include "stats.hpp"

#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "command_support.hpp"
#include "pawntb/analysis.hpp"
#include "pawntb/probe.hpp"
#include "pawntb/util/atomic_file.hpp"
#include "pawntb/util/threads.hpp"
#include "stats/stats_json.hpp"
#include "stats/stats_svg.hpp"

namespace pawntb::cli {

namespace po = boost::program_options;

namespace {

namespace fs = std::filesystem;

std::string percent(std::uint64_t part, std::uint64_t whole) {
  char text[16];
  std::snprintf(text, sizeof text, "%.1f%%",
                whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0);
  return text;
}

void print_text(const Table& table, const analysis::TableStats& s) {
  std::printf("table:             %s (%s, up to %s a side)\n", table.info().path.c_str(),
              to_string(s.geometry).c_str(), count_of(s.max_pawns, "pawn", "pawns").c_str());
  std::printf("positions:         %s, either side to move\n", with_commas(s.positions).c_str());
  std::printf("side to move wins: %s (%s)\n", with_commas(s.side_to_move_wins).c_str(),
              percent(s.side_to_move_wins, s.positions).c_str());
  std::printf("zugzwangs:         %s (the side to move loses, but would win if it could pass)\n",
              with_commas(s.zugzwangs).c_str());
  std::printf("\n%5s  %13s  %13s\n", "plies", "wins", "losses");
  for (std::size_t d = 0; d < s.distances.size(); ++d) {
    std::printf("%5zu  %13s  %13s\n", d, with_commas(s.distances[d].wins).c_str(),
                with_commas(s.distances[d].losses).c_str());
  }
  std::printf("\n%-8s  %13s  %6s  %-30s  %s\n", "material", "positions", "won", "longest win",
              "zugzwangs");
  for (const analysis::MaterialStats& m : s.materials) {
    const std::string material =
        std::to_string(m.white_pawns) + "P " + std::to_string(m.black_pawns) + "p";
    const std::string longest =
        m.longest_win < 0 ? "-" : std::to_string(m.longest_win) + " " + m.longest_win_example;
    std::printf("%-8s  %13s  %6s  %-30s  %s\n", material.c_str(), with_commas(m.positions).c_str(),
                percent(m.side_to_move_wins, m.positions).c_str(), longest.c_str(),
                with_commas(m.zugzwangs).c_str());
  }
  bool any = false;
  for (const analysis::MaterialStats& m : s.materials) {
    if (m.zugzwang_examples.empty()) continue;
    if (!any) std::printf("\nzugzwang examples:\n");
    any = true;
    std::printf("  %dP %dp:", m.white_pawns, m.black_pawns);
    for (const std::string& p : m.zugzwang_examples) std::printf("  %s", p.c_str());
    std::printf("\n");
  }
}

void write_plots(const fs::path& dir, const analysis::TableStats& s) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir)) {
    throw std::runtime_error("cannot make the directory " + dir.string() +
                             (ec ? ": " + ec.message() : ""));
  }
  util::write_file_atomically(dir / "distances.svg", stats::distance_histogram_svg(s));
  util::write_file_atomically(dir / "material.svg", stats::material_heatmap_svg(s));
}

int run_stats(const StatsArgs& o) {
  const unsigned threads = util::thread_count(o.threads);
  // The walk reads the blocks itself, in order: the table keeps none.
  const auto start = std::chrono::steady_clock::now();
  const Table table = open_default_table(o.table, Table::Load::on_demand, threads, 0);
  const TableInfo& info = table.info();
  analysis::StatsOptions options;
  options.threads = threads;
  options.memory_bytes = o.memory.bytes;  // 0: check::default_memory_bytes()
  analysis::StatsState from;
  analysis::StatsCheckpoint save;
  if (!o.resume.empty()) {
    try {
      if (auto saved = stats::read_state(o.resume, info)) {
        from = std::move(*saved);
        analysis::check_state(table, from, options);
      }
    } catch (const std::invalid_argument& e) {
      const std::string what = e.what();
      const bool named = what.rfind(o.resume + ": ", 0) == 0;
      std::fprintf(stderr, "pawntb stats: %s%s\n", named ? "" : (o.resume + ": ").c_str(),
                   e.what());
      return kUsageError;
    }
    if (from.header_checksum != 0) {
      std::fprintf(stderr, "pawntb stats: resuming from %s: %s of %s positions walked\n",
                   o.resume.c_str(), with_commas(2 * from.entries_done()).c_str(),
                   with_commas(2 * info.entries).c_str());
    }
    // After every window: a kill loses at most the window in flight.
    save = [&](const analysis::StatsState& s) {
      util::write_file_atomically(o.resume, stats::state_json(s, info).dump(1) + "\n");
    };
  }
  util::ProgressLine progress = progress_line("stats");
  options.on_progress = [&](const Progress& p) { progress.update(p.stage, p.fraction_done); };
  const analysis::TableStats s = analysis::compute_stats(table, options, from, save);
  if (!o.svg_dir.empty()) write_plots(o.svg_dir, s);
  print_result(
      o.json, [&] { return stats::to_json(s); }, [&] { print_text(table, s); }, 2);
  if (!o.report.empty()) {
    write_report(o.report, o, {{"table", table.info().path.string()}, {"positions", s.positions}},
                 start);
  }
  return kOk;
}

void stats_options(po::options_description& desc, StatsArgs& o) {
  desc.add_options()("json", po::bool_switch(&o.json), "print one JSON document (docs/stats.md)")(
      "svg", po::value(&o.svg_dir)->value_name("DIR"),
      "also write DIR/distances.svg and DIR/material.svg")(
      "resume", po::value(&o.resume)->value_name("FILE"),
      "keep the progress in FILE (JSON, rewritten after every part of the table) and carry "
      "on from it if it exists");
  add_report_option(desc, o.report, "the positions counted");
  add_memory_option(desc, o.memory, "the positions' bits and the decoded entries");
  add_threads_option(desc, o.threads);
}

std::string validate_stats(const po::variables_map& given, const std::vector<std::string>& operands,
                           StatsArgs& o) {
  if (given.count("svg") && o.svg_dir.empty()) return "--svg needs a directory";
  if (given.count("resume") && o.resume.empty()) return "--resume needs a file name";
  if (std::string problem = check_threads(o.threads); !problem.empty()) return problem;
  if (std::string problem = check_memory(given, o.memory); !problem.empty()) return problem;
  if (std::string problem = check_report(given, o.report); !problem.empty()) return problem;
  return validate_table_operand(given, operands, o);
}

}  // namespace

extern const Command kStats = command_entry<StatsArgs, stats_options, validate_stats, run_stats>(
    "stats", "a table's positions by distance and material, and its zugzwangs",
    "pawntb stats [--table FILE | FILE] [--json] [--svg DIR] [--memory SIZE] [--threads N]\n"
    "             [--resume FILE] [--report FILE]",
    "Walks every entry of the table and shows, for the side to move:\n"
    "  - the positions at each distance to the end, in plies, split into wins and\n"
    "    losses (wins take an odd number of plies, losses an even one);\n"
    "  - per material (white pawns P, black pawns p): the positions, the share won,\n"
    "    and the longest win with an example;\n"
    "  - zugzwangs: positions the side to move loses, but would win if it could\n"
    "    pass (the same pawns with the other side to move lose for that side).\n"
    "    They come in pairs: the same pawns with either side to move.\n"
    "Positions counted: every placement of at most K pawns a side with no white pawn\n"
    "on the top row and no black pawn on the bottom row, with either side to move,\n"
    "where the side to move has a pawn: the table's entries and their colour flips.\n"
    "A side to move with no legal move counts as a loss in 0 plies. Positions over\n"
    "by rule (a pawn on its goal row, no pawns to move) are not counted.\n"
    "Examples are the first positions in table index order.\n"
    "--svg DIR writes a histogram of the distances and a heat map of the win share\n"
    "by material. The table is read block by block, in order, keeping a bit for\n"
    "each position of the part at hand: the less --memory, the more parts, with the\n"
    "same results (by default three quarters of the memory available, as verify).\n"
    "With --resume FILE, a walk that is stopped loses at most the part in hand: run\n"
    "the same command again to carry on (with any --memory and --threads). FILE\n"
    "belongs to its table: another table's is refused. Progress is shown on a\n"
    "terminal.\n"
    "--report FILE writes the run's figures (time, peak RSS) as JSON when it ends.",
    DefaultTable::four_by_four);

}  // namespace pawntb::cli
