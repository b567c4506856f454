// Memory for a tier's values, mapped from the kernel and given back to it
// when freed (util::ZeroPages says why). Tiers of every size from bytes to
// gigabytes come and go in the tier cache; through malloc, the process's
// resident memory would grow past the values it holds, and past --memory.
#pragma once

#include <cstdint>
#include <span>

#include "pawntb/format/values.hpp"
#include "pawntb/util/memory.hpp"

namespace pawntb::generator_detail {

using format::Plies;

class TierBuffer {
 public:
  TierBuffer() = default;
  // `size` zero values; throws std::bad_alloc.
  explicit TierBuffer(std::size_t size) : pages_(size * sizeof(Plies)) {}

  std::span<Plies> span() { return {data(), size()}; }
  std::span<const Plies> span() const { return {data(), size()}; }
  std::size_t size() const { return pages_.size() / sizeof(Plies); }

 private:
  Plies* data() const { return static_cast<Plies*>(pages_.data()); }
  util::ZeroPages pages_;
};

}  // namespace pawntb::generator_detail
