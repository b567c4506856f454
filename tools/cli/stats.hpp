// pawntb stats: statistics of a table.
#pragma once

#include <string>

#include "commands.hpp"

namespace pawntb::cli {

struct StatsArgs : CommandArgs {
  bool json = false;
  std::string svg_dir;  // empty: no plots
  std::string resume;   // the progress file; empty: none
  std::string report;   // --report FILE; empty: none
  MemoryArg memory;
  unsigned threads = 0;
};

// The command's entry in the command table (commands.cpp).
extern const Command kStats;

}  // namespace pawntb::cli
