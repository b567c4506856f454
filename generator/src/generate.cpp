// The unit scheduler: solves the work units (units.hpp) in order (tier by
// tier in index order, a solving order, format/src/pawntb/format/index.hpp),
// each with only the groups of child slices it reads in memory, and keeps
// every finished unit in the work directory (work_dir.hpp); then assembles
// the table from the unit files (assemble.hpp).
//
// MEMORY. The values of the unit being solved, of the groups it reads, and
// of groups read before and kept in case a later unit reads them too (the
// most recently used first; units of one layer that hold parts of the same
// tier read some of the same groups), never more than the limit. The plan
// refuses up front when the largest unit and its groups do not fit beside
// the rest of the process (THE MEMORY MODEL in memory.hpp: memory_needed is
// the whole process's peak). While solving, the cache's room is the limit
// less the rest of the process as measured, or as modelled if that is more
// (cache_limit()): on 6x6 the measured rest once outgrew a fixed 48 MiB
// allowance, and the peak resident memory passed --memory 12G by 7 MiB.
//
// RESUME. A unit is finished when its file is whole: written atomically, it
// is either absent or complete, and a file that fails any check (a torn or
// damaged file) is deleted and the unit solved again. The units are solved
// in the same order whatever happened before, and each unit's values depend
// only on its children's, so the table is the same byte for byte. Once the
// assembly has written a checkpoint, every unit was finished: the run goes
// straight to the assembly, which resumes there.
//
// RANKS. Under MPI with several ranks, "which unit next" comes from rank 0's
// schedule over the tier DAG instead of the order (mpi_schedule.cpp); each
// rank solves its units here, with its own cache under its memory limit.
#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <system_error>

#include "assemble.hpp"
#include "memory.hpp"
#include "mpi_schedule.hpp"
#include "pawntb/generator.hpp"
#include "pawntb/util/memory.hpp"
#include "pawntb/util/text.hpp"
#include "pawntb/util/threads.hpp"
#include "run_index.hpp"
#include "table_writer.hpp"
#include "tier_buffer.hpp"
#include "tier_solver.hpp"
#include "units.hpp"
#include "work_dir.hpp"

namespace pawntb {

namespace {

namespace fs = std::filesystem;
using format::Index;
using format::Plies;

std::string tier_name(const Index::Tier& t) {
  return "(" + std::to_string(t.w) + ", " + std::to_string(t.b) + ", " + std::to_string(t.sw) +
         ", " + std::to_string(t.sb) + ")";
}

// The group cache: values of groups read, the least recently used dropped
// first when room is needed. A group is known by its child tier's first
// entry in it (Group::first), which no other group has.
class GroupCache {
 public:
  bool has(std::uint64_t first) const { return groups_.count(first) != 0; }
  std::span<const Plies> values(std::uint64_t first) {
    Entry& e = groups_.at(first);
    e.last_use = ++clock_;
    return e.values.span();
  }
  void add(std::uint64_t first, generator_detail::TierBuffer values) {
    bytes_ += values.size();
    groups_[first] = Entry{std::move(values), ++clock_};
  }
  // Drops groups not in `keep`, least recently used first, until at most
  // `limit` bytes are held.
  // (The candidates sorted once: a scan of the whole cache per group dropped
  // was 2 % of a 6x5 run at --memory 1G, docs/benchmarks.md.)
  void shrink_to(std::uint64_t limit, const std::set<std::uint64_t>& keep) {
    if (bytes_ <= limit) return;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> victims;  // (last use, first)
    for (const auto& [first, e] : groups_) {
      if (keep.count(first) == 0) victims.emplace_back(e.last_use, first);
    }
    std::sort(victims.begin(), victims.end());
    for (std::size_t v = 0; v < victims.size() && bytes_ > limit; ++v) {
      const auto it = groups_.find(victims[v].second);
      bytes_ -= it->second.values.size();
      groups_.erase(it);
    }
  }
  std::uint64_t bytes() const { return bytes_; }

 private:
  struct Entry {
    generator_detail::TierBuffer values;
    std::uint64_t last_use = 0;
  };
  std::map<std::uint64_t, Entry> groups_;
  std::uint64_t bytes_ = 0;
  std::uint64_t clock_ = 0;
};

// Rank 0 alone clears a killed run's temporary files, before it hands out any
// unit: another rank doing so could remove a file a worker is writing.
generator_detail::WorkDir::Leftovers work_dir_leftovers() {
  return generator_detail::this_rank() == 0 ? generator_detail::WorkDir::Leftovers::remove
                                            : generator_detail::WorkDir::Leftovers::keep;
}

}  // namespace

namespace {

// The header's statistics from the units' summaries: the largest value, and
// the first index holding it.
generator_detail::TableTotals totals_of(
    const std::vector<generator_detail::TierSummary>& summaries) {
  generator_detail::TableTotals totals;
  totals.max_plies = -1;
  for (const generator_detail::TierSummary& s : summaries) {
    totals.win_count += s.win_count;
    if (s.max_plies > totals.max_plies ||
        (s.max_plies == totals.max_plies && s.longest_index < totals.longest_index)) {
      totals.max_plies = s.max_plies;
      totals.longest_index = s.longest_index;
    }
  }
  return totals;
}

class UnitRun {
 public:
  // The plan's index and units (unit by unit: it has them).
  UnitRun(const GenerateCallbacks& callbacks, const GenerationPlan& plan)
      : callbacks_(callbacks),
        plan_(plan),
        index_(plan.run_index->index),
        graph_(plan.run_index->graph),
        units_(*plan.run_index->units),
        work_(plan.work_dir, index_, units_, work_dir_leftovers()),
        threads_(plan.threads),
        memory_(generator_detail::unit_memory(index_, graph_, units_, threads_)),
        summaries_(units_.size()) {}

  // Solves the unfinished units: in order, or on rank 0 of several, by
  // handing them to the other ranks (solve() there). Nothing once the
  // assembly has started (it has a checkpoint).
  std::uint64_t solve_all() {
    if (work_.read_checkpoint()) {
      if (fs::exists(work_.partial_path())) return 0;  // the assembly resumes
      // The last assembly moved its table into place but was stopped before
      // it removed its checkpoint: the units deleted are solved again.
      if (callbacks_.on_notice) {
        callbacks_.on_notice(work_.checkpoint_path().string() +
                             ": an assembly that was not cleaned up; solving the table again");
      }
      fs::remove(work_.checkpoint_path());
    }
    if (generator_detail::rank_count() > 1) {
      return generator_detail::manage_units(generator_detail::ScheduledRun{
          graph_, index_.tiers().size(), units_.size(),
          [&](std::size_t u) {
            return std::pair{units_.unit(u).tier, units_.unit(u).last_tier};
          },
          [&](std::size_t u) {
            const bool whole = finished(u);
            if (whole) count_finished(u, false);
            return whole;
          },
          [&](std::size_t u, const generator_detail::TierSummary& s) {
            summaries_[u] = s;
            count_finished(u, true);
          },
          [&](std::size_t u) { return name(u); }});
    }
    std::uint64_t solved = 0;
    write_behind_ = true;
    for (std::size_t u = 0; u < units_.size(); ++u) {
      const bool whole = finished(u);
      if (!whole) {
        solve(u);
        ++solved;
      }
      count_finished(u, !whole);
    }
    finish_write();
    return solved;
  }

  ~UnitRun() {
    writer_.reset();  // before the buffer it writes from; a failed run: its error is the one thrown
  }

  generator_detail::AssemblyResult assemble(const fs::path& output) {
    cache_ = GroupCache();
    spare_ = generator_detail::TierBuffer();
    return generator_detail::assemble_table(index_, units_, work_, totals_of(summaries_), output,
                                            plan_.request.keep_work_dir, threads_,
                                            callbacks_.on_progress);
  }

  // Solves unit u from its groups and writes its file (also on the worker
  // ranks, for rank 0's schedule).
  generator_detail::TierSummary solve(std::size_t u) {
    const generator_detail::Unit& unit = units_.unit(u);
    const std::vector<generator_detail::Group> groups = units_.groups(u);
    std::set<std::uint64_t> keep;
    std::uint64_t missing = 0;
    for (const generator_detail::Group& g : groups) {
      keep.insert(g.first);
      if (cache_.has(g.first)) continue;
      missing += g.size;
      // A group with a slice of the unit whose file is being written waits
      // for it (a group's slices, one per black profile, lie in several
      // units).
      for (std::size_t s = g.first_slice; writer_ && s < g.first_slice + g.slice_count; ++s) {
        if (units_.unit_of_slice(s) == written_unit_) finish_write();
      }
    }
    // The unit's values go into the spare buffer if it is large enough
    // (no page faults on fresh pages), else into a new one. Held besides the
    // cache: them, the groups to read, and the values being written; when
    // that does not fit, the write is waited for, which frees its buffer.
    const auto others = [&] {
      return std::max<std::uint64_t>(unit.entries, spare_.size()) + missing + written_.size();
    };
    if (spare_.size() < unit.entries) spare_ = generator_detail::TierBuffer();
    if (others() + cache_.bytes() > room_for_values()) {
      finish_write();
      if (spare_.size() < unit.entries) spare_ = generator_detail::TierBuffer();
    }
    cache_.shrink_to(cache_limit(others()), keep);
    if (others() + cache_.bytes() > room_for_values() && spare_.size() > unit.entries) {
      spare_ = generator_detail::TierBuffer();  // larger than the unit, where room is short
    }
    const std::uint64_t held = others() + cache_.bytes();
    if (held > room_for_values()) notice_over_limit(u, held);
    // The missing groups, their slices read on the threads.
    std::vector<std::pair<std::uint64_t, generator_detail::TierBuffer>> loaded;
    std::vector<generator_detail::WorkDir::SliceRead> reads;
    for (const generator_detail::Group& g : groups) {
      if (cache_.has(g.first)) continue;
      generator_detail::TierBuffer& values =
          loaded.emplace_back(g.first, generator_detail::TierBuffer(g.size)).second;
      for (std::size_t s = g.first_slice; s < g.first_slice + g.slice_count; ++s) {
        const Index::Slice& slice = index_.slices()[s];
        reads.push_back({s, values.span().subspan(slice.first - g.first, slice.size)});
      }
    }
    work_.read_slices(reads, threads_);
    for (auto& [first, values] : loaded) cache_.add(first, std::move(values));
    // Each slice with the groups of its tier and black profile.
    const std::vector<generator_detail::EntryRange> ranges = generator_detail::unit_ranges(
        index_, units_, u, [&](std::uint64_t first) { return cache_.values(first); });
    generator_detail::TierBuffer out = spare_.size() >= unit.entries
                                           ? std::move(spare_)
                                           : generator_detail::TierBuffer(unit.entries);
    const auto values = out.span().first(unit.entries);  // solve_ranges writes every one
    summaries_[u] = generator_detail::solve_ranges(index_, graph_, ranges, values, threads_,
                                                   [&](std::uint64_t done) { report(done); });
    write(u, std::move(out), summaries_[u]);
    return summaries_[u];
  }

  // Bytes of unit files in the work directory.
  std::uint64_t work_dir_bytes() const { return work_.bytes_used(); }

 private:
  std::string name(std::size_t u) const {
    const std::size_t t = units_.unit(u).tier, last = units_.unit(u).last_tier;
    const std::string tiers =
        t == last ? "tier " + std::to_string(t) + " " + tier_name(index_.tiers()[t])
                  : "tiers " + std::to_string(t) + " " + tier_name(index_.tiers()[t]) + " to " +
                        std::to_string(last) + " " + tier_name(index_.tiers()[last]);
    return std::to_string(u) + " (" + tiers + ", " + work_.unit_path(u).string() + ")";
  }

  // WRITE-BEHIND. In one process, unit u's file is written on another
  // thread while unit u + 1 reads its groups and is solved: compressing and
  // writing a unit was main-thread-only work that left the other core idle
  // (docs/benchmarks.md). Under MPI every write ends before solve() returns:
  // rank 0 hands out the units that read u once the rank that solved it says
  // so. A killed run loses the unit being written too: its file is written
  // atomically, so it is whole or absent, and solved again.
  void write(std::size_t u, generator_detail::TierBuffer out,
             const generator_detail::TierSummary& summary) {
    const auto values = out.span().first(units_.unit(u).entries);
    if (!write_behind_) {
      work_.write_unit(u, values, summary);
      spare_ = std::move(out);
      return;
    }
    finish_write();
    work_.forget_unit(u);
    written_ = std::move(out);
    written_unit_ = u;
    try {
      writer_.emplace([this, u, values, summary] { work_.write_unit_file(u, values, summary); });
    } catch (const std::system_error&) {  // no thread: write it here
      work_.write_unit_file(u, values, summary);
      spare_ = std::move(written_);
    }
  }

  // Waits for the file being written, if any; rethrows its failure.
  void finish_write() {
    if (!writer_) return;
    std::exception_ptr failure;
    try {
      writer_->join();
    } catch (...) {
      failure = std::current_exception();
    }
    writer_.reset();
    if (written_.size() > spare_.size()) spare_ = std::move(written_);
    written_ = generator_detail::TierBuffer();
    written_unit_ = SIZE_MAX;
    if (failure) std::rethrow_exception(failure);
  }

  // Whether unit u's file is whole; a damaged one is reported and removed.
  bool finished(std::size_t u) {
    const fs::path path = work_.unit_path(u);
    if (!fs::exists(path)) return false;
    std::string why;
    if (const auto summary = work_.check_unit(u, &why)) {
      summaries_[u] = *summary;
      return true;
    }
    if (callbacks_.on_notice)
      callbacks_.on_notice(path.string() + ": " + why + "; solving it again");
    std::error_code ec;
    fs::remove(path, ec);
    return false;
  }

  // The bytes the cache may keep when `extra` bytes of values are about to
  // be allocated.
  std::uint64_t cache_limit(std::uint64_t extra) const {
    const std::uint64_t room = room_for_values();
    return room > extra ? room - extra : 0;
  }

  // The bytes of values that fit under the limit: the limit less the rest of
  // the process and one unit's scratch, the rest as measured (it includes
  // what the allocator keeps) or as modelled if that is more.
  std::uint64_t room_for_values() const {
    const std::uint64_t reserved =
        std::max(memory_.structures, rest_of_process()) + memory_.unit_scratch;
    return plan_.memory_limit > reserved ? plan_.memory_limit - reserved : 0;
  }

  // Resident bytes besides the cached groups' values; 0 if unknown.
  std::uint64_t rest_of_process() const {
    const std::uint64_t resident = util::resident_memory(), cached = cache_.bytes();
    return resident > cached ? resident - cached : 0;
  }

  // The plan checked that each unit and its groups fit beside the modelled
  // rest of the process; when the measured rest leaves less, the run goes on
  // above the limit rather than fail, and says so once.
  void notice_over_limit(std::size_t u, std::uint64_t values) {
    if (over_limit_noticed_ || !callbacks_.on_notice) return;
    over_limit_noticed_ = true;
    callbacks_.on_notice("unit " + name(u) + " and the slices it reads need " +
                       util::size_text(values) + " of values, and the rest of the process holds " +
                       util::size_text(rest_of_process()) + ": more than the " +
                       util::size_text(plan_.memory_limit) + " memory limit; going on above it");
  }

  // Counts unit u as finished, `solved_now` by this run.
  void count_finished(std::size_t u, bool solved_now) {
    entries_done_ += units_.unit(u).entries;
    if (solved_now) positions_solved_ += units_.unit(u).entries;
    ++units_done_;
    report(0);
  }

  // Progress: the units finished, and `in_unit` entries of the one being
  // solved.
  void report(std::uint64_t in_unit) const {
    if (!callbacks_.on_progress) return;
    Progress p{"solve",
               static_cast<double>(entries_done_ + in_unit) / static_cast<double>(index_.size())};
    p.units_done = units_done_;
    p.units = units_.size();
    p.positions_done = positions_solved_ + in_unit;
    p.positions = index_.size() - plan_.entries_done;
    callbacks_.on_progress(p);
  }

  const GenerateCallbacks& callbacks_;
  const GenerationPlan& plan_;
  const Index& index_;
  const generator_detail::TierGraph& graph_;
  const generator_detail::UnitPlan& units_;
  const generator_detail::WorkDir work_;
  const unsigned threads_;
  const generator_detail::UnitMemory memory_;
  std::vector<generator_detail::TierSummary> summaries_;
  GroupCache cache_;
  // WRITE-BEHIND above: whether it is on (one process), the task writing
  // unit written_unit_ from written_, and a buffer to reuse.
  bool write_behind_ = false;
  std::optional<util::BackgroundTask> writer_;
  std::size_t written_unit_ = SIZE_MAX;
  generator_detail::TierBuffer written_, spare_;
  std::uint64_t units_done_ = 0;        // units finished so far
  std::uint64_t entries_done_ = 0;      // their entries
  std::uint64_t positions_solved_ = 0;  // entries this run solved
  bool over_limit_noticed_ = false;
};

}  // namespace

namespace {

// Ranks 1..N-1: solve the units rank 0 hands out, with the plan `make_plan`
// gives once rank 0 has looked at the work directory (its failure reported
// to rank 0).
void serve(const GenerateCallbacks& callbacks, const std::function<GenerationPlan()>& make_plan) {
  std::optional<GenerationPlan> plan;
  std::optional<UnitRun> run;
  generator_detail::serve_units(
      [&] {
        plan = make_plan();
        check_plan(*plan);
        run.emplace(callbacks, *plan);
      },
      [&](std::size_t u) { return run->solve(u); });
}

// A plan is for the ranks it was made for: a plan for several run by one
// process would solve alone what it says N ranks share, and one for a single
// rank run by several has no schedule for them.
void check_ranks(const GenerationPlan& plan) {
  const int ranks = generator_detail::rank_count();
  if (plan.ranks != ranks) {
    throw GenerateError("the plan is for " + std::to_string(plan.ranks) +
                        (plan.ranks == 1 ? " rank" : " ranks") + ", and this run has " +
                        std::to_string(ranks) + "; make the plan with ranks = 0 (this run's)");
  }
}

// Removes the work directory of a finished run, unless it is to be kept;
// whether it was.
bool remove_work_dir(const GenerationPlan& plan, const GenerateCallbacks& callbacks) {
  if (plan.work_dir_fate != WorkDirFate::removed) return false;
  std::error_code ec;
  fs::remove_all(plan.work_dir, ec);
  if (!ec) return true;
  // The table is written; only the clean-up failed.
  if (callbacks.on_notice) {
    callbacks.on_notice(plan.work_dir.string() +
                        ": cannot remove the work directory: " + ec.message());
  }
  return false;
}

}  // namespace

GenerationReport generate(const GenerationPlan& plan, const GenerateCallbacks& callbacks,
                          const fs::path& output) {
  GenerationReport report;
  check_ranks(plan);
  if (generator_detail::this_rank() != 0) {  // a worker of rank 0's schedule
    serve(callbacks, [&] { return plan; });
    return report;
  }
  report.plan = plan;
  check_plan(plan);
  if (plan.in_memory()) {
    const WriteSummary written = generator_detail::write_table(
        plan.run_index->index,
        generator_detail::solve_in_memory(*plan.run_index, plan.threads, callbacks.on_progress),
        output, plan.threads, callbacks.on_temp_file, callbacks.on_progress);
    report.file_size = written.file_size;
    report.block_count = written.block_count;
    return report;
  }
  UnitRun run(callbacks, plan);
  report.units_solved = run.solve_all();
  report.work_dir_bytes = run.work_dir_bytes();
  const generator_detail::AssemblyResult assembled = run.assemble(output);
  report.file_size = assembled.file_size;
  report.block_count = assembled.block_count;
  report.assembly_peak_bytes = assembled.peak_bytes;
  report.work_dir_removed = remove_work_dir(plan, callbacks);
  return report;
}

GenerationReport generate(const GenerateRequest& request, const GenerateCallbacks& callbacks,
                          const fs::path& output) {
  if (generator_detail::this_rank() != 0) {
    serve(callbacks, [&] { return plan_generation(request); });
    return {};
  }
  return generate(plan_generation(request), callbacks, output);
}

}  // namespace pawntb
