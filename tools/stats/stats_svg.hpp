// The two plots of a table's statistics, as standalone SVG documents.
#pragma once

#include <string>

#include "pawntb/analysis.hpp"

namespace pawntb::stats {

using analysis::DistanceCount;
using analysis::MaterialStats;
using analysis::TableStats;

// A histogram of the distances to the end: one bar per distance in plies,
// made of a rect of class "win" or "loss" (the side to move's result) for
// each nonzero count. Thread-safe; for any caller.
std::string distance_histogram_svg(const TableStats& stats);

// A heat map of the side to move's win share by material: white pawns
// across, black pawns down, one rect of class "cell" per material that has
// positions, holding its share and number of positions. Thread-safe; for
// any caller.
std::string material_heatmap_svg(const TableStats& stats);

}  // namespace pawntb::stats
