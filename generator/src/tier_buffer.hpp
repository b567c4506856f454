// Memory for a tier's values, mapped from the kernel and given back to it
// when freed. Tiers of every size from bytes to gigabytes come and go in the
// tier cache; through malloc, the ones under its (growing) mmap threshold
// would stay in the heap when freed, and the process's resident memory would
// grow past the values it holds, and past --memory.
#pragma once

#include <sys/mman.h>

#include <cstdint>
#include <new>
#include <span>
#include <utility>

#include "pawntb/format/values.hpp"

namespace pawntb::generator_detail {

using format::Plies;

class TierBuffer {
 public:
  TierBuffer() = default;
  // `size` zero bytes; throws std::bad_alloc.
  explicit TierBuffer(std::size_t size) : size_(size) {
    if (size == 0) return;
    void* p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    data_ = static_cast<Plies*>(p);
    // The solver reads child values at random: with 2 MiB pages a lookup
    // misses the TLB far less often (docs/benchmarks.md). Only a hint: where
    // transparent huge pages are off, nothing changes.
    if (size >= kHugePage) ::madvise(p, size, MADV_HUGEPAGE);
  }
  TierBuffer(TierBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  TierBuffer& operator=(TierBuffer&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }
  TierBuffer(const TierBuffer&) = delete;
  TierBuffer& operator=(const TierBuffer&) = delete;
  ~TierBuffer() { release(); }

  std::span<Plies> span() { return {data_, size_}; }
  std::span<const Plies> span() const { return {data_, size_}; }
  std::size_t size() const { return size_; }

 private:
  static constexpr std::size_t kHugePage = std::size_t{2} << 20;
  void release() {
    if (data_) ::munmap(data_, size_);
    data_ = nullptr;
  }
  Plies* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace pawntb::generator_detail
