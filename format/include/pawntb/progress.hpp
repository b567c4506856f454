// pawntb: progress reports of long library calls (solve, write_table,
// encode_table, verify).
#pragma once

#include <functional>

namespace pawntb {

struct Progress {
  const char* stage;     // a static string: "solve", "compress" or "verify"
  double fraction_done;  // 0..1, never decreasing within a stage; each stage ends with exactly 1
};

// Called now and then from the thread that called the library function, never
// concurrently; may be empty. It must not throw.
using ProgressCallback = std::function<void(const Progress&)>;

}  // namespace pawntb
