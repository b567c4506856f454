#include "check_proof.hpp"

#include <boost/program_options.hpp>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "command_support.hpp"
#include "pawntb/notation.hpp"
#include "pawntb/probe.hpp"
#include "pawntb/proof.hpp"

namespace pawntb::cli {

namespace po = boost::program_options;

namespace {

int run_check_proof(const CheckProofArgs& o) {
  std::vector<std::filesystem::path> tables;
  Geometry g;
  if (proof::certificate_geometry(o.file, g)) {
    for (const std::string& dir : o.tables) {
      if (auto f = Table::find_in(dir, g)) tables.push_back(*f);
    }
    if (auto f = Table::find(g)) tables.push_back(*f);
  }
  const proof::ProofReport r = proof::check_proof(o.file, tables);
  const auto as_json = [&] {
    return nlohmann::ordered_json{
        {"file", o.file},
        {"ok", r.ok},
        {"error", r.ok ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(r.error)},
        {"failing_position",
         r.position.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(r.position)},
        {"winner", r.ok ? nlohmann::ordered_json(side_name(r.winner)) : nullptr},
        {"root", r.ok ? nlohmann::ordered_json(format_position(r.root)) : nullptr},
        {"entries", r.entries},
        {"positions_checked", r.positions_checked},
        {"table_leaves", r.table_leaves},
        {"game_ends", r.game_ends},
        {"wins_in_one", r.wins_in_one},
        {"longest_line", r.ok ? nlohmann::ordered_json(r.longest_line) : nullptr},
        {"table", r.table.empty() ? nlohmann::ordered_json(nullptr)
                                  : nlohmann::ordered_json(r.table.string())}};
  };
  // A failed check prints no text: stderr says why.
  const auto as_text = [&] {
    if (!r.ok) return;
    std::printf(
        "%s: ok, %s wins %s within %d plies: %s positions checked (%s games over, %s wins in "
        "one, %s table leaves)\n",
        o.file.c_str(), side_name(r.winner), format_position(r.root).c_str(), r.longest_line,
        with_commas(r.positions_checked).c_str(), with_commas(r.game_ends).c_str(),
        with_commas(r.wins_in_one).c_str(), with_commas(r.table_leaves).c_str());
  };
  print_result(o.json, as_json, as_text);
  if (!r.ok) {
    std::fprintf(stderr, "pawntb check-proof: %s: %s\n", o.file.c_str(), r.error.c_str());
    return kRuntimeFailure;
  }
  return kOk;
}

void check_proof_options(po::options_description& desc, CheckProofArgs& o) {
  desc.add_options()("tables", po::value(&o.tables)->composing()->value_name("DIR"),
                     "also look for the leaves' table in DIR (repeatable)")(
      "json", po::bool_switch(&o.json), "print the result as one JSON object");
}

std::string validate_check_proof(const po::variables_map&, const std::vector<std::string>& operands,
                                 CheckProofArgs& o) {
  if (operands.size() != 1) return "give one certificate file";
  o.file = operands.front();
  return {};
}

}  // namespace

extern const Command kCheckProof =
    command_entry<CheckProofArgs, check_proof_options, validate_check_proof, run_check_proof>(
        "check-proof", "replay a certificate of `pawntb solve`",
        "pawntb check-proof [--tables DIR]... [--json] FILE",
        "Replays the proof in FILE (docs/certificate.md) with a move generator of its\n"
        "own: from the start, every reply of the loser and the winner's stored move,\n"
        "until every line ends in a game the loser has lost or a position the\n"
        "certificate's table answers (found in --tables DIR or along the search path,\n"
        "by its file checksum). Exits 0 when the proof holds, 1 with the reason and\n"
        "the position where it fails when it does not.",
        DefaultTable::none);

}  // namespace pawntb::cli
