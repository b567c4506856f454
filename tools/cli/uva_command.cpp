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
  // UvaAnswers' helper thread starts decoding the table first; the header
  // alone gives this thread the geometry to parse with.
  const std::filesystem::path path =
      o.table.empty() ? Table::default_path() : std::filesystem::path(o.table);
  UvaAnswers answers(path);
  const Geometry g = Table::open(path, Table::Load::on_demand).info().geometry;
  answers.set_geometry(g);
  LineReader in(stdin, [&] { answers.finish(); });
  read_uva(in, g, answers);
  answers.finish();
  return answers.error_count() ? kUsageError : kOk;
}

}  // namespace

extern const Command kUva{
    "uva",
    "answer UVa 10838 judge input from stdin",
    "pawntb uva [--table FILE] < input",
    "Reads UVa 10838 input (a case count, then boards) and prints `white (7)` lines.",
    DefaultTable::four_by_four,
    nullptr,
    nullptr,
    run_uva};

}  // namespace pawntb::cli
