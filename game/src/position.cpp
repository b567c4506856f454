#include "pawntb/position.hpp"

#include <algorithm>
#include <bit>

#include "pawntb/game/bitboard.hpp"
#include "pawntb/game/rules.hpp"

namespace pawntb {

using game::black_goal;
using game::board_mask;
using game::white_goal;

const char* side_name(Side s) {
  return s == Side::white ? "white" : "black";
}

std::string to_string(Geometry g) {
  return std::to_string(g.rows) + "x" + std::to_string(g.cols);
}

namespace {

// The position seen from the other side: rows flipped and colours swapped.
// Black's moves in p are white's moves in colour_flip(p).
Position colour_flip(const Position& p) {
  return Position{p.geometry, game::flip_rows(p.geometry, p.black),
                  game::flip_rows(p.geometry, p.white), opponent(p.to_move)};
}

// White's moves in a white-to-move view, ordered by from-square then to-square.
MoveList white_moves(Geometry g, std::uint64_t white, std::uint64_t black) {
  MoveList list;
  const std::uint64_t empty = board_mask(g) & ~(white | black);
  for (std::uint64_t w = white; w; w &= w - 1) {
    const int from = std::countr_zero(w);
    const std::uint64_t pawn = 1ULL << from;
    // Targets in increasing square order: up-left, straight, up-right.
    const std::uint64_t targets = (game::white_left_captures(g, pawn) & black) |
                                  (game::white_pushes(g, pawn) & empty) |
                                  (game::white_right_captures(g, pawn) & black);
    for (std::uint64_t t = targets; t; t &= t - 1) {
      list.moves[list.size++] =
          Move{static_cast<std::uint8_t>(from), static_cast<std::uint8_t>(std::countr_zero(t))};
    }
  }
  return list;
}

// Maps a square through the colour flip (row r -> rows - 1 - r).
std::uint8_t flip_square(Geometry g, int s) {
  return static_cast<std::uint8_t>((g.rows - 1 - s / g.cols) * g.cols + s % g.cols);
}

}  // namespace

Status classify(const Position& p) {
  const Geometry g = p.geometry;
  if (!g.valid() || (p.white & p.black) || ((p.white | p.black) & ~board_mask(g))) {
    return Status::invalid;
  }
  const Position v = p.to_move == Side::white ? p : colour_flip(p);
  if (v.white & white_goal(g)) return Status::invalid;  // mover already on its goal
  if (v.black & black_goal(g)) return Status::over;     // opponent reached its goal
  return game::white_can_move(g, v.white, v.black) ? Status::playable : Status::over;
}

GameEnd game_end(const Position& p) {
  if (classify(p) != Status::over) return GameEnd::none;
  const Position v = p.to_move == Side::white ? p : colour_flip(p);
  if (v.black & black_goal(p.geometry)) return GameEnd::goal;
  return v.white == 0 ? GameEnd::no_pawns : GameEnd::no_moves;
}

const char* game_end_name(GameEnd e) {
  switch (e) {
    case GameEnd::goal:
      return "goal";
    case GameEnd::no_pawns:
      return "no_pawns";
    case GameEnd::no_moves:
      return "no_moves";
    case GameEnd::none:
      break;
  }
  return nullptr;
}

MoveList legal_moves(const Position& p) {
  if (classify(p) != Status::playable) return {};
  const Geometry g = p.geometry;
  if (p.to_move == Side::white) return white_moves(g, p.white, p.black);
  const Position v = colour_flip(p);
  MoveList flipped = white_moves(g, v.white, v.black);
  MoveList list;
  for (const Move m : flipped) {
    list.moves[list.size++] = Move{flip_square(g, m.from), flip_square(g, m.to)};
  }
  // Restore the documented order (by from-square, then to-square).
  std::sort(list.moves.begin(), list.moves.begin() + list.size,
            [](Move a, Move b) { return a.from != b.from ? a.from < b.from : a.to < b.to; });
  return list;
}

Position play(const Position& p, Move m) {
  Position next = p;
  const std::uint64_t from = 1ULL << m.from;
  const std::uint64_t to = 1ULL << m.to;
  std::uint64_t& mover = p.to_move == Side::white ? next.white : next.black;
  std::uint64_t& other = p.to_move == Side::white ? next.black : next.white;
  mover = (mover & ~from) | to;
  other &= ~to;
  next.to_move = opponent(p.to_move);
  return next;
}

Position start_position(Geometry g, int pawns) {
  const int first = (g.cols - pawns) / 2;
  const std::uint64_t files = ((1ULL << pawns) - 1) << first;
  return Position{g, files << ((g.rows - 1) * g.cols), files, Side::white};
}

}  // namespace pawntb
