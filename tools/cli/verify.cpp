#include <cstdio>

#include "commands.hpp"
#include "common.hpp"
#include "pawntb/probe.hpp"

namespace pawntb::cli {

namespace {

// Opened on demand, so that a damaged block does not stop the check: every
// damaged block is reported (stderr), and the positions of the others are
// still checked. Results on stdout.
int run_verify(const Options& o) {
  const Table table = open_default_table(o.table, Table::Load::on_demand);
  const char* path = table.info().path.c_str();
  ProgressLine progress;
  const VerifyReport report =
      verify(table, [&](const Progress& p) { progress.update(p.stage, p.fraction_done); });
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
    "pawntb verify [--table FILE | FILE]",
    "Checks every checksum, then re-derives every value from its successors.\n"
    "Every damaged block is reported (stderr) and the others are still checked.\n"
    "Results go to stdout. Exits 0 only if everything holds.",
    DefaultTable::four_by_four,
    nullptr,
    validate_table_operand,
    run_verify};

}  // namespace pawntb::cli
