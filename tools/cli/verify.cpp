#include <cstdio>

#include "commands.hpp"
#include "common.hpp"
#include "pawntb/probe.hpp"

namespace pawntb::cli {

namespace po = boost::program_options;

namespace {

// Opened on demand, so that a damaged block does not stop the check: every
// damaged block is reported (stderr), and the positions of the others are
// still checked. Results on stdout.
int run_verify(const Options& o) {
  const Table table = open_default_table(o.table, Table::Load::on_demand);
  const char* path = table.info().path.c_str();
  ProgressLine progress("verify");
  const VerifyReport report = verify(
      table, [&](const Progress& p) { progress.update(p.stage, p.fraction_done); }, o.threads);
  for (const BlockDamage& damage : report.damaged_blocks) {
    std::fprintf(stderr, "%s: block %u: %s\n", path, damage.block, damage.error.c_str());
  }
  if (report.damaged_blocks.empty()) {
    std::printf("%s: header, block index and all block checksums ok\n", path);
  } else {
    std::fprintf(stderr, "%s: %s of %s damaged; their positions were not checked\n", path,
                 count_of(report.damaged_blocks.size(), "block", "blocks").c_str(),
                 with_commas(table.info().blocks).c_str());
  }
  if (report.mismatches > 0) {
    std::fprintf(stderr, "%s: %s of %s values wrong; first: %s\n", path,
                 with_commas(report.mismatches).c_str(), with_commas(report.checked).c_str(),
                 report.first_mismatch.c_str());
  }
  if (!report.ok()) return kRuntimeFailure;
  std::printf("%s: ok, %s positions agree with their successors\n", path,
              with_commas(report.checked).c_str());
  return kOk;
}

}  // namespace

extern const Command kVerify{
    "verify",
    "check every checksum and every value of a table",
    "pawntb verify [--table FILE | FILE] [--threads N]",
    "Checks every checksum, then re-derives every value from its successors.\n"
    "Every damaged block is reported (stderr) and the others are still checked.\n"
    "Results go to stdout. Exits 0 only if everything holds.",
    DefaultTable::four_by_four,
    add_threads_option,
    [](const po::variables_map& given, const std::vector<std::string>& operands, Options& o) {
      if (std::string problem = check_threads(o); !problem.empty()) return problem;
      return validate_table_operand(given, operands, o);
    },
    run_verify};

}  // namespace pawntb::cli
