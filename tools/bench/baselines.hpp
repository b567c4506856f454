// Baseline solvers for pawn chess (UVa 10838 "The Pawn Chess" rules), used
// only for benchmarking the tablebase against conventional approaches.
//
// Rules: white pawns move up (towards the top row, row 0 in text order),
// black pawns move down. A move is one step straight forward onto an empty
// square, or one step diagonally forward onto an enemy pawn (captured).
// No double step, en passant or promotion. A side wins when one of its pawns
// reaches the far row; a side to move with no legal move loses. No draws.
//
// Value of a position = (side to move wins?, plies to the end) with the winner
// minimising and the loser maximising the plies. Note that the ply count alone
// determines the result: the side to move wins iff plies is odd.
//
// Header-only; namespace pawntb_baseline.
//   classic_solve(board)            -- the classic per-case alpha-beta, 4x4
//   alphabeta_solve(board)          -- per-case alpha-beta on bitboards, 4x4, no memo
//   memo_minimax_domain(r, c, k)    -- memoised forward minimax over a domain
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>

namespace pawntb_baseline {

struct Answer {
  bool white_wins;
  int plies;  // -1 if the position is invalid (white, to move, already has
              // a pawn on the top row)
};

// ---------------------------------------------------------------------------
// 0. The classic contest solution: char grid, recursive negamax with
//    alpha-beta over depth-encoded scores, moves found by scanning the grid.
//    No bitboards, no memo. uva_classic.cpp wraps it in scanf/printf.
// ---------------------------------------------------------------------------

namespace classic {

constexpr int kInf = 1000000;
constexpr int kWin = 1000;  // a win at ply d is worth kWin - d to the winner

struct Grid {
  char b[4][5];  // rows top first; 'P' moves up (towards row 0), 'p' down

  // side: 0 = white to move, 1 = black. Returns the score for the side to move.
  int search(int side, int depth, int alpha, int beta) {
    const char me = side == 0 ? 'P' : 'p';
    const char op = side == 0 ? 'p' : 'P';
    const int dir = side == 0 ? -1 : 1;
    const int pre = side == 0 ? 1 : 2;  // the row one step from the last row
    // Immediate win: a pawn one step from the last row that can step or capture.
    for (int c = 0; c < 4; c++) {
      if (b[pre][c] != me) continue;
      const int r = pre + dir;
      if (b[r][c] == '.') return kWin - (depth + 1);
      if (c > 0 && b[r][c - 1] == op) return kWin - (depth + 1);
      if (c < 3 && b[r][c + 1] == op) return kWin - (depth + 1);
    }
    int best = -kInf;
    bool moved = false;
    for (int r = 0; r < 4; r++) {
      for (int c = 0; c < 4; c++) {
        if (b[r][c] != me) continue;
        const int nr = r + dir;
        if (nr < 0 || nr > 3) continue;
        for (int dc = -1; dc <= 1; dc++) {
          const int nc = c + dc;
          if (nc < 0 || nc > 3) continue;
          if (dc == 0 ? b[nr][nc] != '.' : b[nr][nc] != op) continue;
          const char saved = b[nr][nc];
          b[nr][nc] = me;
          b[r][c] = '.';
          moved = true;
          int v;
          if (nr == 0 || nr == 3)
            v = kWin - (depth + 1);
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
    if (!moved) return -(kWin - depth);  // no legal move: the side to move loses
    return best;
  }
};

}  // namespace classic

// board: 16 chars, rows top first ('P', 'p', '.'), white to move, a
// UVa-valid position.
inline Answer classic_solve(const char board[16]) {
  classic::Grid g{};
  for (int i = 0; i < 16; ++i) g.b[i / 4][i % 4] = board[i];
  const int s = g.search(0, 0, -classic::kInf, classic::kInf);
  if (s > 0) return Answer{true, classic::kWin - s};
  return Answer{false, classic::kWin + s};
}

// ---------------------------------------------------------------------------
// 1. Alpha-beta, tuned: bitboards, the same search order and scores
// ---------------------------------------------------------------------------

namespace detail {

// 4x4 board, bit index r*4 + c, r = 0 is the top row (white's goal).
constexpr int AB_BIG = 1000;
constexpr int AB_INF = 1 << 20;
constexpr std::uint32_t AB_FULL = 0xFFFFu;
constexpr std::uint32_t AB_ROW0 = 0x000Fu;  // top row: white's goal
constexpr std::uint32_t AB_ROW3 = 0xF000u;  // bottom row: black's goal
constexpr std::uint32_t AB_COL0 = 0x1111u;
constexpr std::uint32_t AB_COL3 = 0x8888u;

inline int ab_ctz(std::uint32_t x) {
  return __builtin_ctz(x);
}

// Negamax with alpha-beta and mate-distance scoring relative to the root:
// a win at absolute ply d scores AB_BIG - d, a loss at ply d scores
// -(AB_BIG - d). `us` is the side to move (white if White).
// Precondition: the opponent has no pawn on its goal row (the root checks
// this; inside the search a promoting move is never played because a
// promotion available to the side to move is answered immediately).
template <bool White>
int ab_search(std::uint32_t us, std::uint32_t them, int ply, int alpha, int beta) {
  const std::uint32_t empty = ~(us | them) & AB_FULL;

  // Destination sets for the three move kinds.
  std::uint32_t push, capl, capr;  // capl: towards column-1, capr: column+1
  if constexpr (White) {
    push = (us >> 4) & empty;
    capl = ((us & ~AB_COL0) >> 5) & them;
    capr = ((us & ~AB_COL3) >> 3) & them;
  } else {
    push = (us << 4) & empty & AB_FULL;
    capl = ((us & ~AB_COL0) << 3) & them & AB_FULL;
    capr = ((us & ~AB_COL3) << 5) & them & AB_FULL;
  }
  constexpr std::uint32_t goal = White ? AB_ROW0 : AB_ROW3;

  // Immediate promotion: fastest possible win, nothing can beat it.
  if ((push | capl | capr) & goal) return AB_BIG - (ply + 1);
  // No legal move: lose now.
  if ((push | capl | capr) == 0) return -(AB_BIG - ply);

  // Mate-distance pruning. We cannot win before ply+1 (by leaving the
  // opponent without a move) and cannot lose before ply+2.
  {
    const int ub = AB_BIG - (ply + 1);
    const int lb = -(AB_BIG - (ply + 2));
    if (beta > ub) beta = ub;
    if (alpha < lb) alpha = lb;
    if (alpha >= beta) return alpha;
  }

  // Move ordering: captures first (most advanced destination first), then
  // pushes, most advanced first. For white "most advanced" = lowest index,
  // for black = highest index.
  std::uint8_t from[48], to[48];
  int n = 0;
  auto add = [&](std::uint32_t dests, int delta) {
    // delta: from = to + delta
    while (dests) {
      int t;
      if constexpr (White) {
        t = ab_ctz(dests);
      } else {
        t = 31 - __builtin_clz(dests);
      }
      dests &= ~(1u << t);
      from[n] = static_cast<std::uint8_t>(t + delta);
      to[n] = static_cast<std::uint8_t>(t);
      ++n;
    }
  };
  if constexpr (White) {
    add(capl, 5);
    add(capr, 3);
    add(push, 4);
  } else {
    add(capl, -3);
    add(capr, -5);
    add(push, -4);
  }

  int best = -AB_INF;
  for (int i = 0; i < n; ++i) {
    const std::uint32_t f = 1u << from[i], t = 1u << to[i];
    const std::uint32_t nus = us ^ f ^ t;
    const std::uint32_t nthem = them & ~t;
    const int v = -ab_search<!White>(nthem, nus, ply + 1, -beta, -alpha);
    if (v > best) {
      best = v;
      if (v > alpha) {
        alpha = v;
        if (alpha >= beta) break;
      }
    }
  }
  return best;
}

}  // namespace detail

// board: 16 chars, rows top first ('P' white, 'p' black, anything else empty).
// White is to move.
inline Answer alphabeta_solve(const char board[16]) {
  using namespace detail;
  std::uint32_t w = 0, b = 0;
  for (int i = 0; i < 16; ++i) {
    if (board[i] == 'P')
      w |= 1u << i;
    else if (board[i] == 'p')
      b |= 1u << i;
  }
  if (w & AB_ROW0) return Answer{true, -1};  // invalid
  if (b & AB_ROW3) return Answer{false, 0};  // black already won
  const int s = ab_search<true>(w, b, 0, -AB_INF, AB_INF);
  if (s > 0) return Answer{true, AB_BIG - s};
  return Answer{false, AB_BIG + s};
}

// ---------------------------------------------------------------------------
// 2. Memoised forward minimax over a whole domain
// ---------------------------------------------------------------------------

struct DomainStats {
  std::uint64_t positions;   // valid positions in the domain (both sides to move)
  std::uint64_t white_wins;  // of those, positions won by WHITE (white to move
                             // and winning, or black to move and losing)
  std::uint64_t checksum;    // sum of plies over those positions
};

namespace detail {

struct MemoKey {
  std::uint64_t w, b;
  bool operator==(const MemoKey& o) const { return w == o.w && b == o.b; }
};

struct MemoKeyHash {
  static std::uint64_t mix(std::uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
  }
  std::size_t operator()(const MemoKey& k) const {
    return static_cast<std::size_t>(mix(k.w ^ mix(k.b + 0x9e3779b97f4a7c15ULL)));
  }
};

// Generic rows x cols board (rows*cols <= 64), bit index r*cols + c, row 0 top.
class MemoSolver {
 public:
  MemoSolver(int rows, int cols) : rows_(rows), cols_(cols) {
    const int n = rows * cols;
    full_ = (n == 64) ? ~0ULL : ((1ULL << n) - 1);
    row0_ = (1ULL << cols) - 1;
    rowLast_ = row0_ << ((rows - 1) * cols);
    col0_ = 0;
    for (int r = 0; r < rows; ++r) col0_ |= 1ULL << (r * cols);
    colLast_ = col0_ << (cols - 1);
  }

  void reserve(std::size_t n) { memo_.reserve(n); }

  std::uint64_t full() const { return full_; }
  std::uint64_t row0() const { return row0_; }
  std::uint64_t row_last() const { return rowLast_; }

  // Plies to the end with optimal play; side to move wins iff odd.
  // Precondition: the side to move has no pawn on its own goal row.
  int solve(std::uint64_t w, std::uint64_t b, bool white_to_move) {
    // Opponent already on its goal row: side to move has lost.
    if (white_to_move ? (b & rowLast_) : (w & row0_)) return 0;

    // Stored positions never have a white pawn on row 0 (neither side to
    // move allows it past the checks above / the precondition), so bit 0
    // of w is free and carries the side to move.
    const MemoKey key{w | (white_to_move ? 1ULL : 0ULL), b};
    auto it = memo_.find(key);
    if (it != memo_.end()) return it->second;

    const int c = cols_;
    const std::uint64_t empty = ~(w | b) & full_;
    std::uint64_t push, capl, capr, goal;
    if (white_to_move) {
      push = (w >> c) & empty;
      capl = ((w & ~col0_) >> (c + 1)) & b;
      capr = ((w & ~colLast_) >> (c - 1)) & b;
      goal = row0_;
    } else {
      push = (b << c) & empty & full_;
      capl = ((b & ~col0_) << (c - 1)) & w & full_;
      capr = ((b & ~colLast_) << (c + 1)) & w & full_;
      goal = rowLast_;
    }

    int result;
    if ((push | capl | capr) & goal) {
      result = 1;  // immediate promotion: fastest possible win
    } else if ((push | capl | capr) == 0) {
      result = 0;  // no legal move
    } else {
      int best_win = 1 << 30;  // smallest odd
      int best_loss = -1;      // largest even
      auto visit = [&](std::uint64_t dests, int delta) {
        while (dests) {
          const int t = __builtin_ctzll(dests);
          dests &= dests - 1;
          const std::uint64_t tb = 1ULL << t;
          const std::uint64_t fb = 1ULL << (t + delta);
          int q;
          if (white_to_move)
            q = solve(w ^ fb ^ tb, b & ~tb, false);
          else
            q = solve(w & ~tb, b ^ fb ^ tb, true);
          if ((q & 1) == 0) {
            if (q + 1 < best_win) best_win = q + 1;
          } else {
            if (q + 1 > best_loss) best_loss = q + 1;
          }
        }
      };
      if (white_to_move) {
        visit(capl, c + 1);
        visit(capr, c - 1);
        visit(push, c);
      } else {
        visit(capl, -(c - 1));
        visit(capr, -(c + 1));
        visit(push, -c);
      }
      result = (best_win != (1 << 30)) ? best_win : best_loss;
    }
    memo_.emplace(key, static_cast<std::uint8_t>(result));
    return result;
  }

 private:
  int rows_, cols_;
  std::uint64_t full_, row0_, rowLast_, col0_, colLast_;
  std::unordered_map<MemoKey, std::uint8_t, MemoKeyHash> memo_;
};

// Calls f(subset) for every subset of `avail` with at most `maxcount` bits.
template <class F>
void for_each_subset(std::uint64_t avail, int maxcount, std::uint64_t cur, int cnt, F& f) {
  f(cur);
  if (cnt == maxcount) return;
  while (avail) {
    const std::uint64_t bit = avail & (~avail + 1);
    avail ^= bit;
    for_each_subset(avail, maxcount, cur | bit, cnt + 1, f);
  }
}

inline double binom(int n, int k) {
  if (k < 0 || k > n) return 0.0;
  double r = 1.0;
  for (int i = 1; i <= k; ++i) r = r * (n - k + i) / i;
  return r;
}

}  // namespace detail

// Every placement of 0..k white and 0..k black pawns (disjoint squares, any
// row) on a rows x cols board, both sides to move; invalid positions (side to
// move has a pawn on its own goal row) are skipped. A position where only the
// side that just moved has a pawn on its goal row is valid: side to move lost
// in 0 plies. rows, cols in 3..8.
inline DomainStats memo_minimax_domain(int rows, int cols, int k) {
  detail::MemoSolver solver(rows, cols);
  const int n = rows * cols;

  // Reserve roughly the domain size (every reachable position is inside it).
  double est = 0;
  for (int wc = 0; wc <= k && wc <= n; ++wc)
    for (int bc = 0; bc <= k && wc + bc <= n; ++bc)
      est += detail::binom(n, wc) * detail::binom(n - wc, bc);
  est *= 2;
  if (est < 4e8) solver.reserve(static_cast<std::size_t>(est));

  DomainStats st{0, 0, 0};
  const std::uint64_t full = solver.full(), row0 = solver.row0(), rowLast = solver.row_last();

  auto on_black = [&](std::uint64_t w, std::uint64_t b) {
    // White to move: invalid if a white pawn is on row 0 (covers "both").
    if (!(w & row0)) {
      const int p = solver.solve(w, b, true);
      ++st.positions;
      st.checksum += static_cast<std::uint64_t>(p);
      if (p & 1) ++st.white_wins;
    }
    // Black to move: invalid if a black pawn is on the last row.
    if (!(b & rowLast)) {
      const int p = solver.solve(w, b, false);
      ++st.positions;
      st.checksum += static_cast<std::uint64_t>(p);
      if (!(p & 1)) ++st.white_wins;
    }
  };
  auto on_white = [&](std::uint64_t w) {
    auto fb = [&](std::uint64_t b) { on_black(w, b); };
    detail::for_each_subset(full & ~w, k, 0, 0, fb);
  };
  detail::for_each_subset(full, k, 0, 0, on_white);
  return st;
}

}  // namespace pawntb_baseline
