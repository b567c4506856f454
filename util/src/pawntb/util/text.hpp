// Numbers and durations as pawntb prints them.
#pragma once

#include <cstdint>
#include <string>

namespace pawntb::util {

// 1234567 -> "1,234,567".
std::string with_commas(std::uint64_t n);

// "3 h 12 min", "4 min 5 s", "12 s" (rounded to the second).
std::string duration_text(double seconds);

// "12,345 MiB" (rounded up) below 10 GiB, "12.5 GiB" from there: every size
// pawntb prints.
std::string size_text(std::uint64_t bytes);

}  // namespace pawntb::util
