// pawntb generate: solves a board and writes its table.
#pragma once

#include <string>

#include "commands.hpp"

namespace pawntb::cli {

struct GenerateArgs : CommandArgs {
  int rows = 4;
  int cols = 4;
  int pawns = 0;         // 1..cols; as many as columns unless --pawns is given
  unsigned threads = 0;  // 0: the library's default (one per hardware thread)
  std::string output;    // set by validation: ./RxC-kK.pawntb unless --output
  bool force = false;    // overwrite an existing output file
  MemoryArg memory;
  std::string work_dir;        // empty: in memory when the table fits
  bool keep_work_dir = false;  // keep the unit files once the table is written
  bool plan = false;           // print the plan (as JSON with --json) and stop
  bool json = false;
  int ranks = 0;   // with --plan: the ranks to plan for; 0: this run's
  int sample = 0;  // with --plan: units solved to measure the rate; 0: none
  std::string report;  // --report FILE; empty: none
};

// The command's entry in the command table (commands.cpp).
extern const Command kGenerate;

}  // namespace pawntb::cli
