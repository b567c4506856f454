// Value encoding and the rules that decide some entries without solving them
// (filler: not in the file; stored.hpp). Writer and reader share these.
#pragma once

#include <bit>
#include <cstdint>
#include <optional>

#include "pawntb/game/rules.hpp"

namespace pawntb::format {

using game::mirror_files;
using game::Pawns;
using game::white_goal;
using game::white_targets;

// An entry is one byte: the plies to the end of the game, 0..2*K*(rows-1)
// (at most 112: every ply lowers phi, generator/src/solve.cpp). The side to
// move makes the last move exactly when the count is odd, so
//   side to move wins  <=>  plies is odd.
using Plies = std::uint8_t;
constexpr bool mover_wins(Plies plies) {
  return plies & 1;
}

// Backward induction step: the value of a position from the values of its
// successors (each from the opponent's point of view).
//   Some successor lost for the opponent (even) -> win in 1 + the fastest such.
//   Otherwise every successor is a win for the opponent -> loss in 1 + the
//   slowest. No successor at all -> loss in 0.
struct ValueFold {
  int best_win = -1;    // least even successor value seen, or -1
  int worst_loss = -1;  // greatest odd successor value seen, or -1
  constexpr void add(Plies successor) {
    if (mover_wins(successor)) {
      if (successor > worst_loss) worst_loss = successor;
    } else if (best_win < 0 || successor < best_win) {
      best_win = successor;
    }
  }
  constexpr Plies value() const {
    if (best_win >= 0) return static_cast<Plies>(best_win + 1);
    return static_cast<Plies>(worst_loss + 1);  // 0 when there was no move
  }
};

// The value of an indexed white-to-move position when a filler rule decides it
// (win in 1 if a pawn reaches row 0 now, loss in 0 with no legal move).
constexpr std::optional<Plies> value_by_rule(Geometry g, std::uint64_t white, std::uint64_t black) {
  const std::uint64_t targets = white_targets(g, white, black);
  if (targets & white_goal(g)) return Plies{1};
  if (!targets) return Plies{0};
  return std::nullopt;
}

// The left-right mirror class representative: of (white, black) and its
// mirror image, the one with the smaller (white, black) pair. The value of a
// position equals its mirror's, so only representatives are stored.
// The same, given the mirror image (mirror_white, mirror_black) already.
constexpr Pawns canonical(Pawns p, Pawns mirror) {
  if (mirror.white < p.white || (mirror.white == p.white && mirror.black < p.black)) return mirror;
  return p;
}
constexpr Pawns canonical(Geometry g, std::uint64_t white, std::uint64_t black) {
  return canonical(Pawns{white, black}, Pawns{mirror_files(g, white), mirror_files(g, black)});
}

constexpr bool is_canonical(Geometry g, std::uint64_t white, std::uint64_t black) {
  const Pawns c = canonical(g, white, black);
  return c.white == white && c.black == black;
}

// Whether the stored byte of an indexed position is filler (FORMAT.md).
constexpr bool is_filler(Geometry g, std::uint64_t white, std::uint64_t black) {
  return !is_canonical(g, white, black) || value_by_rule(g, white, black).has_value();
}

}  // namespace pawntb::format
