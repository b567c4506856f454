// pawntb check-proof: replaying a certificate of `pawntb solve` (pawntb::proof).
#pragma once

#include <string>
#include <vector>

#include "commands.hpp"

namespace pawntb::cli {

struct CheckProofArgs : CommandArgs {
  std::string file;                 // the certificate
  std::vector<std::string> tables;  // --tables DIR, repeatable: where the leaves' table is found
  bool json = false;
};

extern const Command kCheckProof;

}  // namespace pawntb::cli
