#include "common.hpp"

#include <cstdio>

namespace pawntb::cli {

namespace po = boost::program_options;

namespace {

// The library's "no table for RxC (looked in: ...)" with the CLI's advice.
TableError no_table(const TableError& e, Geometry g) {
  return TableError(std::string(e.what()) + "; make one with `pawntb generate --rows " +
                    std::to_string(g.rows) + " --cols " + std::to_string(g.cols) + "`");
}

}  // namespace

Table open_table(const std::string& given, Geometry g, Table::Load load, unsigned threads) {
  if (!given.empty()) return Table::open(given, load, threads);
  if (const auto found = Table::find(g)) return Table::open(*found, load, threads);
  try {
    return Table::open_for(g, load, threads);  // throws "no table for RxC (looked in: ...)"
  } catch (const TableError& e) {
    throw no_table(e, g);
  }
}

Table open_default_table(const std::string& given, Table::Load load, unsigned threads) {
  if (!given.empty()) return Table::open(given, load, threads);
  std::filesystem::path path;
  try {
    path = Table::default_path();  // throws only when there is no table at all
  } catch (const TableError& e) {
    throw no_table(e, Geometry{4, 4});
  }
  return Table::open(path, load, threads);
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
                                   const std::vector<std::string>& operands, Options& o) {
  if (operands.size() > 1) return "expected at most one table file";
  if (operands.empty()) return {};
  if (given.count("table")) return "give the table once: as --table FILE or as FILE";
  o.table = operands.front();
  return {};
}

namespace {
constexpr unsigned kMaxThreads = 256;
}

void add_threads_option(po::options_description& desc, Options& o) {
  desc.add_options()("threads,j", po::value(&o.threads)->default_value(0)->value_name("N"),
                     ("threads, 0.." + std::to_string(kMaxThreads) + " (0: all cores)").c_str());
}

std::string check_threads(const Options& o) {
  if (o.threads > kMaxThreads) return "--threads must be 0.." + std::to_string(kMaxThreads);
  return {};
}

std::string duration_text(double seconds) {
  const auto s = static_cast<std::uint64_t>(seconds + 0.5);
  char text[32];
  if (s >= 3600) {
    std::snprintf(text, sizeof text, "%llu h %llu min", static_cast<unsigned long long>(s / 3600),
                  static_cast<unsigned long long>(s / 60 % 60));
  } else if (s >= 60) {
    std::snprintf(text, sizeof text, "%llu min %llu s", static_cast<unsigned long long>(s / 60),
                  static_cast<unsigned long long>(s % 60));
  } else {
    std::snprintf(text, sizeof text, "%llu s", static_cast<unsigned long long>(s));
  }
  return text;
}

}  // namespace pawntb::cli
