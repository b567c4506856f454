// Small arithmetic on 64-bit words that more than one part needs.
#pragma once

#include <cstdint>

namespace pawntb::util {

// A 64-bit hash spread evenly over [0, n): the high half of hash * n (Lemire's
// "fastrange"), for tables whose size is not a power of two. Uses the hash's
// high bits, so a hash whose low bits are poor still spreads well.
inline std::uint64_t scale_to(std::uint64_t hash, std::uint64_t n) {
  __extension__ typedef unsigned __int128 Uint128;
  return static_cast<std::uint64_t>((static_cast<Uint128>(hash) * n) >> 64);
}

}  // namespace pawntb::util
