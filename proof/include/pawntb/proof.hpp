// pawntb proof: replaying a certificate that `pawntb solve --certificate`
// wrote (docs/certificate.md), with a move generator and a rule of its own,
// sharing no code with the search that made it.
//
// THREADS. check_proof() may be called from any thread; calls share
// nothing. ERRORS. Every problem of the file or the proof comes back in the
// report; only std::bad_alloc is thrown. Nothing here prints, exits or aborts.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "pawntb/position.hpp"

namespace pawntb::proof {

struct ProofReport {
  bool ok = false;
  std::string error;     // why the certificate is refused; empty when ok
  std::string position;  // the position where the proof fails, in position notation; may be empty
  Position root;         // as the certificate gives it (when its header could be read)
  Side winner = Side::white;
  std::uint64_t entries = 0;            // winner-to-move positions the certificate lists
  // Positions the replay visited: each listed position once, any other once
  // for each way the replay reaches it.
  std::uint64_t positions_checked = 0;
  std::uint64_t table_leaves = 0;  // of those visits, answered by the table
  std::uint64_t game_ends = 0;     // of those visits, games over, lost by the side to move
  std::uint64_t wins_in_one = 0;   // of those visits, the winner to move with a move onto its goal
  // The plies of the proof's longest line (the winner playing the stored
  // moves, a table's leaf counting its value): the root's distance is at
  // most this. 0 unless ok.
  int longest_line = 0;
  std::filesystem::path table;          // the table that answered leaves; empty: none
};

// Replays the certificate `file`: from its root, every move of the loser
// and the winner's stored move, until each line ends in a game over lost by
// the loser, a position where the winner can move onto its goal row, or a
// position the certificate's table answers as a win of the winner, and
// measures the longest line. The table is the one among `tables` whose file
// checksum the certificate names (none needed when it names none).
ProofReport check_proof(const std::filesystem::path& file,
                        const std::vector<std::filesystem::path>& tables);

// Reads only the certificate's board size (for finding its tables); false
// when the file cannot be read or is not a certificate.
bool certificate_geometry(const std::filesystem::path& file, Geometry& g);

}  // namespace pawntb::proof
