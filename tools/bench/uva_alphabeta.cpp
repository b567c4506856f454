// UVa 10838 "The Pawn Chess" solved with the per-case alpha-beta baseline.
// Input: case count n, then n boards of 4 lines x 4 chars ('.', 'p', 'P'),
// top row first, white to move. Blank lines and CRLF are tolerated.
// Output: "white (N)" or "black (N)" per case.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "baselines.hpp"

int main() {
  std::vector<char> in;
  {
    char buf[1 << 16];
    std::size_t got;
    while ((got = std::fread(buf, 1, sizeof buf, stdin)) > 0) in.insert(in.end(), buf, buf + got);
  }
  std::size_t pos = 0;
  const std::size_t len = in.size();
  while (pos < len && (in[pos] < '0' || in[pos] > '9')) ++pos;
  long cases = 0;
  while (pos < len && in[pos] >= '0' && in[pos] <= '9') cases = cases * 10 + (in[pos++] - '0');

  std::string out;
  out.reserve(static_cast<std::size_t>(cases) * 12 + 16);
  char board[16];
  for (long c = 0; c < cases; ++c) {
    int n = 0;
    while (n < 16 && pos < len) {
      const char ch = in[pos++];
      if (ch == '.' || ch == 'p' || ch == 'P') board[n++] = ch;
    }
    if (n < 16) break;  // truncated input
    const pawntb_baseline::Answer a = pawntb_baseline::alphabeta_solve(board);
    out += a.white_wins ? "white (" : "black (";
    out += std::to_string(a.plies);
    out += ")\n";
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}
