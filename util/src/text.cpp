#include "pawntb/util/text.hpp"

#include <cstdio>

namespace pawntb::util {

std::string with_commas(std::uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string duration_text(double seconds) {
  const auto s = static_cast<std::uint64_t>(seconds + 0.5);
  char text[32];
  if (s >= 3600) {
    std::snprintf(text, sizeof text, "%llu h %llu min", static_cast<unsigned long long>(s / 3600),
                  static_cast<unsigned long long>(s / 60 % 60));
  } else if (s >= 60) {
    std::snprintf(text, sizeof text, "%llu min %llu s", static_cast<unsigned long long>(s / 60),
                  static_cast<unsigned long long>(s % 60));
  } else {
    std::snprintf(text, sizeof text, "%llu s", static_cast<unsigned long long>(s));
  }
  return text;
}

std::string size_text(std::uint64_t bytes) {
  char text[32];
  if (bytes >= (std::uint64_t{10} << 30)) {
    std::snprintf(text, sizeof text, "%.1f GiB", static_cast<double>(bytes) / (1 << 30));
  } else {
    std::snprintf(text, sizeof text, "%s MiB", with_commas((bytes + (1 << 20) - 1) >> 20).c_str());
  }
  return text;
}

}  // namespace pawntb::util
