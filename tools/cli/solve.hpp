// pawntb solve: proving who wins by search (pawntb::search), and its options.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "commands.hpp"

namespace pawntb::cli {

struct SolveArgs : CommandArgs {
  int rows = 0;  // --rows, with --cols: the start of that board
  int cols = 0;
  std::string position;             // --position FEN; empty: the start of --rows x --cols
  std::vector<std::string> tables;  // --tables DIR, repeatable: where more tables are found
  bool no_tables = false;           // no tables as leaves at all
  MemoryArg memory;                 // the transposition table's bound
  unsigned threads = 0;
  std::string algorithm = "dfs";  // --algorithm: dfs or dfpn
  std::uint64_t root_seed = 0;    // --root-seed N: the root's moves shuffled; 0: the usual order
  std::string root_first;         // --root-first LIST: root moves to try first, "b1b2,c1c2"
  std::string certificate;  // --certificate FILE; empty: none
  MemoryArg certificate_memory;  // --certificate-memory SIZE: the walk's bound
  std::string without;      // --without LIST: knowledge switched off
  bool baseline = false;    // plain boolean DFS + TT: no knowledge, no tables
  bool json = false;
  int progress_seconds = 10;  // --progress N: seconds between progress lines on stderr
  std::string resume;         // --resume FILE: save the state there, go on from it
  int save_every_seconds = 300;  // --save-every S
  bool dtm = false;              // --dtm: the start's distance too
  int time_seconds = 0;          // --time S: the distance's search at most; 0: no limit
};

extern const Command kSolve;

}  // namespace pawntb::cli
