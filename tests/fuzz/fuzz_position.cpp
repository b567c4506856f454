// Fuzz target: position notation, the rules and the probe on any text.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <variant>

#include "fuzz_support.hpp"
#include "pawntb/notation.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto parsed = pawntb::parse_position(text);
  const auto* p = std::get_if<pawntb::Position>(&parsed);
  if (!p) return 0;
  // A parsed position formats and parses back to itself.
  const auto again = pawntb::parse_position(pawntb::format_position(*p));
  if (!std::holds_alternative<pawntb::Position>(again) || std::get<pawntb::Position>(again) != *p) {
    __builtin_trap();
  }
  // The rules on any parsed position, whatever its size or pawn count.
  if (pawntb::classify(*p) == pawntb::Status::playable) {
    for (const pawntb::Move m : pawntb::legal_moves(*p)) (void)pawntb::play(*p, m);
  }
  const pawntb::RootResult root = pawntb_fuzz::default_table().probe_root(*p);
  if (root.value.ok() && root.principal_variation.size() != root.value.plies) __builtin_trap();
  return 0;
}
