// A running search's saved state (docs/search.md, "Resume"): the
// transposition table and the work done so far, written atomically every few
// minutes, so that `solve --resume FILE` goes on from it after a kill.
//
// Every entry of the table is a proven fact about one position of the board
// (its side to move wins or loses), whatever the root, the knowledge or the
// table leaves, so a saved table is sound for any later search of the same
// board; only the hash that places the entries must be the same, which the
// version pins. Entries are single words (tt.hpp), each copied whole while
// the search runs on.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>

#include <vector>

#include "board.hpp"
#include "distance.hpp"
#include "proof_list.hpp"
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

// The certificate's walk, part way (docs/search.md, "Resume"): the winner's
// positions listed with their moves, and the positions still to visit. Each
// listed move was proven to win, a fact of the game, so a walk goes on from
// it whatever the table holds. An empty `to_visit`: the walk is done.
struct WalkState {
  std::vector<Node> to_visit;
  bool too_large = false;  // it lists more than the memory allowed: nothing is read
  std::uint64_t listed_in_file = 0;  // then: how many it lists
};

// Writes the walk of `root` atomically beside its search state; returns the
// file's size. Throws std::system_error naming the file.
std::uint64_t save_walk(const std::filesystem::path& path, const Position& root,
                        const ProofList& listed, const std::vector<Node>& to_visit);

// The saved walk of `root`: its positions listed go into `into` (empty),
// those to visit come back; nullopt when `path` does not exist. One that
// lists more than `into` can hold comes back `too_large` and unread. Throws
// std::invalid_argument naming the file when it is damaged or of another
// root; `into` is then partly filled and must be thrown away.
std::optional<WalkState> load_walk(const std::filesystem::path& path, const Position& root,
                                   const Board& board, ProofList& into);

// The distance's bounds proven so far (docs/search.md, "Resume"), saved
// beside the state (FILE.distance) each time a question narrows them, so
// that a run killed in the distance's search asks only what is left. Like
// the table's entries they are facts of the game, whatever the table or the
// knowledge of the run that proved them.
struct DistanceState {
  Side winner = Side::white;
  DistanceBounds bounds;
  std::uint64_t nodes = 0;    // the distance's nodes, in every part
  std::uint64_t seconds = 0;  // and its seconds (0 in a PAWNDST1 file)
};

// Writes the bounds of `root` atomically; returns the file's size. Throws
// std::system_error naming the file.
std::uint64_t save_distance(const std::filesystem::path& path, const Position& root,
                            const DistanceState& state);

// The saved bounds of `root`, or nullopt when `path` does not exist. Throws
// std::invalid_argument naming the file when it is damaged or of another
// root.
std::optional<DistanceState> load_distance(const std::filesystem::path& path,
                                           const Position& root);

}  // namespace pawntb::search_detail
