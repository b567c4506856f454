// The tiered index's tables and unrank (pawntb/format/index.hpp has the
// derivation).
#include "pawntb/format/index.hpp"

#include <algorithm>
#include <type_traits>
#include <utility>

namespace pawntb::format {

using game::board_bytes;
using game::kByteGatherScatter;
using game::low_bits;
using game::Pawns;

namespace {

using Counts = std::array<std::uint8_t, kMaxSide>;

// Every profile of n counts (0..cols each) with sum <= k, in profile-number
// order (lexicographic).
std::vector<Counts> all_profiles(int n, int cols, int k) {
  std::vector<Counts> out;
  Counts counts{};
  const auto add = [&](auto&& self, int i, int left) -> void {
    if (i == n) {
      out.push_back(counts);
      return;
    }
    for (int c = 0; c <= std::min(cols, left); ++c) {
      counts[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(c);
      self(self, i + 1, left - c);
    }
    counts[static_cast<std::size_t>(i)] = 0;
  };
  add(add, 0, k);
  return out;
}

}  // namespace

struct Index::SliceCandidate {
  int w = 0, b = 0, sw = 0, sb = 0;
  Slice slice;
};

Index::Index(Geometry g, int max_pawns) : geometry_(g), max_pawns_(max_pawns) {
  if (!valid_parameters(g, max_pawns)) {
    too_large_ = true;
    return;
  }
  const int n = g.rows - 1;
  const std::vector<Counts> profiles = all_profiles(n, g.cols, max_pawns);
  profiles_ = static_cast<int>(profiles.size());
  std::uint64_t keys = 1;
  for (int i = 0; i < n; ++i) {
    profile_weight_[static_cast<std::size_t>(i)] = keys;
    keys *= static_cast<std::uint64_t>(max_pawns + 1);
  }
  const auto pairs = static_cast<std::uint64_t>(profiles_) * static_cast<std::uint64_t>(profiles_);
  if (pairs > kMaxProfilePairs) {
    too_large_ = true;
    return;
  }
  build_row_tables(profiles, keys);
  slice_start_.assign(pairs, SliceStart{});
  too_large_ = !add_slices(profiles, slice_order(profiles));
}

std::optional<Index::SliceCandidate> Index::candidate(const std::vector<Counts>& profiles,
                                                      int white_profile,
                                                      int black_profile) const {
  const int rows = geometry_.rows, cols = geometry_.cols, n = rows - 1;
  SliceCandidate c;
  bool wrapped = false;
  std::uint64_t size = 1;
  for (int r = 0; r < rows; ++r) {
    const auto ur = static_cast<std::size_t>(r);
    const int white = r > 0 ? profiles[static_cast<std::size_t>(white_profile)][ur - 1] : 0;
    const int black = r < n ? profiles[static_cast<std::size_t>(black_profile)][ur] : 0;
    if (white + black > cols) return std::nullopt;
    c.slice.white[ur] = static_cast<std::uint8_t>(white);
    c.slice.black[ur] = static_cast<std::uint8_t>(black);
    c.w += white;
    c.sw += white * (rows - 1 - r);
    c.b += black;
    c.sb += black * r;
    wrapped = wrapped || __builtin_mul_overflow(size, binomial(cols, white), &size) ||
              __builtin_mul_overflow(size, binomial(cols - white, black), &size);
  }
  if (c.w == 0) return std::nullopt;
  c.slice.size = wrapped ? ~std::uint64_t{0} : size;
  c.slice.white_profile = static_cast<std::uint16_t>(white_profile);
  c.slice.black_profile = static_cast<std::uint16_t>(black_profile);
  return c;
}

// The tier order (TIERS in index.hpp), then the profile numbers, as one
// integer. w + b <= 16, sw + sb <= 112 and sw <= 56 fit in a byte, and the
// profile numbers in 16 bits (kMaxProfilePairs), so the fields do not
// overlap; the profile numbers are read back from it, and the slice made
// again.
std::vector<std::uint64_t> Index::slice_order(const std::vector<Counts>& profiles) const {
  static_assert(kMaxProfilePairs <= std::uint64_t{1} << 32);  // profiles_ < 2^16
  std::vector<std::uint64_t> order;
  for (int wp = 0; wp < profiles_; ++wp) {
    for (int bp = 0; bp < profiles_; ++bp) {
      const auto c = candidate(profiles, wp, bp);
      if (!c) continue;
      order.push_back(std::uint64_t(c->w + c->b) << 52 |
                      std::uint64_t(255 - (c->sw + c->sb)) << 44 | std::uint64_t(c->w) << 40 |
                      std::uint64_t(c->sw) << 32 | std::uint64_t(wp) << 16 | std::uint64_t(bp));
    }
  }
  std::sort(order.begin(), order.end());
  return order;
}

bool Index::add_slices(const std::vector<Counts>& profiles,
                       const std::vector<std::uint64_t>& order) {
  const int rows = geometry_.rows, cols = geometry_.cols;
  slices_.reserve(order.size());
  slice_firsts_.reserve(order.size());
  std::uint64_t total = 0;
  for (const std::uint64_t place : order) {
    const auto wp = static_cast<int>(place >> 16 & 0xFFFF), bp = static_cast<int>(place & 0xFFFF);
    const SliceCandidate c = *candidate(profiles, wp, bp);
    if (c.slice.size > kMaxSize || total + c.slice.size > kMaxSize) return false;
    Slice slice = c.slice;
    slice.first = total;
    slice.run_size = 1;
    slice.lane_size = 1;
    for (int r = 0; r < rows - 1; ++r) {
      const auto ur = static_cast<std::size_t>(r);
      const std::uint64_t radix = binomial(cols - slice.white[ur], slice.black[ur]);
      slice.lane_size *= radix;
      if (r > 0) slice.run_size *= radix;
    }
    if (tiers_.empty() || tiers_.back().w != c.w || tiers_.back().b != c.b ||
        tiers_.back().sw != c.sw || tiers_.back().sb != c.sb) {
      tiers_.push_back(Tier{c.w, c.b, c.sw, c.sb, total, 0, slices_.size(), 0});
      tier_firsts_.push_back(total);
    }
    tiers_.back().size += slice.size;
    ++tiers_.back().slice_count;
    slice_start_[static_cast<std::size_t>(wp) * static_cast<std::size_t>(profiles_) +
                 static_cast<std::size_t>(bp)] = SliceStart{total};
    slices_.push_back(slice);
    slice_firsts_.push_back(total);
    total += slice.size;
  }
  size_ = total;
  return true;
}

void Index::build_row_tables(const std::vector<Counts>& profiles, std::uint64_t keys) {
  const int rows = geometry_.rows, cols = geometry_.cols;
  // PROFILE KEYS (index.hpp): white's numbers premultiplied, black's after
  // the keys.
  profile_of_key_.assign(2 * keys, 0);
  for (std::size_t number = 0; number < profiles.size(); ++number) {
    std::uint64_t key = 0;
    for (int i = 0; i < rows - 1; ++i) {
      key += profiles[number][static_cast<std::size_t>(i)] *
             profile_weight_[static_cast<std::size_t>(i)];
    }
    profile_of_key_[key] = static_cast<std::uint32_t>(number * profiles.size());
    profile_of_key_[keys + key] = static_cast<std::uint32_t>(number);
  }
  const auto bytes = static_cast<std::size_t>(board_bytes(geometry_));
  key_part_.assign(2 * bytes << 8, 0);
  for (std::size_t x = 0; x < 256; ++x)
    key_part_[bytes << 8 | x] = static_cast<std::uint32_t>(keys);
  for (std::size_t j = 0; j < bytes; ++j) {
    for (std::uint64_t x = 0; x < 256; ++x) {
      for (int bit = 0; bit < 8; ++bit) {
        const int square = static_cast<int>(8 * j) + bit, r = square / cols;
        if (!(x >> bit & 1) || square >= rows * cols) continue;
        if (r >= 1)
          key_part_[j << 8 | x] +=
              static_cast<std::uint32_t>(profile_weight_[static_cast<std::size_t>(r - 1)]);
        if (r <= rows - 2)
          key_part_[(bytes + j) << 8 | x] +=
              static_cast<std::uint32_t>(profile_weight_[static_cast<std::size_t>(r)]);
      }
    }
  }
  const std::uint64_t row_subsets = std::uint64_t{1} << cols;
  row_digits_.assign(row_subsets * row_subsets, RowDigits{});
  for (std::uint64_t w = 0; w < row_subsets; ++w) {
    const int white_count = std::popcount(w);
    const std::uint64_t free = ~w & (row_subsets - 1);
    for (std::uint64_t b = free;; b = (b - 1) & free) {  // every subset of the free squares
      const auto byte = [](std::uint64_t x) { return static_cast<std::uint8_t>(x); };
      row_digits_[(w << cols) | b] =
          RowDigits{byte(row_subset_rank(w)), byte(binomial(cols, white_count)),
                    byte(row_subset_rank(kByteGatherScatter.gather[free][b])),
                    byte(binomial(cols - white_count, std::popcount(b)))};
      if (b == 0) break;
    }
  }
}

void unrank_in_slice(Geometry g, const Index::Slice& s, std::uint64_t local, RowSubsets& white_rows,
                     RowSubsets& black_rows) {
  const int rows = g.rows, cols = g.cols;
  for (int r = rows - 2; r >= 0; --r) {
    const auto ur = static_cast<std::size_t>(r);
    const int free = cols - s.white[ur];
    const std::uint64_t radix = binomial(free, s.black[ur]);
    black_rows[ur] = subset_unrank(local % radix, s.black[ur], free);
    local /= radix;
  }
  black_rows[static_cast<std::size_t>(rows - 1)] = 0;
  for (int r = rows - 1; r >= 1; --r) {
    const auto ur = static_cast<std::size_t>(r);
    const std::uint64_t radix = binomial(cols, s.white[ur]);
    white_rows[ur] = subset_unrank(local % radix, s.white[ur], cols);
    local /= radix;
  }
  white_rows[0] = 0;
}

Pawns boards_of(Geometry g, const RowSubsets& white_rows, const RowSubsets& black_rows) {
  const std::uint64_t row = low_bits(g.cols);
  Pawns p{0, 0};
  for (int r = 0; r < g.rows; ++r) {
    const auto ur = static_cast<std::size_t>(r);
    const int shift = r * g.cols;
    p.white |= white_rows[ur] << shift;
    p.black |= std::uint64_t{kByteGatherScatter.scatter[~white_rows[ur] & row][black_rows[ur]]}
               << shift;
  }
  return p;
}

Pawns Index::unrank(std::uint64_t index) const {
  const Slice& s = slices_[slice_of(index)];
  RowSubsets white_rows{}, black_rows{};
  unrank_in_slice(geometry_, s, index - s.first, white_rows, black_rows);
  return boards_of(geometry_, white_rows, black_rows);
}

std::uint64_t Index::heap_bytes() const {
  const auto bytes = [](const auto& v) {
    return std::uint64_t{v.capacity()} * sizeof(typename std::decay_t<decltype(v)>::value_type);
  };
  return bytes(profile_of_key_) + bytes(key_part_) + bytes(row_digits_) + bytes(slice_start_) +
         bytes(slices_) + bytes(slice_firsts_) + bytes(tiers_) + bytes(tier_firsts_);
}

}  // namespace pawntb::format
