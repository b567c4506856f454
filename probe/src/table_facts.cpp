// The facts `pawntb info` shows.
#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

#include "pawntb/probe.hpp"

namespace pawntb {

namespace fs = std::filesystem;

namespace {

// 16 hex digits, as checksums are written.
std::string hex(std::uint64_t v) {
  char digits[17];
  std::snprintf(digits, sizeof digits, "%016" PRIx64, v);
  return digits;
}

}  // namespace

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
