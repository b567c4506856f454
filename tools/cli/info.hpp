// pawntb info: a table's header, and its tiers with --tiers.
#pragma once

#include "commands.hpp"

namespace pawntb::cli {

struct InfoArgs : CommandArgs {
  bool json = false;
  bool tiers = false;
  unsigned threads = 0;
};

// The command's entry in the command table (commands.cpp).
extern const Command kInfo;

}  // namespace pawntb::cli
