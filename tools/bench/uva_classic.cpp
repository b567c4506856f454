// UVa 10838 "The Pawn Chess" -- the classic contest-style solution: scanf and
// getchar input, printf output, and per case the char-grid alpha-beta of
// baselines.hpp (classic_solve).
#include <cstdio>

#include "baselines.hpp"

int main() {
  int n;
  if (std::scanf("%d", &n) != 1) return 0;
  for (int t = 0; t < n; t++) {
    char board[16];
    int cnt = 0;
    int ch;
    while (cnt < 16 && (ch = std::getchar()) != EOF) {
      if (ch == '.' || ch == 'p' || ch == 'P') board[cnt++] = static_cast<char>(ch);
    }
    if (cnt < 16) break;
    const pawntb_baseline::Answer a = pawntb_baseline::classic_solve(board);
    std::printf("%s (%d)\n", a.white_wins ? "white" : "black", a.plies);
  }
  return 0;
}
