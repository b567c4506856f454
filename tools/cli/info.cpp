#include <cstdio>
#include <fstream>
#include <iterator>
#include <vector>

#include "commands.hpp"
#include "common.hpp"
#include "pawntb/detail/layout.hpp"
#include "pawntb/probe.hpp"

namespace pawntb::cli {

namespace po = boost::program_options;

namespace {

std::uint64_t file_checksum(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  const std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in), {}};
  if (!in && !in.eof()) throw TableError(path.string() + ": read error");
  return detail::checksum64(bytes);
}

int run_info(const Options& o) {
  const Table table = open_table(o.table);
  const TableInfo& i = table.info();
  std::printf("file:              %s\n", i.path.c_str());
  std::printf("format version:    %d\n", i.format_version);
  std::printf("geometry:          %s, up to %s a side\n", to_string(i.geometry).c_str(),
              count_of(i.max_pawns, "pawn", "pawns").c_str());
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

}  // namespace

extern const Command kInfo{"info",
                           "show a table's header, counts, sizes and checksums",
                           "pawntb info [--table FILE | FILE]",
                           "Shows the header, geometry, counts, sizes and checksums.",
                           DefaultTable::four_by_four,
                           nullptr,
                           validate_table_operand,
                           run_info};

}  // namespace pawntb::cli
