#include "common.hpp"

#include <cstdio>

namespace pawntb::cli {

namespace po = boost::program_options;

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

std::string count_of(std::uint64_t n, const char* singular, const char* plural) {
  return with_commas(n) + " " + (n == 1 ? singular : plural);
}

std::string table_search_help(const char* what) {
  return std::string("Without --table it uses ") + what +
         ", the first found in:\n"
         "  $PAWNTB_TABLE  a table file, or a directory to search\n"
         "  .              the current directory\n"
         "  ./data\n"
         "  the installed data directory (share/pawntb under the prefix pawntb runs from)\n"
         "In a directory, tables are the files named RxC-kK.pawntb (4x4-k4.pawntb);\n"
         "for a board size the one with the most pawns K is taken.\n";
}

std::string validate_table_operand(const po::variables_map& given,
                                   const std::vector<std::string>& operands, Options& o) {
  if (operands.size() > 1) return "expected at most one table file";
  if (operands.empty()) return {};
  if (given.count("table")) return "give the table once: as --table FILE or as FILE";
  o.table = operands.front();
  return {};
}

}  // namespace pawntb::cli
