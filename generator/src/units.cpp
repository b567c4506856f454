#include "units.hpp"

#include <algorithm>
#include <map>
#include <type_traits>
#include <unordered_set>

namespace pawntb::generator_detail {

namespace {

// A part (PARTS in units.hpp): its tier, entries, and its slices, a run of
// UnitPlan's slice list.
struct Part {
  std::size_t tier = 0;
  std::uint64_t entries = 0;
  std::uint32_t first_slice = 0, slice_count = 0;
};

}  // namespace

UnitPlan::UnitPlan(const Index& index, const TierGraph& graph, std::uint64_t unit_entries)
    : index_(index), graph_(graph), unit_entries_(std::max<std::uint64_t>(unit_entries, 1)) {
  const auto all = index.slices();
  slices_.reserve(all.size());
  std::vector<Part> parts;
  for (std::size_t t = 0; t < index.tiers().size(); ++t) {
    const Index::Tier& tier = index.tiers()[t];
    // The tier's slices by black profile, each list in index order (white
    // profile order).
    std::map<std::uint16_t, std::vector<std::uint32_t>> by_black;
    for (std::size_t s = tier.first_slice; s < tier.first_slice + tier.slice_count; ++s) {
      by_black[all[s].black_profile].push_back(static_cast<std::uint32_t>(s));
    }
    for (const auto& [black, list] : by_black) {
      bool open = false;  // a part of this tier and black profile is open
      for (const std::uint32_t s : list) {
        if (!open || parts.back().entries + all[s].size > unit_entries_) {
          parts.push_back(Part{t, 0, static_cast<std::uint32_t>(slices_.size()), 0});
          open = true;
        }
        parts.back().entries += all[s].size;
        ++parts.back().slice_count;
        slices_.push_back(s);
      }
    }
  }
  const auto groups_of_part = [&](const Part& p) {
    return groups_of(p.tier, all[slices_[p.first_slice]].black);
  };
  // V1: the most a part holds with its groups.
  std::uint64_t most = 0;
  for (const Part& p : parts) {
    std::uint64_t values = p.entries;
    for (const Group& g : groups_of_part(p)) values += g.size;
    most = std::max(most, values);
  }
  // Units: runs of parts of one layer, while they fit (UNITS in units.hpp).
  const auto layer = [&](std::size_t t) {
    const Index::Tier& k = index.tiers()[t];
    return layer_of(k.w, k.b, k.sw, k.sb);
  };
  std::unordered_set<std::uint64_t> read;  // the last unit's groups, by first entry
  tier_of_slice_.resize(all.size());
  for (const Part& part : parts) {
    const auto groups = groups_of_part(part);
    // Entries of the part's groups that the last unit does not read yet.
    const auto added = [&] {
      std::uint64_t n = 0;
      for (const Group& g : groups) n += g.exists && read.count(g.first) == 0 ? g.size : 0;
      return n;
    };
    const bool fits = !units_.empty() && layer(units_.back().tier) == layer(part.tier) &&
                      units_.back().entries + part.entries <= unit_entries_ &&
                      units_.back().values + part.entries + added() <= most;
    if (!fits) {
      units_.push_back(Unit{part.tier, part.tier, 0, 0, part.first_slice, 0});
      read.clear();
    }
    Unit& u = units_.back();
    u.values += part.entries + added();
    for (const Group& g : groups) {
      if (g.exists) read.insert(g.first);
    }
    u.last_tier = part.tier;
    u.entries += part.entries;
    u.slice_count += part.slice_count;
    for (std::uint32_t i = part.first_slice; i < part.first_slice + part.slice_count; ++i) {
      tier_of_slice_[slices_[i]] = static_cast<std::uint32_t>(part.tier);
    }
  }
  // Each unit's slices into index order.
  unit_of_slice_.resize(all.size());
  place_of_slice_.resize(all.size());
  for (std::size_t u = 0; u < units_.size(); ++u) {
    const auto begin = slices_.begin() + units_[u].first_slice;
    std::sort(begin, begin + units_[u].slice_count);
    for (std::uint32_t i = 0; i < units_[u].slice_count; ++i) {
      unit_of_slice_[begin[i]] = static_cast<std::uint32_t>(u);
      place_of_slice_[begin[i]] = i;
    }
  }
}

std::array<Group, kMaxSide> UnitPlan::groups_of(std::size_t tier, const RowCounts& black) const {
  std::array<Group, kMaxSide> out{};
  const int rows = index_.geometry().rows;
  const TierChildren& children = graph_.children(tier);
  for (int x = 0; x <= rows - 2; ++x) {
    const auto ux = static_cast<std::size_t>(x);
    if (!children.exists[ux] || (x >= 1 && black[ux] == 0)) continue;
    const RowCounts white = successor_white_counts(black, rows, x);
    const auto child = index_.slices_of(children.tier[ux]);
    const auto [begin, end] =
        std::equal_range(child.begin(), child.end(), white, [](const auto& a, const auto& b) {
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
    g.first_slice =
        index_.tiers()[g.tier].first_slice + static_cast<std::size_t>(begin - child.begin());
    g.slice_count = static_cast<std::size_t>(end - begin);
    g.exists = true;
  }
  return out;
}

std::array<Group, kMaxSide> UnitPlan::slice_groups(std::size_t s) const {
  return groups_of(tier_of_slice_[s], index_.slices()[s].black);
}

std::vector<Group> UnitPlan::groups(std::size_t u) const {
  std::vector<Group> out;
  for (const std::uint32_t s : slices(u)) {
    for (const Group& g : slice_groups(s)) {
      if (g.exists) out.push_back(g);
    }
  }
  std::sort(out.begin(), out.end(),
            [](const Group& a, const Group& b) { return a.first < b.first; });
  out.erase(std::unique(out.begin(), out.end(),
                        [](const Group& a, const Group& b) { return a.first == b.first; }),
            out.end());
  return out;
}

std::uint64_t UnitPlan::heap_bytes() const {
  return units_.capacity() * sizeof(Unit) +
         (slices_.capacity() + unit_of_slice_.capacity() + place_of_slice_.capacity() +
          tier_of_slice_.capacity()) *
             sizeof(std::uint32_t);
}

}  // namespace pawntb::generator_detail
