// pawntb: board geometry, positions, moves and the rules of pawn chess.
//
// The board has `rows` x `cols` squares. Square index = row * cols + col, with
// row 0 the TOP row (black's home, white's goal) and col 0 the left file ("a").
// Bit s of a bitboard is square s. White pawns move up (row - 1), black pawns
// move down (row + 1).
//
// Everything here is pure and thread-safe: any thread may call any function.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace pawntb {

inline constexpr int kMinSide = 3;      // smallest rows or cols
inline constexpr int kMaxSide = 8;      // largest rows or cols
inline constexpr int kMaxSquares = 64;  // rows * cols fits one 64-bit bitboard

enum class Side : std::uint8_t { white = 0, black = 1 };

constexpr Side opponent(Side s) {
  return s == Side::white ? Side::black : Side::white;
}
const char* side_name(Side s);  // "white" or "black"

struct Geometry {
  int rows = 4;  // 3..8
  int cols = 4;  // 3..8, rows * cols <= 64
  constexpr int squares() const { return rows * cols; }
  constexpr bool valid() const {
    return rows >= kMinSide && rows <= kMaxSide && cols >= kMinSide && cols <= kMaxSide &&
           rows * cols <= kMaxSquares;
  }
  friend constexpr bool operator==(Geometry a, Geometry b) {
    return a.rows == b.rows && a.cols == b.cols;
  }
  friend constexpr bool operator!=(Geometry a, Geometry b) { return !(a == b); }
};

std::string to_string(Geometry g);  // "4x4"

struct Position {
  Geometry geometry;
  std::uint64_t white = 0;  // bitboard of white pawns
  std::uint64_t black = 0;  // bitboard of black pawns
  Side to_move = Side::white;
  friend constexpr bool operator==(const Position& a, const Position& b) {
    return a.geometry == b.geometry && a.white == b.white && a.black == b.black &&
           a.to_move == b.to_move;
  }
  friend constexpr bool operator!=(const Position& a, const Position& b) { return !(a == b); }
};

struct Move {
  std::uint8_t from = 0;  // square index 0..rows*cols-1
  std::uint8_t to = 0;    // square index 0..rows*cols-1
  friend constexpr bool operator==(Move a, Move b) { return a.from == b.from && a.to == b.to; }
  friend constexpr bool operator!=(Move a, Move b) { return !(a == b); }
};

// Up to 3 moves per pawn (straight, two captures); positions accept any number
// of pawns, so every square may hold a mover. (Tables allow K <= 8 pawns a
// side: at most 24 moves there.)
inline constexpr int kMaxMoves = 3 * kMaxSquares;

struct MoveList {
  std::array<Move, kMaxMoves> moves{};
  int size = 0;  // 0..kMaxMoves
  const Move* begin() const { return moves.data(); }
  const Move* end() const { return moves.data() + size; }
};

// What the rules say about a position before any search.
enum class Status : std::uint8_t {
  playable,  // the side to move has at least one legal move
  over,      // the side to move has lost in 0 plies: the opponent has a pawn on
             // its goal row, or the side to move has no legal move
  invalid,   // pawns overlap or lie off the board, or the side to move has a
             // pawn on its own goal row
};

Status classify(const Position& p);

// Why a game is over, as the lichess API and `"reason"` in pawntb's JSON say
// it: the opponent has a pawn on its goal row; the side to move has no pawns
// left; or it has pawns but none can move. `none` unless classify(p) ==
// Status::over.
enum class GameEnd : std::uint8_t { none, goal, no_pawns, no_moves };
GameEnd game_end(const Position& p);

// "goal", "no_pawns", "no_moves" (a static string); null for GameEnd::none.
const char* game_end_name(GameEnd e);

// Legal moves of the side to move, in a fixed order (by from-square, then
// to-square). Empty when classify(p) != Status::playable.
MoveList legal_moves(const Position& p);

// The position after `m` (which must be one of legal_moves(p)).
Position play(const Position& p, Move m);

// The start of a game on g with `pawns` pawns a side (1..g.cols), white to
// move: white's pawns on the bottom row, black's on the top row. With fewer
// pawns than columns they stand on the middle files, one file further left
// when they cannot be exactly in the middle (3 on 4 files: a, b, c).
Position start_position(Geometry g, int pawns);

}  // namespace pawntb
