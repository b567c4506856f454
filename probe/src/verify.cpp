// `verify`: every indexed position is re-derived from its one-ply successors
// through the public probe. Shares nothing with the generator's solving loop:
// it walks the index in plain order and states the minimax rule directly.
#include "pawntb/notation.hpp"
#include "table_impl.hpp"

namespace pawntb {

namespace {

// The value of p by one ply of minimax over the table's values of its successors.
ProbeResult expected_value(const Table& table, const Position& p) {
  bool any_win = false;
  int fastest_win = 0, slowest_loss = -1;
  for (const Move m : legal_moves(p)) {
    const ProbeResult after = table.probe(play(p, m));
    if (!after.ok()) return after;
    if (after.winner == p.to_move) {
      if (!any_win || after.plies + 1 < fastest_win) fastest_win = after.plies + 1;
      any_win = true;
    } else {
      slowest_loss = std::max(slowest_loss, after.plies + 1);
    }
  }
  if (any_win)
    return ProbeResult{ProbeStatus::ok, p.to_move, static_cast<std::uint8_t>(fastest_win)};
  return ProbeResult{ProbeStatus::ok, opponent(p.to_move),
                     static_cast<std::uint8_t>(std::max(slowest_loss, 0))};
}

std::string show(const ProbeResult& r) {
  if (!r.ok()) return describe(r.status);
  return std::string(side_name(r.winner)) + " in " + std::to_string(r.plies);
}

}  // namespace

VerifyReport Table::verify(const ProgressCallback& on_progress) const {
  const Table& table = *this;
  const detail::TableData& t = *impl_;
  const Geometry g = t.header.geometry;
  VerifyReport report;
  std::uint64_t white_wins = 0;
  int max_plies = 0;
  auto mismatch = [&](const std::string& what) {
    if (report.mismatches++ == 0) report.first_mismatch = what;
  };
  // Every block's checksum, including blocks that hold only filler, which
  // the value checks below would never read.
  if (t.entries.empty()) {
    for (std::uint32_t b = 0; b < t.header.block_count; ++b) {
      if (!t.load_block(b)) mismatch("block " + std::to_string(b) + " is damaged or unreadable");
    }
  }
  for (std::uint64_t i = 0; i < t.header.entry_count; ++i) {
    if (on_progress && (i & 0xFFFF) == 0) {
      on_progress(
          Progress{"verify", static_cast<double>(i) / static_cast<double>(t.header.entry_count)});
    }
    const auto [white, black] = t.index.unrank(i);
    const Position p{g, white, black, Side::white};
    const ProbeResult got = table.probe(p);
    const ProbeResult want = expected_value(table, p);
    ++report.checked;
    if (!got.ok() || !want.ok() || got.winner != want.winner || got.plies != want.plies) {
      mismatch(format_position(p) + ": table says " + show(got) + ", successors say " + show(want));
      continue;
    }
    white_wins += got.winner == Side::white;
    max_plies = std::max<int>(max_plies, got.plies);
    if (i == t.header.longest_index && got.plies != t.header.max_plies) {
      mismatch("header: the longest example is not " + std::to_string(t.header.max_plies) +
               " plies");
    }
  }
  if (report.mismatches == 0 && white_wins != t.header.win_count) {
    mismatch("header: " + std::to_string(t.header.win_count) + " white wins, table has " +
             std::to_string(white_wins));
  }
  if (report.mismatches == 0 && max_plies != t.header.max_plies) {
    mismatch("header: longest game " + std::to_string(t.header.max_plies) + ", table has " +
             std::to_string(max_plies));
  }
  if (on_progress) on_progress(Progress{"verify", 1.0});
  return report;
}

}  // namespace pawntb
