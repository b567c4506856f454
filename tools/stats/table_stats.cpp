#include "stats/table_stats.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <memory>

#include "pawntb/codec/index.hpp"
#include "pawntb/game/bitboard.hpp"
#include "pawntb/notation.hpp"
#include "pawntb/util/threads.hpp"

namespace pawntb::stats {

namespace {

using codec::Index;

constexpr int kSide = codec::kMaxPawns + 1;  // pawns a side: 0..8
constexpr std::uint64_t kChunk = 1 << 18;    // entries a worker takes at a time
constexpr std::size_t kBatch = 512;          // positions per probe_many

// What one worker learns about the white-to-move entries of one material;
// the black-to-move positions are their colour flips, folded in at the end.
struct EntryMaterial {
  std::uint64_t positions = 0, wins = 0, zugzwangs = 0;
  int longest_win = -1;
  std::uint64_t longest_index = 0;            // the smallest index with longest_win
  std::vector<std::uint64_t> zugzwang_first;  // the smallest indices, at most `examples`
};

struct Partial {
  std::array<DistanceCount, 256> distances{};
  std::array<EntryMaterial, kSide * kSide> materials{};  // [white pawns * kSide + black pawns]
};

// Keeps the `limit` smallest values seen.
void keep_smallest(std::vector<std::uint64_t>& kept, std::uint64_t value, std::size_t limit) {
  if (kept.size() < limit) {
    kept.push_back(value);
    return;
  }
  const auto largest = std::max_element(kept.begin(), kept.end());
  if (largest != kept.end() && value < *largest) *largest = value;
}

class Walker {
 public:
  Walker(const Table& table, const StatsOptions& options)
      : table_(table),
        index_(table.info().geometry, table.info().max_pawns),
        examples_(options.zugzwang_examples) {}

  const Index& index() const { return index_; }

  // Tallies the entries begin..end-1 into `p`.
  void walk(std::uint64_t begin, std::uint64_t end, Partial& p) const {
    const Geometry g = index_.geometry();
    Index::Cursor cursor(index_, begin);
    // Geometry and side to move set once; the loops write the pawns only
    // (building whole Positions there stalls on store forwarding).
    std::array<Position, kBatch> positions, passed;
    positions.fill(Position{g, 0, 0, Side::white});
    passed.fill(Position{g, 0, 0, Side::black});
    std::array<ProbeResult, kBatch> values, passed_values;
    std::array<std::uint64_t, kBatch> passed_index;
    for (std::uint64_t first = begin; first < end;) {
      const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(kBatch, end - first));
      for (std::size_t i = 0; i < n; ++i) {
        positions[i].white = cursor.white();
        positions[i].black = cursor.black();
        if (first + i + 1 < end) cursor.next();
      }
      table_.probe_many(positions.data(), n, values.data());
      std::size_t losers = 0;
      for (std::size_t i = 0; i < n; ++i) {
        const Position& pos = positions[i];
        const ProbeResult v = checked(values[i], pos);
        EntryMaterial& m = material(p, pos);
        // Branch-free: whether white to move loses is close to random here.
        const bool lost = v.winner != Side::white;
        ++m.positions;
        m.wins += !lost;
        p.distances[v.plies].wins += !lost;
        p.distances[v.plies].losses += lost;
        passed[losers].white = pos.white;
        passed[losers].black = pos.black;
        passed_index[losers] = first + i;
        losers += lost;
        if (!lost && v.plies >= m.longest_win &&
            (v.plies > m.longest_win || first + i < m.longest_index)) {
          m.longest_win = v.plies;
          m.longest_index = first + i;
        }
      }
      // White to move loses: would it win by passing, black to move losing?
      table_.probe_many(passed.data(), losers, passed_values.data());
      for (std::size_t i = 0; i < losers; ++i) {
        if (checked(passed_values[i], passed[i]).winner != Side::white) continue;
        EntryMaterial& m = material(p, passed[i]);
        ++m.zugzwangs;
        keep_smallest(m.zugzwang_first, passed_index[i], examples_);
      }
      first += n;
    }
  }

 private:
  static EntryMaterial& material(Partial& p, const Position& pos) {
    return p.materials[std::popcount(pos.white) * kSide + std::popcount(pos.black)];
  }

  ProbeResult checked(ProbeResult v, const Position& pos) const {
    if (!v.ok()) {
      throw TableError(table_.info().path.string() + ": " + format_position(pos) + ": " +
                       describe(v.status));
    }
    return v;
  }

  const Table& table_;
  Index index_;
  std::size_t examples_;
};

void add(Partial& into, const Partial& from, std::size_t examples) {
  for (std::size_t d = 0; d < into.distances.size(); ++d) {
    into.distances[d].wins += from.distances[d].wins;
    into.distances[d].losses += from.distances[d].losses;
  }
  for (std::size_t k = 0; k < into.materials.size(); ++k) {
    EntryMaterial& a = into.materials[k];
    const EntryMaterial& b = from.materials[k];
    a.positions += b.positions;
    a.wins += b.wins;
    a.zugzwangs += b.zugzwangs;
    if (b.longest_win > a.longest_win ||
        (b.longest_win == a.longest_win && b.longest_index < a.longest_index)) {
      a.longest_win = b.longest_win;
      a.longest_index = b.longest_index;
    }
    for (const std::uint64_t i : b.zugzwang_first) keep_smallest(a.zugzwang_first, i, examples);
  }
}

// Walks every entry on `threads` threads (util::parallel_for, "stats").
Partial walk_all(const Walker& walker, const StatsOptions& options) {
  const std::uint64_t size = walker.index().size();
  const std::uint64_t chunks = (size + kChunk - 1) / kChunk;
  const unsigned threads = util::thread_count(options.threads);
  std::vector<std::unique_ptr<Partial>> partials(util::workers_for(threads, chunks));
  std::atomic<std::uint64_t> entries_done{0};
  util::parallel_for("stats", threads, chunks, [&](std::uint64_t c, unsigned worker) {
    if (!partials[worker]) partials[worker] = std::make_unique<Partial>();
    const std::uint64_t begin = c * kChunk, end = std::min(size, begin + kChunk);
    walker.walk(begin, end, *partials[worker]);
    const std::uint64_t done = entries_done += end - begin;
    if (worker == 0 && options.on_progress && done < size) {
      options.on_progress(Progress{"stats", static_cast<double>(done) / static_cast<double>(size)});
    }
  });
  Partial total;
  for (const auto& partial : partials) {
    if (partial) add(total, *partial, options.zugzwang_examples);
  }
  if (options.on_progress) options.on_progress(Progress{"stats", 1.0});
  return total;
}

}  // namespace

TableStats compute_stats(const Table& table, const StatsOptions& options) {
  const Walker walker(table, options);
  const Index& index = walker.index();
  const Geometry g = index.geometry();
  const auto total = std::make_unique<Partial>(walk_all(walker, options));

  // The position with key 2 * index (white to move) or 2 * index + 1 (the
  // colour flip of that entry: black to move).
  auto position_text = [&](std::uint64_t key) {
    const game::Pawns p = index.unrank(key / 2);
    if (key % 2 == 0) return format_position(Position{g, p.white, p.black, Side::white});
    return format_position(
        Position{g, game::flip_rows(g, p.black), game::flip_rows(g, p.white), Side::black});
  };

  TableStats s;
  s.geometry = g;
  s.max_pawns = index.max_pawns();
  // Every entry's colour flip has the same value: each distance counts twice.
  int longest = 0;
  for (std::size_t d = 0; d < total->distances.size(); ++d) {
    if (total->distances[d].wins || total->distances[d].losses) longest = static_cast<int>(d);
  }
  for (int d = 0; d <= longest; ++d) {
    s.distances.push_back({2 * total->distances[d].wins, 2 * total->distances[d].losses});
  }
  for (int w = 0; w < kSide; ++w) {
    for (int b = 0; b < kSide; ++b) {
      // White to move with (w, b), and black to move with (w, b): the flips of
      // the entries with (b, w).
      const EntryMaterial& own = total->materials[w * kSide + b];
      const EntryMaterial& flipped = total->materials[b * kSide + w];
      MaterialStats m;
      m.white_pawns = w;
      m.black_pawns = b;
      m.positions = own.positions + flipped.positions;
      if (!m.positions) continue;
      m.side_to_move_wins = own.wins + flipped.wins;
      if (own.longest_win >= 0 || flipped.longest_win >= 0) {
        const bool use_flip =
            flipped.longest_win > own.longest_win ||
            (flipped.longest_win == own.longest_win && flipped.longest_index < own.longest_index);
        m.longest_win = use_flip ? flipped.longest_win : own.longest_win;
        m.longest_win_example =
            position_text(use_flip ? 2 * flipped.longest_index + 1 : 2 * own.longest_index);
      }
      m.zugzwangs = own.zugzwangs + flipped.zugzwangs;
      std::vector<std::uint64_t> keys;
      for (const std::uint64_t i : own.zugzwang_first) keys.push_back(2 * i);
      for (const std::uint64_t i : flipped.zugzwang_first) keys.push_back(2 * i + 1);
      std::sort(keys.begin(), keys.end());
      keys.resize(std::min(keys.size(), options.zugzwang_examples));
      for (const std::uint64_t k : keys) m.zugzwang_examples.push_back(position_text(k));
      s.positions += m.positions;
      s.side_to_move_wins += m.side_to_move_wins;
      s.zugzwangs += m.zugzwangs;
      s.materials.push_back(std::move(m));
    }
  }
  return s;
}

nlohmann::ordered_json to_json(const TableStats& s) {
  nlohmann::ordered_json distances = nlohmann::ordered_json::array();
  for (std::size_t d = 0; d < s.distances.size(); ++d) {
    distances.push_back(
        {{"plies", d}, {"wins", s.distances[d].wins}, {"losses", s.distances[d].losses}});
  }
  nlohmann::ordered_json materials = nlohmann::ordered_json::array();
  for (const MaterialStats& m : s.materials) {
    nlohmann::ordered_json longest = nullptr;
    if (m.longest_win >= 0) {
      longest = {{"plies", m.longest_win}, {"example", m.longest_win_example}};
    }
    materials.push_back({{"white_pawns", m.white_pawns},
                         {"black_pawns", m.black_pawns},
                         {"positions", m.positions},
                         {"side_to_move_wins", m.side_to_move_wins},
                         {"longest_win", longest},
                         {"zugzwangs", m.zugzwangs},
                         {"zugzwang_examples", m.zugzwang_examples}});
  }
  // The geometry as every JSON answer of pawntb gives it.
  return {{"geometry",
           {{"rows", s.geometry.rows}, {"cols", s.geometry.cols}, {"max_pawns", s.max_pawns}}},
          {"positions", s.positions},
          {"side_to_move_wins", s.side_to_move_wins},
          {"zugzwangs", s.zugzwangs},
          {"distances", std::move(distances)},
          {"materials", std::move(materials)}};
}

}  // namespace pawntb::stats
