// Fuzz target: the UVa 10838 input reader on any bytes. read_uva (which
// parses well-formed boards in the read buffer) must give the same boards
// and problems as reading line by line with UvaReader::next alone.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "cli/uva.hpp"
#include "fuzz_support.hpp"

namespace {

std::string board_event(std::uint64_t line, const pawntb::Position& p) {
  return std::to_string(line) + ": " + std::to_string(p.white) + " " + std::to_string(p.black);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const pawntb::Table& table = pawntb_fuzz::default_table();
  const pawntb::Geometry g = table.info().geometry;
  std::vector<std::string> events[2];  // by read_uva, by next() alone
  for (int way = 0; way < 2; ++way) {
    std::FILE* in = fmemopen(const_cast<std::uint8_t*>(data), size, "rb");
    if (!in) return 0;  // fmemopen refuses size 0 on some libcs
    pawntb::cli::LineReader lines(in);
    std::vector<std::string>& out = events[way];
    auto on_error = [&](const pawntb::cli::UvaError& e) {
      if (e.message.empty()) __builtin_trap();
      out.push_back(std::to_string(e.line) + ": " + e.message);
    };
    if (way == 0) {
      pawntb::cli::read_uva(
          lines, g,
          [&](std::uint64_t line, const pawntb::Position& p) {
            (void)table.probe(p);
            out.push_back(board_event(line, p));
          },
          on_error);
    } else {
      pawntb::cli::UvaReader reader(lines, g);
      for (pawntb::cli::UvaItem item; reader.next(item);) {
        if (item.error.empty()) {
          out.push_back(board_event(item.line, item.position));
        } else {
          on_error({item.line, item.error});
        }
      }
    }
    std::fclose(in);
  }
  if (events[0] != events[1]) __builtin_trap();
  return 0;
}
