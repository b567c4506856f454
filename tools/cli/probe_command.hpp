// pawntb probe: the value of positions.
#pragma once

#include <string>
#include <vector>

#include "commands.hpp"

namespace pawntb::cli {

struct ProbeArgs : CommandArgs {
  bool json = false;
  std::vector<std::string> positions;
  std::string moves;   // played from each position first
  bool start = false;  // the table's start position
};

// The command's entry in the command table (commands.cpp).
extern const Command kProbe;

}  // namespace pawntb::cli
