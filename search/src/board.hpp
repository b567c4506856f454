// The search's view of a board: masks worked out once per geometry, move
// generation for either side on bitboards, and the rules of knowledge
// (docs/search.md derives each one).
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "pawntb/game/bitboard.hpp"
#include "pawntb/position.hpp"

namespace pawntb::search_detail {

// One side's pawns and the other's, with the side to move, and the pawns of
// its mirror image (Board::mirror), which Board::play keeps up to date for
// a few instructions, where working them out again at every hash cost more
// than the entries they share saved. No default member initializers, as
// SearchMove.
struct Node {
  std::uint64_t white, black;
  std::uint64_t mirror_white, mirror_black;
  bool white_to_move;
  std::uint64_t mover() const { return white_to_move ? white : black; }
  std::uint64_t other() const { return white_to_move ? black : white; }
};

// No default member initializers: a list of kMaxMoves of them is made at
// every node, and zeroing it cost more than generating the moves.
struct SearchMove {
  std::uint8_t from, to;
};

// Captures and pushes, at most 3 a pawn and 8 pawns a side in a start
// position; any position of up to 64 pawns fits (pawntb::kMaxMoves). Only
// the first `size` moves are set.
struct SearchMoves {
  std::array<SearchMove, kMaxMoves> moves;
  int size = 0;
};

class Board {
 public:
  explicit Board(Geometry g);

  Geometry geometry() const { return g_; }

  // Pawns of the side to move that stand on their goal row's neighbour and
  // can step or capture onto the goal: each is a win in one ply.
  std::uint64_t winning_pawns(std::uint64_t mover, std::uint64_t other, bool white) const {
    const std::uint64_t empty = all_ & ~(mover | other);
    if (white) {
      const std::uint64_t p = mover & row_[1];
      return p & ((empty << g_.cols) | ((other & ~file_a_) << (g_.cols - 1)) |
                  ((other & ~file_last_) << (g_.cols + 1)));
    }
    const std::uint64_t p = mover & row_[g_.rows - 2];
    return p & ((empty >> g_.cols) | ((other & ~file_last_) >> (g_.cols - 1)) |
                ((other & ~file_a_) >> (g_.cols + 1)));
  }

  // Whether the side to move's opponent stands on its goal: the game is over.
  bool opponent_arrived(const Node& n) const {
    return n.white_to_move ? (n.black & row_[g_.rows - 1]) != 0 : (n.white & row_[0]) != 0;
  }

  // Every legal move of the side to move; with `ordered`, captures first,
  // then pushes of the pawns nearest their goal, else in square order.
  void moves(const Node& n, bool ordered, SearchMoves& out) const;

  Node node(std::uint64_t white, std::uint64_t black, bool white_to_move) const {
    return Node{white, black, mirror(white), mirror(black), white_to_move};
  }

  Node play(const Node& n, SearchMove m) const {
    const std::uint64_t from = 1ULL << m.from, to = 1ULL << m.to;
    const std::uint64_t mirror_from = 1ULL << mirror_square_[m.from],
                        mirror_to = 1ULL << mirror_square_[m.to];
    Node c = n;
    if (n.white_to_move) {
      c.white = (c.white & ~from) | to;
      c.black &= ~to;
      c.mirror_white = (c.mirror_white & ~mirror_from) | mirror_to;
      c.mirror_black &= ~mirror_to;
    } else {
      c.black = (c.black & ~from) | to;
      c.white &= ~to;
      c.mirror_black = (c.mirror_black & ~mirror_from) | mirror_to;
      c.mirror_white &= ~mirror_to;
    }
    c.white_to_move = !n.white_to_move;
    return c;
  }

  static constexpr int kFar = 64;  // more rows than any board has

  // Whether a pawn of `pawns` (white's when `white`) could reach its goal
  // within `moves` of its own moves while the other side's pawns `still`
  // stand still. An over-estimate of what the pawns can do, so that "no" is
  // a proof: a pawn moves a row a move, straight onto a square that no
  // still pawn holds for good, or diagonally onto a still pawn (a capture).
  // A still pawn that some pawn could ever capture, were every straight step
  // free, may be gone when a pawn steps there: it does not block. The pawns
  // of `pawns` never block one another. The race of the unstoppable pawn
  // asks this of the other side, whose pawns then meet only the runner's
  // pawns that stand still: a pawn blocked for good never arrives, however
  // few rows it has to go.
  bool arrives_within(std::uint64_t pawns, std::uint64_t still, bool white, int moves) const {
    if (moves <= 0 || pawns == 0) return false;
    const int c = g_.cols;
    const auto step = [&](std::uint64_t b) { return white ? b >> c : (b << c) & all_; };
    const auto captures = [&](std::uint64_t b) {
      return white ? ((b & ~file_a_) >> (c + 1)) | ((b & ~file_last_) >> (c - 1))
                   : (((b & ~file_a_) << (c - 1)) | ((b & ~file_last_) << (c + 1))) & all_;
    };
    std::uint64_t reach = pawns;  // every square ever reachable, every step free
    for (int i = 1; i < g_.rows; ++i) reach |= step(reach) | (captures(reach) & still);
    const std::uint64_t blockers = still & ~captures(reach);
    const std::uint64_t goal = white ? row_[0] : row_[g_.rows - 1];
    std::uint64_t at = pawns;  // reachable within k moves
    for (int k = 1; k <= moves; ++k) {
      at |= (step(at) & ~blockers) | (captures(at) & still);
      if (at & goal) return true;
    }
    return false;
  }

  // The unstoppable pawn of `side` with the fewest rows to go (its rows to go
  // in `rows_to_go`, its square in `square`), or false when it has none. A
  // pawn is unstoppable when no pawn of its side stands on its file ahead of
  // it and no enemy pawn could block or capture it while its side pushes it
  // every move (could_stop, below, which counts an enemy pawn on the file
  // ahead: it blocks); `to_move`: its side moves next.
  bool unstoppable(std::uint64_t own, std::uint64_t enemy, bool white, bool to_move,
                   int& rows_to_go, int& square) const {
    rows_to_go = kFar;
    for (std::uint64_t p = own; p; p &= p - 1) {
      const int s = std::countr_zero(p);
      const int d = white ? s / g_.cols : g_.rows - 1 - s / g_.cols;
      if (d >= rows_to_go) continue;
      const Masks& m = white ? white_masks_[s] : black_masks_[s];
      if ((own & m.file_ahead) == 0 && (enemy & m.stoppers[to_move ? 1 : 0]) == 0) {
        rows_to_go = d;
        square = s;
      }
    }
    return rows_to_go != kFar;
  }

  // Whether `own` (white's when `white`) wins with its unstoppable pawn
  // (its rows to go and square as unstoppable() gives them): no pawn of
  // `enemy` could reach its own goal first, within rows_to_go - 1 moves
  // when `own` moves next (`to_move`), within rows_to_go when `enemy`
  // does, the runner's other pawns standing still (arrives_within).
  bool runner_wins(std::uint64_t own, std::uint64_t enemy, bool white, bool to_move,
                   int& rows_to_go, int& square) const {
    return unstoppable(own, enemy, white, to_move, rows_to_go, square) &&
           !arrives_within(enemy, own & ~(1ULL << square), !white,
                           to_move ? rows_to_go - 1 : rows_to_go);
  }

  // Whether an enemy pawn `ahead` rows ahead of a pawn with `to_go` rows to
  // go and `aside` files away could block or capture it while the pawn is
  // pushed every move; `to_move`: the pawn's side moves first.
  //
  // The enemy pawn moves a row a move toward the pawn and changes file only
  // by capturing, a file a capture, so in t moves of its own it goes exactly
  // t rows and at most t files; in t moves of its side, at most t rows. Call the squares ahead of the pawn 1, 2, ..., to_go (the
  // goal). Before the pawn's j-th push its enemy has made j - 1 moves when
  // the pawn's side moves first, else j. To BLOCK square j (1 <= j <= to_go)
  // the enemy pawn must stand on it before that push: ahead - j rows, in at
  // most that many moves, with `aside` <= ahead - j captures. To CAPTURE the
  // pawn on square j (0 <= j < to_go: square 0 is where it stands, and on the
  // goal the game is over) it must stand a row beyond square j, a file
  // aside, once the push is made: ahead - j - 1 rows in as many moves, with
  // |aside - 1| <= ahead - j - 1 captures. With no such j nothing can stop
  // the pawn, whatever else either side does.
  //
  // Example: an enemy pawn 3 rows ahead and 2 files aside, the pawn's side
  // to move. Square 2 is the first it could reach in time (3 - 2 = 1 move,
  // with 1 move made before the second push), but from 2 files aside it
  // cannot get onto the file or next to square 2 with one capture: the pawn
  // passes it. The cone of rows ahead (files aside <= rows ahead) that
  // ignores the race would count that pawn as a stopper.
  static constexpr bool could_stop(int to_go, int ahead, int aside, bool to_move) {
    for (int j = to_move ? 1 : 0; j <= to_go; ++j) {
      const int moves_before = to_move ? j - 1 : j;
      const int block_rows = ahead - j, capture_rows = ahead - j - 1;
      if (j >= 1 && block_rows >= 0 && block_rows <= moves_before && aside <= block_rows) {
        return true;
      }
      if (j < to_go && capture_rows >= 0 && capture_rows <= moves_before &&
          (aside > 1 ? aside - 1 : 1 - aside) <= capture_rows) {
        return true;
      }
    }
    return false;
  }
  // The square one step ahead of `square` for `side`.
  int ahead(int square, bool white) const { return white ? square - g_.cols : square + g_.cols; }

  // The board seen in a mirror standing on its left or right edge: file c
  // becomes file cols-1-c. The rules treat both files alike, so a position
  // and its mirror image have the same value and mirrored winning moves
  // (docs/search.md, "Symmetry").
  // File pairs (c, cols-1-c) swap places: cols/2 shifts each way, no loads.
  std::uint64_t mirror(std::uint64_t bits) const {
    std::uint64_t out = bits & middle_file_;
    for (int i = 0; i < g_.cols / 2; ++i) {
      const int d = g_.cols - 1 - 2 * i;
      out |= ((bits & file_[i]) << d) | ((bits & file_[g_.cols - 1 - i]) >> d);
    }
    return out;
  }
  SearchMove mirror(SearchMove m) const {
    return {mirror_square_[m.from], mirror_square_[m.to]};
  }

 private:
  struct Masks {
    std::uint64_t file_ahead = 0;  // the squares ahead on the pawn's file
    // Where an enemy pawn could stop it (could_stop): [1] when the pawn's
    // side moves next, [0] when the enemy does.
    std::array<std::uint64_t, 2> stoppers{};
  };
  Geometry g_;
  std::uint64_t all_, file_a_, file_last_;
  std::array<std::uint64_t, kMaxSide> file_{};
  std::uint64_t middle_file_ = 0;  // odd cols: the file that stays
  std::array<std::uint8_t, kMaxSquares> mirror_square_{};
  std::array<std::uint64_t, kMaxSide> row_{};
  std::array<Masks, kMaxSquares> white_masks_{}, black_masks_{};
};

// Board::could_stop's pins: its example, and the cases nearest the pawn.
static_assert(!Board::could_stop(5, 3, 2, true));  // the example: it passes
static_assert(Board::could_stop(5, 3, 1, true));   // a file nearer: it captures on square 2
static_assert(!Board::could_stop(5, 1, 1, true));  // diagonally in front, pawn to move: it passes
static_assert(Board::could_stop(5, 1, 1, false));  // the same, enemy to move: it captures now
static_assert(Board::could_stop(5, 2, 1, true));   // it captures on square 1
static_assert(!Board::could_stop(2, 6, 0, true));  // too far: the pawn arrives first
static_assert(Board::could_stop(3, 4, 0, false));  // it steps onto square 2 in time

}  // namespace pawntb::search_detail
