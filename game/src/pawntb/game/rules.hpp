// The moves of the game as bitboards, white to move: where white's pawns can
// go, whether white can move at all, whether it wins at once.
#pragma once

#include <cstdint>

#include "pawntb/game/bitboard.hpp"

namespace pawntb::game {

// Every square a white pawn can move to (white to move): pushes onto empty
// squares and diagonal captures of black pawns.
constexpr std::uint64_t white_targets(Geometry g, std::uint64_t white, std::uint64_t black) {
  const std::uint64_t empty = board_mask(g) & ~(white | black);
  return (white_pushes(g, white) & empty) |
         ((white_left_captures(g, white) | white_right_captures(g, white)) & black);
}

constexpr bool white_can_move(Geometry g, std::uint64_t white, std::uint64_t black) {
  return white_targets(g, white, black) != 0;
}

// Whether white wins in 1 (a push or capture onto row 0). It depends only on
// white's pawns and black's pawns on row 0, which the index relies on.
constexpr bool wins_in_one(Geometry g, std::uint64_t white, std::uint64_t black) {
  return (white_targets(g, white, black) & white_goal(g)) != 0;
}

}  // namespace pawntb::game
