// `verify`: every indexed position is re-derived from its one-ply successors.
// Shares nothing with the generator's solving loop: it makes the successors
// with its own bitboard steps and states the minimax rule itself. It reads
// the way the generator does, though, so that it runs as fast:
//
// TIER BY TIER. Every move leads from a tier to earlier ones, its children
// (index.hpp, TIERS). For each tier, in index order, the blocks holding the
// tier and its children are decoded in bulk, on every thread, into one array
// of the whole table's entries, the IMAGE: entry i at image[i]. Then each
// position of the tier is checked against its successors, read straight from
// the image by their index, in batches whose loads overlap (Checker::Batch).
// A table loaded at open is its own image.
//
// MEMORY. The image is address space (mmap, MAP_NORESERVE, never touched where
// nothing is decoded); what is decoded is held in PAGES of max(block, 64 KiB,
// system page) entries, at most the memory budget (verify()'s memory_bytes in whole
// blocks, `--memory` of `pawntb verify`). Pages not needed by the tier at hand are
// dropped (MADV_DONTNEED) when room is needed, the least recently used first:
// children are mostly tiers just before, so most are still held, and each
// block is decoded about once when the table fits. Besides that, 4 bytes a
// page (145 MB for 7x6's 36 M pages of 64 Ki entries).
//
// A TIER THAT DOES NOT FIT with its children is checked in PIECES of
// consecutive entries: a first pass over the piece computes only the
// successors' indices and marks the pages they fall in, and if those and the
// piece's own fit, they are held and the piece checked; else the piece is
// halved. So memory stays bounded (down to a piece of kMinPiece positions and
// what it reads) at the price of making each successor twice, and of
// decoding child pages again for each piece that reads them.
//
// RESUME. A state holds how many entries, from the first, are checked; a
// checkpoint follows every piece of work that ends at least a 64th of the
// table (at most 2^26 entries) after the last one, and tiers are cut into
// pieces no larger. Mirror images are counted with their canonical image (see
// check_entry), which is in the same tier, so a state may end anywhere.
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <stdexcept>
#include <tuple>

#include "pawntb/check.hpp"
#include "pawntb/format/walk.hpp"
#include "pawntb/game/bitboard.hpp"
#include "pawntb/notation.hpp"
#include "pawntb/util/threads.hpp"
#include "table_view.hpp"

namespace pawntb::check {

namespace {

using format::Index;

// THE RULE, stated here on its own. A byte is the plies to the end of the
// game with its side to move (FORMAT.md 6.1), which wins exactly when the
// count is odd: a table entry is white's, a successor's black's.
ProbeResult white_result(int plies) {
  return ProbeResult{ProbeStatus::ok, plies % 2 ? Side::white : Side::black,
                     static_cast<std::uint8_t>(plies)};
}

// One ply of minimax for white over the successors' bytes. If black loses in
// some successor (an even byte), white wins, as fast as it can: 1 + the least
// such byte. Otherwise white loses, as late as it can: 1 + the largest byte;
// with no move at all, white has lost: 0.
class WhiteMinimax {
 public:
  // (Both sides of the choice kept, each neutral for the other parity, so
  // that it compiles without a branch: the parities are unpredictable.)
  void add(int black_plies) {
    const bool black_wins = black_plies % 2 != 0;
    black_loses_in_ = std::min(black_loses_in_, black_wins ? kNever : black_plies);
    black_wins_in_ = std::max(black_wins_in_, black_wins ? black_plies : -1);
  }
  int plies() const {
    if (black_loses_in_ != kNever) return black_loses_in_ + 1;
    return black_wins_in_ + 1;  // 0 when there was no move
  }

 private:
  static constexpr int kNever = 1 << 16;
  int black_loses_in_ = kNever;  // fewest plies in which black loses, if it can
  int black_wins_in_ = -1;       // most plies in which black wins
};

std::string show(const ProbeResult& r) {
  return std::string(side_name(r.winner)) + " in " + std::to_string(r.plies);
}

// What one thread finds over its share of a piece's entries.
struct VerifyTally {
  std::uint64_t checked = 0, mismatches = 0, white_wins = 0;
  int max_plies = 0;
  std::uint64_t first_mismatch_index = UINT64_MAX;  // the lowest entry that disagrees
  std::string first_mismatch;
  bool longest_ok = true;  // the header's longest example has max_plies
};

// A tally on cache lines of its own: it changes with every entry.
struct alignas(util::kCacheLineBytes) WorkerTally {
  VerifyTally tally;
};

constexpr std::uint64_t kChunk = 1 << 14;    // entries a thread takes at a time
constexpr std::uint64_t kMinPiece = 1 << 8;  // the smallest piece of a tier that does not fit

// Entries between checkpoints: a 64th of the table, in whole chunks, and at
// most 2^26 entries (a minute or less on one core).
std::uint64_t segment_entries(std::uint64_t n) {
  const std::uint64_t chunks = (n / 64 + kChunk - 1) / kChunk;
  return std::clamp<std::uint64_t>(chunks, 1, (1 << 26) / kChunk) * kChunk;
}

// Entries, or pages of the image, [begin, end).
struct IndexRange {
  std::uint64_t begin = 0, end = 0;
};

// Which pages a piece reads: a bit per page, set from every thread.
class PageMarks {
 public:
  PageMarks(std::uint64_t pages, unsigned page_shift)
      : words_((pages + 63) / 64),
        bits_(std::make_unique<std::atomic<std::uint64_t>[]>(words_)),
        shift_(page_shift) {}
  void clear() {
    for (std::uint64_t w = 0; w < words_; ++w) bits_[w].store(0, std::memory_order_relaxed);
  }
  void mark_entry(std::uint64_t i) { mark_page(i >> shift_); }
  void mark_entries(std::uint64_t begin, std::uint64_t end) {
    for (std::uint64_t u = begin >> shift_; u <= (end - 1) >> shift_; ++u) mark_page(u);
  }
  // The marked pages as ranges, in order, and their number.
  std::vector<IndexRange> ranges(std::uint64_t& count) const {
    std::vector<IndexRange> out;
    count = 0;
    for (std::uint64_t w = 0; w < words_; ++w) {
      for (std::uint64_t bits = bits_[w].load(std::memory_order_relaxed); bits; bits &= bits - 1) {
        const std::uint64_t u = w * 64 + static_cast<std::uint64_t>(std::countr_zero(bits));
        ++count;
        if (!out.empty() && out.back().end == u) {
          ++out.back().end;
        } else {
          out.push_back(IndexRange{u, u + 1});
        }
      }
    }
    return out;
  }

 private:
  void mark_page(std::uint64_t u) {
    std::atomic<std::uint64_t>& word = bits_[u / 64];
    const std::uint64_t bit = std::uint64_t{1} << (u % 64);
    if (!(word.load(std::memory_order_relaxed) & bit))
      word.fetch_or(bit, std::memory_order_relaxed);
  }
  std::uint64_t words_;
  std::unique_ptr<std::atomic<std::uint64_t>[]> bits_;
  unsigned shift_;
};

// log2 of the entries in a page of the image: max(block, 64 Ki entries, system page).
unsigned image_page_shift(const TableView& t) {
  const auto system_page = static_cast<std::uint64_t>(std::max(::sysconf(_SC_PAGESIZE), 1L));
  return std::max({t.block_shift, 16u, static_cast<unsigned>(std::bit_width(system_page) - 1)});
}

// The pages of 2^page_shift entries holding the entry ranges, sorted and
// merged, and their number.
std::vector<IndexRange> pages_holding(std::vector<IndexRange> entry_ranges, unsigned page_shift,
                                      std::uint64_t& count) {
  std::vector<IndexRange> out;
  for (IndexRange& r : entry_ranges)
    r = IndexRange{r.begin >> page_shift, ((r.end - 1) >> page_shift) + 1};
  std::sort(entry_ranges.begin(), entry_ranges.end(),
            [](const IndexRange& a, const IndexRange& b) { return a.begin < b.begin; });
  count = 0;
  for (const IndexRange& r : entry_ranges) {
    if (!out.empty() && r.begin <= out.back().end) {
      out.back().end = std::max(out.back().end, r.end);
    } else {
      out.push_back(r);
    }
  }
  for (const IndexRange& r : out) count += r.end - r.begin;
  return out;
}

// The decoded values of the table at their entries' places (IMAGE above),
// holding at most `budget` bytes of pages.
class ValueImage {
 public:
  ValueImage(const TableView& t, unsigned threads, std::uint64_t budget)
      : t_(t), threads_(threads) {
    if (t.loaded_entries) {
      values_ = t.loaded_entries;
      return;
    }
    budget_ = budget;
    page_shift_ = image_page_shift(t);
    pages_ = ((t.header.entry_count - 1) >> page_shift_) + 1;
    length_ = pages_ << page_shift_;
    void* p = ::mmap(nullptr, length_, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    image_ = static_cast<std::uint8_t*>(p);
    values_ = image_;
    last_use_.assign(pages_, 0);
  }
  ~ValueImage() {
    if (image_) ::munmap(image_, length_);
  }
  ValueImage(const ValueImage&) = delete;
  ValueImage& operator=(const ValueImage&) = delete;

  bool loaded() const { return image_ == nullptr; }
  const std::uint8_t* values() const { return values_; }
  // Per block, 1 if it is damaged; nullptr while none is.
  const std::uint8_t* damaged() const { return damaged_.empty() ? nullptr : damaged_.data(); }
  unsigned page_shift() const { return page_shift_; }
  std::uint64_t pages() const { return pages_; }
  std::uint64_t page_bytes() const { return std::uint64_t{1} << page_shift_; }
  std::uint64_t budget() const { return budget_; }

  // Makes the pages `ranges` (sorted, disjoint) readable: decodes those not
  // held, after dropping the least recently used others while the total
  // would pass the budget. Damaged blocks found on the way are added to
  // `damage`, each once a run. Throws what parallel_for rethrows.
  void hold(std::span<const IndexRange> ranges, std::vector<BlockDamage>& damage) {
    if (loaded()) return;
    const std::uint32_t now = ++clock_;
    std::vector<std::uint64_t> missing;
    for (const IndexRange& r : ranges) {
      for (std::uint64_t u = r.begin; u < r.end; ++u) {
        if (last_use_[u] == 0) missing.push_back(u);
        last_use_[u] = now;
      }
      used_.push_back(Use{r, now});
    }
    const std::uint64_t adding = missing.size() * page_bytes();
    while (held_ + adding > budget_ && !used_.empty() && used_.front().stamp != now) {
      drop(used_.front());
      used_.pop_front();
    }
    std::vector<std::uint32_t> blocks;
    const unsigned per_page = page_shift_ - t_.block_shift;
    for (const std::uint64_t u : missing) {
      const std::uint64_t first = u << per_page;
      const std::uint64_t end = std::min<std::uint64_t>((u + 1) << per_page, t_.header.block_count);
      for (std::uint64_t b = first; b < end; ++b) blocks.push_back(static_cast<std::uint32_t>(b));
    }
    held_ += adding;
    if (blocks.empty()) return;
    const auto failures = decode_block_list(
        t_, threads_,
        [&](std::uint32_t b, auto&) { return image_ + (std::uint64_t{b} << t_.block_shift); },
        static_cast<std::uint32_t>(blocks.size()), [&](std::uint64_t i) { return blocks[i]; });
    for (const BlockFailure& f : failures) {
      if (damaged_.empty()) damaged_.assign(t_.header.block_count, 0);
      if (damaged_[f.block]) continue;
      damaged_[f.block] = 1;
      damage.push_back(BlockDamage{f.block, f.error});
    }
  }

 private:
  struct Use {
    IndexRange pages;
    std::uint32_t stamp;  // the hold() that used them
  };
  // Drops the pages of `use` that no later hold() used.
  void drop(const Use& use) {
    std::uint64_t run = use.pages.begin;  // the first of a run of pages to drop
    const auto flush = [&](std::uint64_t end) {
      if (end > run) {
        ::madvise(image_ + (run << page_shift_), (end - run) << page_shift_, MADV_DONTNEED);
        held_ -= (end - run) << page_shift_;
      }
    };
    for (std::uint64_t u = use.pages.begin; u < use.pages.end; ++u) {
      if (last_use_[u] == use.stamp) {
        last_use_[u] = 0;
        continue;
      }
      flush(u);
      run = u + 1;
    }
    flush(use.pages.end);
  }

  const TableView& t_;
  unsigned threads_;
  const std::uint8_t* values_ = nullptr;
  std::uint8_t* image_ = nullptr;  // the mapping of a table not loaded at open
  std::uint64_t length_ = 0, pages_ = 0, budget_ = 0, held_ = 0;
  unsigned page_shift_ = 0;
  std::vector<std::uint32_t> last_use_;  // per page: the stamp of its last use, 0 if not held
  std::deque<Use> used_;                 // in order of use
  std::uint32_t clock_ = 0;
  std::vector<std::uint8_t> damaged_;  // per block, once one is damaged
};

// The bytes of decoded values verify() holds at most: memory_bytes in whole
// blocks, at least one and at most the table's.
std::uint64_t budget_bytes(const TableView& t, std::uint64_t memory_bytes) {
  const std::uint64_t block = t.header.block_entries;
  return std::clamp<std::uint64_t>(memory_bytes / block, 1, t.header.block_count) * block;
}

// The tiers a tier's moves lead to (index.hpp, TIERS): seen from black,
// (b, w, sb, sw + 1) after a step, and (b - 1, w, sb - x, sw + 1) after
// capturing a black pawn of advancement x, 1 <= x <= R-2.
class TierMoves {
 public:
  explicit TierMoves(const Index& index) : tiers_(index.tiers()), rows_(index.geometry().rows) {
    for (std::size_t k = 0; k < tiers_.size(); ++k) {
      number_[{tiers_[k].w, tiers_[k].b, tiers_[k].sw, tiers_[k].sb}] = k;
    }
  }
  // The entry ranges of tier k and of its children.
  std::vector<IndexRange> reads(std::size_t k) const {
    const Index::Tier& t = tiers_[k];
    std::vector<IndexRange> out{IndexRange{t.first, t.first + t.size}};
    const auto add = [&](int w, int b, int sw, int sb) {
      const auto it = number_.find({w, b, sw, sb});
      if (it == number_.end() || tiers_[it->second].size == 0) return;
      const Index::Tier& child = tiers_[it->second];
      out.push_back(IndexRange{child.first, child.first + child.size});
    };
    add(t.b, t.w, t.sb, t.sw + 1);
    for (int x = 1; x <= rows_ - 2 && t.b >= 1; ++x) add(t.b - 1, t.w, t.sb - x, t.sw + 1);
    return out;
  }

 private:
  std::span<const Index::Tier> tiers_;
  int rows_;
  std::map<std::tuple<int, int, int, int>, std::size_t> number_;
};

// What checking tier k whole holds: the pages of the tier and of its
// children, and their bytes (a byte per entry). The one rule for "the tier
// fits": verify() checks a tier whole when fits(), and verify_plan() counts
// the tiers that do not.
struct TierHold {
  std::vector<IndexRange> pages;
  std::uint64_t bytes = 0;
  bool fits(const TableView& t, std::uint64_t budget) const {
    return t.loaded_entries || bytes <= budget;
  }
};

TierHold tier_hold(const TierMoves& moves, std::size_t k, unsigned page_shift) {
  TierHold hold;
  std::uint64_t pages = 0;
  hold.pages = pages_holding(moves.reads(k), page_shift, pages);
  hold.bytes = pages << page_shift;
  return hold;
}

// What a pass over a piece reads, and where it marks instead when `marks` is
// set (the first pass over a piece of a tier that does not fit).
struct Pass {
  const TableView& t;
  const std::uint8_t* values;
  const std::uint8_t* damaged;  // per block; nullptr if none is
  PageMarks* marks;
};

enum class Mode : std::uint8_t {
  fast,     // check; no block is damaged
  careful,  // check, leaving out entries that read a damaged block
  collect,  // mark the pages the checks would read
};

// Per-square images under the colour flip and the mirror, so that a move
// updates the flipped and mirrored boards a square at a time.
struct SquareImages {
  std::array<std::uint64_t, kMaxSquares> flip{}, flip_mirror{};
  explicit SquareImages(Geometry g) {
    for (int s = 0; s < g.squares(); ++s) {
      flip[static_cast<std::size_t>(s)] = game::flip_rows(g, std::uint64_t{1} << s);
      flip_mirror[static_cast<std::size_t>(s)] =
          game::mirror_files(g, flip[static_cast<std::size_t>(s)]);
    }
  }
};

// Checks entries on a board of geometry G::value (G = FixedGeometry<rows,
// cols>: every shift and mask of the inner loop a constant).
template <class G>
class Checker {
 public:
  explicit Checker(const Pass& pass)
      : pass_(pass), t_(pass.t), index_(pass.t.index), squares_(g_) {}

  // The entries [begin, end), all of one tier, into tally.
  void run(std::uint64_t begin, std::uint64_t end, VerifyTally& tally) const {
    if (pass_.marks) {
      walk<Mode::collect>(begin, end, tally);
    } else if (pass_.damaged) {
      walk<Mode::careful>(begin, end, tally);
    } else {
      walk<Mode::fast>(begin, end, tally);
    }
  }

 private:
  static constexpr Geometry g_ = G::value;
  static constexpr int kBytes = game::board_bytes(g_);
  static constexpr std::uint64_t kBoard = game::board_mask(g_);
  static constexpr std::uint64_t kGoal = game::white_goal(g_);
  static constexpr std::uint64_t kRow1 = game::row_mask(g_, 1);
  // The successor in which black has no pawn left: lost, 0 plies. No entry.
  static constexpr std::uint64_t kNoPawnLeft = UINT64_MAX;
  static constexpr std::uint8_t kLost = 0;

  // Positions per batch (see Batch), as many as the generator's solver
  // batches: enough loads in flight to cover a miss.
  static constexpr std::size_t kBatch = 32;
  // A pawn has at most 3 moves (a step and two captures).
  static constexpr std::size_t kMaxMoves = 3 * format::kMaxPawns;

  // Positions whose successors are ranked and their values' loads started
  // (prefetched), not yet compared with their own. A child value is a random
  // byte of the tiers before, mostly a cache miss; made apart from the
  // comparisons, the loads of a batch overlap instead of each waiting behind
  // the branches of the minimax before it.
  struct Batch {
    struct Entry {
      std::uint64_t i, white, black;
      std::uint8_t moves;  // its successors: the next `moves` of values
      bool symmetric;      // its mirror image is itself
      bool readable;       // no successor is in a damaged block
    };
    std::size_t size = 0, successors = 0;
    std::array<Entry, kBatch> entries;
    std::array<const std::uint8_t*, kBatch * kMaxMoves> values;
  };
  static_assert(kMaxMoves <= UINT8_MAX);

  bool damaged(std::uint64_t i) const { return pass_.damaged[i >> t_.block_shift] != 0; }

  // How the walk moves on from an entry: to the next entry, past the run
  // (the entries sharing W and B's row 0) or past the lane.
  enum class Advance : std::uint8_t { entry, run, lane };

  template <Mode mode>
  void walk(std::uint64_t begin, std::uint64_t end, VerifyTally& tally) const {
    Batch batch;
    format::Cursor cursor(index_, begin);
    for (std::uint64_t i = begin;;) {
      const std::uint64_t white = cursor.white(), black = cursor.black();
      // White's moves, the rules' bitboard steps (bitboard.hpp): a pawn
      // steps up onto an empty square, or diagonally up onto a black pawn.
      const std::uint64_t empty = kBoard & ~(white | black);
      const std::uint64_t pushes = game::white_pushes(g_, white) & empty;
      const std::uint64_t left = game::white_left_captures(g_, white) & black;
      const std::uint64_t right = game::white_right_captures(g_, white) & black;
      std::uint64_t step = 1;
      Advance advance = Advance::entry;
      if ((pushes | left | right) & kGoal) {
        // A move onto row 0 wins at once. It depends on white's pawns and
        // black's row 0 only: the whole run (index.hpp) wins in 1.
        step = std::min(cursor.run_remaining(), end - i);
        advance = Advance::run;
        if constexpr (mode != Mode::collect) check_wins_in_one<mode>(i, step, tally);
      } else {
        const std::uint64_t mirror_white = t_.symmetry.mirror<kBytes>(white);
        const std::uint64_t mirror_black = t_.symmetry.mirror<kBytes>(black);
        // With mirror(W) < W the run is all mirror images (the canonical
        // image has the smaller W), and so is the lane when W has no pawn
        // on row 1 (no entry of it wins in one). Unless they hold the
        // header's longest example, or blocks are damaged, mirror_image
        // only counts them: they are passed at once.
        const bool whole_lane = (white & kRow1) == 0;
        const std::uint64_t passed =
            mode == Mode::careful || mirror_white >= white
                ? 0
                : std::min(whole_lane ? cursor.lane_remaining() : cursor.run_remaining(), end - i);
        if (passed && t_.header.longest_index - i >= passed) {  // unsigned: not in the span
          step = passed;
          advance = whole_lane ? Advance::lane : Advance::run;
          if constexpr (mode == Mode::fast) tally.checked += passed;
        } else if (mirror_white < white || (mirror_white == white && mirror_black < black)) {
          mirror_image<mode>(i, mirror_white, mirror_black, tally);
        } else if constexpr (mode == Mode::collect) {
          successors(white, black, pushes, left, right, [&](std::uint64_t at) {
            if (at != kNoPawnLeft) pass_.marks->mark_entry(at);
          });
        } else if (mode == Mode::fast || !damaged(i)) {
          const bool symmetric = mirror_white == white && mirror_black == black;
          add<mode>(batch, i, white, black, pushes, left, right, symmetric);
          if (batch.size == kBatch) check_batch(batch, tally);
        }
      }
      i += step;
      if (i >= end) break;
      if (advance == Advance::lane) {
        cursor.next_lane();
      } else if (advance == Advance::run && step > 1) {
        cursor.next_run();
      } else {
        cursor.next<g_>();
      }
    }
    if constexpr (mode != Mode::collect) check_batch(batch, tally);
  }

  template <Mode mode>
  void check_wins_in_one(std::uint64_t first, std::uint64_t count, VerifyTally& tally) const {
    for (std::uint64_t i = first; i < first + count; ++i) {
      if constexpr (mode == Mode::careful) {
        if (damaged(i)) continue;
      }
      const int got = pass_.values[i];
      ++tally.checked;
      if (got != 1) {
        const game::Pawns p = index_.unrank(i);
        mismatch(i, p.white, p.black, got, 1, tally);
        continue;
      }
      ++tally.white_wins;
      tally.max_plies = std::max(tally.max_plies, 1);
      if (i == t_.header.longest_index && t_.header.max_plies != 1) tally.longest_ok = false;
    }
  }

  // A mirror image (not canonical) is never stored: the probe answers it
  // from its canonical image, which is checked with its own successors, the
  // mirror images of these. So it is counted as checked, and its canonical
  // counts its win (compare).
  template <Mode mode>
  void mirror_image(std::uint64_t i, std::uint64_t mirror_white, std::uint64_t mirror_black,
                    VerifyTally& tally) const {
    const bool longest = i == t_.header.longest_index;
    if (mode != Mode::careful && !longest) {
      if (mode == Mode::fast) ++tally.checked;
      return;
    }
    const std::uint64_t c = index_.rank_with<g_>(mirror_white, mirror_black);
    if constexpr (mode == Mode::collect) {
      if (longest) pass_.marks->mark_entry(c);
      return;
    }
    if (mode == Mode::careful && damaged(c)) return;
    ++tally.checked;
    if (longest && pass_.values[c] != t_.header.max_plies) tally.longest_ok = false;
  }

  // The entries of the successors of a canonical position without a win in
  // one, each to on_successor, kNoPawnLeft for one where black has no pawn.
  template <class OnSuccessor>
  [[gnu::always_inline]] void successors(std::uint64_t white, std::uint64_t black,
                                         std::uint64_t pushes, std::uint64_t left,
                                         std::uint64_t right, OnSuccessor on_successor) const {
    // A successor, black to move, is looked up as white to move: the
    // colour flip (flip_rows, the colours swapped) and, for the canonical
    // image, the mirror. Both move each square on its own, so a move
    // changes the images of the boards a square at a time. (The generator's
    // solver takes the same steps in code of its own, on purpose: a check
    // that shared the solver's code would repeat its mistakes.)
    const std::uint64_t flip_white = t_.symmetry.flip<kBytes>(white);
    const std::uint64_t flip_black = t_.symmetry.flip<kBytes>(black);
    const std::uint64_t mirror_white = t_.symmetry.mirror<kBytes>(flip_white);
    const std::uint64_t mirror_black = t_.symmetry.mirror<kBytes>(flip_black);
    // Each target square `to` with the square its pawn came from, `back`
    // squares further. (Inlined: its captures then stay in registers.)
    const auto moves = [&](std::uint64_t targets, int back) __attribute__((always_inline)) {
      for (; targets; targets &= targets - 1) {
        const auto to = static_cast<std::size_t>(std::countr_zero(targets));
        const std::size_t from = to + static_cast<std::size_t>(back);
        // Black's pawns, seen from black, less the one captured on `to`.
        const std::uint64_t next_white = flip_black & ~squares_.flip[to];
        if (!next_white) {
          on_successor(kNoPawnLeft);
          continue;
        }
        const std::uint64_t next_black = flip_white ^ squares_.flip[from] ^ squares_.flip[to];
        const std::uint64_t image_white = mirror_black & ~squares_.flip_mirror[to];
        const std::uint64_t image_black =
            mirror_white ^ squares_.flip_mirror[from] ^ squares_.flip_mirror[to];
        const bool take_image =
            image_white < next_white || (image_white == next_white && image_black < next_black);
        on_successor(take_image ? index_.rank_with<g_>(image_white, image_black)
                                : index_.rank_with<g_>(next_white, next_black));
      }
    };
    moves(pushes, g_.cols);
    moves(left, g_.cols + 1);
    moves(right, g_.cols - 1);
  }

  // Adds entry i, a canonical position without a win in one, to the batch:
  // its successors' values, their loads started.
  template <Mode mode>
  void add(Batch& batch, std::uint64_t i, std::uint64_t white, std::uint64_t black,
           std::uint64_t pushes, std::uint64_t left, std::uint64_t right, bool symmetric) const {
    typename Batch::Entry& e = batch.entries[batch.size++];
    e = typename Batch::Entry{i, white, black, 0, symmetric, true};
    const std::uint8_t** const first = batch.values.data() + batch.successors;
    const std::uint8_t** to = first;
    successors(white, black, pushes, left, right, [&](std::uint64_t at) {
      if (at == kNoPawnLeft) {
        *to++ = &kLost;
        return;
      }
      if (mode == Mode::careful && damaged(at)) e.readable = false;
      const std::uint8_t* const value = pass_.values + at;
      __builtin_prefetch(value);
      *to++ = value;
    });
    e.moves = static_cast<std::uint8_t>(to - first);
    batch.successors += e.moves;
  }

  // Checks the batch's entries, each against its successors' values by the
  // rule (WhiteMinimax); empties the batch.
  void check_batch(Batch& batch, VerifyTally& tally) const {
    const std::uint8_t* const* next = batch.values.data();
    for (std::size_t p = 0; p < batch.size; ++p) {
      const typename Batch::Entry& e = batch.entries[p];
      WhiteMinimax minimax;
      for (const std::uint8_t* const* stop = next + e.moves; next != stop; ++next) {
        minimax.add(**next);
      }
      if (e.readable) compare(e.i, e.white, e.black, e.symmetric, minimax.plies(), tally);
    }
    batch.size = batch.successors = 0;
  }

  // Entry i, a canonical position without a win in one, against `want`, the
  // value its successors give.
  void compare(std::uint64_t i, std::uint64_t white, std::uint64_t black, bool symmetric, int want,
               VerifyTally& tally) const {
    const int got = pass_.values[i];
    ++tally.checked;
    if (got != want) {
      mismatch(i, white, black, got, want, tally);
      return;
    }
    // The mirror image, another entry unless the position is symmetric, has
    // the same value.
    if (got % 2) tally.white_wins += symmetric ? 1 : 2;
    tally.max_plies = std::max(tally.max_plies, got);
    if (i == t_.header.longest_index && got != t_.header.max_plies) tally.longest_ok = false;
  }

  void mismatch(std::uint64_t i, std::uint64_t white, std::uint64_t black, int got, int want,
                VerifyTally& tally) const {
    if (tally.mismatches++ == 0 || i < tally.first_mismatch_index) {
      tally.first_mismatch_index = i;
      tally.first_mismatch = format_position(Position{g_, white, black, Side::white}) +
                             ": table says " + show(white_result(got)) + ", successors say " +
                             show(white_result(want));
    }
  }

  const Pass& pass_;
  const TableView& t_;
  const Index& index_;
  SquareImages squares_;
};

// Runs a pass over the entries [begin, end) of one tier on `threads` threads
// (util::parallel_for, "verify"), each thread's findings into its tally;
// on_done(entries) is called from the calling thread now and then.
template <class G>
void run_pass(const Pass& pass, std::uint64_t begin, std::uint64_t end, unsigned threads,
              std::vector<WorkerTally>& tallies,
              const std::function<void(std::uint64_t)>& on_done) {
  const Checker<G> checker(pass);
  const std::uint64_t chunks = (end - begin + kChunk - 1) / kChunk;
  tallies.assign(util::workers_for(threads, chunks), WorkerTally{});
  std::atomic<std::uint64_t> finished{0};
  util::parallel_for("verify", threads, chunks, [&](std::uint64_t c, unsigned w) {
    const std::uint64_t first = begin + c * kChunk;
    checker.run(first, std::min(first + kChunk, end), tallies[w].tally);
    const std::uint64_t done = finished.fetch_add(1) + 1;
    if (w == 0 && on_done) on_done(std::min(end - begin, done * kChunk));
  });
}

using RunPass = void (*)(const Pass&, std::uint64_t, std::uint64_t, unsigned,
                         std::vector<WorkerTally>&, const std::function<void(std::uint64_t)>&);
constexpr auto kRunPass = game::per_geometry([](auto g) { return &run_pass<decltype(g)>; });

// Adds what the workers found in a piece to state, in index order.
void merge(const std::vector<WorkerTally>& tallies, VerifyState& state) {
  std::uint64_t first_index = UINT64_MAX;
  std::string first_mismatch;
  for (const WorkerTally& worker : tallies) {
    const VerifyTally& tally = worker.tally;
    state.report.checked += tally.checked;
    state.report.mismatches += tally.mismatches;
    state.white_wins += tally.white_wins;
    state.max_plies = std::max(state.max_plies, tally.max_plies);
    state.longest_ok = state.longest_ok && tally.longest_ok;
    if (tally.mismatches && tally.first_mismatch_index < first_index) {
      first_index = tally.first_mismatch_index;
      first_mismatch = tally.first_mismatch;
    }
  }
  if (state.report.first_mismatch.empty()) state.report.first_mismatch = first_mismatch;
}

// Adds newly found damage to the state's list, in block order, each block once.
void add_damage(std::vector<BlockDamage>& found, VerifyState& state) {
  if (found.empty()) return;
  auto& all = state.report.damaged_blocks;
  for (BlockDamage& d : found) {
    const bool known = std::any_of(all.begin(), all.end(),
                                   [&](const BlockDamage& e) { return e.block == d.block; });
    if (!known) all.push_back(std::move(d));
  }
  found.clear();
  std::sort(all.begin(), all.end(),
            [](const BlockDamage& a, const BlockDamage& b) { return a.block < b.block; });
}

}  // namespace

VerifyReport verify(const Table& table, std::uint64_t memory_bytes,
                    const ProgressCallback& on_progress, unsigned threads, const VerifyState& from,
                    const VerifyCheckpoint& on_checkpoint) {
  const TableView t(table);
  const std::uint64_t budget = budget_bytes(t, memory_bytes);
  const std::uint64_t n = t.header.entry_count;
  if (from.header_checksum != 0 && from.header_checksum != t.header.header_checksum) {
    throw std::invalid_argument("the verify state is of another table");
  }
  if (from.entries_done > n)
    throw std::invalid_argument("the verify state is past the table's end");
  VerifyState state = from;
  state.header_checksum = t.header.header_checksum;
  const auto progress = [&](std::uint64_t done) {
    if (on_progress) {
      on_progress(Progress{"verify", static_cast<double>(done) / static_cast<double>(n)});
    }
  };
  const unsigned threads_used = util::thread_count(threads);
  const RunPass run = kRunPass[static_cast<std::size_t>(game::geometry_number(t.header.geometry))];
  ValueImage image(t, threads_used, budget);
  const TierMoves tier_moves(t.index);
  const unsigned page_shift = image_page_shift(t);
  const std::span<const Index::Tier> tiers = t.index.tiers();
  const std::uint64_t segment = segment_entries(n);
  std::optional<PageMarks> marks;  // made for the first tier that does not fit
  std::vector<BlockDamage> damage;
  std::vector<WorkerTally> tallies;
  std::uint64_t since_checkpoint = 0;

  // Checks [begin, end) of one tier, whose reads are held, and checkpoints.
  const auto check = [&](std::uint64_t begin, std::uint64_t end) {
    add_damage(damage, state);
    const Pass pass{t, image.values(), image.damaged(), nullptr};
    run(pass, begin, end, threads_used, tallies,
        [&](std::uint64_t done) { progress(begin + done); });
    merge(tallies, state);
    state.entries_done = end;
    since_checkpoint += end - begin;
    if (end == n) state.blocks_checked = true;  // every block was decoded on the way
    if (on_checkpoint && (since_checkpoint >= segment || end == n)) {
      since_checkpoint = 0;
      on_checkpoint(state);
    }
  };

  for (std::size_t k = state.entries_done < n ? t.index.tier_of(state.entries_done) : tiers.size();
       k < tiers.size(); ++k) {
    const std::uint64_t tier_end = tiers[k].first + tiers[k].size;
    std::uint64_t at = std::max(tiers[k].first, state.entries_done);
    if (at >= tier_end) continue;
    const TierHold hold = tier_hold(tier_moves, k, page_shift);
    if (hold.fits(t, budget)) {
      image.hold(hold.pages, damage);
      for (; at < tier_end; at = std::min(tier_end, at + segment)) {
        check(at, std::min(tier_end, at + segment));
      }
      continue;
    }
    // The tier and its children do not fit: pieces (A TIER THAT DOES NOT FIT).
    if (!marks) marks.emplace(image.pages(), image.page_shift());
    const std::uint64_t tier_bytes = tier_end - at;
    std::uint64_t piece =
        std::clamp<std::uint64_t>(static_cast<std::uint64_t>(static_cast<double>(tier_bytes) *
                                                             static_cast<double>(image.budget()) /
                                                             static_cast<double>(2 * hold.bytes)),
                                  kMinPiece, segment);
    while (at < tier_end) {
      const std::uint64_t end = std::min(tier_end, at + piece);
      marks->clear();
      marks->mark_entries(at, end);
      run(Pass{t, image.values(), nullptr, &*marks}, at, end, threads_used, tallies, {});
      std::uint64_t count = 0;
      const std::vector<IndexRange> needed = marks->ranges(count);
      if (count * image.page_bytes() > image.budget() && piece > kMinPiece) {
        piece = std::max(kMinPiece, piece / 2);
        continue;
      }
      image.hold(needed, damage);
      check(at, end);
      at = end;
    }
  }
  add_damage(damage, state);
  if (state.entries_done == n) state.blocks_checked = true;

  VerifyReport report = state.report;
  auto mismatch = [&](const std::string& what) {
    if (report.mismatches++ == 0) report.first_mismatch = what;
  };
  if (!state.longest_ok) {
    mismatch("header: the longest example is not " + std::to_string(t.header.max_plies) + " plies");
  }
  // The header's counts, when every position was checked.
  if (report.ok() && state.white_wins != t.header.win_count) {
    mismatch("header: " + std::to_string(t.header.win_count) + " white wins, table has " +
             std::to_string(state.white_wins));
  }
  if (report.ok() && state.max_plies != t.header.max_plies) {
    mismatch("header: longest game " + std::to_string(t.header.max_plies) + ", table has " +
             std::to_string(state.max_plies));
  }
  progress(n);
  return report;
}

VerifyPlan verify_plan(const Table& table, std::uint64_t memory_bytes) {
  const TableView t(table);
  const std::uint64_t budget = budget_bytes(t, memory_bytes);
  VerifyPlan plan;
  plan.memory_bytes = t.loaded_entries ? 0 : budget;
  plan.entries = t.header.entry_count;
  const unsigned page_shift = image_page_shift(t);
  const TierMoves tier_moves(t.index);
  const std::span<const Index::Tier> tiers = t.index.tiers();
  for (std::size_t k = 0; k < tiers.size(); ++k) {
    if (tiers[k].size == 0) continue;
    ++plan.tiers;
    const TierHold hold = tier_hold(tier_moves, k, page_shift);
    plan.largest_tier_bytes = std::max(plan.largest_tier_bytes, hold.bytes);
    if (!hold.fits(t, budget)) {
      ++plan.tiers_in_pieces;
      plan.entries_in_pieces += tiers[k].size;
    }
  }
  return plan;
}

}  // namespace pawntb::check
