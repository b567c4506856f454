// pawntb: progress reports of long library calls (solve, write_table,
// encode_table, verify).
#pragma once

#include <cstdint>
#include <functional>

namespace pawntb {

struct Progress {
  const char* stage;     // a static string: "solve", "compress" or "verify"
  double fraction_done;  // 0..1, never decreasing within a stage; each stage ends with exactly 1
  // Where a generation unit by unit is (stage "solve" of pawntb::generate,
  // zero elsewhere): the work units finished and in all, and positions
  // solved by this run (units found finished in the work directory count in
  // neither).
  std::uint64_t units_done = 0, units = 0;
  std::uint64_t positions_done = 0, positions = 0;
};

// Called now and then from the thread that called the library function, never
// concurrently; may be empty. It must not throw.
using ProgressCallback = std::function<void(const Progress&)>;

}  // namespace pawntb
