// The start's distance (`pawntb solve --dtm`): the plies to the end when the
// winner hurries and the loser holds out, as the tables define a value, found
// by bounded searches once the boolean search has named the winner
// (docs/search.md, "Distance").
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "board.hpp"
#include "pawntb/probe.hpp"
#include "pawntb/util/memory.hpp"

namespace pawntb::search_detail {

// What is proven of a position's value n: lower <= n, and n <= upper when
// upper_found (a line of the winner's ending within it was found); exact
// when they meet.
struct DistanceBounds {
  int lower = 0, upper = 0;
  bool upper_found = false;
  bool exact() const { return upper_found && lower == upper; }
};

// The message of a table that cannot answer `n` (a damaged block): the
// searches stop with TableError rather than take a failed probe as a value.
std::string unanswered(const Table& table, const Node& n);

class DistanceSearch {
 public:
  // What the boolean search tells of `n` within about `budget` nodes (its
  // rules and its table at once): whether the side to move wins, with the
  // winning move in `best` (when not null) if it knows one; nullopt when
  // the budget or the time ran out first. A budget of 0 asks only the rules
  // and the table.
  using Known =
      std::function<std::optional<bool>(const Node&, SearchMove* best, std::uint64_t budget)>;

  // `white_wins`: the winner of the positions searched (the root's);
  // `table`, when not null, answers positions of at most `table_pawns` a
  // side exactly. The bounds' table takes `memory_bytes` (16 bytes an entry).
  DistanceSearch(const Board& board, bool white_wins, const Table* table, int table_pawns,
                 bool symmetry, std::uint64_t memory_bytes, Known known);

  // The bounds of `root`'s value proven by `deadline`: exact unless the
  // deadline came first. `progress` is called with the bounds proven so far
  // at the start, after each question, and every 4,096 nodes between (nodes()
  // tells how far it got). `before`, when given, are bounds proven earlier
  // (a saved state's): the questions go on from them. Throws TableError when
  // the table cannot answer a position, and std::invalid_argument when
  // `before` cannot be bounds of `root` (its parity, or past the longest
  // game).
  DistanceBounds solve(const Node& root, std::chrono::steady_clock::time_point deadline,
                       const std::function<void(const DistanceBounds&)>& progress,
                       std::optional<DistanceBounds> before = std::nullopt);

  std::uint64_t nodes() const { return nodes_; }

 private:
  std::optional<int> within(const Node& n, int d);
  // known_(n, best) with the budget of a question of d plies, and
  // aborted_ once it could not tell past the deadline.
  std::optional<bool> known(const Node& n, SearchMove* best, int d);
  // The table's value of `n` when the winner wins it, else nullopt.
  std::optional<int> probe_table(const Node& n) const;

  struct Entry {
    std::uint64_t key;
    std::uint32_t check;
    std::uint16_t lower, upper;  // proven: lower <= n <= upper; 0 and kUnknown when unknown
  };
  static_assert(sizeof(Entry) == 16);
  static constexpr std::uint16_t kUnknown = 0xffff;
  // The slot of `n`, with the key and check an entry of `n` holds there.
  Entry* find(const Node& n, std::uint64_t& key, std::uint32_t& check) const;
  // Keeps lower <= n <= upper for `n`, with what its entry knew.
  void store(const Node& n, int lower, int upper);

  const Board& board_;
  const bool white_wins_;
  const Table* table_;
  const int table_pawns_;
  const bool symmetry_;
  Known known_;
  util::ZeroPages memory_;
  Entry* entries_ = nullptr;
  std::uint64_t mask_ = 0;
  std::uint64_t nodes_ = 0;
  std::chrono::steady_clock::time_point deadline_;
  bool aborted_ = false;
  DistanceBounds bounds_;  // proven so far, for progress_
  const std::function<void(const DistanceBounds&)>* progress_ = nullptr;
};

}  // namespace pawntb::search_detail
