// UVa 10838 "The Pawn Chess" -- classic contest-style solution.
// char grid, recursive negamax with alpha-beta over depth-encoded scores,
// move generation by scanning the grid. No bitboards, no memo.
// White 'P' moves up (toward row 0), black 'p' moves down (toward row 3).
#include <cstdio>
#include <cstring>

char b[4][5];
const int INF = 1000000;
const int WIN = 1000;  // win at ply d is worth WIN - d to the winner

// side: 0 = white to move, 1 = black to move. Returns score for side to move.
int search(int side, int depth, int alpha, int beta) {
  char me = side == 0 ? 'P' : 'p';
  char op = side == 0 ? 'p' : 'P';
  int dir = side == 0 ? -1 : 1;
  int pre = side == 0 ? 1 : 2;  // row from which the last row is one step away

  // immediate win: a pawn one step from the last row that can step or capture
  for (int c = 0; c < 4; c++) {
    if (b[pre][c] != me) continue;
    int r = pre + dir;
    if (b[r][c] == '.') return WIN - (depth + 1);
    if (c > 0 && b[r][c - 1] == op) return WIN - (depth + 1);
    if (c < 3 && b[r][c + 1] == op) return WIN - (depth + 1);
  }

  int best = -INF;
  bool moved = false;
  for (int r = 0; r < 4; r++) {
    for (int c = 0; c < 4; c++) {
      if (b[r][c] != me) continue;
      int nr = r + dir;
      if (nr < 0 || nr > 3) continue;
      for (int dc = -1; dc <= 1; dc++) {
        int nc = c + dc;
        if (nc < 0 || nc > 3) continue;
        if (dc == 0 ? b[nr][nc] != '.' : b[nr][nc] != op) continue;
        char saved = b[nr][nc];
        b[nr][nc] = me;
        b[r][c] = '.';
        moved = true;
        int v;
        if (nr == 0 || nr == 3)
          v = WIN - (depth + 1);
        else
          v = -search(1 - side, depth + 1, -beta, -alpha);
        b[r][c] = me;
        b[nr][nc] = saved;
        if (v > best) best = v;
        if (best > alpha) alpha = best;
        if (alpha >= beta) return best;
      }
    }
  }
  if (!moved) return -(WIN - depth);  // no legal move: side to move loses
  return best;
}

int main() {
  int n;
  if (scanf("%d", &n) != 1) return 0;
  for (int t = 0; t < n; t++) {
    int cnt = 0;
    int ch;
    while (cnt < 16 && (ch = getchar()) != EOF) {
      if (ch == '.' || ch == 'p' || ch == 'P') {
        b[cnt / 4][cnt % 4] = (char)ch;
        cnt++;
      }
    }
    if (cnt < 16) break;
    for (int r = 0; r < 4; r++) b[r][4] = 0;
    int s = search(0, 0, -INF, INF);
    if (s > 0)
      printf("white (%d)\n", WIN - s);
    else
      printf("black (%d)\n", WIN + s);
  }
  return 0;
}
