// The transposition table: proven results (win or loss for the side to
// move, and the winning move), in a fixed number of 64-byte buckets of eight
// entries. Lock-free for any number of threads: each entry is one 64-bit
// word, written and read whole.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>

#include "board.hpp"
#include "pawntb/util/bits.hpp"
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
  // At most `bytes` (at least one bucket) of 64-byte buckets, in zero pages from the kernel (util::ZeroPages): only the pages a search
  // touches are ever filled, and on huge pages.
  // `cols`: the board's, which the moves are stored against.
  TranspositionTable(std::uint64_t bytes, int cols) : cols_(cols) {
    pages_ = util::ZeroPages(bytes_for(bytes));
    buckets_ = static_cast<Bucket*>(pages_.data());
    count_ = pages_.size() / sizeof(Bucket);
  }

  // The size of the table that `bytes` make.
  static std::uint64_t bytes_for(std::uint64_t bytes) {
    return std::max<std::uint64_t>(bytes / sizeof(Bucket), 1) * sizeof(Bucket);
  }

  std::uint64_t bytes() const { return count_ * sizeof(Bucket); }
  std::uint64_t entries() const { return count_ * kWays; }
  std::uint64_t used() const { return used_.load(std::memory_order_relaxed); }

  // The table as 64-bit words (one an entry), for saving and loading a
  // search's state (state.cpp). copy_out() may run beside the search: each
  // word is read whole. copy_in() only while no search runs; it recounts
  // used().
  std::uint64_t words() const { return count_ * kWays; }
  void copy_out(std::uint64_t first, std::uint64_t* out, std::uint64_t count) const {
    const std::uint64_t* w = reinterpret_cast<const std::uint64_t*>(buckets_) + first;
    for (std::uint64_t i = 0; i < count; ++i) out[i] = load(w[i]);
  }
  void copy_in(std::uint64_t first, const std::uint64_t* in, std::uint64_t count) {
    std::uint64_t* w = reinterpret_cast<std::uint64_t*>(buckets_) + first;
    std::uint64_t used = 0;
    for (std::uint64_t i = 0; i < count; ++i) {
      w[i] = in[i];
      used += (in[i] & kValid) != 0;
    }
    used_.fetch_add(used, std::memory_order_relaxed);
  }

  // Starts loading the bucket of `h`, so that a probe soon after does not wait.
  void prefetch(const NodeHash& h) const { __builtin_prefetch(&bucket(h)); }

  TtResult probe(const NodeHash& h) const {
    const Bucket& b = bucket(h);
    const std::uint64_t check = h.check & kCheckMask;
    for (int i = 0; i < kWays; ++i) {
      const std::uint64_t e = load(b.entry[i]);
      if ((e & kValid) && (e & kCheckMask) == check) {
        TtResult r;
        r.found = true;
        r.wins = e & kWins;
        r.has_move = decode_move(e, r.move);
        return r;
      }
    }
    return {};
  }

  // Stores a proven result; `work` (nodes searched for it) decides which
  // entry of a full bucket is replaced: the one of least work.
  void store(const NodeHash& h, bool wins, const SearchMove* move, std::uint64_t work) {
    Bucket& b = bucket(h);
    const std::uint64_t log_work =
        std::min<std::uint64_t>(64 - std::countl_zero(work | 1), kMaxLogWork);
    const std::uint64_t check = h.check & kCheckMask;
    const std::uint64_t e = kValid | (wins ? kWins : 0) | (move ? encode_move(*move) : 0) |
                            (log_work << kWorkShift) | check;
    int victim = 0;
    std::uint64_t least = ~0ULL;
    for (int i = 0; i < kWays; ++i) {
      const std::uint64_t d = load(b.entry[i]);
      if (!(d & kValid)) {
        victim = i;
        used_.fetch_add(1, std::memory_order_relaxed);
        break;
      }
      if ((d & kCheckMask) == check) {
        victim = i;
        break;
      }
      const std::uint64_t w = (d >> kWorkShift) & kMaxLogWork;
      if (w < least) {
        least = w;
        victim = i;
      }
    }
    store(b.entry[victim], e);
  }

 private:
  // An entry is one word, written and read whole, so threads never see
  // half of one:
  //   bit  0      valid
  //   bit  1      the side to move wins
  //   bits 2-7    the winning move's square (when bits 8-9 are not 0)
  //   bits 8-9    where it goes beside the square ahead: 1 a file lower,
  //               2 straight on, 3 a file higher; 0 no move
  //   bit  10     the move is white's (toward lower squares)
  //   bits 11-15  log2 of the nodes the result took, at most 31
  //   bits 16-63  48 bits of the second hash
  // A probe compares 48 bits with the at most 8 entries of its bucket, so
  // it takes another position's result with a chance of 8 / 2^48 whatever
  // the table's size: about 0.3 % over 1e11 probes, 3 % over 1e12. A
  // checked certificate, or a second proof from another root order, is
  // what rules that out for a board.
  static constexpr int kWays = 8;
  static constexpr std::uint64_t kValid = 1, kWins = 2;
  static constexpr int kFromShift = 2, kKindShift = 8, kWhiteShift = 10, kWorkShift = 11;
  static constexpr std::uint64_t kMaxLogWork = 31;
  static constexpr std::uint64_t kCheckMask = ~std::uint64_t{0} << 16;
  static_assert((kMaxLogWork << kWorkShift) < (std::uint64_t{1} << 16));

  // A pawn's move goes a row ahead, straight on or a file aside: its
  // square, its side (the direction) and which of the three squares say it.
  std::uint64_t encode_move(SearchMove m) const {
    const bool white = m.to < m.from;
    const int aside = m.to - m.from + (white ? cols_ : -cols_);  // -1, 0 or 1
    return (std::uint64_t{m.from} << kFromShift) |
           (static_cast<std::uint64_t>(aside + 2) << kKindShift) |
           (std::uint64_t{white} << kWhiteShift);
  }
  bool decode_move(std::uint64_t e, SearchMove& m) const {
    const int kind = static_cast<int>((e >> kKindShift) & 3);
    if (kind == 0) return false;
    const int from = static_cast<int>((e >> kFromShift) & 63);
    const bool white = (e >> kWhiteShift) & 1;
    m = {static_cast<std::uint8_t>(from),
         static_cast<std::uint8_t>(from + (white ? -cols_ : cols_) + kind - 2)};
    return true;
  }

  struct alignas(64) Bucket {
    std::uint64_t entry[kWays];
  };
  static_assert(sizeof(Bucket) == 64);
  // Any number of buckets, so that --memory 12G is a 12 GiB table.
  Bucket& bucket(const NodeHash& h) const { return buckets_[util::scale_to(h.key, count_)]; }
  static std::uint64_t load(const std::uint64_t& word) {
    return std::atomic_ref<std::uint64_t>(const_cast<std::uint64_t&>(word))
        .load(std::memory_order_relaxed);
  }
  static void store(std::uint64_t& word, std::uint64_t value) {
    std::atomic_ref<std::uint64_t>(word).store(value, std::memory_order_relaxed);
  }
  int cols_;
  util::ZeroPages pages_;
  Bucket* buckets_ = nullptr;
  std::uint64_t count_ = 0;
  std::atomic<std::uint64_t> used_{0};
};

}  // namespace pawntb::search_detail
