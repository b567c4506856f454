#include <cstdio>

#include "commands.hpp"
#include "line_reader.hpp"
#include "pawntb/probe.hpp"
#include "uva.hpp"
#include "uva_answers.hpp"

namespace pawntb::cli {

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

}  // namespace pawntb::cli
