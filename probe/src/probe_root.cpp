// Table::probe_root: every move's value, best first, and the line of best
// play.
#include <algorithm>
#include <optional>
#include <variant>

#include "pawntb/notation.hpp"
#include "pawntb/probe.hpp"

namespace pawntb {

namespace {

// Whether a is a better move than b for the side to move: a win beats a loss,
// a faster win a slower one, a longer loss a shorter one.
bool better(Side mover, const MoveValue& a, const MoveValue& b) {
  const bool a_wins = a.winner == mover, b_wins = b.winner == mover;
  if (a_wins != b_wins) return a_wins;
  return a_wins ? a.plies < b.plies : a.plies > b.plies;
}

// The best move of a playable position: the first of the best in move order,
// as the stable sort in probe_root puts first. Fails with the first non-ok
// probe, which only a damaged block can cause.
std::variant<MoveValue, ProbeResult> best_move(const Table& t, const Position& p) {
  std::optional<MoveValue> best;
  for (const Move m : legal_moves(p)) {
    const ProbeResult after = t.probe(play(p, m));
    if (!after.ok()) return after;
    const MoveValue candidate{m, after.winner, after.plies};
    if (!best || better(p.to_move, candidate, *best)) best = candidate;
  }
  return *best;  // p is playable: it has a legal move
}

}  // namespace

RootResult Table::probe_root(const Position& p) const {
  RootResult root;
  root.value = probe(p);
  if (!root.value.ok()) return root;
  const MoveList moves = legal_moves(p);  // none when the game is over
  root.moves.reserve(static_cast<std::size_t>(moves.size));
  for (const Move m : moves) {
    const ProbeResult after = probe(play(p, m));
    if (!after.ok()) return RootResult{after, {}, {}};
    root.moves.push_back(MoveValue{m, after.winner, after.plies});
  }
  std::stable_sort(root.moves.begin(), root.moves.end(),
                   [&](const MoveValue& a, const MoveValue& b) { return better(p.to_move, a, b); });
  // Follow the best move to the end of the game.
  Position line = p;
  root.principal_variation.reserve(root.value.plies);
  while (root.principal_variation.size() < root.value.plies && classify(line) == Status::playable) {
    const auto best = best_move(*this, line);
    if (const auto* failure = std::get_if<ProbeResult>(&best)) return RootResult{*failure, {}, {}};
    const Move m = std::get<MoveValue>(best).move;
    root.principal_variation.push_back(m);
    line = play(line, m);
  }
  return root;
}

}  // namespace pawntb
