// The hot path: Table::probe and Table::probe_many, and everything they touch
// (besides the index's rank and the block cache).
#include <algorithm>
#include <array>
#include <bit>

#include "pawntb/format/values.hpp"
#include "table_impl.hpp"

namespace pawntb {

namespace {

// What locate() finds: the index of the entry that holds the answer, or,
// with kAnswerTag set, the answer itself, packed as in packed_result().
constexpr std::uint64_t kAnswerTag = std::uint64_t{1} << 63;  // indices are < 2^62

// A result as one word, byte 0 the status, byte 1 the winner, byte 2 the
// plies: built and passed in registers, then unpacked once.
constexpr std::uint32_t packed_result(ProbeStatus s, Side winner, std::uint8_t plies) {
  return static_cast<std::uint32_t>(s) | static_cast<std::uint32_t>(winner) << 8 |
         std::uint32_t{plies} << 16;
}
constexpr std::uint32_t packed_status(ProbeStatus s) {
  return packed_result(s, Side::white, ProbeResult::kNoPlies);
}
// The side to move's result when the entry (or the game) says `plies`.
constexpr std::uint32_t packed_value(Side mover, std::uint8_t plies) {
  // The winner without a branch: the mover (white 0, black 1) when plies is
  // odd (format::mover_wins), else the other side.
  const std::uint32_t winner = static_cast<std::uint32_t>(mover) ^ ((plies & 1u) ^ 1u);
  return static_cast<std::uint32_t>(ProbeStatus::ok) | winner << 8 | std::uint32_t{plies} << 16;
}
// packed_value for every mover and byte: one load instead of the bit work.
struct PackedValues {
  std::uint32_t of[2][256]{};
  constexpr PackedValues() {
    for (int plies = 0; plies < 256; ++plies) {
      of[0][plies] = packed_value(Side::white, static_cast<std::uint8_t>(plies));
      of[1][plies] = packed_value(Side::black, static_cast<std::uint8_t>(plies));
    }
  }
};
constexpr PackedValues kPackedValues{};
static_assert(packed_value(Side::white, 7) == packed_result(ProbeStatus::ok, Side::white, 7) &&
              packed_value(Side::white, 6) == packed_result(ProbeStatus::ok, Side::black, 6) &&
              packed_value(Side::black, 7) == packed_result(ProbeStatus::ok, Side::black, 7) &&
              packed_value(Side::black, 0) == packed_result(ProbeStatus::ok, Side::white, 0));
// On a little-endian machine the packed word is the result's bytes in
// order: one 4-byte store.
constexpr ProbeResult unpack(std::uint32_t packed) {
  if constexpr (std::endian::native == std::endian::little) {
    return std::bit_cast<ProbeResult>(packed);  // byte 3 is padding
  } else {
    return std::bit_cast<ProbeResult>(std::array<std::uint8_t, 4>{
        static_cast<std::uint8_t>(packed), static_cast<std::uint8_t>(packed >> 8),
        static_cast<std::uint8_t>(packed >> 16), 0});
  }
}
static_assert(unpack(packed_value(Side::black, 7)).winner == Side::black &&
              unpack(packed_value(Side::black, 7)).plies == 7 &&
              unpack(packed_status(ProbeStatus::too_many_pawns)).status ==
                  ProbeStatus::too_many_pawns &&
              unpack(packed_status(ProbeStatus::too_many_pawns)).plies == ProbeResult::kNoPlies);

// Where probe() finds the value of `p` in a table of geometry G::value
// (G = FixedGeometry<rows, cols>: one copy per geometry, with every mask and
// the rank inline): the index of its entry, or kAnswerTag | the packed answer.
template <class G>
[[gnu::always_inline]] inline std::uint64_t locate(const probe_detail::TableData& t,
                                                   const Position& p) noexcept {
  constexpr Geometry g = G::value;
  constexpr int bytes = game::board_bytes(g);
  // (Each check one branch: the geometry compared as one word, the
  // conditions that share a status or-ed.)
  static_assert(sizeof(Geometry) == 8);
  if (std::bit_cast<std::uint64_t>(p.geometry) != std::bit_cast<std::uint64_t>(g)) {
    return kAnswerTag | packed_status(ProbeStatus::geometry_mismatch);
  }
  if ((p.white & p.black) | ((p.white | p.black) & ~game::board_mask(g))) {
    return kAnswerTag | packed_status(ProbeStatus::invalid_position);
  }
  if (std::max(std::popcount(p.white), std::popcount(p.black)) > t.header.max_pawns) {
    return kAnswerTag | packed_status(ProbeStatus::too_many_pawns);
  }
  // The white-to-move view (colour flip for black to move).
  std::uint64_t white = p.white, black = p.black;
  if (p.to_move == Side::black) {
    white = t.symmetry.flip<bytes>(p.black);
    black = t.symmetry.flip<bytes>(p.white);
  }
  if (white & game::white_goal(g)) return kAnswerTag | packed_status(ProbeStatus::invalid_position);
  if ((black & game::black_goal(g)) || !white) return kAnswerTag | packed_value(p.to_move, 0);
  // Rule entries (win in one, no move) hold their values since decoding.
  // The slice comes from the row profiles, which the mirror keeps: its
  // lookup need not wait for the choice of the canonical image.
  const auto& slice = t.index.slice_with<g>(white, black);
  const game::Pawns c = format::canonical(
      game::Pawns{white, black},
      game::Pawns{t.symmetry.mirror<bytes>(white), t.symmetry.mirror<bytes>(black)});
  return t.index.rank_with<g>(slice, c.white, c.black);
}

// The answer for `mover` to move from what locate() found.
[[gnu::always_inline]] inline ProbeResult look_up(const probe_detail::TableData& t,
                                                  std::uint64_t found, Side mover) noexcept {
  std::uint32_t packed = static_cast<std::uint32_t>(found);
  if (!(found & kAnswerTag)) [[likely]] {
    const int stored = t.entry(found);
    packed = stored >= 0 ? kPackedValues.of[static_cast<int>(mover)][stored]
                         : packed_status(ProbeStatus::damaged_table);
  }
  return unpack(packed);
}

template <class G>
ProbeResult probe_with(const probe_detail::TableData& t, const Position& p) noexcept {
  return look_up(t, locate<G>(t, p), p.to_move);
}

// Positions a group at a time: all their indices first, then all lookups,
// which do not wait for one another.
template <class G>
void probe_many_with(const probe_detail::TableData& t, const Position* positions, std::size_t size,
                     ProbeResult* results) noexcept {
  constexpr std::size_t kGroup = 64;
  std::uint64_t found[kGroup];
  for (std::size_t first = 0; first < size; first += kGroup) {
    const std::size_t count = std::min(kGroup, size - first);
    for (std::size_t i = 0; i < count; ++i) {
      found[i] = locate<G>(t, positions[first + i]);
    }
    for (std::size_t i = 0; i < count; ++i) {
      results[first + i] = look_up(t, found[i], positions[first + i].to_move);
    }
  }
}

// probe_with and probe_many_with for each geometry, by geometry_number.
constexpr auto kProbeWith = game::per_geometry([](auto g) { return &probe_with<decltype(g)>; });
constexpr auto kProbeManyWith =
    game::per_geometry([](auto g) { return &probe_many_with<decltype(g)>; });

}  // namespace

ProbeResult Table::probe(const Position& p) const noexcept {
  return kProbeWith[game::geometry_number(impl_->header.geometry)](*impl_, p);
}

void Table::probe_many(const Position* positions, std::size_t count,
                       ProbeResult* results) const noexcept {
  kProbeManyWith[game::geometry_number(impl_->header.geometry)](*impl_, positions, count, results);
}

}  // namespace pawntb
