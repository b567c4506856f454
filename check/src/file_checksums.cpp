// A table file's checksum, and the checksums.txt that lists it: whole-file
// reads, which probing never needs.
#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "pawntb/check.hpp"
#include "pawntb/format/layout.hpp"
#include "pawntb/util/memory.hpp"

namespace pawntb::check {

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

fs::path checksum_listing(const fs::path& table, std::uint64_t checksum) {
  std::vector<fs::path> lists{table.parent_path() / "checksums.txt"};
  for (const fs::path& place : Table::search_path()) lists.push_back(place / "checksums.txt");
  char digits[17];  // 16 hex digits, as checksums are written
  std::snprintf(digits, sizeof digits, "%016" PRIx64, checksum);
  const std::string wanted = std::string(digits) + "  " + table.filename().string();
  for (const fs::path& list : lists) {
    std::ifstream in(list);
    for (std::string line; std::getline(in, line);) {
      if (line == wanted) return list;
    }
  }
  return {};
}

std::uint64_t default_memory_bytes() {
  return util::default_memory_limit();
}

}  // namespace pawntb::check
