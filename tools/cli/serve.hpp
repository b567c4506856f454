// pawntb serve: the web explorer and JSON API.
#pragma once

#include <string>
#include <vector>

#include "commands.hpp"

namespace pawntb::cli {

struct ServeArgs : CommandArgs {
  std::vector<std::string> tables;  // --table, repeatable; empty: the default tables
  std::string host;
  int port = 0;
  bool log = false;
  unsigned threads = 0;
};

// The command's entry in the command table (commands.cpp).
extern const Command kServe;

}  // namespace pawntb::cli
