// pawntb play: a game against the table.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "commands.hpp"

namespace pawntb::cli {

struct PlayArgs : CommandArgs {
  std::string first_position;         // --position; empty: the table's start
  std::string play_as;                // "white", "black", or empty: the side to move
  std::optional<std::uint64_t> seed;  // absent: a random seed
};

// The command's entry in the command table (commands.cpp).
extern const Command kPlay;

}  // namespace pawntb::cli
