#include <cstdio>

#include "commands.hpp"
#include "common.hpp"
#include "line_reader.hpp"
#include "pawntb/probe.hpp"
#include "uva.hpp"
#include "uva_answers.hpp"

namespace pawntb::cli {

namespace {

int run_uva(const Options& o) {
  const Table table = open_table(o.table);
  UvaAnswers answers(table);
  LineReader in(stdin, [&] { answers.finish(); });
  read_uva(in, table.info().geometry, answers);
  answers.finish();
  return answers.error_count() ? kUsageError : kOk;
}

}  // namespace

extern const Command kUva{
    "uva",
    "answer UVa 10838 judge input from stdin",
    "pawntb uva [--table FILE] < input",
    "Reads UVa 10838 input (a case count, then boards) and prints `white (7)` lines.",
    "the 4x4 table",
    nullptr,
    nullptr,
    run_uva};

}  // namespace pawntb::cli
