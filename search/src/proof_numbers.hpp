// Depth-first proof-number search (df-pn; Nagai 2002), with the 1+epsilon
// trick of Pawlewicz and Lew (2007): `pawntb solve --algorithm dfpn`, the
// second algorithm beside the boolean depth-first search (docs/search.md,
// "Proof numbers"). It finds the same facts, kept in the same table of
// proven results, and so shares the rules, the tables as leaves, the
// certificate's walk and the saved state with it.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <vector>

#include "board.hpp"
#include "pawntb/util/memory.hpp"
#include "tt.hpp"

namespace pawntb::search_detail {

class ProofNumberSearch {
 public:
  // What the search asks of its host (solver.cpp), which owns the rules, the
  // table of proven results and the stop.
  struct Host {
    // What the rules, a table or a proven result say of a node, as
    // Worker::settle; nullopt when none applies.
    std::function<std::optional<bool>(const Node&, const NodeHash&)> settle;
    // Keeps a proven result (the side to move of the node of `hash` wins or
    // loses; its winning move in the node's own frame) and the work it took.
    std::function<void(const NodeHash&, bool wins, const SearchMove* move, std::uint64_t work)>
        proven;
    // The node's hash in the table of proven results.
    std::function<NodeHash(const Node&)> hash;
    // Called every 1024 nodes with the nodes since the last call; true: stop.
    std::function<bool(std::uint64_t)> poll;
    // A move of the root decided: whether it wins for the root's side to move.
    std::function<void(SearchMove, bool)> root_move;
  };

  // `threats`: a reply that leaves the opponent a win in one is not searched
  // (Knowledge::threats); `ordered`: ties between children go to captures,
  // then to the pawns nearest their goal. The table of proof numbers takes
  // `memory_bytes` (16 bytes an entry, 64 a bucket).
  ProofNumberSearch(const Board& board, bool threats, bool ordered, std::uint64_t memory_bytes,
                    Host host);

  // Whether the side to move wins `root`, which the rules leave open;
  // nullopt when Host::poll stopped the search.
  std::optional<bool> prove(const Node& root);

 private:
  // Proof and disproof numbers of the side to move: phi, the least number of
  // positions still to prove that it wins; delta, to prove that it loses. A
  // proven node has phi = 0 (a win) or delta = 0 (a loss), and then the
  // other is kInfinity; an open one has both in 1 .. kInfinity - 1 (sums
  // stop there).
  struct Numbers {
    std::uint64_t phi, delta;
  };
  static constexpr std::uint64_t kInfinity = 0xffffffffULL;

  struct Child {
    Node node;
    NodeHash hash;
    SearchMove move;
    Numbers numbers;
  };

  Numbers mid(const Node& n, const NodeHash& h, std::uint64_t th_phi, std::uint64_t th_delta,
              std::size_t ply);
  // The numbers stored for `h`, or (1, 1) for a node never searched.
  Numbers numbers(const NodeHash& h) const;
  void store(const NodeHash& h, Numbers x);

  // An open node's numbers: key, then phi in the low and delta in the high
  // half of one word. A full bucket gives up the entry of least phi + delta,
  // the cheapest to find again. Entries are hints: a wrong or lost one costs
  // work, never a wrong answer, because only proven results (kept by the
  // host, with their 96-bit check) end a line.
  struct Entry {
    std::uint64_t key, numbers;
  };
  static constexpr int kWays = 4;

  const Board& board_;
  const bool threats_, ordered_;
  Host host_;
  util::ZeroPages memory_;
  Entry* entries_ = nullptr;
  std::uint64_t bucket_mask_ = 0;
  // The children of the node at each ply; a deque, so that a frame stays
  // where it is while deeper ones are added.
  std::deque<std::vector<Child>> frames_;
  std::uint64_t nodes_ = 0, polled_ = 0;
  bool aborted_ = false;
};

}  // namespace pawntb::search_detail
