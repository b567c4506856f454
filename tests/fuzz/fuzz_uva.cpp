// Fuzz target: the UVa 10838 input reader on any bytes.
#include <cstddef>
#include <cstdint>
#include <cstdio>

#include "cli/uva.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::FILE* in = fmemopen(const_cast<std::uint8_t*>(data), size, "rb");
  if (!in) return 0;  // fmemopen refuses size 0 on some libcs
  pawntb::cli::LineReader lines(in);
  const pawntb::Table& table = pawntb_fuzz::default_table();
  pawntb::cli::read_uva(
      lines, table.info().geometry,
      [&](std::uint64_t, const pawntb::Position& p) { (void)table.probe(p); },
      [](const pawntb::cli::UvaError& e) {
        if (e.message.empty()) __builtin_trap();
      });
  std::fclose(in);
  return 0;
}
