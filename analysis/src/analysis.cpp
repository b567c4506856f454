#include "pawntb/analysis.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <map>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <tuple>

#include "pawntb/check.hpp"
#include "pawntb/format/index.hpp"
#include "pawntb/format/stored.hpp"
#include "pawntb/format/values.hpp"
#include "pawntb/format/walk.hpp"
#include "pawntb/game/bitboard.hpp"
#include "pawntb/notation.hpp"
#include "pawntb/util/threads.hpp"

// HOW THE WALK GOES (it decodes the blocks in index order, each once when the
// bits of the whole table fit in memory, and probes nothing).
//
// VALUES. A decoded block holds every entry's value but the mirror images',
// which hold 0 (FORMAT.md 7). An entry (W, B) is a mirror image when its
// mirror (mW, mB) is the smaller pair, W compared first; its value is its
// mirror's. So only the other entries, the CANONICAL ones, are counted, each
// twice when its mirror is another entry (mW, mB) != (W, B), once when it is
// its own mirror. In a lane (the entries sharing W, consecutive) with
// mW > W every entry is canonical and its mirror another; with mW < W none
// is; with mW = W the walk looks at each B.
//
// ZUGZWANGS. The colour flip of (W, B), black to move, is the entry
// f = (flip_rows(B), flip_rows(W)) with white to move (FORMAT.md 6.2). The
// entry is a zugzwang iff both it and f lose for their side to move (even
// plies). f lies in the FLIP SLICE: its row profiles are those of (W, B) with
// colours and rows swapped, so every entry of a slice s flips into one slice
// s', and s'' = s. A WINDOW is a set of slices closed under the flip whose
// entries fit, a bit each, under the memory bound; the table is cut into
// windows, and each is done in two passes:
//   1. its blocks are decoded and its canonical entries counted (VALUES), and
//      each canonical entry that loses sets its bit;
//   2. for each set bit in a slice s with s' >= s, the canonical form of f
//      (f or its mirror, the same value) is ranked and its bit read; a
//      zugzwang there is one of s', f, too (and so are their mirror images),
//      so the slices with s' < s are not walked.
// The windows are whole layers, the tiers with the same pawns and advancement
// total (a flip keeps both, so a layer is closed, and its tiers are
// consecutive: one stretch of entries), as many as fit; a layer that does not
// fit alone is cut into pairs of flipped tiers, and such a pair into pairs of
// flipped slices. The largest slice of any board up to 7x6, 4x8 and 5x7 has
// at most 1,021,025,250 entries (5x7), so a pair needs at most 256 MiB.
//   Example (4x4, K = 4): tier (1, 1, 2, 2), entries 12-27 (one white pawn
//   on row 1, one black pawn on row 2), flips into itself: the entry of W =
//   a3, B = c2 flips into W = c3, B = a2. The layer of two pawns with
//   advancement total 4 holds that tier alone.
//
// EXAMPLES. The smallest index of a material with its longest win, and the
// smallest zugzwangs, must count the mirror images too: the index of a
// canonical entry's mirror is computed when it could be smaller than what is
// kept.
//
// RESUME. After each window the workers' tallies join the total, and the
// window's ranges the walked entries: a StatsState. Every tally is a sum, a
// maximum with the smallest index, or the smallest indices, so the total
// does not depend on the order of the windows nor on how the table was cut:
// a walk resumed under another memory budget plans its windows over the
// slices not walked yet (whole flip pairs, as every window holds) and ends
// with the same figures.

namespace pawntb::analysis {

namespace {

using format::Index;
using game::board_bytes;
using game::BoardSymmetry;
using game::geometry_number;
using game::low_bits;

constexpr int kSide = StatsState::kSide;  // pawns a side: 0..8
static_assert(kSide == format::kMaxPawns + 1);
// Entries a worker takes at a time: a multiple of 64, so that two chunks never
// share a word of bits.
constexpr std::uint64_t kChunk = std::uint64_t{1} << 18;
static_assert(kChunk % 64 == 0);

// What one worker learns about the white-to-move entries of one material.
using EntryMaterial = MaterialTally;

struct Partial {
  std::array<std::uint64_t, 256> plies{};                // entries by their value
  std::array<EntryMaterial, kSide * kSide> materials{};  // [white pawns * kSide + black pawns]
};

// Keeps the `limit` smallest values seen.
void keep_smallest(std::vector<std::uint64_t>& kept, std::uint64_t value, std::size_t limit) {
  if (kept.size() < limit) {
    kept.push_back(value);
    return;
  }
  const auto largest = std::max_element(kept.begin(), kept.end());
  if (largest != kept.end() && value < *largest) *largest = value;
}

// Whether keep_smallest could keep a value of at least `low`.
bool may_keep(const std::vector<std::uint64_t>& kept, std::uint64_t low, std::size_t limit) {
  if (kept.size() < limit) return true;
  return !kept.empty() && *std::max_element(kept.begin(), kept.end()) > low;
}

// Entries [first, end) of a window with their bits from word `word` on: the
// bit of entry i is bit i % 64 of word word + i / 64 - first / 64.
struct Range {
  std::uint64_t first = 0, end = 0, word = 0;
};

// The bits of one range, at its entries' indices.
struct RangeBits {
  std::uint64_t* words;
  std::uint64_t skip;  // first / 64 of the range
  std::uint64_t& word(std::uint64_t i) const { return words[(i >> 6) - skip]; }
  bool test(std::uint64_t i) const { return word(i) >> (i & 63) & 1; }
  // Whether any bit of entries [begin, end) is set.
  bool any(std::uint64_t begin, std::uint64_t end) const {
    const std::uint64_t first = begin >> 6, last = (end - 1) >> 6;
    const std::uint64_t head = ~std::uint64_t{0} << (begin & 63);
    const std::uint64_t tail = ~std::uint64_t{0} >> (63 - ((end - 1) & 63));
    if (first == last) return words[first - skip] & head & tail;
    if (words[first - skip] & head) return true;
    for (std::uint64_t w = first + 1; w < last; ++w) {
      if (words[w - skip]) return true;
    }
    return words[last - skip] & tail;
  }
};

// A window's loss bits (HOW THE WALK GOES).
class WindowBits {
 public:
  // Starts a window of these ranges (in order, disjoint), every bit clear.
  void reset(std::vector<Range> ranges) {
    ranges_ = std::move(ranges);
    std::uint64_t words = 0;
    for (Range& r : ranges_) {
      r.word = words;
      words += ((r.end - 1) >> 6) - (r.first >> 6) + 1;
    }
    if (words > capacity_) {
      words_.reset();
      words_ = std::make_unique<std::uint64_t[]>(words);
      capacity_ = words;
    }
    std::fill_n(words_.get(), words, 0);
  }
  std::span<const Range> ranges() const { return ranges_; }
  // Range r's bits; chunks of a window, each on one worker, write distinct words.
  RangeBits of(const Range& r) const { return RangeBits{words_.get() + r.word, r.first >> 6}; }
  // The word that holds the bit of an entry of the window.
  const std::uint64_t* word_of(std::uint64_t i) const {
    if (ranges_.size() == 1) return &of(ranges_.front()).word(i);
    const auto after =
        std::upper_bound(ranges_.begin(), ranges_.end(), i,
                         [](std::uint64_t x, const Range& r) { return x < r.first; });
    return &of(*(after - 1)).word(i);
  }

 private:
  std::vector<Range> ranges_;
  std::unique_ptr<std::uint64_t[]> words_;
  std::uint64_t capacity_ = 0;  // words
};

// A chunk of a window: entries [first, end) within one of its ranges.
struct Chunk {
  std::uint64_t first = 0, end = 0;
  const Range* range = nullptr;
};

class Walker {
 public:
  Walker(const Table& table, const StatsOptions& options)
      : table_(table),
        index_(table.info().geometry, table.info().max_pawns),
        symmetry_(table.info().geometry),
        examples_(options.zugzwang_examples) {
    for (const Index::Slice& s : index_.slices()) slice_firsts_.push_back(s.first);
    flip_.resize(slice_firsts_.size());
    for (std::size_t s = 0; s < flip_.size(); ++s) flip_[s] = flip_slice(s);
  }

  const Index& index() const { return index_; }

  // The slice that holds entry i.
  std::size_t slice_of(std::uint64_t i) const {
    return static_cast<std::size_t>(
        std::upper_bound(slice_firsts_.begin(), slice_firsts_.end(), i) - slice_firsts_.begin() -
        1);
  }

  // The flip slice of slice s (HOW THE WALK GOES); s itself if its entries
  // have no black pawn (then the flip has no pawn to move, and no entry).
  std::size_t flip(std::size_t s) const { return flip_[s]; }

  // Pass 1 over a chunk: counts its canonical entries into `p` and sets the
  // bits of those that lose.
  void count_values(const Chunk& chunk, std::vector<std::uint8_t>& values, Partial& p,
                    WindowBits& bits) const {
    values.resize(chunk.end - chunk.first);
    check::read_entries(table_, chunk.first, values.size(), values.data());
    kCountValues[geometry_number(index_.geometry())](*this, chunk, values.data(), p,
                                                     bits.of(*chunk.range));
  }

  // Pass 2 over a chunk: the zugzwangs among its entries whose bits are set.
  void count_zugzwangs(const Chunk& chunk, Partial& p, const WindowBits& bits) const {
    kCountZugzwangs[geometry_number(index_.geometry())](*this, chunk, p, bits);
  }

 private:
  // The slice an entry of slice s flips into, or s if there is none.
  std::size_t flip_slice(std::size_t s) const {
    const Index::Slice& slice = index_.slices()[s];
    const Geometry g = index_.geometry();
    std::uint64_t white = 0, black = 0;  // an entry of the slice
    for (int r = 0; r < g.rows; ++r) {
      const auto ur = static_cast<std::size_t>(r);
      white |= low_bits(slice.white[ur]) << (r * g.cols);
      black |= low_bits(slice.black[ur]) << (slice.white[ur] + r * g.cols);
    }
    if (!black) return s;
    return slice_of(index_.rank(symmetry_.flip(black), symmetry_.flip(white)));
  }

  static EntryMaterial& material(Partial& p, const Index::Slice& s) {
    int w = 0, b = 0;
    for (std::size_t r = 0; r < s.white.size(); ++r) {
      w += s.white[r];
      b += s.black[r];
    }
    return p.materials[static_cast<std::size_t>(w * kSide + b)];
  }

  // Calls f(i, black) for the entries i of [begin, end) in the lane
  // `lane`, black's pawns of each: an odometer over black's row 0 (no white
  // pawn there, so its subset is not squeezed) and its middle rows. Passes
  // over a whole run [first, end) at once where wanted(first, end) is false.
  template <class G, class F, class Wanted>
  static void for_each_entry(const format::LaneWalk& lane, std::uint64_t begin, std::uint64_t end,
                             F&& f, Wanted&& wanted) {
    constexpr Geometry g = G::value;
    const std::uint64_t run_size = lane.run_size();
    const std::uint64_t run = (begin - lane.first()) / run_size;
    std::uint64_t top = format::subset_unrank(run, lane.black_on_row_0(), g.cols);
    // (At a run's first entry after the last entry of the run before.)
    format::MiddleRowWalk<G> middle(lane);
    std::uint64_t run_first = lane.first() + run * run_size, i = run_first;
    for (; i < begin; ++i) middle.next();
    for (;;) {
      const std::uint64_t run_end = std::min(run_first + run_size, end);
      if (i > run_first || wanted(run_first, run_end)) {
        for (; i < run_end; ++i, middle.next()) f(i, top | middle.black());
      } else if (run_end < run_first + run_size) {
        return;  // the walk ends in this run
      }
      if (run_end == end) return;
      run_first += run_size;
      i = run_first;
      format::advance_row_subset(top, g.cols);
    }
  }
  template <class G, class F>
  static void for_each_entry(const format::LaneWalk& lane, std::uint64_t begin, std::uint64_t end,
                             F&& f) {
    for_each_entry<G>(lane, begin, end, f, [](std::uint64_t, std::uint64_t) { return true; });
  }

  // Keeps entry i, or its mirror image m (the same value), in the examples of
  // `m` when it is among the smallest: the longest wins (v odd) or the
  // zugzwangs. `mirror_index` gives m's index.
  template <class MirrorIndex>
  void consider_longest(EntryMaterial& m, int v, std::uint64_t i, bool mirrored,
                        std::uint64_t slice_first, MirrorIndex mirror_index) const {
    if (v < m.longest_win || (v == m.longest_win && m.longest_index <= slice_first)) return;
    std::uint64_t at = i;
    if (mirrored) at = std::min(at, mirror_index());
    if (v > m.longest_win || at < m.longest_index) {
      m.longest_win = v;
      m.longest_index = at;
    }
  }

  template <class G>
  static void count_values_in(const Walker& w, const Chunk& chunk, const std::uint8_t* values,
                              Partial& p, const RangeBits& bits) {
    constexpr Geometry g = G::value;
    constexpr int bytes = board_bytes(g);
    const auto slices = w.index_.slices();
    std::size_t s = w.slice_of(chunk.first);
    EntryMaterial* m = &material(p, slices[s]);
    format::LaneWalk lane(w.index_, chunk.first);
    for (;;) {
      while (lane.first() >= slices[s].first + slices[s].size) m = &material(p, slices[++s]);
      const std::uint64_t slice_first = slices[s].first;
      const std::uint64_t begin = std::max(lane.first(), chunk.first);
      const std::uint64_t end = std::min(lane.first() + lane.size(), chunk.end);
      const std::uint64_t white = lane.white();
      const std::uint64_t mirror_white = w.symmetry_.mirror<bytes>(white);
      if (mirror_white > white) {
        // Every entry canonical, its mirror another entry of a later or an
        // earlier lane (that of mW, in the order of flipped boards).
        std::uint64_t odd = 0;
        int top = 0;  // the longest win
        for (std::uint64_t i = begin; i < end; ++i) {
          const int v = values[i - chunk.first];
          p.plies[static_cast<std::size_t>(v)] += 2;
          odd += v & 1;
          top = std::max(top, v & 1 ? v : 0);
          bits.word(i) |= std::uint64_t{~v & 1u} << (i & 63);
        }
        m->positions += 2 * (end - begin);
        m->wins += 2 * odd;
        if (top > 0 && top >= m->longest_win) {
          const bool mirror_before =
              w.symmetry_.flip<bytes>(mirror_white) < w.symmetry_.flip<bytes>(white);
          for (std::uint64_t i = begin; i < end; ++i) {
            if (values[i - chunk.first] != top) continue;
            w.consider_longest(*m, top, i, mirror_before, slice_first, [&] {
              const game::Pawns e = w.index_.unrank(i);
              return w.index_.rank_in<G>(mirror_white, w.symmetry_.mirror<bytes>(e.black));
            });
          }
        }
      } else if (mirror_white == white) {
        for_each_entry<G>(lane, begin, end, [&](std::uint64_t i, std::uint64_t black) {
          const std::uint64_t mirror_black = w.symmetry_.mirror<bytes>(black);
          if (mirror_black < black) return;  // a mirror image
          const int v = values[i - chunk.first];
          const std::uint64_t weight = mirror_black == black ? 1 : 2;
          p.plies[static_cast<std::size_t>(v)] += weight;
          m->positions += weight;
          if (v & 1) {
            m->wins += weight;
            w.consider_longest(*m, v, i, weight == 2, slice_first,
                               [&] { return w.index_.rank_in<G>(white, mirror_black); });
          } else {
            bits.word(i) |= std::uint64_t{1} << (i & 63);
          }
        });
      }
      if (lane.first() + lane.size() >= chunk.end) return;
      lane.next<g>();
    }
  }

  // A zugzwang of material m: entry i (white, black), and its mirror image
  // if that is another entry.
  template <class G>
  void credit(EntryMaterial& m, std::uint64_t i, std::uint64_t white, std::uint64_t black,
              std::uint64_t slice_first) const {
    constexpr int bytes = board_bytes(G::value);
    const std::uint64_t mirror_white = symmetry_.mirror<bytes>(white);
    const std::uint64_t mirror_black = symmetry_.mirror<bytes>(black);
    const bool mirrored = mirror_white != white || mirror_black != black;
    m.zugzwangs += mirrored ? 2 : 1;
    keep_smallest(m.zugzwang_first, i, examples_);
    if (mirrored && may_keep(m.zugzwang_first, slice_first, examples_)) {
      keep_smallest(m.zugzwang_first, index_.rank_in<G>(mirror_white, mirror_black), examples_);
    }
  }

  // Pass 2 (HOW THE WALK GOES) over the slices s of a chunk with flip(s) >=
  // s: each zugzwang is also one of the flip slice, with its flip, and so is
  // the mirror image of each. Slices with flip(s) < s are left to their flip
  // slice's walk.
  template <class G>
  static void count_zugzwangs_in(const Walker& w, const Chunk& chunk, Partial& p,
                                 const WindowBits& window) {
    constexpr Geometry g = G::value;
    constexpr int bytes = board_bytes(g);
    const BoardSymmetry& sym = w.symmetry_;
    const RangeBits bits = window.of(*chunk.range);
    const auto slices = w.index_.slices();
    // Entries that lose, with the word of their flip's bit (loaded in a
    // second loop, so that the loads overlap).
    struct Loser {
      std::uint64_t i, white, black, flip_white, flip_black, flip;
      const std::uint64_t* word;  // flip's
    };
    std::array<Loser, 64> losers;
    std::size_t count = 0;
    std::size_t s = w.slice_of(chunk.first);
    const auto flush = [&] {
      const Index::Slice& slice = slices[s];
      const std::size_t flip = w.flip_[s];
      EntryMaterial& own = material(p, slice);
      EntryMaterial& other = material(p, slices[flip]);
      for (std::size_t k = 0; k < count; ++k) {
        const Loser& l = losers[k];
        if (!(*l.word >> (l.flip & 63) & 1)) continue;
        w.credit<G>(own, l.i, l.white, l.black, slice.first);
        if (flip != s) w.credit<G>(other, l.flip, l.flip_white, l.flip_black, slices[flip].first);
      }
      count = 0;
    };
    format::LaneWalk lane(w.index_, chunk.first);
    for (;;) {
      if (lane.first() >= slices[s].first + slices[s].size) {
        flush();
        while (lane.first() >= slices[s].first + slices[s].size) ++s;
      }
      const std::uint64_t begin = std::max(lane.first(), chunk.first);
      const std::uint64_t end = std::min(lane.first() + lane.size(), chunk.end);
      if (w.flip_[s] >= s && bits.any(begin, end)) {
        const std::uint64_t white = lane.white();
        const std::uint64_t flip_black = sym.flip<bytes>(white);
        const std::uint64_t mirror_flip_black = sym.mirror<bytes>(flip_black);
        const auto wanted = [&](std::uint64_t first, std::uint64_t last) {
          return bits.any(first, last);
        };
        for_each_entry<G>(
            lane, begin, end,
            [&](std::uint64_t i, std::uint64_t black) {
              if (!bits.test(i)) return;
              // The colour flip, in its canonical form.
              const std::uint64_t fw = sym.flip<bytes>(black);
              if (!fw) return;  // black has no pawn: never a loss for white
              const game::Pawns f =
                  format::canonical(game::Pawns{fw, flip_black},
                                    game::Pawns{sym.mirror<bytes>(fw), mirror_flip_black});
              const std::uint64_t j = w.index_.rank_in<G>(f.white, f.black);
              const std::uint64_t* word = window.word_of(j);
              __builtin_prefetch(word);
              losers[count++] = Loser{i, white, black, f.white, f.black, j, word};
              if (count == losers.size()) flush();
            },
            wanted);
      }
      if (lane.first() + lane.size() >= chunk.end) break;
      lane.next<g>();
    }
    flush();
  }

  using CountValues = void (*)(const Walker&, const Chunk&, const std::uint8_t*, Partial&,
                               const RangeBits&);
  using CountZugzwangs = void (*)(const Walker&, const Chunk&, Partial&, const WindowBits&);
  static constexpr auto kCountValues =
      game::per_geometry([](auto g) -> CountValues { return &count_values_in<decltype(g)>; });
  static constexpr auto kCountZugzwangs =
      game::per_geometry([](auto g) -> CountZugzwangs { return &count_zugzwangs_in<decltype(g)>; });

  const Table& table_;
  Index index_;
  BoardSymmetry symmetry_;
  std::size_t examples_;
  std::vector<std::uint64_t> slice_firsts_;
  std::vector<std::size_t> flip_;  // flip(s)
};

void add(Partial& into, const Partial& from, std::size_t examples) {
  for (std::size_t d = 0; d < into.plies.size(); ++d) into.plies[d] += from.plies[d];
  for (std::size_t k = 0; k < into.materials.size(); ++k) {
    EntryMaterial& a = into.materials[k];
    const EntryMaterial& b = from.materials[k];
    a.positions += b.positions;
    a.wins += b.wins;
    a.zugzwangs += b.zugzwangs;
    if (b.longest_win > a.longest_win ||
        (b.longest_win == a.longest_win && b.longest_index < a.longest_index)) {
      a.longest_win = b.longest_win;
      a.longest_index = b.longest_index;
    }
    for (const std::uint64_t i : b.zugzwang_first) keep_smallest(a.zugzwang_first, i, examples);
  }
}

// The bits of the largest pair of flipped slices: the least a window holds.
std::uint64_t largest_pair(const Walker& walker) {
  const auto slices = walker.index().slices();
  std::uint64_t largest = 0;
  for (std::size_t s = 0; s < slices.size(); ++s) {
    const std::size_t other = walker.flip(s);
    largest = std::max(largest, slices[s].size + (other == s ? 0 : slices[other].size));
  }
  return largest;
}

// Bytes the workers hold: each a chunk of values and, when the chunk cuts a
// block, a block of them and its frame (check::read_entries).
std::uint64_t workspace_bytes(const Table& table, const StatsOptions& options) {
  const std::uint64_t block = table.info().block_entries;
  return util::thread_count(options.threads) * (std::max(kChunk, block) + 2 * block);
}

// The windows (HOW THE WALK GOES): each a list of ranges of entries, in order,
// with at most `limit` entries. Throws std::invalid_argument if a pair of
// flipped slices has more.
// Slices already walked (`done`, slice_done) are left out.
std::vector<std::vector<Range>> plan_windows(const Walker& walker, std::uint64_t limit,
                                             std::uint64_t workspace,
                                             std::vector<bool> slice_done) {
  const Index& index = walker.index();
  const auto tiers = index.tiers();
  const auto slices = index.slices();
  std::map<std::tuple<int, int, int, int>, std::size_t> tier_of_key;
  for (std::size_t t = 0; t < tiers.size(); ++t) {
    tier_of_key[{tiers[t].w, tiers[t].b, tiers[t].sw, tiers[t].sb}] = t;
  }
  std::vector<std::vector<Range>> windows;
  std::vector<std::size_t> window;  // slices
  std::uint64_t used = 0;
  const auto close = [&] {
    if (window.empty()) return;
    std::sort(window.begin(), window.end());
    std::vector<Range> ranges;
    for (const std::size_t s : window) {
      if (!ranges.empty() && ranges.back().end == slices[s].first) {
        ranges.back().end += slices[s].size;
      } else {
        ranges.push_back(Range{slices[s].first, slices[s].first + slices[s].size, 0});
      }
    }
    windows.push_back(std::move(ranges));
    window.clear();
    used = 0;
  };
  // Adds an item of `entries` entries to the window, add_slices() its
  // slices, closing the window first if it would not fit; false if the item
  // does not fit in a window of its own.
  const auto add_item = [&](std::uint64_t entries, auto&& add_slices) {
    if (entries > limit) return false;
    if (used + entries > limit) close();
    add_slices();
    used += entries;
    return true;
  };
  const auto add_tier = [&](std::size_t t) {
    for (std::size_t s = tiers[t].first_slice; s < tiers[t].first_slice + tiers[t].slice_count;
         ++s) {
      if (!slice_done[s]) window.push_back(s);
    }
  };
  // The entries of tier t not walked yet.
  const auto tier_size = [&](std::size_t t) {
    std::uint64_t size = 0;
    for (std::size_t s = tiers[t].first_slice; s < tiers[t].first_slice + tiers[t].slice_count;
         ++s) {
      if (!slice_done[s]) size += slices[s].size;
    }
    return size;
  };
  for (std::size_t layer = 0; layer < tiers.size();) {
    const int pawns = tiers[layer].w + tiers[layer].b;
    const int advance = tiers[layer].sw + tiers[layer].sb;
    std::size_t layer_end = layer;
    std::uint64_t entries = 0;
    while (layer_end < tiers.size() && tiers[layer_end].w + tiers[layer_end].b == pawns &&
           tiers[layer_end].sw + tiers[layer_end].sb == advance) {
      entries += tier_size(layer_end++);
    }
    const bool fits = add_item(entries, [&] {
      for (std::size_t t = layer; t < layer_end; ++t) add_tier(t);
    });
    for (std::size_t t = layer; !fits && t < layer_end; ++t) {
      const Index::Tier& tier = tiers[t];
      const auto found = tier_of_key.find({tier.b, tier.w, tier.sb, tier.sw});
      const std::size_t flip = found == tier_of_key.end() ? t : found->second;
      if (flip < t) continue;  // done with its pair
      const std::uint64_t pair = tier_size(t) + (flip == t ? 0 : tier_size(flip));
      if (add_item(pair, [&] {
            add_tier(t);
            if (flip != t) add_tier(flip);
          })) {
        continue;
      }
      for (std::size_t s = tier.first_slice; s < tier.first_slice + tier.slice_count; ++s) {
        if (slice_done[s]) continue;
        const std::size_t other = walker.flip(s);
        slice_done[s] = slice_done[other] = true;
        const std::uint64_t size = slices[s].size + (other == s ? 0 : slices[other].size);
        if (!add_item(size, [&] {
              window.push_back(s);
              if (other != s) window.push_back(other);
            })) {
          throw std::invalid_argument(
              "stats of a " + to_string(walker.index().geometry()) + " table need at least " +
              std::to_string(workspace + (largest_pair(walker) + 7) / 8) +
              " bytes of memory: a bit for each entry of the largest pair of flipped slices, " +
              "and the workers' decoded entries");
        }
      }
    }
    layer = layer_end;
  }
  close();
  return windows;
}

// The tallies of a state, as one Partial.
Partial partial_of(const StatsState& state) {
  Partial p;
  if (state.plies.empty()) return p;
  std::copy(state.plies.begin(), state.plies.end(), p.plies.begin());
  std::copy(state.materials.begin(), state.materials.end(), p.materials.begin());
  return p;
}

// The slices of `done`, a state's ranges, marked; throws std::invalid_argument
// unless they are whole slices, each with its flip slice.
std::vector<bool> done_slices(const Walker& walker, const std::vector<EntryRange>& done) {
  const auto slices = walker.index().slices();
  std::vector<bool> marked(slices.size());
  const auto refuse = [] {
    return std::invalid_argument("the stats state's walked entries are not a walk's");
  };
  std::uint64_t after = 0;  // the end of the range before
  for (const EntryRange& r : done) {
    if (r.first < after || r.first >= r.end || r.end > walker.index().size()) throw refuse();
    after = r.end;
    for (std::size_t s = walker.slice_of(r.first); s < slices.size() && slices[s].first < r.end;
         ++s) {
      if (slices[s].first < r.first || slices[s].first + slices[s].size > r.end) throw refuse();
      marked[s] = true;
    }
  }
  for (std::size_t s = 0; s < slices.size(); ++s) {
    if (marked[s] != marked[walker.flip(s)]) throw refuse();
  }
  return marked;
}

// Adds the ranges of a walked window to `done`, keeping it sorted and merged.
void add_done(std::vector<EntryRange>& done, std::span<const Range> window) {
  for (const Range& r : window) done.push_back(EntryRange{r.first, r.end});
  std::sort(done.begin(), done.end(),
            [](const EntryRange& a, const EntryRange& b) { return a.first < b.first; });
  std::vector<EntryRange> merged;
  for (const EntryRange& r : done) {
    if (!merged.empty() && merged.back().end == r.first) {
      merged.back().end = r.end;
    } else {
      merged.push_back(r);
    }
  }
  done = std::move(merged);
}

// The slices `from` has walked (done_slices), once `from` is checked
// (check_state).
std::vector<bool> checked_done(const Table& table, const Walker& walker,
                               const StatsOptions& options, const StatsState& from) {
  const TableInfo& info = table.info();
  if (from.header_checksum == 0 && (!from.done.empty() || !from.plies.empty())) {
    throw std::invalid_argument("the stats state names no table");
  }
  if (from.header_checksum != 0) {
    if (from.header_checksum != info.header_checksum) {
      throw std::invalid_argument("the stats state is of another table");
    }
    if (from.zugzwang_examples != options.zugzwang_examples) {
      throw std::invalid_argument(
          "the stats state keeps " + std::to_string(from.zugzwang_examples) +
          " zugzwang examples a material, not " + std::to_string(options.zugzwang_examples));
    }
    const bool begun = !from.plies.empty();
    if (begun != !from.materials.empty() || (begun && from.plies.size() != 256) ||
        (begun && from.materials.size() != std::size_t{kSide * kSide}) ||
        (!begun && !from.done.empty())) {
      throw std::invalid_argument("the stats state's tallies are not a walk's");
    }
    for (const MaterialTally& m : from.materials) {
      if (m.longest_win < -1 || m.longest_win > 255 || m.longest_index >= info.entries ||
          m.zugzwang_first.size() > from.zugzwang_examples ||
          std::any_of(m.zugzwang_first.begin(), m.zugzwang_first.end(),
                      [&](std::uint64_t i) { return i >= info.entries; })) {
        throw std::invalid_argument("the stats state's tallies are not a walk's");
      }
    }
  }
  return done_slices(walker, from.done);
}

// Walks every entry not walked in `state` on `threads` threads
// (util::parallel_for, "stats"), window by window, each added to `state`
// and then passed to on_checkpoint.
void walk_all(const Table& table, const Walker& walker, const StatsOptions& options,
              std::vector<bool> done_slices, StatsState& state,
              const StatsCheckpoint& on_checkpoint) {
  const std::uint64_t size = walker.index().size();
  const unsigned threads = util::thread_count(options.threads);
  const std::uint64_t chunk = std::max<std::uint64_t>(kChunk, table.info().block_entries);
  const std::uint64_t workspace = workspace_bytes(table, options);
  const std::uint64_t memory =
      options.memory_bytes ? options.memory_bytes : check::default_memory_bytes();
  const std::uint64_t limit = memory > workspace ? (memory - workspace) * 8 : 0;
  const std::vector<std::vector<Range>> windows =
      plan_windows(walker, limit, workspace, std::move(done_slices));

  auto total = std::make_unique<Partial>(partial_of(state));
  std::vector<std::unique_ptr<Partial>> partials(threads);
  std::vector<std::vector<std::uint8_t>> values(threads);
  WindowBits bits;
  std::uint64_t done = 2 * state.entries_done();  // entries passed, twice each
  for (const std::vector<Range>& ranges : windows) {
    bits.reset(ranges);
    std::vector<Chunk> chunks;
    for (const Range& r : bits.ranges()) {
      for (std::uint64_t first = r.first; first < r.end;) {
        const std::uint64_t end = std::min(r.end, (first / chunk + 1) * chunk);
        chunks.push_back(Chunk{first, end, &r});
        first = end;
      }
    }
    for (const bool values_pass : {true, false}) {
      std::atomic<std::uint64_t> passed{done};
      util::parallel_for("stats", threads, chunks.size(), [&](std::uint64_t k, unsigned worker) {
        if (!partials[worker]) partials[worker] = std::make_unique<Partial>();
        const Chunk& at = chunks[k];
        if (values_pass) {
          walker.count_values(at, values[worker], *partials[worker], bits);
        } else {
          walker.count_zugzwangs(at, *partials[worker], bits);
        }
        const std::uint64_t now = passed += at.end - at.first;
        if (worker == 0 && options.on_progress && now < 2 * size) {
          options.on_progress(
              Progress{"stats", static_cast<double>(now) / static_cast<double>(2 * size)});
        }
      });
      done = passed;
    }
    // The window is whole: its tallies join the state's.
    for (auto& partial : partials) {
      if (!partial) continue;
      add(*total, *partial, options.zugzwang_examples);
      *partial = Partial{};
    }
    add_done(state.done, ranges);
    state.plies.assign(total->plies.begin(), total->plies.end());
    state.materials.assign(total->materials.begin(), total->materials.end());
    if (on_checkpoint) on_checkpoint(state);
  }
  if (windows.empty()) {  // nothing left to walk: a finished state (or an empty table)
    state.plies.assign(total->plies.begin(), total->plies.end());
    state.materials.assign(total->materials.begin(), total->materials.end());
    if (on_checkpoint) on_checkpoint(state);
  }
  if (options.on_progress) options.on_progress(Progress{"stats", 1.0});
}

}  // namespace

std::uint64_t least_memory(const Table& table, const StatsOptions& options) {
  const Walker walker(table, options);
  return workspace_bytes(table, options) + (largest_pair(walker) + 7) / 8;
}

void check_state(const Table& table, const StatsState& state, const StatsOptions& options) {
  checked_done(table, Walker(table, options), options, state);
}

std::uint64_t StatsState::entries_done() const {
  std::uint64_t n = 0;
  for (const EntryRange& r : done) n += r.end - r.first;
  return n;
}

TableStats compute_stats(const Table& table, const StatsOptions& options, const StatsState& from,
                         const StatsCheckpoint& on_checkpoint) {
  const Walker walker(table, options);
  const Index& index = walker.index();
  const Geometry g = index.geometry();
  std::vector<bool> done = checked_done(table, walker, options, from);
  StatsState state = from;
  state.header_checksum = table.info().header_checksum;
  state.zugzwang_examples = options.zugzwang_examples;
  walk_all(table, walker, options, std::move(done), state, on_checkpoint);
  const auto total = std::make_unique<Partial>(partial_of(state));

  // The position with key 2 * index (white to move) or 2 * index + 1 (the
  // colour flip of that entry: black to move).
  auto position_text = [&](std::uint64_t key) {
    const game::Pawns p = index.unrank(key / 2);
    if (key % 2 == 0) return format_position(Position{g, p.white, p.black, Side::white});
    return format_position(
        Position{g, game::flip_rows(g, p.black), game::flip_rows(g, p.white), Side::black});
  };

  TableStats s;
  s.geometry = g;
  s.max_pawns = index.max_pawns();
  // Every entry's colour flip has the same value: each distance counts twice.
  // Wins take an odd number of plies, losses an even one (FORMAT.md 6.1).
  int longest = 0;
  for (std::size_t d = 0; d < total->plies.size(); ++d) {
    if (total->plies[d]) longest = static_cast<int>(d);
  }
  for (int d = 0; d <= longest; ++d) {
    const std::uint64_t n = 2 * total->plies[static_cast<std::size_t>(d)];
    s.distances.push_back(d % 2 ? DistanceCount{n, 0} : DistanceCount{0, n});
  }
  for (int w = 0; w < kSide; ++w) {
    for (int b = 0; b < kSide; ++b) {
      // White to move with (w, b), and black to move with (w, b): the flips of
      // the entries with (b, w).
      const EntryMaterial& own = total->materials[w * kSide + b];
      const EntryMaterial& flipped = total->materials[b * kSide + w];
      MaterialStats m;
      m.white_pawns = w;
      m.black_pawns = b;
      m.positions = own.positions + flipped.positions;
      if (!m.positions) continue;
      m.side_to_move_wins = own.wins + flipped.wins;
      if (own.longest_win >= 0 || flipped.longest_win >= 0) {
        const bool use_flip =
            flipped.longest_win > own.longest_win ||
            (flipped.longest_win == own.longest_win && flipped.longest_index < own.longest_index);
        m.longest_win = use_flip ? flipped.longest_win : own.longest_win;
        m.longest_win_example =
            position_text(use_flip ? 2 * flipped.longest_index + 1 : 2 * own.longest_index);
      }
      m.zugzwangs = own.zugzwangs + flipped.zugzwangs;
      std::vector<std::uint64_t> keys;
      for (const std::uint64_t i : own.zugzwang_first) keys.push_back(2 * i);
      for (const std::uint64_t i : flipped.zugzwang_first) keys.push_back(2 * i + 1);
      std::sort(keys.begin(), keys.end());
      keys.resize(std::min(keys.size(), options.zugzwang_examples));
      for (const std::uint64_t k : keys) m.zugzwang_examples.push_back(position_text(k));
      s.positions += m.positions;
      s.side_to_move_wins += m.side_to_move_wins;
      s.zugzwangs += m.zugzwangs;
      s.materials.push_back(std::move(m));
    }
  }
  return s;
}

}  // namespace pawntb::analysis
