// pawntb uva: answers UVa 10838 input from stdin.
#pragma once

#include "commands.hpp"

namespace pawntb::cli {

struct UvaArgs : CommandArgs {};

// The command's entry in the command table (commands.cpp).
extern const Command kUva;

}  // namespace pawntb::cli
