// What memory this process holds and may still use: the default --memory of
// the commands that bound their memory (generate, verify, stats) and the
// generator's measure of itself. Header-only; reads /proc.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <string>

namespace pawntb::util {

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

// The default memory limit of a command: three quarters of the memory
// available now, at least 48 MiB. Thread-safe.
inline std::uint64_t default_memory_limit() {
  return std::max<std::uint64_t>(available_memory() / 4 * 3, std::uint64_t{48} << 20);
}

}  // namespace pawntb::util
