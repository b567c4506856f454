// A running search's saved state (docs/search.md, "Resume"): the
// transposition table and the work done so far, written atomically every few
// minutes, so that `solve --resume FILE` goes on from it after a kill.
//
// Every entry of the table is a proven fact about one position of the board
// (its side to move wins or loses), whatever the root, the knowledge or the
// table leaves, so a saved table is sound for any later search of the same
// board; only the hash that places the entries must be the same, which the
// version pins. Entries written while the search ran on are caught half
// written at worst, and a half-written entry fails its own key check
// (tt.hpp), as it would in the running search.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>

#include "pawntb/position.hpp"
#include "tt.hpp"

namespace pawntb::search_detail {

struct SearchStateHeader {
  Position root;
  std::uint64_t nodes = 0;  // searched before, in every part
  double seconds = 0;       // the parts' wall time
  std::uint64_t tt_bytes = 0;
};

// Writes the state atomically; returns the file's size. Throws
// std::system_error naming the file when it cannot be written.
std::uint64_t save_state(const std::filesystem::path& path, const SearchStateHeader& header,
                         const TranspositionTable& tt);

// The header of a saved state, or nullopt when `path` does not exist.
// Throws std::invalid_argument naming the file when it is not a state file
// of this version or is damaged.
std::optional<SearchStateHeader> read_state_header(const std::filesystem::path& path);

// Loads the saved table into `tt`, which must have the saved size. Throws
// std::invalid_argument naming the file when it is damaged; `tt` is then
// partly filled and must be thrown away.
void load_state(const std::filesystem::path& path, TranspositionTable& tt);

}  // namespace pawntb::search_detail
