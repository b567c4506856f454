// `verify`: every indexed position is re-derived from its one-ply successors
// through the public probe. Shares nothing with the generator's solving loop:
// it walks the index in plain order and states the minimax rule directly.
#include <algorithm>
#include <atomic>
#include <optional>
#include <span>
#include <stdexcept>

#include "pawntb/game/bitboard.hpp"
#include "pawntb/notation.hpp"
#include "pawntb/util/threads.hpp"
#include "table_impl.hpp"

namespace pawntb {

namespace {

// The value of a white-to-move position by one ply of minimax over the
// values of its successors, `after`.
ProbeResult expected_value(std::span<const ProbeResult> after) {
  bool any_win = false;
  int fastest_win = 0, slowest_loss = -1;
  for (const ProbeResult& r : after) {
    if (!r.ok()) return r;
    if (r.winner == Side::white) {
      if (!any_win || r.plies + 1 < fastest_win) fastest_win = r.plies + 1;
      any_win = true;
    } else {
      slowest_loss = std::max(slowest_loss, r.plies + 1);
    }
  }
  if (any_win)
    return ProbeResult{ProbeStatus::ok, Side::white, static_cast<std::uint8_t>(fastest_win)};
  return ProbeResult{ProbeStatus::ok, Side::black,
                     static_cast<std::uint8_t>(std::max(slowest_loss, 0))};
}

std::string show(const ProbeResult& r) {
  if (!r.ok()) return describe(r.status);
  return std::string(side_name(r.winner)) + " in " + std::to_string(r.plies);
}

// What one thread finds over its share of a segment's entries.
struct VerifyTally {
  std::uint64_t checked = 0, mismatches = 0, white_wins = 0;
  int max_plies = 0;
  std::uint64_t first_mismatch_index = UINT64_MAX;  // the lowest entry that disagrees
  std::string first_mismatch;
  bool longest_ok = true;  // the header's longest example has max_plies
};

constexpr std::uint64_t kVerifyChunk = 1 << 16;  // entries a thread takes at a time

// Entries between checkpoints: a 64th of the table, in whole chunks, and at
// most 2^26 entries (a minute or less on one core).
std::uint64_t segment_entries(std::uint64_t n) {
  const std::uint64_t chunks = (n / 64 + kVerifyChunk - 1) / kVerifyChunk;
  return std::clamp<std::uint64_t>(chunks, 1, 1 << 10) * kVerifyChunk;
}
constexpr std::size_t kGroup = 256;  // positions whose successors are probed together

// Checks the entries [begin, end) into tally. The positions of a group and
// then all their successors go to probe_many, whose lookups overlap.
class EntryChecker {
 public:
  EntryChecker(const Table& table, const probe_detail::TableData& t) : table_(table), t_(t) {}

  void check(std::uint64_t begin, std::uint64_t end, VerifyTally& tally) {
    codec::Index::Cursor cursor(t_.index, begin);
    for (std::uint64_t first = begin; first < end; first += kGroup) {
      const std::size_t count =
          static_cast<std::size_t>(std::min<std::uint64_t>(kGroup, end - first));
      positions_.clear();
      successors_.clear();
      starts_.clear();
      wins_in_one_.clear();
      for (std::size_t k = 0; k < count; ++k) {
        if (first + k > begin) cursor.next();
        const Position p{t_.header.geometry, cursor.white(), cursor.black(), Side::white};
        positions_.push_back(p);
        starts_.push_back(successors_.size());
        add_successors(p);
      }
      starts_.push_back(successors_.size());
      got_.resize(count);
      after_.resize(successors_.size());
      table_.probe_many(positions_.data(), count, got_.data());
      table_.probe_many(successors_.data(), successors_.size(), after_.data());
      for (std::size_t k = 0; k < count; ++k) {
        const std::span<const ProbeResult> after(after_.data() + starts_[k],
                                                 after_.data() + starts_[k + 1]);
        const ProbeResult want =
            wins_in_one_[k] ? ProbeResult{ProbeStatus::ok, Side::white, 1} : expected_value(after);
        tally_one(first + k, positions_[k], got_[k], want, tally);
      }
    }
  }

 private:
  // The positions after each of white's moves in p, straight from the rules'
  // bitboard steps (bitboard.hpp): a pawn steps up onto an empty square, or
  // diagonally up onto a black pawn, which is removed. A move onto row 0 wins
  // at once, the fastest win there is: then none is probed.
  void add_successors(const Position& p) {
    const Geometry g = p.geometry;
    const std::uint64_t empty = game::board_mask(g) & ~(p.white | p.black);
    const std::uint64_t pushes = game::white_pushes(g, p.white) & empty;
    const std::uint64_t left = game::white_left_captures(g, p.white) & p.black;
    const std::uint64_t right = game::white_right_captures(g, p.white) & p.black;
    wins_in_one_.push_back(((pushes | left | right) & game::white_goal(g)) != 0);
    if (wins_in_one_.back()) return;
    // Each target square t with the square its pawn came from, `back` rows
    // and files away: t << back.
    const auto add = [&](std::uint64_t targets, int back) {
      for (; targets; targets &= targets - 1) {
        const std::uint64_t to = targets & -targets;
        successors_.push_back(Position{g, p.white ^ (to << back) ^ to, p.black & ~to, Side::black});
      }
    };
    add(pushes, g.cols);
    add(left, g.cols + 1);
    add(right, g.cols - 1);
  }

  void tally_one(std::uint64_t i, const Position& p, const ProbeResult& got,
                 const ProbeResult& want, VerifyTally& tally) const {
    const auto damaged = ProbeStatus::damaged_table;
    if (got.status == damaged || want.status == damaged) return;  // in damaged_blocks
    ++tally.checked;
    if (!got.ok() || !want.ok() || got.winner != want.winner || got.plies != want.plies) {
      if (tally.mismatches++ == 0 || i < tally.first_mismatch_index) {
        tally.first_mismatch_index = i;
        tally.first_mismatch =
            format_position(p) + ": table says " + show(got) + ", successors say " + show(want);
      }
      return;
    }
    tally.white_wins += got.winner == Side::white;
    tally.max_plies = std::max<int>(tally.max_plies, got.plies);
    if (i == t_.header.longest_index && got.plies != t_.header.max_plies) tally.longest_ok = false;
  }

  const Table& table_;
  const probe_detail::TableData& t_;
  std::vector<Position> positions_, successors_;
  std::vector<std::size_t> starts_;  // successors_ of position k: [starts_[k], starts_[k+1])
  std::vector<bool> wins_in_one_;    // position k has a move to white's goal row
  std::vector<ProbeResult> got_, after_;
};

// A worker's checker and tally, on cache lines of their own: the checker's
// vectors change with every position, the tally with every entry.
struct alignas(util::kCacheLineBytes) VerifyWorker {
  std::optional<EntryChecker> checker;
  VerifyTally tally;
};

// Adds what the workers found in one segment to state, in index order.
void merge(const std::vector<VerifyWorker>& workers, VerifyState& state) {
  std::uint64_t first_index = UINT64_MAX;
  std::string first_mismatch;
  for (const VerifyWorker& worker : workers) {
    const VerifyTally& tally = worker.tally;
    state.report.checked += tally.checked;
    state.report.mismatches += tally.mismatches;
    state.white_wins += tally.white_wins;
    state.max_plies = std::max(state.max_plies, tally.max_plies);
    state.longest_ok = state.longest_ok && tally.longest_ok;
    if (tally.mismatches && tally.first_mismatch_index < first_index) {
      first_index = tally.first_mismatch_index;
      first_mismatch = tally.first_mismatch;
    }
  }
  if (state.report.first_mismatch.empty()) state.report.first_mismatch = first_mismatch;
}

}  // namespace

VerifyReport Table::verify(const ProgressCallback& on_progress, unsigned threads,
                           const VerifyState& from, const VerifyCheckpoint& on_checkpoint) const {
  const probe_detail::TableData& t = *impl_;
  const std::uint64_t n = t.header.entry_count;
  if (from.header_checksum != 0 && from.header_checksum != t.header.header_checksum) {
    throw std::invalid_argument("the verify state is of another table");
  }
  if (from.entries_done > n)
    throw std::invalid_argument("the verify state is past the table's end");
  VerifyState state = from;
  state.header_checksum = t.header.header_checksum;
  const auto progress = [&](std::uint64_t done) {
    if (on_progress) {
      on_progress(Progress{"verify", static_cast<double>(done) / static_cast<double>(n)});
    }
  };
  // Every block's checksum, including blocks that hold only filler, which
  // the value checks below would never read. A table loaded at open has
  // passed them all.
  if (!state.blocks_checked) {
    state.report.damaged_blocks = check_blocks(threads);
    state.blocks_checked = true;
    if (on_checkpoint) on_checkpoint(state);
  }
  const unsigned threads_used = util::thread_count(threads);
  const std::uint64_t segment = segment_entries(n);
  while (state.entries_done < n) {
    const std::uint64_t begin = state.entries_done;
    const std::uint64_t end = std::min(n, begin + segment);
    const std::uint64_t chunks = (end - begin + kVerifyChunk - 1) / kVerifyChunk;
    std::vector<VerifyWorker> workers(util::workers_for(threads_used, chunks));
    std::atomic<std::uint64_t> finished{0};
    util::parallel_for("verify", threads_used, chunks, [&](std::uint64_t c, unsigned w) {
      VerifyWorker& worker = workers[w];
      if (!worker.checker) worker.checker.emplace(*this, t);
      const std::uint64_t first = begin + c * kVerifyChunk;
      worker.checker->check(first, std::min(first + kVerifyChunk, end), worker.tally);
      const std::uint64_t done = finished.fetch_add(1) + 1;
      if (w == 0) progress(std::min(end, begin + done * kVerifyChunk));
    });
    merge(workers, state);
    state.entries_done = end;
    if (on_checkpoint) on_checkpoint(state);
  }
  VerifyReport report = state.report;
  auto mismatch = [&](const std::string& what) {
    if (report.mismatches++ == 0) report.first_mismatch = what;
  };
  if (!state.longest_ok) {
    mismatch("header: the longest example is not " + std::to_string(t.header.max_plies) + " plies");
  }
  // The header's counts, when every position was checked.
  if (report.ok() && state.white_wins != t.header.win_count) {
    mismatch("header: " + std::to_string(t.header.win_count) + " white wins, table has " +
             std::to_string(state.white_wins));
  }
  if (report.ok() && state.max_plies != t.header.max_plies) {
    mismatch("header: longest game " + std::to_string(t.header.max_plies) + ", table has " +
             std::to_string(state.max_plies));
  }
  progress(n);
  return report;
}

}  // namespace pawntb
