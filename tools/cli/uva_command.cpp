#include "uva_command.hpp"

#include <cstdio>

#include "command_support.hpp"
#include "line_reader.hpp"
#include "pawntb/probe.hpp"
#include "uva.hpp"
#include "uva_answers.hpp"

namespace pawntb::cli {

namespace {

int run_uva(const UvaArgs& o) {
  const Table table = open_default_table(o.table);
  UvaAnswers answers(table);
  LineReader in(stdin, [&] { answers.finish(); });
  read_uva(in, table.info().geometry, answers);
  answers.finish();
  return answers.error_count() ? kUsageError : kOk;
}

}  // namespace

extern const Command kUva = command_entry<UvaArgs, nullptr, nullptr, run_uva>(
    "uva", "answer UVa 10838 judge input from stdin", "pawntb uva [--table FILE] < input",
    "Reads UVa 10838 judge input from stdin: a line with the case count, then\n"
    "that many boards, each a row per line of P (white), p (black) and . (empty),\n"
    "top row first, white to move, with blank lines between boards. Prints the\n"
    "judge's line for each, e.g. `white (7)`: the winner and the plies to the end\n"
    "with best play. A bad board is reported on stderr as `pawntb uva: stdin:LINE`\n"
    "(and the case number when it reads well but cannot be answered) and the others\n"
    "answered (exit status 2). Input after the counted boards is ignored,\n"
    "with a note on stderr.",
    DefaultTable::four_by_four);

}  // namespace pawntb::cli
