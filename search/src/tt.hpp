// The transposition table: proven results (win or loss for the side to
// move, and the winning move), in a fixed number of 64-byte buckets of four
// entries. Lock-free for any number of threads: each entry is two 64-bit
// words, the key stored XOR the data, so that a torn entry reads as a miss.
#pragma once

#include <atomic>
#include <bit>
#include <cstdint>
#include <memory>

#include "board.hpp"

namespace pawntb::search_detail {

// Two independent 64-bit hashes of a node: the first picks the bucket and is
// the key, 32 bits of the second are checked too, so that two positions are
// confused only when 96 bits agree.
struct NodeHash {
  std::uint64_t key, check;
};

inline std::uint64_t mix64(std::uint64_t x) {  // splitmix64's finalizer
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

inline NodeHash hash_node(const Node& n) {
  const std::uint64_t side = n.white_to_move ? 0x9e3779b97f4a7c15ULL : 0x632be59bd9b4e019ULL;
  return {mix64(n.white + mix64(n.black ^ side)), mix64(n.black + mix64(n.white + side))};
}

struct TtResult {
  bool found = false;
  bool wins = false;
  bool has_move = false;
  SearchMove move;
};

class TranspositionTable {
 public:
  // At most `bytes` (at least one bucket), a power of two of buckets.
  explicit TranspositionTable(std::uint64_t bytes) {
    std::uint64_t buckets = std::bit_floor(std::max<std::uint64_t>(bytes / sizeof(Bucket), 1));
    buckets_ = std::make_unique<Bucket[]>(buckets);
    mask_ = buckets - 1;
  }

  std::uint64_t bytes() const { return (mask_ + 1) * sizeof(Bucket); }
  std::uint64_t entries() const { return (mask_ + 1) * kWays; }
  std::uint64_t used() const { return used_.load(std::memory_order_relaxed); }

  // Starts loading the bucket of `h`, so that a probe soon after does not wait.
  void prefetch(const NodeHash& h) const { __builtin_prefetch(&buckets_[h.key & mask_]); }

  TtResult probe(const NodeHash& h) const {
    const Bucket& b = buckets_[h.key & mask_];
    for (int i = 0; i < kWays; ++i) {
      const std::uint64_t data = b.data[i].load(std::memory_order_relaxed);
      const std::uint64_t key = b.key[i].load(std::memory_order_relaxed);
      if ((data & kValid) && (key ^ data) == h.key && (data >> 32) == (h.check >> 32)) {
        TtResult r;
        r.found = true;
        r.wins = data & kWins;
        r.has_move = data & kHasMove;
        r.move = {static_cast<std::uint8_t>((data >> 2) & 63),
                  static_cast<std::uint8_t>((data >> 8) & 63)};
        return r;
      }
    }
    return {};
  }

  // Stores a proven result; `work` (nodes searched for it) decides which
  // entry of a full bucket is replaced: the one of least work.
  void store(const NodeHash& h, bool wins, const SearchMove* move, std::uint64_t work) {
    Bucket& b = buckets_[h.key & mask_];
    const std::uint64_t log_work = 64 - std::countl_zero(work | 1);
    std::uint64_t data =
        kValid | (wins ? kWins : 0) | (log_work << 16) | (h.check & ~0xffffffffULL);
    if (move) data |= kHasMove | (std::uint64_t{move->from} << 2) | (std::uint64_t{move->to} << 8);
    int victim = 0;
    std::uint64_t least = ~0ULL;
    for (int i = 0; i < kWays; ++i) {
      const std::uint64_t d = b.data[i].load(std::memory_order_relaxed);
      const std::uint64_t k = b.key[i].load(std::memory_order_relaxed);
      if (!(d & kValid)) {
        victim = i;
        least = 0;
        used_.fetch_add(1, std::memory_order_relaxed);
        break;
      }
      if ((k ^ d) == h.key) {
        victim = i;
        break;
      }
      const std::uint64_t w = (d >> 16) & 63;
      if (w < least) {
        least = w;
        victim = i;
      }
    }
    b.data[victim].store(data, std::memory_order_relaxed);
    b.key[victim].store(h.key ^ data, std::memory_order_relaxed);
  }

 private:
  static constexpr int kWays = 4;
  static constexpr std::uint64_t kValid = 1, kWins = 2, kHasMove = 1 << 14;
  struct alignas(64) Bucket {
    std::atomic<std::uint64_t> key[kWays]{};
    std::atomic<std::uint64_t> data[kWays]{};
  };
  std::unique_ptr<Bucket[]> buckets_;
  std::uint64_t mask_ = 0;
  std::atomic<std::uint64_t> used_{0};
};

}  // namespace pawntb::search_detail
