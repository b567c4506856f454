// The transposition table: proven results (win or loss for the side to
// move, and the winning move), in a fixed number of 64-byte buckets of four
// entries. Lock-free for any number of threads: each entry is two 64-bit
// words, the key stored XOR the data, so that a torn entry reads as a miss.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>

#include "board.hpp"
#include "pawntb/util/memory.hpp"

namespace pawntb::search_detail {

// Two independent 64-bit hashes of a node: the first picks the bucket and is
// the key, 32 bits of the second are checked too, so that two positions are
// confused only when 96 bits agree. `mirrored`: the hash is of the node's
// mirror image (canonical_hash), whose moves the table holds.
struct NodeHash {
  std::uint64_t key, check;
  bool mirrored;
};

inline std::uint64_t mix64(std::uint64_t x) {  // splitmix64's finalizer
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// The hash of exactly `n`.
inline NodeHash hash_node(const Node& n, bool mirrored = false) {
  const std::uint64_t side = n.white_to_move ? 0x9e3779b97f4a7c15ULL : 0x632be59bd9b4e019ULL;
  return {mix64(n.white + mix64(n.black ^ side)), mix64(n.black + mix64(n.white + side)),
          mirrored};
}

// The hash of `n` or of its mirror image, whichever is smaller as (white,
// black): a position and its mirror share one entry. Without `symmetry`,
// that of `n`.
inline NodeHash canonical_hash(const Node& n, bool symmetry) {
  if (!symmetry) return hash_node(n);
  const bool mirrored =
      n.mirror_white < n.white || (n.mirror_white == n.white && n.mirror_black < n.black);
  if (!mirrored) return hash_node(n);
  return hash_node(Node{n.mirror_white, n.mirror_black, n.white, n.black, n.white_to_move}, true);
}
struct TtResult {
  bool found = false;
  bool wins = false;
  bool has_move = false;
  SearchMove move{};
};

class TranspositionTable {
 public:
  // At most `bytes` (at least one bucket), a power of two of buckets, in
  // zero pages from the kernel (util::ZeroPages): only the pages a search
  // touches are ever filled, and on huge pages.
  explicit TranspositionTable(std::uint64_t bytes) {
    pages_ = util::ZeroPages(bytes_for(bytes));
    buckets_ = static_cast<Bucket*>(pages_.data());
    mask_ = pages_.size() / sizeof(Bucket) - 1;
  }

  // The size of the table that `bytes` make.
  static std::uint64_t bytes_for(std::uint64_t bytes) {
    return std::bit_floor(std::max<std::uint64_t>(bytes / sizeof(Bucket), 1)) * sizeof(Bucket);
  }

  std::uint64_t bytes() const { return (mask_ + 1) * sizeof(Bucket); }
  std::uint64_t entries() const { return (mask_ + 1) * kWays; }
  std::uint64_t used() const { return used_.load(std::memory_order_relaxed); }

  // The table as 64-bit words, for saving and loading a search's state
  // (state.cpp). copy_out() may run beside the search: each word is read
  // whole. copy_in() only while no search runs; it recounts used().
  std::uint64_t words() const { return (mask_ + 1) * (sizeof(Bucket) / 8); }
  void copy_out(std::uint64_t first, std::uint64_t* out, std::uint64_t count) const {
    const std::uint64_t* w = reinterpret_cast<const std::uint64_t*>(buckets_) + first;
    for (std::uint64_t i = 0; i < count; ++i) out[i] = load(w[i]);
  }
  void copy_in(std::uint64_t first, const std::uint64_t* in, std::uint64_t count) {
    std::uint64_t* w = reinterpret_cast<std::uint64_t*>(buckets_) + first;
    std::uint64_t used = 0;
    for (std::uint64_t i = 0; i < count; ++i) {
      w[i] = in[i];
      // A bucket's words are its kWays keys, then its kWays data words.
      used += ((first + i) % (2 * kWays)) >= kWays && (in[i] & kValid);
    }
    used_.fetch_add(used, std::memory_order_relaxed);
  }

  // Starts loading the bucket of `h`, so that a probe soon after does not wait.
  void prefetch(const NodeHash& h) const { __builtin_prefetch(&buckets_[h.key & mask_]); }

  TtResult probe(const NodeHash& h) const {
    const Bucket& b = buckets_[h.key & mask_];
    for (int i = 0; i < kWays; ++i) {
      const std::uint64_t data = load(b.data[i]);
      const std::uint64_t key = load(b.key[i]);
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
      const std::uint64_t d = load(b.data[i]);
      const std::uint64_t k = load(b.key[i]);
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
    store(b.data[victim], data);
    store(b.key[victim], h.key ^ data);
  }

 private:
  static constexpr int kWays = 4;
  static constexpr std::uint64_t kValid = 1, kWins = 2, kHasMove = 1 << 14;
  // Plain words in zeroed pages, read and written as atomics (relaxed: an
  // entry's two words are checked against each other, not ordered).
  struct alignas(64) Bucket {
    std::uint64_t key[kWays];
    std::uint64_t data[kWays];
  };
  static_assert(sizeof(Bucket) == 64);
  static std::uint64_t load(const std::uint64_t& word) {
    return std::atomic_ref<std::uint64_t>(const_cast<std::uint64_t&>(word))
        .load(std::memory_order_relaxed);
  }
  static void store(std::uint64_t& word, std::uint64_t value) {
    std::atomic_ref<std::uint64_t>(word).store(value, std::memory_order_relaxed);
  }
  util::ZeroPages pages_;
  Bucket* buckets_ = nullptr;
  std::uint64_t mask_ = 0;
  std::atomic<std::uint64_t> used_{0};
};

}  // namespace pawntb::search_detail
