#include "proof_numbers.hpp"

#include <algorithm>
#include <bit>
#include <utility>

namespace pawntb::search_detail {

ProofNumberSearch::ProofNumberSearch(const Board& board, bool threats, bool ordered,
                                     std::uint64_t memory_bytes, Host host)
    : board_(board), threats_(threats), ordered_(ordered), host_(std::move(host)) {
  const std::uint64_t bucket = kWays * sizeof(Entry);
  const std::uint64_t buckets = std::bit_floor(std::max<std::uint64_t>(memory_bytes / bucket, 1));
  memory_ = util::ZeroPages(buckets * bucket);
  entries_ = static_cast<Entry*>(memory_.data());
  bucket_mask_ = buckets - 1;
}

std::optional<bool> ProofNumberSearch::prove(const Node& root) {
  aborted_ = false;
  // Thresholds of kInfinity: the root's search returns only when it is
  // proven one way or the other (an open node's numbers stay below it).
  const Numbers r = mid(root, host_.hash(root), kInfinity, kInfinity, 0);
  host_.poll(nodes_ - polled_);
  polled_ = nodes_;
  if (aborted_) return std::nullopt;
  return r.phi == 0;
}

ProofNumberSearch::Numbers ProofNumberSearch::numbers(const NodeHash& h) const {
  const Entry* b = entries_ + (h.key & bucket_mask_) * kWays;
  for (int i = 0; i < kWays; ++i) {
    if (b[i].numbers != 0 && b[i].key == h.key) {
      return {b[i].numbers & kInfinity, b[i].numbers >> 32};
    }
  }
  return {1, 1};  // never searched: one position to prove either way
}

void ProofNumberSearch::store(const NodeHash& h, Numbers x) {
  Entry* b = entries_ + (h.key & bucket_mask_) * kWays;
  int victim = 0;
  std::uint64_t least = ~std::uint64_t{0};
  for (int i = 0; i < kWays; ++i) {
    if (b[i].numbers == 0 || b[i].key == h.key) {
      victim = i;
      break;
    }
    const std::uint64_t size = (b[i].numbers & kInfinity) + (b[i].numbers >> 32);
    if (size < least) {
      least = size;
      victim = i;
    }
  }
  b[victim] = {h.key, x.phi | (x.delta << 32)};
}

// MID (multiple iterative deepening), in negamax form. At a node n with
// children c_i (the moves not settled by the rules):
//   phi(n)   = min_i delta(c_i)   (n's mover wins when one child is lost)
//   delta(n) = sum_i phi(c_i)     (n's mover loses when every child is won)
// mid(n, T_phi, T_delta) searches below n until phi(n) >= T_phi or
// delta(n) >= T_delta, always in the most-proving child c1, the one of least
// delta, with thresholds that make it return as soon as c1 stops being
// n's most-proving child or n exceeds its own:
//   T_phi(c1)   = T_delta - delta(n) + phi(c1)   (delta(n) reaches T_delta)
//   T_delta(c1) = min(T_phi, delta2 + delta2 / 4 + 1)
// where delta2 is the second least delta among the children. Plain df-pn
// has delta2 + 1; the quarter more (the 1+epsilon trick, epsilon = 1/4)
// lets c1 stay a little longer before the search switches to its sibling,
// which otherwise happens at every step on nearly equal children.
// Worked example: children (phi, delta) = (3, 2), (1, 5), (4, 9) give
// phi(n) = 2 and delta(n) = 8; with T_phi = T_delta = 100 the search enters
// the first child with T_phi = 100 - 8 + 3 = 95 and T_delta = min(100,
// 5 + 1 + 1) = 7. The game's graph has no cycles (every move advances a
// pawn), so df-pn's cycle troubles do not arise; transpositions count a
// position once per path, which only misjudges work.
ProofNumberSearch::Numbers ProofNumberSearch::mid(const Node& n, const NodeHash& h,
                                                  std::uint64_t th_phi, std::uint64_t th_delta,
                                                  std::size_t ply) {
  if ((++nodes_ & 1023) == 0) {
    aborted_ = aborted_ || host_.poll(nodes_ - polled_);
    polled_ = nodes_;
  }
  if (aborted_) return {1, 1};
  const std::uint64_t start = nodes_;
  // Below the root, a node may have been proven since its parent looked.
  if (ply > 0) {
    if (const std::optional<bool> known = host_.settle(n, h)) {
      return *known ? Numbers{0, kInfinity} : Numbers{kInfinity, 0};
    }
  }
  if (frames_.size() <= ply) frames_.resize(ply + 1);
  std::vector<Child>& children = frames_[ply];
  children.clear();
  const auto won = [&](const SearchMove& m) {
    host_.proven(h, true, &m, nodes_ - start);
    if (ply == 0) host_.root_move(m, true);
    return Numbers{0, kInfinity};
  };
  SearchMoves list;
  board_.moves(n, ordered_, list);
  for (int i = 0; i < list.size; ++i) {
    Child c;
    c.move = list.moves[i];
    c.node = board_.play(n, c.move);
    if (threats_ && !board_.opponent_arrived(c.node) &&
        board_.winning_pawns(c.node.mover(), c.node.other(), c.node.white_to_move)) {
      continue;  // the reply wins in one: this move loses
    }
    c.hash = host_.hash(c.node);
    if (const std::optional<bool> known = host_.settle(c.node, c.hash)) {
      if (*known) continue;  // won for the opponent: this move loses
      return won(c.move);
    }
    c.numbers = numbers(c.hash);
    children.push_back(c);
  }
  for (;;) {
    if (children.empty()) {
      host_.proven(h, false, nullptr, nodes_ - start);
      return {kInfinity, 0};
    }
    std::uint64_t phi = kInfinity, delta2 = kInfinity, delta = 0;
    std::size_t best = 0;
    for (std::size_t i = 0; i < children.size(); ++i) {
      const Numbers& x = children[i].numbers;
      if (x.delta < phi) {
        delta2 = phi;
        phi = x.delta;
        best = i;
      } else if (x.delta < delta2) {
        delta2 = x.delta;
      }
      delta = std::min(delta + x.phi, kInfinity - 1);
    }
    if (phi >= th_phi || delta >= th_delta) {
      store(h, {phi, delta});
      return {phi, delta};
    }
    const std::uint64_t child_th_phi = th_delta - delta + children[best].numbers.phi;
    const std::uint64_t child_th_delta =
        std::min(th_phi, delta2 >= kInfinity ? kInfinity : delta2 + delta2 / 4 + 1);
    // A copy: it is used after the erase below.
    const Child c = children[best];
    const Numbers r = mid(c.node, c.hash, child_th_phi, child_th_delta, ply + 1);
    if (aborted_) return {1, 1};
    if (r.delta == 0) return won(c.move);  // the reply is lost for the opponent
    if (r.phi == 0) {  // the reply wins for the opponent: this move loses
      if (ply == 0) host_.root_move(c.move, false);
      children.erase(children.begin() + static_cast<std::ptrdiff_t>(best));
      continue;
    }
    children[best].numbers = r;
  }
}

}  // namespace pawntb::search_detail
