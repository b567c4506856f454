// Independent spot check of a table: random positions that a plain search
// solves quickly (few pawns, or every pawn near its goal), solved by an exact
// minimax over raw bitboards with a transposition map, compared with the
// table's answers. Shares no code with the generator or the index: only the
// Position and ProbeResult types of the public probe API are used, to ask the
// table.
//
// Rules (README.md, FORMAT.md section 2): a pawn steps straight forward onto
// an empty square or diagonally forward onto an enemy pawn, which it removes;
// reaching the far row wins; a side to move with no legal move (in particular
// with no pawns) loses. Value: the winner wins as fast as possible, the loser
// holds out as long as possible.
//
// Squares as in the public API: square = row * cols + col, row 0 the top row
// (white's goal), white moves up (row - 1), black down (row + 1).
//
// Everything here is for tests and the pawntb_spot_check tool; a
// SpotSearch is used by one thread at a time.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "pawntb/probe.hpp"

namespace pawntb_oracle {

// A position as the spot check sees it.
struct SpotPosition {
  int rows = 0;
  int cols = 0;
  std::uint64_t white = 0;  // bitboard of white pawns
  std::uint64_t black = 0;  // bitboard of black pawns
  bool white_to_move = true;
};

// The exact value: who wins and in how many plies.
struct SpotValue {
  bool white_wins = false;
  int plies = 0;
  friend bool operator==(const SpotValue& a, const SpotValue& b) {
    return a.white_wins == b.white_wins && a.plies == b.plies;
  }
};

// Position notation ("1ppp/4/1PPP/4 w"), written here so that a reported
// position can be pasted into `pawntb probe`.
inline std::string spot_notation(const SpotPosition& p) {
  std::string text;
  for (int r = 0; r < p.rows; ++r) {
    if (r > 0) text += '/';
    int empty = 0;
    for (int c = 0; c < p.cols; ++c) {
      const std::uint64_t bit = std::uint64_t{1} << (r * p.cols + c);
      const char ch = (p.white & bit) ? 'P' : (p.black & bit) ? 'p' : '.';
      if (ch == '.') {
        ++empty;
        continue;
      }
      if (empty > 0) text += static_cast<char>('0' + empty);
      empty = 0;
      text += ch;
    }
    if (empty > 0) text += static_cast<char>('0' + empty);
  }
  text += p.white_to_move ? " w" : " b";
  return text;
}

inline std::string spot_value_text(const SpotValue& v) {
  return std::string(v.white_wins ? "white" : "black") + " wins in " + std::to_string(v.plies);
}

// Exact minimax with a transposition map. solve() gives up (nullopt) after
// expanding `node_budget` new positions, so that no sample can hang the check.
// Positions solved before stay in the map for later calls, up to
// `max_entries`, after which the map is emptied.
class SpotSearch {
 public:
  SpotSearch(int rows, int cols, std::uint64_t node_budget, std::size_t max_entries = 4'000'000)
      : rows_(rows), cols_(cols), budget_(node_budget), max_entries_(max_entries) {
    for (int c = 0; c < cols; ++c) {
      top_row_ |= std::uint64_t{1} << c;
      bottom_row_ |= std::uint64_t{1} << ((rows - 1) * cols + c);
    }
  }

  // The value of p; nullopt when it needs more than the node budget. A pawn
  // on its own goal row with its side to move has no value (nullopt too).
  std::optional<SpotValue> solve(const SpotPosition& p) {
    const bool white_done = (p.white & top_row_) != 0;
    const bool black_done = (p.black & bottom_row_) != 0;
    if ((white_done && p.white_to_move) || (black_done && !p.white_to_move)) return std::nullopt;
    if (white_done || black_done) return SpotValue{!p.white_to_move, 0};  // the mover has lost
    if (memo_.size() > max_entries_) memo_.clear();
    nodes_ = 0;
    const std::uint64_t mine = p.white_to_move ? p.white : p.black;
    const std::uint64_t theirs = p.white_to_move ? p.black : p.white;
    const int plies = search(mine, theirs, p.white_to_move);
    if (plies < 0) return std::nullopt;
    const bool mover_wins = plies % 2 == 1;
    return SpotValue{mover_wins == p.white_to_move, plies};
  }

  // New positions the last solve() expanded.
  std::uint64_t last_nodes() const { return nodes_; }

 private:
  struct Key {
    std::uint64_t mine;
    std::uint64_t theirs;
    bool white;
    friend bool operator==(const Key& a, const Key& b) {
      return a.mine == b.mine && a.theirs == b.theirs && a.white == b.white;
    }
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const {
      std::uint64_t h = k.mine * 0x9E3779B97F4A7C15ull;
      h ^= (k.theirs + (k.white ? 0x51ull : 0)) * 0xC2B2AE3D27D4EB4Full;
      return static_cast<std::size_t>(h ^ (h >> 29));
    }
  };

  // Plies to the end with `mine` to move (odd: the mover wins), or -1 when
  // the budget ran out. Precondition: no pawn stands on its goal row.
  int search(std::uint64_t mine, std::uint64_t theirs, bool white) {
    const Key key{mine, theirs, white};
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    if (++nodes_ > budget_) return -1;

    const int step = white ? -cols_ : cols_;
    const std::uint64_t goal = white ? top_row_ : bottom_row_;
    const std::uint64_t occupied = mine | theirs;
    bool any_move = false;
    int best_win = -1;   // fewest plies of a win found
    int best_loss = -1;  // most plies of a loss found
    for (std::uint64_t pawns = mine; pawns != 0; pawns &= pawns - 1) {
      const int from = std::countr_zero(pawns);
      const int col = from % cols_;
      const int straight = from + step;  // on the board: the pawn is not on its goal row
      const int targets[3] = {straight, col > 0 ? straight - 1 : -1,
                              col + 1 < cols_ ? straight + 1 : -1};
      for (int i = 0; i < 3; ++i) {
        const int to = targets[i];
        if (to < 0) continue;
        const std::uint64_t to_bit = std::uint64_t{1} << to;
        const bool legal = i == 0 ? (occupied & to_bit) == 0 : (theirs & to_bit) != 0;
        if (!legal) continue;
        any_move = true;
        if (to_bit & goal) return remember(key, 1);
        const std::uint64_t next_mine = (mine & ~(std::uint64_t{1} << from)) | to_bit;
        const int child = search(theirs & ~to_bit, next_mine, !white);
        if (child < 0) return -1;
        if (child % 2 == 0) {
          if (best_win < 0 || child + 1 < best_win) best_win = child + 1;
        } else if (child + 1 > best_loss) {
          best_loss = child + 1;
        }
      }
    }
    return remember(key, !any_move ? 0 : best_win >= 0 ? best_win : best_loss);
  }

  int remember(const Key& key, int plies) {
    memo_.emplace(key, static_cast<std::uint8_t>(plies));
    return plies;
  }

  int rows_, cols_;
  std::uint64_t budget_;
  std::size_t max_entries_;
  std::uint64_t top_row_ = 0, bottom_row_ = 0;
  std::uint64_t nodes_ = 0;
  std::unordered_map<Key, std::uint8_t, KeyHash> memo_;
};

// Which kind of position draw_spot_position() makes.
enum class SpotKind { few_pawns, near_goal };

// A random position that plain search solves quickly, never over by rule
// before the first move (no pawn on its goal row). few_pawns: 1..min(K, 3)
// pawns a side anywhere off their goal rows. near_goal: 1..K pawns a side,
// each in the three rows nearest its goal (any row off it on boards of 4 rows
// or fewer). Rarely (1 in 16 a side) a side has no pawns at all.
inline SpotPosition draw_spot_position(int rows, int cols, int max_pawns, SpotKind kind,
                                       std::mt19937_64& rng) {
  auto uniform = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  const int most = kind == SpotKind::few_pawns ? std::min(max_pawns, 3) : max_pawns;
  const int zone = kind == SpotKind::few_pawns ? rows - 1 : std::min(3, rows - 1);
  SpotPosition p{rows, cols, 0, 0, uniform(0, 1) == 0};
  // White's rows are 1..zone, black's rows-1-zone..rows-2.
  auto place = [&](std::uint64_t& own, int first_row) {
    const int count = uniform(0, 15) == 0 ? 0 : uniform(1, most);
    std::vector<int> free;
    for (int r = first_row; r < first_row + zone; ++r)
      for (int c = 0; c < cols; ++c)
        if (!((p.white | p.black) >> (r * cols + c) & 1)) free.push_back(r * cols + c);
    std::shuffle(free.begin(), free.end(), rng);
    for (int i = 0; i < count && i < static_cast<int>(free.size()); ++i)
      own |= std::uint64_t{1} << free[static_cast<std::size_t>(i)];
  };
  place(p.white, 1);
  place(p.black, rows - 1 - zone);
  return p;
}

// What the table said about a position, against the search; empty when they
// agree, else one line naming the position and both values.
inline std::string spot_compare(const SpotPosition& p, const SpotValue& expected,
                                const pawntb::ProbeResult& got) {
  if (!got.ok())
    return spot_notation(p) + ": search says " + spot_value_text(expected) +
           ", the table failed: " + pawntb::describe(got.status);
  const SpotValue table{got.winner == pawntb::Side::white, got.plies};
  if (table == expected) return {};
  return spot_notation(p) + ": search says " + spot_value_text(expected) + ", the table says " +
         spot_value_text(table);
}

struct SpotReport {
  std::uint64_t samples = 0;
  std::uint64_t agreed = 0;
  std::uint64_t skipped = 0;  // over the node budget
  std::uint64_t most_nodes = 0;
  int longest = 0;  // most plies of a checked position
  std::vector<std::string> disagreements;
};

using SpotProbe = std::function<pawntb::ProbeResult(const pawntb::Position&)>;

// Draws `samples` positions (alternately few_pawns and near_goal) from `seed`,
// solves each with a SpotSearch of `node_budget` and compares with `probe`.
inline SpotReport run_spot_check(int rows, int cols, int max_pawns, const SpotProbe& probe,
                                 std::uint64_t samples, std::uint64_t seed,
                                 std::uint64_t node_budget) {
  std::mt19937_64 rng(seed);
  SpotSearch search(rows, cols, node_budget);
  SpotReport report;
  for (std::uint64_t i = 0; i < samples; ++i) {
    const SpotKind kind = i % 2 == 0 ? SpotKind::few_pawns : SpotKind::near_goal;
    const SpotPosition p = draw_spot_position(rows, cols, max_pawns, kind, rng);
    ++report.samples;
    const std::optional<SpotValue> expected = search.solve(p);
    report.most_nodes = std::max(report.most_nodes, search.last_nodes());
    if (!expected) {
      ++report.skipped;
      continue;
    }
    const pawntb::Position position{{rows, cols},
                                    p.white,
                                    p.black,
                                    p.white_to_move ? pawntb::Side::white : pawntb::Side::black};
    std::string disagreement = spot_compare(p, *expected, probe(position));
    if (disagreement.empty()) {
      ++report.agreed;
      report.longest = std::max(report.longest, expected->plies);
    } else {
      report.disagreements.push_back(std::move(disagreement));
    }
  }
  return report;
}

}  // namespace pawntb_oracle
