// Tests of the work units (generator/src/units.hpp): every successor of every
// position of a unit lies in the group the derivation names, the worked
// example, and a board solved with tiny units is the table solved whole.
#include "units.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>

#include "pawntb/game/bitboard.hpp"
#include "pawntb/generator.hpp"
#include "support/test_support.hpp"

namespace pawntb {
namespace {

using namespace pawntb_test;
using format::Index;

// The number of tier (w, b, sw, sb) of `index`.
std::size_t number_of_tier(const Index& index, int w, int b, int sw, int sb) {
  for (std::size_t t = 0; t < index.tiers().size(); ++t) {
    const Index::Tier& x = index.tiers()[t];
    if (x.w == w && x.b == b && x.sw == sw && x.sb == sb) return t;
  }
  ADD_FAILURE() << "no tier";
  return 0;
}

// Every move of every position of every unit (units of at most
// `unit_entries` entries, so that tiers are cut into several) is made here
// with the bitboard steps, and its successor (seen from black), and that
// successor's mirror image, are in the group the unit reads for the row the
// move captures on.
void expect_successors_in_groups(Geometry g, int k, std::uint64_t unit_entries) {
  const Index index(g, k);
  const generator_detail::TierGraph graph(index);
  const generator_detail::UnitPlan units(index, graph, unit_entries);
  std::uint64_t covered = 0, moves = 0;
  for (std::size_t u = 0; u < units.size(); ++u) {
    const std::vector<generator_detail::Group> read = units.groups(u);
    for (const std::uint32_t s : units.slices(u)) {
      const Index::Slice& slice = index.slices()[s];
      const auto groups = units.slice_groups(s);
      // The slice's groups are among those its unit reads.
      for (const generator_detail::Group& group : groups) {
        if (!group.exists) continue;
        EXPECT_TRUE(std::any_of(
            read.begin(), read.end(),
            [&](const auto& r) { return r.first == group.first && r.size == group.size; }))
            << to_string(g) << " unit " << u;
      }
      covered += slice.size;
      for (std::uint64_t i = slice.first; i < slice.first + slice.size; ++i) {
        const auto p = index.unrank(i);
        const std::uint64_t empty = game::board_mask(g) & ~(p.white | p.black);
        for (std::uint64_t pawns = p.white; pawns; pawns &= pawns - 1) {
          const std::uint64_t from = pawns & -pawns;
          const std::uint64_t targets =
              (game::white_pushes(g, from) & empty) |
              ((game::white_left_captures(g, from) | game::white_right_captures(g, from)) &
               p.black);
          for (std::uint64_t t = targets; t; t &= t - 1) {
            const std::uint64_t to = t & -t;
            const int row = std::countr_zero(to) / g.cols;
            const std::uint64_t black = p.black & ~to, white = (p.white ^ from) | to;
            if (row == 0 || black == 0) continue;  // won at once: no entry
            const std::uint64_t next_white = game::flip_rows(g, black);
            const std::uint64_t next_black = game::flip_rows(g, white);
            const generator_detail::Group& group =
                groups[(p.black & to) ? static_cast<std::size_t>(row) : 0];
            ASSERT_TRUE(group.exists) << to_string(g) << " unit " << u << " entry " << i;
            for (const auto& [w, b] : {std::pair{next_white, next_black},
                                       std::pair{game::mirror_files(g, next_white),
                                                 game::mirror_files(g, next_black)}}) {
              const std::uint64_t at = index.rank(w, b);
              ASSERT_GE(at, group.first) << to_string(g) << " unit " << u << " entry " << i;
              ASSERT_LT(at, group.first + group.size) << to_string(g) << " unit " << u;
              ASSERT_EQ(index.tier_of(at), group.tier);
            }
            ++moves;
          }
        }
      }
    }
  }
  EXPECT_EQ(covered, index.size()) << "the units do not tile the index";
  EXPECT_GT(moves, 0u);
}

TEST(Units, EverySuccessorIsInTheGroupItsUnitReads) {
  expect_successors_in_groups(Geometry{4, 4}, 4, generator_detail::kUnitEntries);
  expect_successors_in_groups(Geometry{4, 4}, 4, 100);
  expect_successors_in_groups(Geometry{5, 4}, 4, 1000);
  expect_successors_in_groups(Geometry{4, 5}, 3, 1000);
}

// Units hold at most unit_entries unless one slice is larger, hold
// consecutive tiers of one layer, tile the index in index order, and hold
// with their groups no more than the most one black profile of one tier
// holds with its groups (V1, units.hpp).
TEST(Units, RespectTheirBoundsAndOrder) {
  for (const std::uint64_t unit_entries : {std::uint64_t{500}, generator_detail::kUnitEntries}) {
    const Index index(Geometry{5, 4}, 4);
    const generator_detail::TierGraph graph(index);
    const generator_detail::UnitPlan units(index, graph, unit_entries);
    // V1 from the parts' definition: the runs of white profiles of one tier
    // and black profile, cut where they pass unit_entries.
    std::uint64_t most = 0;
    std::size_t parts = 0;
    std::map<std::pair<std::size_t, std::uint16_t>, std::uint64_t> run;  // entries of the open run
    for (std::size_t s = 0; s < index.slices().size(); ++s) {
      const Index::Slice& slice = index.slices()[s];
      const std::size_t t = index.tier_of(slice.first);
      std::uint64_t& open = run[{t, slice.black_profile}];
      if (open > 0 && open + slice.size > unit_entries) open = 0;
      parts += open == 0;
      open += slice.size;
      std::uint64_t values = open;
      for (const generator_detail::Group& g : units.slice_groups(s)) values += g.size;
      most = std::max(most, values);
    }
    std::size_t last_tier = 0;
    for (std::size_t u = 0; u < units.size(); ++u) {
      const generator_detail::Unit& unit = units.unit(u);
      EXPECT_GE(unit.tier, last_tier);
      EXPECT_LE(unit.tier, unit.last_tier);
      last_tier = unit.last_tier;
      const Index::Tier& first = index.tiers()[unit.tier];
      for (std::size_t t = unit.tier; t <= unit.last_tier; ++t) {
        const Index::Tier& k = index.tiers()[t];
        EXPECT_EQ(k.w + k.b, first.w + first.b) << u;
        EXPECT_EQ(k.sw + k.sb, first.sw + first.sb) << u;
      }
      const auto slices = units.slices(u);
      EXPECT_TRUE(unit.entries <= unit_entries || slices.size() == 1) << u;
      std::uint64_t entries = 0, reads = 0;
      for (std::size_t i = 0; i < slices.size(); ++i) {
        const Index::Slice& s = index.slices()[slices[i]];
        entries += s.size;
        EXPECT_EQ(units.unit_of_slice(slices[i]), u);
        EXPECT_EQ(units.place_of_slice(slices[i]), i);
        EXPECT_EQ(units.tier_of_slice(slices[i]), index.tier_of(s.first));
        EXPECT_GE(index.tier_of(s.first), unit.tier);
        EXPECT_LE(index.tier_of(s.first), unit.last_tier);
        if (i > 0) {
          EXPECT_GT(slices[i], slices[i - 1]);
        }
      }
      for (const generator_detail::Group& g : units.groups(u)) reads += g.size;
      EXPECT_EQ(entries, unit.entries);
      EXPECT_EQ(units.values_needed(u), entries + reads) << u;
      EXPECT_LE(units.values_needed(u), most) << u;
    }
    // Fewer units than parts: parts are merged.
    EXPECT_LT(units.size(), parts) << unit_entries;
  }
}

// The worked example of units.hpp: 4x4, black profile (1, 1, 0) in tier
// (2, 2, 1, 1) reads white profile (0, 1, 1) of tier (2, 2, 1, 2) and
// (0, 0, 1) of tier (1, 2, 0, 2), and nothing for row 2.
TEST(Units, WorkedExample) {
  const Index index(Geometry{4, 4}, 4);
  const generator_detail::TierGraph graph(index);
  const generator_detail::UnitPlan units(index, graph);
  const auto tier_number = [&](int w, int b, int sw, int sb) {
    return number_of_tier(index, w, b, sw, sb);
  };
  const std::size_t tier = tier_number(2, 2, 1, 1);
  // The entries of a tier's slices with these white pawns per row.
  const auto entries_with = [&](std::size_t t, generator_detail::RowCounts white) {
    std::uint64_t n = 0;
    for (const Index::Slice& s : index.slices_of(t)) n += s.white == white ? s.size : 0;
    return n;
  };
  bool found = false;
  for (std::size_t s = 0; s < index.slices().size(); ++s) {
    if (units.tier_of_slice(s) != tier ||
        index.slices()[s].black != generator_detail::RowCounts{1, 1, 0, 0}) {
      continue;
    }
    found = true;
    const auto groups = units.slice_groups(s);
    EXPECT_TRUE(groups[0].exists && groups[1].exists && !groups[2].exists);
    EXPECT_EQ(groups[0].tier, tier_number(2, 2, 1, 2));
    EXPECT_EQ(groups[1].tier, tier_number(1, 2, 0, 2));
    EXPECT_EQ(groups[0].size, entries_with(groups[0].tier, {0, 0, 1, 1}));
    EXPECT_EQ(groups[1].size, entries_with(groups[1].tier, {0, 0, 0, 1}));
    EXPECT_GT(groups[0].size, 0u);
    EXPECT_GT(groups[1].size, 0u);
  }
  EXPECT_TRUE(found);
}

// The packing example of units.hpp: on 3x3, layer (3, 2) is one unit of 63
// entries reading 12 (75 in all), under V1 = 108, that of tier
// (3, 3, 1, 1); 34 units.
TEST(Units, PackingExample) {
  const Index index(Geometry{3, 3}, 3);
  const generator_detail::TierGraph graph(index);
  const generator_detail::UnitPlan units(index, graph);
  const auto tier_number = [&](int w, int b, int sw, int sb) {
    return number_of_tier(index, w, b, sw, sb);
  };
  const std::size_t first = tier_number(1, 2, 0, 2), last = tier_number(3, 0, 2, 0);
  const std::size_t u = units.unit_of_slice(index.tiers()[first].first_slice);
  EXPECT_EQ(units.unit(u).tier, first);
  EXPECT_EQ(units.unit(u).last_tier, last);
  EXPECT_EQ(last - first, 4u);
  for (const auto& k : {std::array{1, 2, 1, 1}, std::array{2, 1, 1, 1}, std::array{2, 1, 2, 0}}) {
    const std::size_t t = tier_number(k[0], k[1], k[2], k[3]);
    EXPECT_TRUE(t > first && t < last);
  }
  EXPECT_EQ(units.unit(u).entries, 63u);
  EXPECT_EQ(units.values_needed(u), 75u);
  std::uint64_t most = 0;
  for (std::size_t v = 0; v < units.size(); ++v) most = std::max(most, units.values_needed(v));
  EXPECT_EQ(most, 108u);
  const std::size_t big = tier_number(3, 3, 1, 1);
  std::uint64_t big_values = index.tiers()[big].size;
  for (const generator_detail::Group& g : units.slice_groups(index.tiers()[big].first_slice)) {
    big_values += g.size;
  }
  EXPECT_EQ(big_values, 108u);
  EXPECT_EQ(units.size(), 34u);
}

// A board solved with units of a few entries (cutting every tier into many)
// is the table solved in memory, byte for byte.
TEST(Units, TinyUnitsMakeTheWholeTierTable) {
  for (const auto& [g, unit_entries] :
       {std::pair{Geometry{4, 4}, 64}, std::pair{Geometry{4, 5}, 5000}}) {
    TempDir dir;
    const std::vector<std::uint8_t> whole = encode_table(solve(g, g.cols, 2), 2);
    GenerateRequest request;
    request.geometry = g;
    request.max_pawns = g.cols;
    request.threads = 2;
    request.work_dir = dir / "work";
    request.unit_entries = static_cast<std::uint64_t>(unit_entries);
    const GenerationReport report = generate(request, {}, dir / "units.pawntb");
    EXPECT_GT(report.plan.units, report.plan.tiers) << to_string(g);
    EXPECT_EQ(read_bytes(dir / "units.pawntb"), whole) << to_string(g);
  }
}

}  // namespace
}  // namespace pawntb
