// Work units: pieces of the index small enough that one, with what it reads
// of earlier tiers, fits a small memory. A unit is what a run solves, writes
// to one file, resumes and (under MPI) hands to a rank.
//
// PARTS. A part is one tier t, one black profile B, and a run of
// consecutive white profiles W_1 < ... < W_m such that the slices (W_i, B)
// of t hold at most unit_entries entries together (a single slice larger
// than that is a part alone). Parts are in order of (tier, black profile,
// first white profile).
//
// WHAT A PART READS. A white move in a position of slice (W, B) of tier
// (w, b, sw, sb) takes a pawn from row r to row r-1 and may capture the
// black pawn on row x = r-1. Its successor, seen from black, is
//   (flip(B'), flip(W'))     with B' = B less the captured pawn,
// and flip takes row r to row R-1-r. So the successor's WHITE profile, row
// by row, is black's counts of the parent reversed, less one on row R-1-x
// after a capture on row x:
//   white'(R-1-r) = b_r - [r == x]                      (r = 0..R-2)
// which depends on B and x only, never on W or on which pawn moved. The
// capture row also fixes the child tier (TIERS in index.hpp): x = 0 (no
// capture) gives (b, w, sb, sw + 1), x >= 1 gives (b - 1, w, sb - x, sw + 1).
// In each child tier, then, every successor of every position of the part
// has one white profile, and the slices of a tier are ordered by white
// profile first: they are one contiguous run of slices, the part's GROUP in
// that child tier (the groups of (t, B), groups_of). A part reads at most
// R-1 groups (one per capture row that holds a black pawn, and the step).
// (The mirror image of a successor has the same profiles.)
//
// UNITS. A unit is a run of consecutive parts of one LAYER, the tiers with
// the same pawn count w + b and advancement sum sw + sb. By TIERS every
// successor has fewer pawns, or as many and a larger sum: no tier reads a
// tier of its own layer, so the parts of a unit are solved together, each
// with its own groups, and a unit depends on earlier layers only. A layer's
// tiers are consecutive in index order (the TIER ORDER sorts by w + b, then
// by sw + sb). The run grows, part by part, while
//   entries <= unit_entries   and   entries + reads <= V1,
// with reads the entries of the union of the groups of its parts (groups of
// distinct parts are the same or disjoint: one white profile of one child
// tier), and V1 the most that one part holds with its groups. So the largest
// unit with its reads, what the memory plan counts, is that of the parts
// alone, while the many small parts of a board (a few slices each) make a
// few larger units, and files. A unit's slices are kept in index order.
//
//   Memory of unit u = its entries + the entries of its groups,
// one byte each. The plan's memory_needed is the largest such sum plus the
// rest of the process (memory.hpp); see FORMAT.md, "Appendix: scheduling",
// for every board's counts.
//
// WORKED EXAMPLE (4x4, K = 4). Black profile B = (1, 1, 0) (one pawn on row
// 0 and one on row 1; rows 0..2), white pawns on rows 2 and 3: tier
// (2, 2, 1, 1). A step leaves black's pawns where they are: in the child
// tier (2, 2, 1, 2) the successors' white profile (rows 1..3) is
// (b_2, b_1, b_0) = (0, 1, 1). A capture on row 1 removes black's row-1
// pawn: in tier (1, 2, 0, 2) the white profile is (0, 0, 1). No black pawn
// is on row 2, so no capture there. Pinned by the static_asserts below and,
// with the groups' entries, by Units.WorkedExample (generator_test.cpp).
// Tier (2, 2, 1, 1) is in layer (4, 2); its children (2, 2, 1, 2) and
// (1, 2, 0, 2) are in layers (4, 3) and (3, 2), both earlier (static_asserts
// at layer_of).
//   Packing, 3x3 with K = 3 (every tier one slice, one part): V1 = 108
// (tier (3, 3, 1, 1), 54 entries, reads 27 + 27). Layer (3, 2) is the tiers (1, 2, 0, 2),
// (1, 2, 1, 1), (2, 1, 1, 1), (2, 1, 2, 0) and (3, 0, 2, 0): 9 + 18 + 18 +
// 9 + 9 = 63 entries in five parts, which read groups of 6 (of tier
// (1, 1, 1, 1)), 3 and 3 (of (1, 2, 1, 2) and (2, 1, 2, 1)): 75 <= 108, one
// unit where one-part units were five. 3x3 has 34 units, 75 parts.
// Pinned by Units.PackingExample.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "pawntb/format/index.hpp"
#include "tier_solver.hpp"

namespace pawntb::generator_detail {

using RowCounts = std::array<std::uint8_t, kMaxSide>;

// The successors' white profile (pawns per row 0..R-1) when the parent's
// black pawns per row are `black` and the move captures on row x (0: none).
// Requires black[x] >= 1 when x >= 1.
constexpr RowCounts successor_white_counts(const RowCounts& black, int rows, int x) {
  RowCounts white{};
  for (int r = 0; r <= rows - 2; ++r) {
    const int count = black[static_cast<std::size_t>(r)] - (r == x && x >= 1 ? 1 : 0);
    white[static_cast<std::size_t>(rows - 1 - r)] = static_cast<std::uint8_t>(count);
  }
  return white;
}
static_assert(successor_white_counts({1, 1, 0, 0}, 4, 0) == RowCounts{0, 0, 1, 1});
static_assert(successor_white_counts({1, 1, 0, 0}, 4, 1) == RowCounts{0, 0, 0, 1});
static_assert(successor_white_counts({0, 2, 1, 3, 0}, 5, 3) == RowCounts{0, 2, 1, 2, 0});

// The most entries a unit holds unless one slice is larger: 16 MiB of values.
inline constexpr std::uint64_t kUnitEntries = std::uint64_t{1} << 24;

// A tier's layer (UNITS above): tiers of one layer never read each other,
// and the layer of every child is another one.
struct Layer {
  int pawns = 0, advancement = 0;
  constexpr bool operator==(const Layer&) const = default;
};
constexpr Layer layer_of(int w, int b, int sw, int sb) { return Layer{w + b, sw + sb}; }
// The worked example: (2, 2, 1, 1) and its children by a step and by a
// capture on row 1.
static_assert(layer_of(2, 2, 1, 1) == Layer{4, 2});
static_assert(!(layer_of(2, 2, 1, 2) == Layer{4, 2}) && !(layer_of(1, 2, 0, 2) == Layer{4, 2}));

// A contiguous run of entries of one tier that a unit reads: the slices of
// a child tier with one white profile.
struct Group {
  std::size_t tier = 0;
  std::uint64_t first = 0, size = 0;             // entries
  std::size_t first_slice = 0, slice_count = 0;  // into Index::slices()
  bool exists = false;
};

// A unit: the tiers [tier, last_tier] (consecutive, of one layer) hold its
// slices.
struct Unit {
  std::size_t tier = 0, last_tier = 0;
  std::uint64_t entries = 0;
  std::uint64_t values = 0;       // its entries and its groups' (values_needed)
  std::uint32_t first_slice = 0;  // into UnitPlan::slices(): its slices, in index order
  std::uint32_t slice_count = 0;
};

class UnitPlan {
 public:
  // The units of `index` (unit_entries >= 1).
  UnitPlan(const Index& index, const TierGraph& graph, std::uint64_t unit_entries = kUnitEntries);

  std::size_t size() const { return units_.size(); }
  const Unit& unit(std::size_t u) const { return units_[u]; }
  std::uint64_t unit_entries() const { return unit_entries_; }
  // The numbers (into Index::slices()) of unit u's slices, in index order.
  std::span<const std::uint32_t> slices(std::size_t u) const {
    return std::span(slices_).subspan(units_[u].first_slice, units_[u].slice_count);
  }
  // The unit holding slice s, and s's place among its slices.
  std::size_t unit_of_slice(std::size_t s) const { return unit_of_slice_[s]; }
  std::uint32_t place_of_slice(std::size_t s) const { return place_of_slice_[s]; }
  // The tier holding slice s.
  std::size_t tier_of_slice(std::size_t s) const { return tier_of_slice_[s]; }

  // What the positions of slice s read, by capture row as TierChildren
  // (exists false where its tier has no such child or its black profile has
  // no pawn on that row): groups_of its tier and black profile.
  std::array<Group, kMaxSide> slice_groups(std::size_t s) const;
  // Every group unit u reads, each once, in index order.
  std::vector<Group> groups(std::size_t u) const;
  // Unit u's entries and its groups' entries: the values it holds.
  std::uint64_t values_needed(std::size_t u) const { return units_[u].values; }
  // Bytes it holds, for the memory plan (memory.hpp).
  std::uint64_t heap_bytes() const;

 private:
  std::array<Group, kMaxSide> groups_of(std::size_t tier, const RowCounts& black) const;

  const Index& index_;
  const TierGraph& graph_;
  std::uint64_t unit_entries_;
  std::vector<Unit> units_;
  std::vector<std::uint32_t> slices_;
  std::vector<std::uint32_t> unit_of_slice_, place_of_slice_, tier_of_slice_;
};

}  // namespace pawntb::generator_detail
