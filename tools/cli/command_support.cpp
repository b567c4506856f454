#include "command_support.hpp"

#include <signal.h>
#include <sys/resource.h>

#include <boost/program_options.hpp>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "pawntb/util/atomic_file.hpp"

namespace pawntb::cli {

namespace po = boost::program_options;

namespace {

// The library's no_table_for() message with the CLI's advice.
TableError no_table(const TableError& e, Geometry g) {
  return TableError(std::string(e.what()) + "; make one with `pawntb generate --rows " +
                    std::to_string(g.rows) + " --cols " + std::to_string(g.cols) + "`");
}

}  // namespace

Table open_table(const std::string& given, Geometry g, Table::Load load, unsigned threads,
                 std::uint64_t cache_bytes) {
  if (!given.empty()) return Table::open(given, load, threads, cache_bytes);
  if (const auto found = Table::find(g)) return Table::open(*found, load, threads, cache_bytes);
  try {
    return Table::open_for(g, load, threads, cache_bytes);  // throws no_table_for()'s words
  } catch (const TableError& e) {
    throw no_table(e, g);
  }
}

Table open_default_table(const std::string& given, Table::Load load, unsigned threads,
                         std::uint64_t cache_bytes) {
  if (!given.empty()) return Table::open(given, load, threads, cache_bytes);
  std::filesystem::path path;
  try {
    path = Table::default_path();  // throws only when there is no table at all
  } catch (const TableError& e) {
    throw no_table(e, Geometry{4, 4});
  }
  return Table::open(path, load, threads, cache_bytes);
}

std::string hex(std::uint64_t v) {
  char text[19];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(v));
  return text;
}

std::string count_of(std::uint64_t n, const char* singular, const char* plural) {
  return with_commas(n) + " " + (n == 1 ? singular : plural);
}

std::string table_search_help(DefaultTable table) {
  std::string text =
      table == DefaultTable::by_board_size
          ? "Without --table it uses, for each position, the table of its board size, the\n"
            "first found along the search path:\n"
          : "Without --table it uses $PAWNTB_TABLE when that names a file, else the 4x4\n"
            "table, the first found along the search path:\n";
  text +=
      "$PAWNTB_TABLE (a table file, or a directory to search), the current directory,\n"
      "./data, then the installed data directory. In a directory, the tables are the\n"
      "files RxC-kK.pawntb (4x4-k4.pawntb), most pawns K first. Here the search path is:\n";
  for (const std::filesystem::path& place : Table::search_path()) {
    text += "  " + place.string() + "\n";
  }
  if (table == DefaultTable::four_by_four) {
    try {
      text += "and the table is " + Table::default_path().string() + ".\n";
    } catch (const TableError&) {
      text += "and no 4x4 table is there.\n";
    }
  }
  return text;
}

std::string validate_table_operand(const po::variables_map& given,
                                   const std::vector<std::string>& operands, CommandArgs& args) {
  if (operands.size() > 1) return "expected at most one table file";
  if (operands.empty()) return {};
  if (given.count("table")) return "give the table once: as --table FILE or as FILE";
  args.table = operands.front();
  return {};
}

namespace {
constexpr unsigned kMaxThreads = 256;
}

void add_threads_option(po::options_description& desc, unsigned& threads) {
  desc.add_options()("threads,j", po::value(&threads)->default_value(0)->value_name("N"),
                     ("threads, 0.." + std::to_string(kMaxThreads) + " (0: all cores)").c_str());
}

std::string check_threads(unsigned threads) {
  if (threads > kMaxThreads) return "--threads must be 0.." + std::to_string(kMaxThreads);
  return {};
}

void add_report_option(po::options_description& desc, std::string& path, const std::string& what) {
  desc.add_options()("report", po::value(&path)->value_name("FILE"),
                     ("when done, write " + what +
                      ", the command line, the wall and CPU time and the peak RSS to FILE as "
                      "one JSON object")
                         .c_str());
}

std::string check_report(const po::variables_map& given, const std::string& path) {
  return given.count("report") && path.empty() ? "--report needs a file name" : "";
}

void write_report(const std::string& path, const CommandArgs& args,
                  const nlohmann::ordered_json& fields,
                  std::chrono::steady_clock::time_point start) {
  std::string command;
  for (const std::string& word : args.command_line) command += (command.empty() ? "" : " ") + word;
  nlohmann::ordered_json report = {{"command", command}};
  report.update(fields);
  report["wall_seconds"] =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  struct rusage usage {};
  ::getrusage(RUSAGE_SELF, &usage);
  const auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
  };
  report["cpu_seconds"] = seconds(usage.ru_utime) + seconds(usage.ru_stime);
  report["peak_rss_bytes"] = static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;  // KiB on Linux
  util::write_file_atomically(path, report.dump(2) + "\n");
}

void print_result(bool json, const std::function<nlohmann::ordered_json()>& as_json,
                  const std::function<void()>& as_text, int indent) {
  if (!json) {
    as_text();
    return;
  }
  const std::string text =
      as_json().dump(indent, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  std::printf("%s\n", text.c_str());
}

void add_memory_option(po::options_description& desc, MemoryArg& memory, const std::string& what,
                       const std::string& default_text) {
  desc.add_options()("memory", po::value(&memory.given)->value_name("SIZE"),
                     ("most memory for " + what + ", e.g. 8G or 512M (default: " + default_text +
                      ")")
                         .c_str());
}

std::string check_memory(const po::variables_map& given, MemoryArg& memory,
                         std::uint64_t minimum) {
  if (!given.count("memory")) return {};
  memory.bytes = parse_size(memory.given);
  if (memory.bytes == 0) return "--memory must be a size such as 8G, 512M or 2000000000";
  if (memory.bytes < minimum) {
    const std::string least = minimum % (1 << 20) == 0 ? std::to_string(minimum >> 20) + "M"
                                                         : std::to_string(minimum >> 10) + "K";
    return "--memory " + memory.given + " is below the minimum, " + least;
  }
  return {};
}

std::uint64_t parse_size(const std::string& text) {
  std::size_t end = 0;
  unsigned long long value = 0;
  if (text.empty() || text[0] < '0' || text[0] > '9') return 0;
  try {
    value = std::stoull(text, &end);
  } catch (const std::exception&) {
    return 0;
  }
  std::string unit = text.substr(end);
  if (unit.size() > 1 && (unit.substr(1) == "iB" || unit.substr(1) == "B"))
    unit = unit.substr(0, 1);
  int shift = 0;
  if (unit == "K" || unit == "k") {
    shift = 10;
  } else if (unit == "M" || unit == "m") {
    shift = 20;
  } else if (unit == "G" || unit == "g") {
    shift = 30;
  } else if (unit == "T" || unit == "t") {
    shift = 40;
  } else if (!unit.empty()) {
    return 0;
  }
  if (value > (~0ULL >> shift)) return 0;
  return static_cast<std::uint64_t>(value) << shift;
}

namespace {
extern "C" void on_continue(int) {
  util::note_continued();
}
}  // namespace

util::ProgressLine progress_line(const char* command) {
  struct sigaction action {};
  action.sa_handler = on_continue;
  action.sa_flags = SA_RESTART;  // reads in flight go on
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGCONT, &action, nullptr);
  return util::ProgressLine(command);
}

}  // namespace pawntb::cli
