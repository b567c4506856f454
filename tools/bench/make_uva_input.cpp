// Writes UVa 10838 input holding every UVa-valid 4x4 position: 1-4 pawns a
// side, white to move, not over, white has a legal move (275,836 cases).
// With --positions, writes the same positions in pawntb notation, one a line.
#include <bit>
#include <cstdio>
#include <string>
#include <vector>

#include "pawntb/format/index.hpp"
#include "pawntb/notation.hpp"

int main(int argc, char** argv) {
  const bool notation = argc > 1 && std::string(argv[1]) == "--positions";
  using namespace pawntb;
  const Geometry g{4, 4};
  const format::Index index(g, 4);  // white to move, not terminal by rule
  std::vector<std::string> boards;
  for (std::uint64_t i = 0; i < index.size(); ++i) {
    const auto [white, black] = index.unrank(i);
    const Position p{g, white, black, Side::white};
    if (std::popcount(black) == 0 || classify(p) != Status::playable) continue;
    if (notation) {
      boards.push_back(format_position(p));
      continue;
    }
    std::string board;
    for (int s = 0; s < g.squares(); ++s) {
      board += (white >> s & 1) ? 'P' : (black >> s & 1) ? 'p' : '.';
      if (s % g.cols == g.cols - 1) board += '\n';
    }
    boards.push_back(board);
  }
  if (notation) {
    for (const auto& b : boards) std::printf("%s\n", b.c_str());
    return 0;
  }
  std::printf("%zu\n", boards.size());
  for (const auto& b : boards) std::printf("\n%s", b.c_str());
  return 0;
}
