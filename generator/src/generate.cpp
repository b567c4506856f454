// The tier scheduler: solves the tiers in index order (a solving order,
// format/src/pawntb/codec/index.hpp), each with only its children's values
// in memory, and keeps every finished tier in the work directory
// (work_dir.hpp), then assembles the table from the tier files.
//
// MEMORY. The values of the tier being solved, of its children, and of
// earlier tiers kept in case a later tier needs them (the most recently used
// first), never more than the limit. A tier's children are the tiers just
// before it in index order or with one pawn fewer, so most are still cached.
// The plan refuses up front when the largest tier and its children do not
// fit: memory_needed = max over tiers of (size + sizes of its children) + the
// fixed overhead (kOverhead: the index tables, zstd, the writer's batch).
// While solving, the cache's room is the limit less the rest of the process
// as measured (cache_limit()): on 6x6 that rest outgrew kOverhead, and the
// peak resident memory passed --memory 12G by 7 MiB.
//
// RESUME. A tier is finished when its file is whole: written atomically, it
// is either absent or complete, and a file that fails any check (a torn or
// damaged file) is deleted and the tier solved again. The tiers are solved in
// the same order whatever happened before, and each tier's values depend only
// on its children's, so the table is the same byte for byte.
//
// RANKS. Under MPI with several ranks, "which tier next" comes from rank 0's
// schedule over the tier DAG instead of index order (mpi_schedule.cpp); each
// rank solves its tiers here, with its own cache under its memory limit.
#include <sys/statvfs.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <map>
#include <optional>
#include <set>

#include "memory.hpp"
#include "mpi_schedule.hpp"
#include "pawntb/generator.hpp"
#include "pawntb/util/threads.hpp"
#include "table_writer.hpp"
#include "tier_buffer.hpp"
#include "tier_solver.hpp"
#include "work_dir.hpp"

namespace pawntb {

namespace {

using codec::Index;
using codec::Plies;

// Bytes besides the tiers' values: the index tables, zstd's contexts and
// buffers, the writer's batch, the program itself.
constexpr std::uint64_t kOverhead = 48ULL << 20;
// What solving and writing one tier holds besides its values: the chunk
// tallies (24 bytes per 2^14 entries), the 4 MiB I/O buffer, zstd's contexts.
constexpr std::uint64_t kTierScratch = 16ULL << 20;
constexpr std::uint64_t kMiB = 1 << 20;

std::string mib(std::uint64_t bytes) {
  return std::to_string((bytes + kMiB - 1) / kMiB) + " MiB";
}

std::string tier_name(const Index::Tier& t) {
  return "(" + std::to_string(t.w) + ", " + std::to_string(t.b) + ", " + std::to_string(t.sw) +
         ", " + std::to_string(t.sb) + ")";
}

// The tier cache: finished tiers' values, the least recently used dropped
// first when room is needed.
class TierCache {
 public:
  bool has(std::size_t tier) const { return tiers_.count(tier) != 0; }
  std::span<const Plies> values(std::size_t tier) {
    Entry& e = tiers_.at(tier);
    e.last_use = ++clock_;
    return e.values.span();
  }
  void add(std::size_t tier, generator_detail::TierBuffer values) {
    bytes_ += values.size();
    tiers_[tier] = Entry{std::move(values), ++clock_};
  }
  // Drops tiers not in `keep`, least recently used first, until at most
  // `limit` bytes are held.
  void shrink_to(std::uint64_t limit, const std::set<std::size_t>& keep) {
    while (bytes_ > limit) {
      auto victim = tiers_.end();
      for (auto it = tiers_.begin(); it != tiers_.end(); ++it) {
        if (keep.count(it->first) == 0 &&
            (victim == tiers_.end() || it->second.last_use < victim->second.last_use)) {
          victim = it;
        }
      }
      if (victim == tiers_.end()) return;
      bytes_ -= victim->second.values.size();
      tiers_.erase(victim);
    }
  }
  std::uint64_t bytes() const { return bytes_; }
  void clear() {
    tiers_.clear();
    bytes_ = 0;
  }

 private:
  struct Entry {
    generator_detail::TierBuffer values;
    std::uint64_t last_use = 0;
  };
  std::map<std::size_t, Entry> tiers_;
  std::uint64_t bytes_ = 0;
  std::uint64_t clock_ = 0;
};

// The work directory's size relative to the entries, from the tier files of
// the boards up to 6x5 (docs/benchmarks.md), rounded up.
constexpr double kWorkDirBytesPerEntry = 0.15;

// Rank 0 alone clears a killed run's temporary files, before it hands out any
// tier: another rank doing so could remove a file a worker is writing.
generator_detail::WorkDir::Leftovers work_dir_leftovers() {
  return generator_detail::this_rank() == 0 ? generator_detail::WorkDir::Leftovers::remove
                                            : generator_detail::WorkDir::Leftovers::keep;
}

}  // namespace

std::uint64_t default_memory_limit() {
  return std::max<std::uint64_t>(generator_detail::available_memory() / 4 * 3, kOverhead);
}

GenerationPlan plan_generation(const GenerateOptions& options) {
  const std::uint64_t in_memory = memory_needed(options.geometry, options.max_pawns);  // checks
  const Index index(options.geometry, options.max_pawns);
  const generator_detail::TierGraph graph(index);
  GenerationPlan plan;
  plan.entries = index.size();
  plan.tiers = index.tiers().size();
  plan.memory_limit = options.memory_limit ? options.memory_limit : default_memory_limit();
  plan.in_memory = options.work_dir.empty();
  std::size_t peak_tier = 0;
  std::uint64_t peak = 0;
  for (std::size_t t = 0; t < index.tiers().size(); ++t) {
    std::uint64_t bytes = index.tiers()[t].size;
    plan.largest_tier = std::max(plan.largest_tier, bytes);
    for (const std::size_t c : graph.child_list(t)) bytes += index.tiers()[c].size;
    if (bytes > peak) {
      peak = bytes;
      peak_tier = t;
    }
  }
  if (plan.in_memory) {
    plan.memory_needed = in_memory;
    if (in_memory > plan.memory_limit) {
      throw GenerateError(
          to_string(options.geometry) + " with K = " + std::to_string(options.max_pawns) +
          " needs " + mib(in_memory) + " in memory, more than the limit of " +
          mib(plan.memory_limit) + "; give a work directory to solve it tier by tier");
    }
    return plan;
  }
  plan.memory_needed = peak + kOverhead;
  if (plan.memory_needed > plan.memory_limit) {
    throw GenerateError("not enough memory: tier " + std::to_string(peak_tier) + " " +
                        tier_name(index.tiers()[peak_tier]) + " and its children need " +
                        mib(plan.memory_needed) + " with the overhead, more than the limit of " +
                        mib(plan.memory_limit));
  }
  plan.work_dir_bytes =
      static_cast<std::uint64_t>(static_cast<double>(index.size()) * kWorkDirBytesPerEntry);
  const generator_detail::WorkDir work(options.work_dir, index, work_dir_leftovers());
  for (std::size_t t = 0; t < index.tiers().size(); ++t) {
    if (std::filesystem::exists(work.tier_path(t))) {
      ++plan.tiers_done;
      plan.entries_done += index.tiers()[t].size;
    }
  }
  return plan;
}

namespace {

// The header's statistics from the tiers' summaries, in index order.
generator_detail::TableTotals totals_of(
    const std::vector<generator_detail::TierSummary>& summaries) {
  generator_detail::TableTotals totals;
  totals.max_plies = -1;
  for (const generator_detail::TierSummary& s : summaries) {
    totals.win_count += s.win_count;
    if (s.max_plies > totals.max_plies) {
      totals.max_plies = s.max_plies;
      totals.longest_index = s.longest_index;
    }
  }
  return totals;
}

class TieredRun {
 public:
  TieredRun(const GenerateOptions& options, const GenerationPlan& plan)
      : options_(options),
        plan_(plan),
        index_(options.geometry, options.max_pawns),
        graph_(index_),
        work_(options.work_dir, index_, work_dir_leftovers()),
        threads_(util::thread_count(options.threads)),
        summaries_(index_.tiers().size()) {}

  // Solves the unfinished tiers: in index order, or on rank 0 of several,
  // by handing them to the other ranks (solve() there).
  std::uint64_t solve_all() {
    const std::size_t tiers = index_.tiers().size();
    if (generator_detail::rank_count() > 1) {
      return generator_detail::manage_tiers(generator_detail::ScheduledRun{
          graph_, tiers,
          [&](std::size_t t) {
            const bool whole = finished(t);
            if (whole) count_finished(t, false);
            return whole;
          },
          [&](std::size_t t, const generator_detail::TierSummary& s) {
            summaries_[t] = s;
            count_finished(t, true);
          },
          [&](std::size_t t) { return std::to_string(t) + " " + tier_name(index_.tiers()[t]); }});
    }
    std::uint64_t solved = 0;
    for (std::size_t t = 0; t < tiers; ++t) {
      const bool whole = finished(t);
      if (!whole) {
        solve(t);
        ++solved;
      }
      count_finished(t, !whole);
    }
    return solved;
  }

  // Writes the table from the tier files; returns its size and blocks.
  std::pair<std::uint64_t, std::uint32_t> assemble(const std::filesystem::path& output,
                                                   void (*on_temp_file)(const char*)) {
    cache_.clear();
    generator_detail::TierBuffer buffer;
    std::uint32_t blocks = 0;
    const std::uint64_t size = generator_detail::write_file(
        output,
        [&](util::ByteSink& sink) {
          generator_detail::TableWriter writer(index_, sink, threads_, options_.on_progress);
          for (std::size_t t = 0; t < index_.tiers().size(); ++t) {
            if (buffer.size() < index_.tiers()[t].size) {
              buffer = generator_detail::TierBuffer();
              buffer = generator_detail::TierBuffer(index_.tiers()[t].size);
            }
            const auto values = buffer.span().first(index_.tiers()[t].size);
            work_.read_tier(t, values);
            writer.append(values);
          }
          blocks = writer.block_count();
          return writer.finish(totals_of(summaries_));
        },
        on_temp_file);
    return {size, blocks};
  }

 private:
  // Whether tier t's file is whole; a damaged one is reported and removed.
  bool finished(std::size_t t) {
    const std::filesystem::path path = work_.tier_path(t);
    if (!std::filesystem::exists(path)) return false;
    // Checking decodes the tier: make room for it first.
    cache_.shrink_to(cache_limit(index_.tiers()[t].size), {});
    std::string why;
    if (const auto summary = work_.check_tier(t, &why)) {
      summaries_[t] = *summary;
      return true;
    }
    if (options_.on_notice) options_.on_notice(path.string() + ": " + why + "; solving it again");
    std::error_code ec;
    std::filesystem::remove(path, ec);
    return false;
  }

 public:
  // Solves tier t from its children's files and writes its file (also on
  // the worker ranks, for rank 0's schedule).
  generator_detail::TierSummary solve(std::size_t t) {
    const auto tiers = index_.tiers();
    const std::vector<std::size_t> needed = graph_.child_list(t);
    const std::set<std::size_t> keep(needed.begin(), needed.end());
    std::uint64_t missing = 0;
    for (const std::size_t c : needed) {
      if (!cache_.has(c)) missing += tiers[c].size;
    }
    cache_.shrink_to(cache_limit(tiers[t].size + missing), keep);
    const std::uint64_t held = tiers[t].size + missing + cache_.bytes();  // the kept children
    if (held > room_for_values()) notice_over_limit(t, held);
    for (const std::size_t c : needed) {
      if (cache_.has(c)) continue;
      generator_detail::TierBuffer values(tiers[c].size);
      work_.read_tier(c, values.span());
      cache_.add(c, std::move(values));
    }
    std::array<generator_detail::TierValues, kMaxSide> children{};
    const generator_detail::TierChildren& by_capture = graph_.children(t);
    for (std::size_t x = 0; x < kMaxSide; ++x) {
      if (by_capture.exists[x]) {
        const std::size_t c = by_capture.tier[x];
        children[x] = generator_detail::TierValues{tiers[c].first, cache_.values(c)};
      }
    }
    generator_detail::TierBuffer out(tiers[t].size);
    summaries_[t] = generator_detail::solve_tier(index_, graph_, t, children, out.span(), threads_,
                                                 [&](std::uint64_t done) { report(done); });
    work_.write_tier(t, out.span(), summaries_[t]);
    cache_.add(t, std::move(out));
    cache_.shrink_to(cache_limit(0), {t});
    return summaries_[t];
  }

  // Bytes of tier files in the work directory.
  std::uint64_t work_dir_bytes() const { return work_.bytes_used(); }

 private:
  // The bytes the cache may keep when `extra` bytes of values are about to
  // be allocated.
  std::uint64_t cache_limit(std::uint64_t extra) const {
    const std::uint64_t room = room_for_values();
    return room > extra ? room - extra : 0;
  }

  // The bytes of values that fit under the limit: the limit less the rest of
  // the process, measured (at least kOverhead; it includes what the allocator
  // keeps), less one tier's scratch.
  std::uint64_t room_for_values() const {
    const std::uint64_t reserved = std::max(kOverhead, rest_of_process() + kTierScratch);
    return plan_.memory_limit > reserved ? plan_.memory_limit - reserved : 0;
  }

  // Resident bytes besides the cached tiers' values; 0 if unknown.
  std::uint64_t rest_of_process() const {
    const std::uint64_t resident = generator_detail::resident_memory(), cached = cache_.bytes();
    return resident > cached ? resident - cached : 0;
  }

  // The plan checked that each tier and its children fit beside kOverhead;
  // when the measured rest of the process leaves less, the run goes on above
  // the limit rather than fail, and says so once.
  void notice_over_limit(std::size_t t, std::uint64_t values) {
    if (over_limit_noticed_ || !options_.on_notice) return;
    over_limit_noticed_ = true;
    options_.on_notice("tier " + std::to_string(t) + " and its children need " + mib(values) +
                       " of values, and the rest of the process holds " + mib(rest_of_process()) +
                       ": more than the " + mib(plan_.memory_limit) +
                       " memory limit; going on above it");
  }

  // Counts tier t as finished, `solved_now` by this run.
  void count_finished(std::size_t t, bool solved_now) {
    entries_done_ += index_.tiers()[t].size;
    if (solved_now) positions_solved_ += index_.tiers()[t].size;
    ++tiers_done_;
    report(0);
  }

  // Progress: the tiers finished, and `in_tier` entries of the one being solved.
  void report(std::uint64_t in_tier) const {
    if (!options_.on_progress) return;
    Progress p{"solve",
               static_cast<double>(entries_done_ + in_tier) / static_cast<double>(index_.size())};
    p.tiers_done = tiers_done_;
    p.tiers = index_.tiers().size();
    p.positions_done = positions_solved_ + in_tier;
    p.positions = index_.size() - plan_.entries_done;
    options_.on_progress(p);
  }

  const GenerateOptions& options_;
  const GenerationPlan& plan_;
  const Index index_;
  const generator_detail::TierGraph graph_;
  const generator_detail::WorkDir work_;
  const unsigned threads_;
  std::vector<generator_detail::TierSummary> summaries_;
  TierCache cache_;
  std::uint64_t tiers_done_ = 0;        // tiers finished so far
  std::uint64_t entries_done_ = 0;      // their entries
  std::uint64_t positions_solved_ = 0;  // entries this run solved
  bool over_limit_noticed_ = false;
};

}  // namespace

GenerationReport generate(const GenerateOptions& options, const std::filesystem::path& output,
                          void (*on_temp_file)(const char* path)) {
  GenerationReport report;
  if (generator_detail::this_rank() != 0) {  // a worker of rank 0's schedule
    std::optional<GenerationPlan> plan;
    std::optional<TieredRun> run;
    generator_detail::serve_tiers(
        [&] {
          plan = plan_generation(options);
          if (plan->in_memory) throw GenerateError("several MPI ranks need a work directory");
          run.emplace(options, *plan);
        },
        [&](std::size_t t) { return run->solve(t); });
    return report;
  }
  report.plan = plan_generation(options);
  if (report.plan.in_memory && generator_detail::rank_count() > 1) {
    throw GenerateError("several MPI ranks need a work directory (--work-dir)");
  }
  if (report.plan.in_memory) {
    const WriteSummary written =
        write_table(solve(options), output, options.threads, on_temp_file, options.on_progress);
    report.file_size = written.file_size;
    report.block_count = written.block_count;
    report.tiers_solved = report.plan.tiers;
    return report;
  }
  TieredRun run(options, report.plan);
  report.tiers_solved = run.solve_all();
  report.work_dir_bytes = run.work_dir_bytes();
  std::tie(report.file_size, report.block_count) = run.assemble(output, on_temp_file);
  return report;
}

}  // namespace pawntb
