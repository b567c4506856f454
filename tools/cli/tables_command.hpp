// pawntb tables: the tables found on the search path.
#pragma once

#include "commands.hpp"

namespace pawntb::cli {

struct TablesArgs : CommandArgs {
  bool json = false;
};

// The command's entry in the command table (commands.cpp).
extern const Command kTables;

}  // namespace pawntb::cli
