// The distance search (docs/search.md, "Distance").
//
// A value n is the plies to the end: odd when the side to move wins (it ends
// the game on its own move), even when it loses (0: it has lost already).
// within(P, d) asks whether P ends within d plies in a win of the winner:
//
//   winner to move: some move m whose result Q has within(Q, d - 1);
//   loser to move:  it has no move (n = 0), or every move m has
//                   within(Q, d - 1);
//
// and answers with the plies of the line it found, an upper bound of n. A
// false answer proves n > d. solve() narrows [lower, upper] by halving, each
// answer kept per position in a table of bounds, until they meet.
//
// Rules that cut the search (each a bound on n, not a guess):
// - the winner has an unstoppable pawn r rows from its goal and no pawn of
//   the loser's can arrive within r - 1 moves (Board::runner_wins): pushing
//   it ends the game within 2r - 1 plies, so n <= 2r - 1;
// - a winner's move into a position that the loser wins is never the
//   winner's best line, and is not searched. Whether the loser wins there
//   is asked of the boolean search with a budget of nodes that grows with
//   the plies asked (known()); past it the move is searched, which is
//   right either way. Without a budget, on 7x8 with its table full, the
//   root's moves each searched the whole game again: 2.7e9 nodes for n >= 3.
//   The boolean search's winning move, when its table has one, is tried
//   first and asks nothing: the loser loses after it.
// The winner's pawns' distance to their goal bounds nothing from below: the
// game also ends when the loser has no move.
#include "distance.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

#include "pawntb/notation.hpp"
#include "tt.hpp"

namespace pawntb::search_detail {

namespace {

// No game from `n` is longer: each ply moves a pawn a row nearer its goal.
int longest_game(const Node& n, Geometry g) {
  int rows_to_go = 0;
  for (std::uint64_t w = n.white; w; w &= w - 1) rows_to_go += std::countr_zero(w) / g.cols;
  for (std::uint64_t b = n.black; b; b &= b - 1) {
    rows_to_go += g.rows - 1 - std::countr_zero(b) / g.cols;
  }
  return rows_to_go;
}

}  // namespace

std::string unanswered(const Table& table, const Node& n) {
  return table.info().path.string() + " cannot answer " +
         format_position(Position{table.info().geometry, n.white, n.black,
                                  n.white_to_move ? Side::white : Side::black}) +
         " (a damaged block?)";
}

DistanceSearch::DistanceSearch(const Board& board, bool white_wins, const Table* table,
                               int table_pawns, bool symmetry, std::uint64_t memory_bytes,
                               Known known)
    : board_(board),
      white_wins_(white_wins),
      table_(table),
      table_pawns_(table_pawns),
      symmetry_(symmetry),
      known_(std::move(known)) {
  std::uint64_t entries = 1;
  while (entries * 2 * sizeof(Entry) <= memory_bytes) entries *= 2;
  memory_ = util::ZeroPages(entries * sizeof(Entry));
  entries_ = static_cast<Entry*>(memory_.data());
  mask_ = entries - 1;
}

DistanceSearch::Entry* DistanceSearch::find(const Node& n, std::uint64_t& key,
                                            std::uint32_t& check) const {
  const NodeHash h = canonical_hash(n, symmetry_);
  key = h.key;
  check = static_cast<std::uint32_t>(h.check) | 1;  // never 0: a zero page is no entry
  return &entries_[h.key & mask_];
}

void DistanceSearch::store(const Node& n, int lower, int upper) {
  std::uint64_t key = 0;
  std::uint32_t check = 0;
  Entry& e = *find(n, key, check);
  const auto lo = static_cast<std::uint16_t>(std::min(lower, int{kUnknown}));
  const auto up = static_cast<std::uint16_t>(std::min(upper, int{kUnknown}));
  if (e.key == key && e.check == check) {
    e.lower = std::max(e.lower, lo);
    e.upper = std::min(e.upper, up);
  } else {
    e = {key, check, lo, up};
  }
}

std::optional<int> DistanceSearch::probe_table(const Node& n) const {
  const ProbeResult r = table_->probe(Position{board_.geometry(), n.white, n.black,
                                               n.white_to_move ? Side::white : Side::black});
  if (!r.ok()) throw TableError(unanswered(*table_, n));
  if (r.winner != (white_wins_ ? Side::white : Side::black)) return std::nullopt;
  return r.plies;
}

std::optional<bool> DistanceSearch::known(const Node& n, SearchMove* best, int d) {
  // 2^d nodes, about what a question of d plies costs (at least the 1,024
  // between the boolean search's polls): more for a question that will cost
  // more, where a move skipped saves more. A budget of 2^(d+4) or 2^(d+8),
  // or 1e5 for every d, proved less on 7x7 in the same time.
  const std::uint64_t budget = d >= 62 ? ~std::uint64_t{0} : std::uint64_t{1} << d;
  const std::optional<bool> k = known_(n, best, budget);
  // Unknown: a search ran out of its budget, or of the time.
  if (!k && std::chrono::steady_clock::now() >= deadline_) aborted_ = true;
  return k;
}

std::optional<int> DistanceSearch::within(const Node& n, int d) {
  if ((++nodes_ & 4095) == 0) {
    if (std::chrono::steady_clock::now() >= deadline_) aborted_ = true;
    if (progress_ && *progress_) (*progress_)(bounds_);
  }
  if (aborted_) return std::nullopt;
  const bool white = n.white_to_move;
  const bool winner_to_move = white == white_wins_;
  if (board_.opponent_arrived(n)) {  // the side to move has lost
    return winner_to_move ? std::nullopt : std::optional<int>(0);
  }
  if (table_ && std::popcount(n.white) <= table_pawns_ && std::popcount(n.black) <= table_pawns_) {
    const std::optional<int> v = probe_table(n);
    return v && *v <= d ? v : std::nullopt;
  }
  int lower = 0, upper = kUnknown;
  {
    std::uint64_t key = 0;
    std::uint32_t check = 0;
    const Entry& e = *find(n, key, check);
    if (e.key == key && e.check == check) {
      lower = e.lower;
      upper = e.upper;
    }
  }
  if (upper <= d) return upper;
  if (lower > d) return std::nullopt;
  const std::uint64_t me = n.mover(), them = n.other();
  SearchMoves list;
  if (winner_to_move) {
    if (d < 1) return std::nullopt;
    if (board_.winning_pawns(me, them, white)) return 1;
    int rows = 0, square = 0;
    if (board_.runner_wins(me, them, white, true, rows, square) && 2 * rows - 1 <= d) {
      store(n, lower, 2 * rows - 1);
      return 2 * rows - 1;
    }
    board_.moves(n, true, list);
    // The boolean search's winning move first, when its table has one: the
    // loser loses after it, so that move needs no question of its own.
    SearchMove best{};
    bool best_first = false;
    if (const std::optional<bool> k = known_(n, &best, 0); k && *k) {
      const auto end = list.moves.begin() + list.size;
      const auto first = std::find_if(list.moves.begin(), end, [&](SearchMove m) {
        return m.from == best.from && m.to == best.to;
      });
      best_first = first != end;
      if (best_first) std::rotate(list.moves.begin(), first, first + 1);
    }
    for (int i = 0; i < list.size; ++i) {
      const Node child = board_.play(n, list.moves[i]);
      if (i > 0 || !best_first) {
        if (const std::optional<bool> k = known(child, nullptr, d - 1); k && *k) {
          continue;  // the loser wins there
        }
        if (aborted_) return std::nullopt;
      }
      if (const std::optional<int> r = within(child, d - 1)) {
        store(n, lower, 1 + *r);
        return 1 + *r;
      }
      if (aborted_) return std::nullopt;
    }
    store(n, d + 1, upper);
    return std::nullopt;
  }
  board_.moves(n, true, list);
  if (list.size == 0) return 0;
  if (d < 2) return std::nullopt;  // it moves, then the winner needs a ply at least
  int longest = 0;
  for (int i = 0; i < list.size; ++i) {
    const std::optional<int> r = within(board_.play(n, list.moves[i]), d - 1);
    if (!r) {
      if (!aborted_) store(n, d + 1, upper);
      return std::nullopt;
    }
    longest = std::max(longest, 1 + *r);
  }
  store(n, lower, longest);
  return longest;
}

DistanceBounds DistanceSearch::solve(const Node& root,
                                     std::chrono::steady_clock::time_point deadline,
                                     const std::function<void(const DistanceBounds&)>& progress,
                                     std::optional<DistanceBounds> before) {
  // n is odd when the winner is to move, even when the loser is.
  const int parity = root.white_to_move == white_wins_ ? 1 : 0;
  const auto at_parity = [&](int plies) { return plies + ((plies - parity) & 1); };
  DistanceBounds& b = bounds_;
  b = {parity, at_parity(longest_game(root, board_.geometry())), false};
  if (before) {
    if (before->lower < b.lower || before->upper > b.upper || before->lower > before->upper ||
        (before->lower - parity) % 2 != 0 || (before->upper - parity) % 2 != 0) {
      throw std::invalid_argument("bounds " + std::to_string(before->lower) + " and " +
                                  std::to_string(before->upper) +
                                  " cannot be those of this position's value");
    }
    b = *before;
  }
  progress_ = &progress;
  struct Forget {  // however solve() ends, within() no longer reports
    const std::function<void(const DistanceBounds&)>*& target;
    ~Forget() { target = nullptr; }
  } forget{progress_};
  if (progress) progress(b);
  // First a line within the longest game, an upper bound, in at most a
  // quarter of the time: on a small board about one boolean search, on a
  // large one it may find none before then (8x7 found none in an hour).
  // Bounds proven before (an upper bound found, or asked from below
  // already) go on where they stopped.
  if (!before || (!before->upper_found && before->lower == parity)) {
    const auto now = std::chrono::steady_clock::now();
    deadline_ = deadline == std::chrono::steady_clock::time_point::max()
                    ? deadline
                    : now + (deadline - now) / 4;
    aborted_ = false;
    if (const std::optional<int> r = within(root, b.upper)) {
      b.upper = *r;
      b.upper_found = true;
    } else if (!aborted_) {
      throw std::logic_error("the distance search found no win of the winner");
    }
    if (progress) progress(b);
  }
  deadline_ = deadline;
  aborted_ = std::chrono::steady_clock::now() >= deadline_;
  while (!aborted_ && b.lower < b.upper) {
    // With an upper bound, a value of the parity halfway, at least `lower`
    // and below `upper` (their difference is even, at least 2). Without
    // one, the lowest value left: each no raises the lower bound by 2 at a
    // cost that grows with it, and the first yes is the value.
    const int d = b.upper_found ? at_parity(b.lower + (b.upper - b.lower) / 2 - 1) : b.lower;
    if (const std::optional<int> r = within(root, d)) {
      b.upper = *r;
      b.upper_found = true;
    } else if (!aborted_) {
      b.lower = d + 2;
    }
    if (progress) progress(b);
  }
  // Asked from below up to the longest game, which no game exceeds: n is it.
  if (!b.upper_found && b.lower == b.upper) b.upper_found = true;
  return b;
}

}  // namespace pawntb::search_detail
