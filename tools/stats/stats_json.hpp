// The JSON of a table's statistics (pawntb::analysis): the document `pawntb
// stats --json` prints and the web explorer serves, and the state that
// `pawntb stats --resume FILE` keeps.
#pragma once

#include <filesystem>
#include <nlohmann/json_fwd.hpp>
#include <optional>

#include "pawntb/analysis.hpp"

namespace pawntb::stats {

using analysis::TableStats;

// The JSON document `pawntb stats --json` prints; its schema is docs/stats.md.
// Thread-safe.
nlohmann::ordered_json to_json(const TableStats& stats);

// The --resume file of a walk of the table `info`: the state and what ties
// it to its table (its path, header checksum, entries and file size).
// Thread-safe.
nlohmann::ordered_json state_json(const analysis::StatsState& state, const TableInfo& info);

// The state saved in `path` for the table `info`; none when there is no such
// file. Throws std::invalid_argument naming the file when it cannot be read,
// is not a stats state (damaged), or is of another table.
std::optional<analysis::StatsState> read_state(const std::filesystem::path& path,
                                               const TableInfo& info);

}  // namespace pawntb::stats
