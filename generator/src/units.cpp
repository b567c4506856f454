#include "units.hpp"

#include <algorithm>
#include <map>
#include <type_traits>

namespace pawntb::generator_detail {

UnitPlan::UnitPlan(const Index& index, const TierGraph& graph, std::uint64_t unit_entries)
    : index_(index), graph_(graph), unit_entries_(std::max<std::uint64_t>(unit_entries, 1)) {
  const auto all = index.slices();
  unit_of_slice_.resize(all.size());
  place_of_slice_.resize(all.size());
  slices_.reserve(all.size());
  for (std::size_t t = 0; t < index.tiers().size(); ++t) {
    tier_units_.push_back(units_.size());
    const Index::Tier& tier = index.tiers()[t];
    // The tier's slices by black profile, each list in index order (white
    // profile order).
    std::map<std::uint16_t, std::vector<std::uint32_t>> by_black;
    for (std::size_t s = tier.first_slice; s < tier.first_slice + tier.slice_count; ++s) {
      by_black[all[s].black_profile].push_back(static_cast<std::uint32_t>(s));
    }
    for (const auto& [black, list] : by_black) {
      for (const std::uint32_t s : list) {
        const bool fits = !units_.empty() && units_.back().tier == t &&
                          all[slices_.back()].black_profile == black &&
                          units_.back().entries + all[s].size <= unit_entries_;
        if (!fits) {
          units_.push_back(Unit{t, 0, static_cast<std::uint32_t>(slices_.size()), 0});
        }
        Unit& u = units_.back();
        unit_of_slice_[s] = static_cast<std::uint32_t>(units_.size() - 1);
        place_of_slice_[s] = u.slice_count;
        u.entries += all[s].size;
        ++u.slice_count;
        slices_.push_back(s);
      }
    }
  }
  tier_units_.push_back(units_.size());
}

std::array<Group, kMaxSide> UnitPlan::groups(std::size_t u) const {
  std::array<Group, kMaxSide> out{};
  const Unit& unit = units_[u];
  const int rows = index_.geometry().rows;
  const RowCounts& black = index_.slices()[slices_[unit.first_slice]].black;
  const TierChildren& children = graph_.children(unit.tier);
  for (int x = 0; x <= rows - 2; ++x) {
    const auto ux = static_cast<std::size_t>(x);
    if (!children.exists[ux] || (x >= 1 && black[ux] == 0)) continue;
    const RowCounts white = successor_white_counts(black, rows, x);
    const auto child = index_.slices_of(children.tier[ux]);
    const auto [begin, end] = std::equal_range(
        child.begin(), child.end(), white,
        [](const auto& a, const auto& b) {
          // Slices compare by their white counts, profiles by themselves:
          // the profile number order is the lexicographic order of the
          // counts of rows 1..R-1 (SLICES in index.hpp), and row 0 is 0.
          const auto counts = [](const auto& v) -> const RowCounts& {
            if constexpr (std::is_same_v<std::decay_t<decltype(v)>, RowCounts>) {
              return v;
            } else {
              return v.white;
            }
          };
          return counts(a) < counts(b);
        });
    if (begin == end) continue;
    Group& g = out[ux];
    g.tier = children.tier[ux];
    g.first = begin->first;
    g.size = (end - 1)->first + (end - 1)->size - begin->first;
    g.first_slice = index_.tiers()[g.tier].first_slice + static_cast<std::size_t>(begin - child.begin());
    g.slice_count = static_cast<std::size_t>(end - begin);
    g.exists = true;
  }
  return out;
}

std::uint64_t UnitPlan::values_needed(std::size_t u) const {
  std::uint64_t total = units_[u].entries;
  for (const Group& g : groups(u)) total += g.size;
  return total;
}

std::uint64_t UnitPlan::heap_bytes() const {
  return units_.capacity() * sizeof(Unit) +
         (slices_.capacity() + unit_of_slice_.capacity() + place_of_slice_.capacity()) *
             sizeof(std::uint32_t) +
         tier_units_.capacity() * sizeof(std::size_t);
}

}  // namespace pawntb::generator_detail
