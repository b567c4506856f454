// The plan of a run (plan_generation, generator.hpp): every decision made
// once, from one index, before any work; the projection of its time on N
// ranks; and the sample that measures its rate.
//
// TIME. A rank solves units at solve_rate positions a second and rank 0
// assembles the table at assembly_rate. By default both come from one
// measured run (the constants below); with a
// sample, the solving rate is the board's own: units spread over the tier
// order are solved in memory, each sample point the unit holding the entry
// at (i + 1/2) / N of the positions, so that a unit is picked in proportion
// to its entries and the mean of the sampled seconds per entry estimates the
// whole solve's. A unit's seconds are the process's CPU time over the
// threads (what the threads take with the cores to themselves: wall time on
// a shared machine would measure the other jobs). The sample's units read made-up values of their
// child tiers (the real ones need the run), which changes their values, not the work: the solver
// does the same moves and loads whatever the children hold.
#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <map>
#include <queue>
#include <set>

#include "memory.hpp"
#include "mpi_schedule.hpp"
#include "pawntb/generator.hpp"
#include "pawntb/util/memory.hpp"
#include "pawntb/util/text.hpp"
#include "pawntb/util/threads.hpp"
#include "run_index.hpp"
#include "table_writer.hpp"
#include "tier_buffer.hpp"
#include "work_dir.hpp"

namespace pawntb {

namespace generator_detail {

namespace fs = std::filesystem;

UnitMemory unit_memory(const Index& index, const TierGraph& graph, const UnitPlan& units,
                       unsigned threads) {
  std::uint64_t largest_unit = 0, largest_slice = 0, scratch = 0;
  for (std::size_t u = 0; u < units.size(); ++u) {
    largest_unit = std::max(largest_unit, units.unit(u).entries);
    scratch =
        std::max(scratch, solver_scratch_bytes(units.unit(u).entries, units.unit(u).slice_count));
  }
  for (const Index::Slice& s : index.slices()) largest_slice = std::max(largest_slice, s.size);
  UnitMemory m;
  m.structures = process_base_bytes() + index.heap_bytes() + graph.heap_bytes() +
                 units.heap_bytes() + units.size() * sizeof(TierSummary) +
                 WorkDir::records_bytes(index.slices().size(), units.size());
  const std::uint64_t read = WorkDir::read_bytes(largest_unit);
  m.unit_scratch = scratch + read + WorkDir::write_bytes();
  m.assembly =
      m.structures + largest_slice + TableWriter::memory_bytes(index.size(), threads) + read;
  return m;
}

std::vector<EntryRange> unit_ranges(
    const Index& index, const UnitPlan& units, std::size_t u,
    const std::function<std::span<const Plies>(std::uint64_t first)>& group_values) {
  std::vector<EntryRange> ranges;
  for (const std::uint32_t s : units.slices(u)) {
    EntryRange r{units.tier_of_slice(s), index.slices()[s].first, index.slices()[s].size, {}};
    const auto slice_groups = units.slice_groups(s);
    for (std::size_t x = 0; x < kMaxSide; ++x) {
      const Group& g = slice_groups[x];
      if (g.exists) r.children[x] = TierValues{g.first, group_values(g.first)};
    }
    ranges.push_back(r);
  }
  return ranges;
}

}  // namespace generator_detail

namespace {

namespace fs = std::filesystem;
using format::Index;
using format::Plies;
using generator_detail::RunIndex;
using generator_detail::UnitPlan;

// Disk figures per entry, measured (FORMAT.md, "Appendix: scheduling"): the
// unit files of a whole run, and the peak of unit files and table together
// while assembling, rounded up.
constexpr double kWorkDirBytesPerEntry = 0.020;
constexpr double kPeakDiskBytesPerEntry = 0.022;
// The default rates, a thread's, from the largest run measured: 5x7 unit by
// unit (`pawntb generate --rows 5 --cols 7 --threads 2 --memory 8G`,
// 2026-11-28, 5f96c95; docs/cluster.md), 704,538,765,290 positions in
// 23,754 s on 2 threads, of which the assembly took 3,240 s (54 min).
constexpr double kDefaultPositions = 704'538'765'290.0;
constexpr double kDefaultSolveRate = kDefaultPositions / (23'754 - 3'240) / 2;
constexpr double kDefaultAssemblyRate = kDefaultPositions / 3'240 / 2;
constexpr const char* kDefaultRateSource =
    "default: the 5x7 run of 2026-11-28 (solved in 20,514 s, assembled in 3,240 s, on 2 "
    "threads)";

std::uint64_t unit_entries(const GenerateRequest& request) {
  return request.unit_entries ? request.unit_entries : generator_detail::kUnitEntries;
}

// Where the run goes and why (GenerationPlan::mode), and what becomes of
// its work directory: the one place these are decided.
void decide_mode(GenerationPlan& plan) {
  const GenerateRequest& request = plan.request;
  const std::string need =
      "the table needs " + util::size_text(plan.memory_in_memory) + " in memory, ";
  const std::string limit = "the limit of " + util::size_text(plan.memory_limit);
  if (!request.work_dir.empty()) {
    plan.mode = GenerationMode::work_dir_given;
    plan.work_dir = request.work_dir;
    plan.mode_reason = "solving unit by unit in " + plan.work_dir.string() + ", as asked";
  } else if (plan.ranks > 1) {
    plan.mode = GenerationMode::several_ranks;
    plan.work_dir = request.fallback_work_dir;
    plan.mode_reason =
        std::to_string(plan.ranks) + " MPI ranks solving unit by unit in " + plan.work_dir.string();
  } else if (plan.memory_in_memory > plan.memory_limit && !request.fallback_work_dir.empty()) {
    plan.mode = GenerationMode::over_memory_limit;
    plan.work_dir = request.fallback_work_dir;
    plan.mode_reason =
        need + "more than " + limit + "; solving it unit by unit in " + plan.work_dir.string();
  } else {
    // (In memory, and over the limit when there is no work directory to go
    // to: the plan does not fit, and check_plan says so.)
    plan.mode = GenerationMode::in_memory;
    plan.mode_reason = need +
                       (plan.memory_in_memory > plan.memory_limit ? "more than " : "within ") +
                       limit + "; solving it in memory";
  }
  if (plan.in_memory()) {
    plan.work_dir_fate = WorkDirFate::none;
    plan.work_dir_fate_reason = "no work directory: solved in memory";
    return;
  }
  if (plan.work_dir.empty()) {
    throw GenerateError("several MPI ranks need a work directory (--work-dir)");
  }
  if (plan.ranks > 1) {
    plan.mode_reason += "; rank 0 schedules the units, ranks 1.." + std::to_string(plan.ranks - 1) +
                        " solve them, each under its own memory limit";
  }
  if (request.keep_work_dir) {
    plan.work_dir_fate = WorkDirFate::kept;
    plan.work_dir_fate_reason = "kept with its unit files once the table is written, as asked";
  } else {
    plan.work_dir_fate = WorkDirFate::removed;
    plan.work_dir_fate_reason =
        "removed once the table is written (its unit files are deleted as the table takes them)";
  }
}

// The nearest directory of `path` that exists (for the free space of a work
// directory not made yet).
fs::path existing_directory(fs::path path) {
  std::error_code ec;
  while (!path.empty() && !fs::is_directory(path, ec)) {
    const fs::path parent = path.parent_path();
    if (parent == path) break;
    path = parent;
  }
  return path.empty() ? fs::path(".") : path;
}

WorkUnits work_units_of(const RunIndex& run) {
  WorkUnits out;
  for (std::size_t t = 0; t < run.index.tiers().size(); ++t) {
    out.tier_entries.push_back(run.index.tiers()[t].size);
    out.tier_children.push_back(run.graph.child_list(t));
  }
  const UnitPlan& units = *run.units;
  for (std::size_t u = 0; u < units.size(); ++u) {
    out.units.push_back(WorkUnit{units.unit(u).tier, units.unit(u).last_tier, units.unit(u).entries,
                                 units.values_needed(u)});
  }
  return out;
}

// Made-up values for a sample unit's groups: every page written (an
// untouched one would read as the one shared zero page, from cache), each
// byte a value a table can hold. Which values does not change the solver's
// work; a repeated random block is enough.
void fill_made_up(std::span<Plies> values, int max_plies) {
  std::array<Plies, 4096> block;
  std::uint64_t x = 0x9e3779b97f4a7c15ULL;
  for (Plies& v : block) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    v = static_cast<Plies>(x % static_cast<std::uint64_t>(max_plies + 1));
  }
  for (std::size_t i = 0; i < values.size(); i += block.size()) {
    const std::size_t n = std::min(block.size(), values.size() - i);
    std::copy_n(block.begin(), n, values.begin() + static_cast<std::ptrdiff_t>(i));
  }
}

// This process's CPU time, all threads, user and system.
double process_cpu_seconds() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  const auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6;
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

// Solves the sample (TIME above) and sets the plan's solving rate from it.
// Units whose values and reads do not fit the memory limit beside the rest
// of the process are replaced by the nearest that does.
void measure_sample(GenerationPlan& plan, const RunIndex& run, std::size_t count) {
  const UnitPlan& units = *run.units;
  const generator_detail::UnitMemory memory =
      generator_detail::unit_memory(run.index, run.graph, units, plan.threads);
  const auto fits = [&](std::size_t u) {
    return memory.structures + memory.unit_scratch + units.values_needed(u) <= plan.memory_limit;
  };
  std::vector<std::uint64_t> ends(units.size());  // each unit's last entry + 1, in unit order
  std::uint64_t total = 0;
  for (std::size_t u = 0; u < units.size(); ++u) ends[u] = total += units.unit(u).entries;
  const int max_plies = 2 * run.index.max_pawns() * (run.index.geometry().rows - 1);
  std::map<std::size_t, double> seconds;  // sampled unit: seconds per entry
  double sum = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const auto at = static_cast<std::uint64_t>(
        (static_cast<double>(i) + 0.5) / static_cast<double>(count) * static_cast<double>(total));
    const std::size_t picked =
        static_cast<std::size_t>(std::upper_bound(ends.begin(), ends.end(), at) - ends.begin());
    std::size_t u = std::min(picked, units.size() - 1);
    for (std::size_t d = 1; !fits(u); ++d) {
      if (d > units.size()) {
        throw GenerateError("--sample: no unit fits the memory limit of " +
                            util::size_text(plan.memory_limit) + " with what it reads");
      }
      if (picked >= d && fits(picked - d)) {
        u = picked - d;
      } else if (picked + d < units.size() && fits(picked + d)) {
        u = picked + d;
      }
    }
    if (u != picked) ++plan.sample_replaced;
    if (!seconds.count(u)) {
      std::map<std::uint64_t, generator_detail::TierBuffer> groups;
      for (const generator_detail::Group& g : units.groups(u)) {
        generator_detail::TierBuffer values(g.size);
        fill_made_up(values.span(), max_plies);
        groups.emplace(g.first, std::move(values));
      }
      const auto ranges = generator_detail::unit_ranges(
          run.index, units, u,
          [&](std::uint64_t first) { return std::span<const Plies>(groups.at(first).span()); });
      const auto start = std::chrono::steady_clock::now();
      const double cpu_start = process_cpu_seconds();
      generator_detail::TierBuffer out(units.unit(u).entries);
      generator_detail::solve_ranges(run.index, run.graph, ranges, out.span(), plan.threads, {});
      const double cpu = std::max(process_cpu_seconds() - cpu_start, 1e-6);
      seconds[u] = cpu / plan.threads / static_cast<double>(units.unit(u).entries);
      ++plan.sample_units;
      plan.sample_entries += units.unit(u).entries;
      plan.sample_cpu_seconds += cpu;
      plan.sample_seconds +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    sum += seconds[u];
  }
  plan.solve_rate = static_cast<double>(count) / sum;
  plan.rate_source =
      "sample of " + std::to_string(count) + " units of " + to_string(run.index.geometry());
  if (run.index.max_pawns() != run.index.geometry().cols) {
    plan.rate_source += " with K = " + std::to_string(run.index.max_pawns());
  }
}

}  // namespace

CriticalPath critical_path(const WorkUnits& w) {
  // Units in solving order: every unit holding a child tier of a unit's
  // tiers comes before it (units.hpp, UNITS).
  std::vector<CriticalPath> tier_path(w.tier_entries.size());
  CriticalPath longest;
  for (const WorkUnit& u : w.units) {
    CriticalPath before;
    for (std::size_t t = u.tier; t <= u.last_tier; ++t) {
      for (const std::size_t c : w.tier_children[t]) {
        if (tier_path[c].entries > before.entries) before = tier_path[c];
      }
    }
    const CriticalPath path{before.units + 1, before.entries + u.entries};
    for (std::size_t t = u.tier; t <= u.last_tier; ++t) {
      if (path.entries > tier_path[t].entries) tier_path[t] = path;
    }
    if (path.entries > longest.entries) longest = path;
  }
  return longest;
}

double schedule_entries(const WorkUnits& w, int solvers) {
  const std::size_t tiers = w.tier_entries.size();
  // Units holding each tier; for each tier, the units waiting for it; each
  // unit's unfinished child tiers.
  std::vector<std::size_t> left(tiers), waiting(w.units.size());
  std::vector<std::vector<std::size_t>> waiters(tiers);
  for (const WorkUnit& u : w.units) {
    for (std::size_t t = u.tier; t <= u.last_tier; ++t) ++left[t];
  }
  std::set<std::size_t> ready;  // the lowest number first, as rank 0 hands them out
  for (std::size_t u = 0; u < w.units.size(); ++u) {
    std::set<std::size_t> children;
    for (std::size_t t = w.units[u].tier; t <= w.units[u].last_tier; ++t) {
      children.insert(w.tier_children[t].begin(), w.tier_children[t].end());
    }
    for (const std::size_t c : children) waiters[c].push_back(u);
    waiting[u] = children.size();
    if (waiting[u] == 0) ready.insert(u);
  }
  using Event = std::pair<double, std::size_t>;  // (finish time, unit)
  std::priority_queue<Event, std::vector<Event>, std::greater<>> running;
  double now = 0;
  int free = std::max(solvers, 1);
  std::size_t done = 0;
  while (done < w.units.size()) {
    while (free > 0 && !ready.empty()) {
      const std::size_t u = *ready.begin();
      ready.erase(ready.begin());
      running.emplace(now + static_cast<double>(w.units[u].entries), u);
      --free;
    }
    const auto [finish, u] = running.top();
    running.pop();
    now = finish;
    ++free;
    ++done;
    for (std::size_t t = w.units[u].tier; t <= w.units[u].last_tier; ++t) {
      if (--left[t] != 0) continue;
      for (const std::size_t p : waiters[t]) {
        if (--waiting[p] == 0) ready.insert(p);
      }
    }
  }
  return now;
}

WorkUnits describe_units(Geometry g, int max_pawns, std::uint64_t unit_entries) {
  const RunIndex run(g, max_pawns, unit_entries ? unit_entries : generator_detail::kUnitEntries);
  return work_units_of(run);
}

GenerationPlan plan_generation(const GenerateRequest& request) {
  GenerationPlan plan;
  plan.request = request;
  plan.geometry = request.geometry;
  plan.max_pawns = request.max_pawns;
  plan.threads = util::thread_count(request.threads);
  plan.memory_limit = request.memory_limit ? request.memory_limit : util::default_memory_limit();
  plan.ranks = request.ranks > 0 ? request.ranks : generator_detail::rank_count();
  // The index first: it checks the parameters; the units once it is known
  // whether they are needed.
  const auto run = std::make_shared<RunIndex>(request.geometry, request.max_pawns, 0);
  plan.memory_in_memory = generator_detail::in_memory_bytes(run->index, run->graph, plan.threads);
  decide_mode(plan);
  if (!plan.in_memory() || request.sample_units) {
    run->units.emplace(run->index, run->graph, unit_entries(request));
  }
  plan.run_index = run;
  const Index& index = run->index;
  plan.entries = index.size();
  plan.tiers = index.tiers().size();
  for (const Index::Tier& t : index.tiers())
    plan.largest_tier = std::max(plan.largest_tier, t.size);
  plan.solve_rate = kDefaultSolveRate * plan.threads;
  plan.assembly_rate = kDefaultAssemblyRate * plan.threads;
  plan.rate_source = kDefaultRateSource;
  if (request.sample_units) measure_sample(plan, *run, request.sample_units);
  const auto n = static_cast<double>(index.size());
  plan.assembly_seconds = n / plan.assembly_rate;
  if (plan.in_memory()) {
    plan.memory_needed = plan.memory_in_memory;
    plan.solve_seconds = n / plan.solve_rate;
    plan.seconds = plan.solve_seconds + plan.assembly_seconds;
    return plan;
  }
  const UnitPlan& units = *run->units;
  plan.units = units.size();
  for (std::size_t u = 0; u < units.size(); ++u) {
    plan.largest_unit = std::max(plan.largest_unit, units.unit(u).entries);
    plan.largest_unit_reads = std::max(plan.largest_unit_reads, units.values_needed(u));
  }
  plan.memory_needed = generator_detail::unit_memory(index, run->graph, units, plan.threads)
                           .peak(plan.largest_unit_reads);
  plan.work_dir_bytes = static_cast<std::uint64_t>(n * kWorkDirBytesPerEntry);
  // The peak while assembling, plus the largest unit's file (at a byte an
  // entry at most).
  plan.disk_needed = static_cast<std::uint64_t>(n * kPeakDiskBytesPerEntry) + plan.largest_unit;
  std::error_code ec;
  const fs::space_info space = fs::space(existing_directory(plan.work_dir), ec);
  const std::uint64_t held = generator_detail::WorkDir::files_bytes(plan.work_dir);
  if (!ec) plan.disk_free = space.available + held;
  generator_detail::WorkDir::check_manifest(plan.work_dir, index, units);
  WorkUnits left = work_units_of(*run);
  for (std::size_t u = 0; u < units.size(); ++u) {
    if (fs::exists(generator_detail::WorkDir::unit_path(plan.work_dir, u), ec)) {
      ++plan.units_done;
      plan.entries_done += units.unit(u).entries;
      left.units[u].entries = 0;  // takes no time
    }
  }
  const CriticalPath path = critical_path(work_units_of(*run));
  plan.critical_path_units = path.units;
  plan.critical_path_entries = path.entries;
  plan.critical_path_seconds = static_cast<double>(path.entries) / plan.solve_rate;
  // Rank 0 of several only schedules; one rank solves too.
  plan.solve_seconds =
      schedule_entries(left, plan.ranks > 1 ? plan.ranks - 1 : 1) / plan.solve_rate;
  plan.seconds = plan.solve_seconds + plan.assembly_seconds;
  return plan;
}

void check_plan(const GenerationPlan& plan) {
  const std::string board =
      to_string(plan.geometry) + " with K = " + std::to_string(plan.max_pawns);
  if (plan.in_memory() && !plan.fits_memory()) {
    throw GenerateError(board + " needs " + util::size_text(plan.memory_needed) +
                        " in memory, more than the limit of " + util::size_text(plan.memory_limit) +
                        "; give a work directory to solve it unit by unit");
  }
  if (!plan.fits_memory()) {
    throw GenerateError("not enough memory: the largest unit and the slices it reads need " +
                        util::size_text(plan.memory_needed) +
                        " with the overhead, more than the limit of " +
                        util::size_text(plan.memory_limit));
  }
  if (!plan.fits_disk()) {
    throw GenerateError(
        "not enough disk space: " + board + " needs about " + util::size_text(plan.disk_needed) +
        " for the work directory and the table at the peak, and " + plan.work_dir.string() +
        " has " + util::size_text(plan.disk_free) + " (free space and its own files)");
  }
}

}  // namespace pawntb
