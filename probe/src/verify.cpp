// `verify`: every indexed position is re-derived from its one-ply successors
// through the public probe. Shares nothing with the generator's solving loop:
// it walks the index in plain order and states the minimax rule directly.
#include <atomic>
#include <system_error>
#include <thread>

#include "pawntb/detail/threads.hpp"
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

namespace {

// What one thread finds over its share of the entries.
struct VerifyTally {
  std::uint64_t checked = 0, mismatches = 0, white_wins = 0;
  int max_plies = 0;
  std::uint64_t first_mismatch_index = UINT64_MAX;  // the lowest entry that disagrees
  std::string first_mismatch;
  bool longest_ok = true;  // the header's longest example has max_plies
};

constexpr std::uint64_t kVerifyChunk = 1 << 16;  // entries a thread takes at a time

}  // namespace

VerifyReport Table::verify(const ProgressCallback& on_progress, unsigned threads) const {
  const Table& table = *this;
  const detail::TableData& t = *impl_;
  const Geometry g = t.header.geometry;
  VerifyReport report;
  // Every block's checksum, including blocks that hold only filler, which
  // the value checks below would never read. A table loaded at open has
  // passed them all.
  if (t.entries.empty()) {
    for (std::uint32_t b = 0; b < t.header.block_count; ++b) {
      const char* error = "damaged";
      if (!t.load_block(b, &error)) report.damaged_blocks.push_back(BlockDamage{b, error});
    }
  }
  const std::uint64_t n = t.header.entry_count;
  const std::uint64_t chunks = (n + kVerifyChunk - 1) / kVerifyChunk;
  const unsigned workers =
      static_cast<unsigned>(std::min<std::uint64_t>(detail::thread_count(threads), chunks));
  std::vector<VerifyTally> tallies(workers);
  std::atomic<std::uint64_t> next{0}, finished{0};
  const auto work = [&](unsigned w) {
    VerifyTally& tally = tallies[w];
    for (std::uint64_t c; (c = next.fetch_add(1)) < chunks;) {
      const std::uint64_t begin = c * kVerifyChunk, end = std::min(begin + kVerifyChunk, n);
      detail::Index::Cursor cursor(t.index, begin);
      for (std::uint64_t i = begin; i < end; ++i) {
        if (i > begin) cursor.next();
        const Position p{g, cursor.white(), cursor.black(), Side::white};
        const ProbeResult got = table.probe(p);
        const ProbeResult want = expected_value(table, p);
        const auto damaged = ProbeStatus::damaged_table;
        if (got.status == damaged || want.status == damaged) continue;  // in damaged_blocks
        ++tally.checked;
        if (!got.ok() || !want.ok() || got.winner != want.winner || got.plies != want.plies) {
          if (tally.mismatches++ == 0 || i < tally.first_mismatch_index) {
            tally.first_mismatch_index = i;
            tally.first_mismatch =
                format_position(p) + ": table says " + show(got) + ", successors say " + show(want);
          }
          continue;
        }
        tally.white_wins += got.winner == Side::white;
        tally.max_plies = std::max<int>(tally.max_plies, got.plies);
        if (i == t.header.longest_index && got.plies != t.header.max_plies) {
          tally.longest_ok = false;
        }
      }
      const std::uint64_t done = finished.fetch_add(1) + 1;
      if (w == 0 && on_progress) {
        on_progress(Progress{"verify", static_cast<double>(done) / static_cast<double>(chunks)});
      }
    }
  };
  {
    std::vector<std::jthread> pool;
    try {
      for (unsigned w = 1; w < workers; ++w) pool.emplace_back(work, w);
    } catch (const std::system_error&) {
      // Fewer threads: the others take more chunks.
    }
    work(0);
  }
  std::uint64_t white_wins = 0, first_index = UINT64_MAX;
  int max_plies = 0;
  bool longest_ok = true;
  for (const VerifyTally& tally : tallies) {
    report.checked += tally.checked;
    report.mismatches += tally.mismatches;
    white_wins += tally.white_wins;
    max_plies = std::max(max_plies, tally.max_plies);
    longest_ok = longest_ok && tally.longest_ok;
    if (tally.mismatches && tally.first_mismatch_index < first_index) {
      first_index = tally.first_mismatch_index;
      report.first_mismatch = tally.first_mismatch;
    }
  }
  auto mismatch = [&](const std::string& what) {
    if (report.mismatches++ == 0) report.first_mismatch = what;
  };
  if (!longest_ok) {
    mismatch("header: the longest example is not " + std::to_string(t.header.max_plies) + " plies");
  }
  // The header's counts, when every position was checked.
  if (report.ok() && white_wins != t.header.win_count) {
    mismatch("header: " + std::to_string(t.header.win_count) + " white wins, table has " +
             std::to_string(white_wins));
  }
  if (report.ok() && max_plies != t.header.max_plies) {
    mismatch("header: longest game " + std::to_string(t.header.max_plies) + ", table has " +
             std::to_string(max_plies));
  }
  if (on_progress) on_progress(Progress{"verify", 1.0});
  return report;
}

}  // namespace pawntb
