#include "proof_list.hpp"

#include "pawntb/util/bits.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>

namespace pawntb::search_detail {

namespace {

// Linear probing stays short below this load; the list grows by half when
// it passes it, and where that does not fit, by what does.
constexpr std::uint64_t kGrowAtPercent = 80;
// It fills up to this load when no growth fits, before it is too large.
constexpr std::uint64_t kFullAtPercent = 90;
constexpr std::uint64_t kFirstSlots = 1024;

// A move of the winner's in a byte: its square (6 bits) and where it goes
// beside the square ahead (0: one file lower, 1: straight on, 2: one file
// higher) in the top 2.
constexpr int kSquareBits = 6;
static_assert(kMaxSquares <= (1 << kSquareBits));

}  // namespace

// A position of the walk has white's pawns on rows 1..R-1 (bits C and up)
// and black's on rows 0..R-2 (bits below (R-1)C): neither has arrived. So
// each side's pawns are a set of at most its root count of (R-1)C bits,
// white's shifted down a row, and the key is white's rank times the number
// of black's sets, plus black's rank. Both ranks follow the numbers, so the
// keys follow (white, black).
ProofList::ProofList(const Board& board, const Position& root, std::uint64_t memory_bytes)
    : cols_(board.geometry().cols),
      bits_((board.geometry().rows - 1) * board.geometry().cols),
      white_rank_((board.geometry().rows - 1) * board.geometry().cols, std::popcount(root.white)),
      black_rank_((board.geometry().rows - 1) * board.geometry().cols, std::popcount(root.black)),
      memory_bytes_(memory_bytes) {
  check_keys(root);
}

void ProofList::check_keys(const Position& root) {
  const int bits = (root.geometry.rows - 1) * root.geometry.cols;
  std::uint64_t keys = 0;
  if (__builtin_mul_overflow(SubsetRank(bits, std::popcount(root.white)).count(),
                             SubsetRank(bits, std::popcount(root.black)).count(), &keys) ||
      keys == ~std::uint64_t{0}) {  // keys + 1 must fit: 0 marks an empty slot
    throw std::invalid_argument(
        "a certificate cannot list positions of " + std::to_string(std::popcount(root.white)) +
        " and " + std::to_string(std::popcount(root.black)) + " pawns a side on " +
        std::to_string(root.geometry.rows) + "x" + std::to_string(root.geometry.cols) +
        ": their keys would not fit 64 bits");
  }
}

std::uint64_t ProofList::key(std::uint64_t white, std::uint64_t black) const {
  return white_rank_.rank(white >> cols_) * black_rank_.count() + black_rank_.rank(black);
}

bool ProofList::holds(const ProofMove& m) const {
  const int squares = bits_ + cols_;
  if ((m.white & ((std::uint64_t{1} << cols_) - 1)) != 0 || (m.black >> bits_) != 0 ||
      (squares < 64 && (m.white >> squares) != 0) || (m.white & m.black) != 0 ||
      std::popcount(m.white) > white_rank_.most() || std::popcount(m.black) > black_rank_.most() ||
      m.from >= squares || m.to >= squares) {
    return false;
  }
  const bool white = (m.white >> m.from & 1) != 0;
  if (!white && (m.black >> m.from & 1) == 0) return false;  // no pawn on `from`
  const int ahead = white ? m.from - cols_ : m.from + cols_;
  const int aside = m.to - ahead;
  return aside >= -1 && aside <= 1 && m.to / cols_ == ahead / cols_;
}

ProofList::Slot ProofList::encode(const ProofMove& m) const {
  if (!holds(m)) throw std::logic_error("a position of the walk that has arrived or gained pawns");
  const bool white = (m.white >> m.from & 1) != 0;
  const int ahead = white ? m.from - cols_ : m.from + cols_;
  return Slot{key(m.white, m.black) + 1,
              static_cast<std::uint8_t>(m.from | (m.to - ahead + 1) << kSquareBits)};
}

ProofMove ProofList::decode(const Slot& slot) const {
  const std::uint64_t k = slot.key - 1;
  const std::uint64_t white = white_rank_.unrank(k / black_rank_.count()) << cols_;
  const std::uint64_t black = black_rank_.unrank(k % black_rank_.count());
  const int from = slot.move & ((1 << kSquareBits) - 1);
  const bool white_moves = (white >> from & 1) != 0;
  const int ahead = white_moves ? from - cols_ : from + cols_;
  return {white, black, static_cast<std::uint8_t>(from),
          static_cast<std::uint8_t>(ahead + (slot.move >> kSquareBits) - 1)};
}

std::uint64_t ProofList::home(std::uint64_t key) const {
  // Fibonacci hashing, spread over any number of slots.
  const std::uint64_t h = key * 0x9e3779b97f4a7c15ULL;
  return util::scale_to(h, slots_.size());
}

bool ProofList::contains(std::uint64_t white, std::uint64_t black) const {
  if (slots_.empty()) return false;
  const std::uint64_t k = key(white, black) + 1;
  for (std::uint64_t i = home(k);; i = i + 1 == slots_.size() ? 0 : i + 1) {
    const std::uint64_t at = slots_[i].key;
    if (at == k) return true;
    if (at == 0) return false;
  }
}

bool ProofList::try_rehash(std::uint64_t slots) {
  if ((slots_.size() + slots) * sizeof(Slot) > memory_bytes_) return false;
  std::vector<Slot> old(slots, Slot{0, 0});
  old.swap(slots_);
  for (const Slot& s : old) {
    if (s.key == 0) continue;
    std::uint64_t i = home(s.key);
    while (slots_[i].key != 0) i = i + 1 == slots_.size() ? 0 : i + 1;
    slots_[i] = s;
  }
  return true;
}

void ProofList::reserve(std::uint64_t count) {
  const std::uint64_t now = slots_.size();
  if (count * 100 <= now * kGrowAtPercent) return;
  // By half, or to what `count` needs at the growing load, whichever is more.
  const std::uint64_t wanted =
      std::max({kFirstSlots, now + now / 2, count * 100 / kGrowAtPercent + 1});
  if (try_rehash(wanted)) return;
  // The most that fits beside the old slots while they are moved.
  const std::uint64_t most = memory_bytes_ / sizeof(Slot) - std::min(memory_bytes_ / sizeof(Slot), now);
  if (most > now + now / 10 && count * 100 <= most * kFullAtPercent && try_rehash(most)) return;
  if (count * 100 <= now * kFullAtPercent) return;
  throw TooLarge{};
}

void ProofList::add(const ProofMove& m) {
  reserve(size_ + 1);
  const Slot s = encode(m);
  std::uint64_t i = home(s.key);
  while (slots_[i].key != 0) i = i + 1 == slots_.size() ? 0 : i + 1;
  slots_[i] = s;
  ++size_;
}

void ProofList::for_each(const std::function<void(const ProofMove&)>& f) const {
  for (const Slot& s : slots_) {
    if (s.key != 0) f(decode(s));
  }
}

void ProofList::drain_sorted(const std::function<void(const ProofMove&)>& f) {
  std::uint64_t n = 0;
  for (std::uint64_t i = 0; i < slots_.size(); ++i) {
    if (slots_[i].key != 0) slots_[n++] = slots_[i];
  }
  std::sort(slots_.begin(), slots_.begin() + static_cast<std::ptrdiff_t>(n),
            [](const Slot& a, const Slot& b) { return a.key < b.key; });
  for (std::uint64_t i = 0; i < n; ++i) f(decode(slots_[i]));
  slots_.clear();
  slots_.shrink_to_fit();
  size_ = 0;
}

}  // namespace pawntb::search_detail
