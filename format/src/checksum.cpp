// xxHash is compiled into this file (XXH_INLINE_ALL), so neither pawntb's
// libraries nor their consumers link against libxxhash.
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "pawntb/detail/layout.hpp"

namespace pawntb::detail {

std::uint64_t checksum64(std::span<const std::uint8_t> bytes) {
  return XXH3_64bits(bytes.data(), bytes.size());
}

}  // namespace pawntb::detail
