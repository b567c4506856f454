// The memory this process may still use, for the generator's plans.
#pragma once

#include <cstdint>
#include <fstream>
#include <string>

namespace pawntb::detail {

// Bytes of memory available to this process (MemAvailable in /proc/meminfo);
// 0 if unknown.
inline std::uint64_t available_memory() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key, unit;
  std::uint64_t kib = 0;
  while (meminfo >> key >> kib >> unit) {
    if (key == "MemAvailable:") return kib * 1024;
  }
  return 0;
}

}  // namespace pawntb::detail
