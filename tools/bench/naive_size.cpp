// The compactness baseline: one byte per position for both sides to move
// (every placement of 0..K pawns a side, in base-3 order of the squares, then
// white and black to move), compressed with zstd at level 19, against the
// table file. Values come from the table: plies, or 0xFF where the rules
// give none (invalid). Usage: naive_size TABLE
#include <zstd.h>

#include <bit>
#include <cstdio>
#include <vector>

#include "pawntb/probe.hpp"

int main(int argc, char** argv) {
  using namespace pawntb;
  if (argc != 2) {
    std::fprintf(stderr, "usage: naive_size TABLE\n");
    return 2;
  }
  try {
    const Table table = Table::open(argv[1]);
    const TableInfo& info = table.info();
    const Geometry g = info.geometry;
    const int n = g.squares();
    std::vector<std::uint8_t> raw;
    std::uint64_t white = 0, black = 0;  // base-3 counter over the squares
    for (;;) {
      if (std::popcount(white) <= info.max_pawns && std::popcount(black) <= info.max_pawns) {
        for (const Side side : {Side::white, Side::black}) {
          const ProbeResult r = table.probe(Position{g, white, black, side});
          raw.push_back(r.ok() ? r.plies : 0xFF);
        }
      }
      int s = 0;  // increment: empty -> white -> black -> empty and carry
      for (; s < n; ++s) {
        const std::uint64_t bit = 1ULL << s;
        if (!(white & bit) && !(black & bit)) {
          white |= bit;
          break;
        }
        if (white & bit) {
          white &= ~bit;
          black |= bit;
          break;
        }
        black &= ~bit;
      }
      if (s == n) break;
    }
    std::vector<std::uint8_t> frame(ZSTD_compressBound(raw.size()));
    const std::size_t size = ZSTD_compress(frame.data(), frame.size(), raw.data(), raw.size(), 19);
    if (ZSTD_isError(size)) {
      std::fprintf(stderr, "naive_size: %s\n", ZSTD_getErrorName(size));
      return 1;
    }
    std::printf("%zu %zu %llu\n", raw.size(), size,
                static_cast<unsigned long long>(info.file_size));
  } catch (const TableError& e) {
    std::fprintf(stderr, "naive_size: %s\n", e.what());
    return 1;
  }
  return 0;
}
