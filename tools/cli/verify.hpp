// pawntb verify: checks a table whole.
#pragma once

#include <string>

#include "commands.hpp"

namespace pawntb::cli {

struct VerifyArgs : CommandArgs {
  MemoryArg memory;
  std::string resume;  // the progress file; empty: none
  bool plan = false;   // print what the check will hold in memory, and stop
  unsigned threads = 0;
  std::string report;  // --report FILE; empty: none
};

// The command's entry in the command table (commands.cpp).
extern const Command kVerify;

}  // namespace pawntb::cli
