// The memory this process may still use, for the generator's plans.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <string>

namespace pawntb::generator_detail {

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

// Bytes of this process's resident memory (the second field of
// /proc/self/statm, in pages); 0 if unknown.
inline std::uint64_t resident_memory() {
  std::ifstream statm("/proc/self/statm");
  std::uint64_t pages = 0, resident = 0;
  if (!(statm >> pages >> resident)) return 0;
  const long page_size = ::sysconf(_SC_PAGESIZE);
  return page_size > 0 ? resident * static_cast<std::uint64_t>(page_size) : 0;
}

}  // namespace pawntb::generator_detail
