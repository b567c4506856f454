// What memory this process holds and may still use: the default --memory of
// the commands that bound their memory (generate, verify, stats) and the
// generator's measure of itself, and large zeroed memory taken straight from
// the kernel. Header-only; reads /proc.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <new>
#include <string>
#include <utility>

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

// `size` zero bytes mapped from the kernel, given back to it when freed: the
// generator's tier values and the search's transposition table. Through
// malloc, blocks under its (growing) mmap threshold would stay in the heap
// when freed, and a zeroing `new T[n]()` would touch every page at once; here
// a page is zeroed by the kernel when first touched. Blocks of 2 MiB or more
// ask for transparent huge pages: lookups at random then miss the TLB far less
// often, and a page fault fills 2 MiB instead of 4 KiB (docs/benchmarks.md).
// Only a hint: where huge pages are off, nothing changes. Throws
// std::bad_alloc. Not thread-safe to move; the bytes are the owner's to share.
class ZeroPages {
 public:
  ZeroPages() = default;
  explicit ZeroPages(std::size_t size) : size_(size) {
    if (size == 0) return;
    void* p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    data_ = p;
    if (size >= kHugePage) ::madvise(p, size, MADV_HUGEPAGE);
  }
  ZeroPages(ZeroPages&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  ZeroPages& operator=(ZeroPages&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }
  ZeroPages(const ZeroPages&) = delete;
  ZeroPages& operator=(const ZeroPages&) = delete;
  ~ZeroPages() { release(); }

  void* data() const { return data_; }
  std::size_t size() const { return size_; }

 private:
  static constexpr std::size_t kHugePage = std::size_t{2} << 20;
  void release() {
    if (data_) ::munmap(data_, size_);
    data_ = nullptr;
    size_ = 0;
  }
  void* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace pawntb::util
