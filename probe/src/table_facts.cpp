// A table file's checksum, the checksums.txt that lists it, and the facts
// `pawntb info` shows.
#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "pawntb/format/layout.hpp"
#include "pawntb/probe.hpp"

namespace pawntb {

namespace fs = std::filesystem;

std::uint64_t file_checksum(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw TableError(path.string() + ": cannot open the file");
  format::Checksum64Stream sum;
  // 1 MiB at a time: a table may be far larger than memory.
  std::vector<char> piece(std::size_t{1} << 20);
  while (in) {
    in.read(piece.data(), static_cast<std::streamsize>(piece.size()));
    const auto got = static_cast<std::size_t>(in.gcount());
    sum.update({reinterpret_cast<const std::uint8_t*>(piece.data()), got});
  }
  if (!in.eof()) throw TableError(path.string() + ": read error");
  return sum.value();
}

namespace {

// 16 hex digits, as checksums are written.
std::string hex(std::uint64_t v) {
  char digits[17];
  std::snprintf(digits, sizeof digits, "%016" PRIx64, v);
  return digits;
}

}  // namespace

fs::path checksum_listing(const fs::path& table, std::uint64_t checksum) {
  std::vector<fs::path> lists{table.parent_path() / "checksums.txt"};
  for (const fs::path& place : Table::search_path()) lists.push_back(place / "checksums.txt");
  const std::string wanted = hex(checksum) + "  " + table.filename().string();
  for (const fs::path& list : lists) {
    std::ifstream in(list);
    for (std::string line; std::getline(in, line);) {
      if (line == wanted) return list;
    }
  }
  return {};
}

std::vector<InfoField> info_fields(const TableInfo& i, std::uint64_t file_checksum,
                                   const fs::path& listed_in) {
  using Value = decltype(InfoField::value);
  const auto number = [](std::uint64_t n) { return Value(n); };
  return {
      {"file", i.path.string()},
      {"format_version", number(static_cast<std::uint64_t>(i.format_version))},
      {"geometry", InfoObject{{"rows", static_cast<std::uint64_t>(i.geometry.rows)},
                              {"cols", static_cast<std::uint64_t>(i.geometry.cols)},
                              {"max_pawns", static_cast<std::uint64_t>(i.max_pawns)}}},
      {"entries", number(i.entries)},
      {"placements", number(i.placements)},
      {"white_wins", number(i.white_wins)},
      {"longest_game_plies", number(static_cast<std::uint64_t>(i.longest_game_plies))},
      {"longest_game_example", i.longest_game_example},
      {"file_size", number(i.file_size)},
      {"blocks", number(i.blocks)},
      {"block_entries", number(i.block_entries)},
      {"header_checksum", hex(i.header_checksum)},
      {"index_checksum", hex(i.index_checksum)},
      {"rules_fingerprint", hex(i.rules_fingerprint)},
      {"file_checksum", hex(file_checksum)},
      {"file_checksum_listed_in", listed_in.empty() ? Value(nullptr) : Value(listed_in.string())},
  };
}

}  // namespace pawntb
