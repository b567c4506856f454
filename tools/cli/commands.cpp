#include "commands.hpp"

#include "check_proof.hpp"
#include "command_support.hpp"
#include "generate.hpp"
#include "info.hpp"
#include "play.hpp"
#include "probe_command.hpp"
#include "serve.hpp"
#include "solve.hpp"
#include "stats.hpp"
#include "tables_command.hpp"
#include "uva_command.hpp"
#include "verify.hpp"

namespace pawntb::cli {

namespace {

constexpr const Command* kCommands[] = {&kGenerate, &kInfo,  &kVerify, &kUva,   &kProbe,     &kPlay,
                                        &kStats,    &kServe, &kTables, &kSolve, &kCheckProof};

}  // namespace

std::span<const Command* const> all_commands() {
  return kCommands;
}

const Command* find_command(std::string_view name) {
  for (const Command* c : kCommands) {
    if (name == c->name) return c;
  }
  return nullptr;
}

int run(const CommandLine& line) {
  const int status = line.command->run(*line.args);
  check_stdout();
  return status;
}

}  // namespace pawntb::cli
