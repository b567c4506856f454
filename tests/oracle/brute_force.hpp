// Independent brute-force oracle for pawn chess (UVa 10838 rules).
// Header-only, plain recursive minimax with a memo table. Clarity first.
//
// Board: rows x cols, text lists the TOP row first (row 0). White 'P' moves up
// (toward row 0, its goal); black 'p' moves down (toward row rows-1, its goal).
// A move is one step straight forward onto an empty square, or one step
// diagonally forward capturing an enemy pawn. Reaching the far row wins; the
// side to move with no legal move loses. Value = winner + plies with the winner
// minimising and the loser maximising the game length.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace pawntb_oracle {

struct Result {
  bool valid;       // false: side to move already on its goal row, or both sides on goal rows
  bool white_wins;  // winner under perfect play
  int plies;        // plies to the end (odd: side to move wins, even: side to move loses)
};

class Solver {
 public:
  Solver(int rows, int cols) : R_(rows), C_(cols), N_(rows * cols) {
    if (rows < 3 || rows > 8 || cols < 3 || cols > 8 || rows * cols > 64)
      throw std::invalid_argument("pawntb_oracle::Solver: bad board size");
    small_ = (N_ <= 16);
    pow3_.resize(N_ + 1);
    pow3_[0] = 1;
    for (int i = 1; i <= N_; ++i) pow3_[i] = pow3_[i - 1] * 3;
  }

  // board: rows*cols chars, top row first, each 'P', 'p' or '.'.
  Result solve(const std::string& board, bool white_to_move) {
    if (static_cast<int>(board.size()) != N_)
      throw std::invalid_argument("pawntb_oracle::Solver::solve: wrong board length");
    for (char ch : board)
      if (ch != 'P' && ch != 'p' && ch != '.')
        throw std::invalid_argument("pawntb_oracle::Solver::solve: bad character");

    bool white_on_goal = false, black_on_goal = false;
    for (int c = 0; c < C_; ++c) {
      if (board[idx(0, c)] == 'P') white_on_goal = true;
      if (board[idx(R_ - 1, c)] == 'p') black_on_goal = true;
    }
    if (white_on_goal && black_on_goal) return Result{false, false, 0};
    if (white_to_move && white_on_goal) return Result{false, false, 0};
    if (!white_to_move && black_on_goal) return Result{false, false, 0};
    // Only the side that just moved is on its goal: side to move has lost.
    if (white_to_move && black_on_goal) return Result{true, false, 0};
    if (!white_to_move && white_on_goal) return Result{true, true, 0};

    b_ = board;
    if (small_ && memo_.empty()) memo_.assign(2 * pow3_[N_], 0);
    uint64_t code = 0;
    if (small_)
      for (int i = 0; i < N_; ++i) code += cellval(b_[i]) * pow3_[i];
    int p = search(white_to_move, code);
    bool mover_wins = (p % 2) == 1;
    return Result{true, mover_wins == white_to_move, p};
  }

 private:
  int R_, C_, N_;
  bool small_;
  std::vector<uint64_t> pow3_;
  std::vector<uint8_t> memo_;  // N<=16: index code*2+wtm, stores plies+1 (0 = unknown)
  std::unordered_map<std::string, int> big_memo_;  // N>16: key board+side
  std::string b_;                                  // working board

  int idx(int r, int c) const { return r * C_ + c; }
  static uint64_t cellval(char ch) { return ch == 'P' ? 1 : (ch == 'p' ? 2 : 0); }

  // Precondition: nobody stands on a goal row. Returns plies; odd = mover wins.
  int search(bool wtm, uint64_t code) {
    std::string key;
    if (small_) {
      uint8_t m = memo_[code * 2 + (wtm ? 1 : 0)];
      if (m) return m - 1;
    } else {
      key = b_;
      key.push_back(wtm ? 'w' : 'b');
      auto it = big_memo_.find(key);
      if (it != big_memo_.end()) return it->second;
    }

    const char own = wtm ? 'P' : 'p';
    const char enemy = wtm ? 'p' : 'P';
    const int dir = wtm ? -1 : +1;
    const int goal = wtm ? 0 : R_ - 1;

    bool any_move = false;
    int best_win = -1;   // smallest winning ply count found
    int best_loss = -1;  // largest losing ply count found
    bool instant_win = false;

    for (int r = 0; r < R_ && !instant_win; ++r) {
      for (int c = 0; c < C_ && !instant_win; ++c) {
        if (b_[idx(r, c)] != own) continue;
        int nr = r + dir;
        if (nr < 0 || nr >= R_) continue;  // cannot happen under the precondition
        for (int dc = -1; dc <= 1; ++dc) {
          int nc = c + dc;
          if (nc < 0 || nc >= C_) continue;
          char target = b_[idx(nr, nc)];
          bool legal = (dc == 0) ? (target == '.') : (target == enemy);
          if (!legal) continue;
          any_move = true;
          if (nr == goal) {
            instant_win = true;
            break;
          }
          // make move
          int from = idx(r, c), to = idx(nr, nc);
          uint64_t ncode = code;
          if (small_)
            ncode = code - cellval(own) * pow3_[from] - cellval(target) * pow3_[to] +
                    cellval(own) * pow3_[to];
          b_[from] = '.';
          b_[to] = own;
          int child = search(!wtm, ncode);
          b_[to] = target;
          b_[from] = own;
          int p = child + 1;
          if (child % 2 == 0) {  // child mover loses -> we win
            if (best_win < 0 || p < best_win) best_win = p;
          } else {
            if (p > best_loss) best_loss = p;
          }
        }
      }
    }

    int result;
    if (instant_win)
      result = 1;
    else if (!any_move)
      result = 0;
    else if (best_win >= 0)
      result = best_win;
    else
      result = best_loss;

    if (small_)
      memo_[code * 2 + (wtm ? 1 : 0)] = static_cast<uint8_t>(result + 1);
    else
      big_memo_.emplace(std::move(key), result);
    return result;
  }
};

namespace detail {
template <class F>
void placement_rec(std::string& s, int pos, int n, int k, int w, int b, F& f) {
  if (pos == n) {
    f(static_cast<const std::string&>(s));
    return;
  }
  s[pos] = '.';
  placement_rec(s, pos + 1, n, k, w, b, f);
  if (w < k) {
    s[pos] = 'P';
    placement_rec(s, pos + 1, n, k, w + 1, b, f);
  }
  if (b < k) {
    s[pos] = 'p';
    placement_rec(s, pos + 1, n, k, w, b + 1, f);
  }
  s[pos] = '.';
}
}  // namespace detail

// Calls f(board_string) for every placement of 0..k white and 0..k black pawns
// on rows x cols (any squares, including goal rows).
template <class F>
void for_each_placement(int rows, int cols, int k, F&& f) {
  int n = rows * cols;
  std::string s(n, '.');
  detail::placement_rec(s, 0, n, k, 0, 0, f);
}

}  // namespace pawntb_oracle
