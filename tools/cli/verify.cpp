#include <cstdio>

#include "commands.hpp"
#include "common.hpp"
#include "pawntb/probe.hpp"

namespace pawntb::cli {

namespace {

int run_verify(const Options& o) {
  const Table table = open_table(o.table);
  std::printf("%s: header, block index and %s checksums ok\n", table.info().path.c_str(),
              table.info().fully_loaded ? "all block" : "lazy block");
  ProgressLine progress;
  const VerifyReport report =
      verify(table, [&](const Progress& p) { progress.update(p.stage, p.fraction_done); });
  if (!report.ok()) {
    std::fprintf(stderr, "%s: %s of %s values wrong; first: %s\n", table.info().path.c_str(),
                 with_commas(report.mismatches).c_str(), with_commas(report.checked).c_str(),
                 report.first_mismatch.c_str());
    return kRuntimeFailure;
  }
  std::printf("%s: ok, %s positions agree with their successors\n", table.info().path.c_str(),
              with_commas(report.checked).c_str());
  return kOk;
}

}  // namespace

extern const Command kVerify{
    "verify",
    "check every checksum and every value of a table",
    "pawntb verify [--table FILE | FILE]",
    "Checks every checksum, then re-derives every value from its successors.\n"
    "Exits 0 only if everything holds.",
    DefaultTable::four_by_four,
    nullptr,
    validate_table_operand,
    run_verify};

}  // namespace pawntb::cli
