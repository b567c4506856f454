// Byte tricks on a 64-bit word holding 8 text bytes, byte i = the i-th byte
// of the text ("SIMD within a register").
#pragma once

#include <array>
#include <cstdint>

namespace pawntb::cli::swar {

// `byte` in each of the 8 bytes.
constexpr std::uint64_t repeat_byte(std::uint8_t byte) {
  return std::uint64_t{0x0101010101010101} * byte;
}
static_assert(repeat_byte('.') == 0x2E2E2E2E2E2E2E2E);

// All bits of the first `count` bytes (0..8).
constexpr std::uint64_t low_bytes(int count) {
  return count >= 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * count)) - 1;
}
static_assert(low_bytes(0) == 0 && low_bytes(3) == 0xFFFFFF && low_bytes(8) == ~0ULL);

// The 8 bytes at `text`, byte i = text[i], whatever the machine's byte
// order (compilers turn the loop into one load).
constexpr std::uint64_t load8(const char* text) {
  std::uint64_t word = 0;
  for (int i = 0; i < 8; ++i) word |= std::uint64_t{static_cast<unsigned char>(text[i])} << (8 * i);
  return word;
}
static_assert(load8("\x01\x02\x03\x04\x05\x06\x07\xFF") == 0xFF07060504030201);

// Whether gather_multiplier(to, bit) works: the to[i] >= 0 differ, are at
// most 7, and 56 + to[i] >= 8i + bit (the power below exists).
constexpr bool can_gather(const std::array<int, 8>& to, int bit) {
  for (int i = 0; i < 8; ++i) {
    if (to[i] < 0) continue;
    if (to[i] > 7 || 56 + to[i] < 8 * i + bit) return false;
    for (int k = 0; k < i; ++k) {
      if (to[k] == to[i]) return false;
    }
  }
  return true;
}

// A multiplier m such that, for `flags` with bits only at bit `bit` of each
// byte, bit to[i] of (flags * m) >> 56 is bit `bit` of byte i (to[i] < 0:
// byte i is dropped), if can_gather(to, bit).
//
// m has bit 56 + to[k] - 8k - bit for each byte k kept. Flag i times that
// power lands at 56 + to[k] + 8(i - k): at 56 + to[i] for k = i, at or
// above bit 64 for k < i, and below bit 56 for k > i, where all such
// products add up to less than 2^56: nothing carries into bits 56..63.
constexpr std::uint64_t gather_multiplier(const std::array<int, 8>& to, int bit) {
  std::uint64_t m = 0;
  for (int k = 0; k < 8; ++k) {
    if (to[k] >= 0) m |= std::uint64_t{1} << (56 + to[k] - 8 * k - bit);
  }
  return m;
}

// The bits the multiplier gathers, as it should: (flags * m) >> 56.
constexpr std::uint64_t gather(std::uint64_t flags, std::uint64_t multiplier) {
  return (flags * multiplier) >> 56;
}

// Checks gather_multiplier(to, bit) on all 256 patterns of flags.
constexpr bool gathers_exactly(const std::array<int, 8>& to, int bit) {
  if (!can_gather(to, bit)) return false;
  const std::uint64_t m = gather_multiplier(to, bit);
  for (int pattern = 0; pattern < 256; ++pattern) {
    std::uint64_t flags = 0, expected = 0;
    for (int i = 0; i < 8; ++i) {
      if (!(pattern >> i & 1)) continue;
      flags |= std::uint64_t{1} << (8 * i + bit);
      if (to[i] >= 0) expected |= std::uint64_t{1} << to[i];
    }
    if (gather(flags, m) != expected) return false;
  }
  return true;
}
static_assert(gathers_exactly({0, 1, 2, 3, 4, 5, 6, 7}, 7));
static_assert(gathers_exactly({0, 1, 2, 3, 4, 5, 6, 7}, 0));
static_assert(gathers_exactly({0, 1, 2, -1, 3, 4, 5, -1}, 6));  // rows of 3 squares and "\n"
static_assert(gathers_exactly({0, -1, 1, 2, 3, -1, 4, 5}, 5));
static_assert(gathers_exactly({-1, 0, -1, 1, 2, 3, -1, 4}, 1));
static_assert(!can_gather({0, -1, 1, 2, 3, -1, 4, 5}, 6));  // byte 7 to bit 5 needs 2^-1
static_assert(!can_gather({0, 1, 2, 3, 4, 5, 6, 6}, 0));

}  // namespace pawntb::cli::swar
