// pawntb generator: solves every position of a geometry by backward induction
// and writes the table file. Used by the `pawntb generate` CLI, the benchmarks
// and the tests.
//
// THREADS. Every `threads` parameter means that many threads, the caller's
// included; 0 means one per hardware thread. A thread that cannot start is
// left out (the work runs on those that did, never an error), and whatever
// the work throws on any thread reaches the caller once all have stopped.
// Progress callbacks are called from the calling thread (progress.hpp).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "pawntb/position.hpp"
#include "pawntb/progress.hpp"

namespace pawntb {

// Thrown for refused parameters, too little memory and I/O failures. The
// message says what is wrong and names the file where there is one.
class GenerateError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What to generate and how: all that plan_generation() decides from. The
// plan records it (GenerationPlan::request) and generate() takes nothing
// else but callbacks, so no part of a request can be ignored: each is
// honoured or refused.
struct GenerateRequest {
  Geometry geometry{4, 4};
  int max_pawns = 4;     // K, 1..cols
  unsigned threads = 0;  // 0: one per hardware thread
  // The most bytes the run holds in memory, the process included (the
  // model in generator/src/memory.hpp); 0 means util::default_memory_limit()
  // (pawntb/util/memory.hpp). A table that does not fit goes unit by unit
  // (fallback_work_dir); a unit that does not fit is refused (check_plan).
  std::uint64_t memory_limit = 0;
  // Where finished units are kept, so that a stopped run resumes
  // (format/FORMAT.md, appendix): given, the table is solved unit by unit
  // there. Empty: in memory, but see fallback_work_dir.
  std::filesystem::path work_dir;
  // With work_dir empty, the work directory of a table that does not fit
  // memory_limit in memory, or of a run of several ranks (the CLI's
  // FILE.work); empty: those are refused.
  std::filesystem::path fallback_work_dir;
  // The most entries of a work unit (FORMAT.md, "Appendix: scheduling");
  // 0 means 2^24. A work directory is for one value; tests make it small to
  // cut tiers into many units.
  std::uint64_t unit_entries = 0;
  // Keep the work directory and its unit files once the table is written
  // (the disk then holds both, about twice the table). By default the
  // assembly deletes each unit file as soon as the table durably holds its
  // slices, and generate() then removes the directory.
  bool keep_work_dir = false;
  // The ranks to plan for (`generate --plan --ranks N`); 0: this process's
  // MPI ranks (MpiSession). generate() refuses a plan for ranks other than
  // the process's.
  int ranks = 0;
  // Solve this many units, spread over the tier order, to measure the rate
  // the plan's time is estimated from; 0: the default rate.
  std::size_t sample_units = 0;
};

// What generate() tells its caller while it runs; each may be empty. Called
// from the calling thread.
struct GenerateCallbacks {
  // Stage "solve", then "compress".
  ProgressCallback on_progress;
  // A message for the user, such as a damaged unit file that is solved
  // again, or a work directory that could not be removed.
  std::function<void(const std::string&)> on_notice;
  // Called with the path of the temporary table file once it exists, and
  // with nullptr once it is gone (renamed or removed), so that a signal
  // handler can remove it (as write_table's).
  void (*on_temp_file)(const char* path) = nullptr;
};

// Why a run goes where it goes (GenerationPlan::mode).
enum class GenerationMode : std::uint8_t {
  in_memory,          // the table fits the memory limit
  work_dir_given,     // unit by unit: the request named a work directory
  over_memory_limit,  // unit by unit in fallback_work_dir: too large for memory
  several_ranks,      // unit by unit in fallback_work_dir: ranks share units
};

// What becomes of the work directory once the table is written.
enum class WorkDirFate : std::uint8_t {
  none,     // in memory: there is none
  removed,  // generate() removes it
  kept,     // request.keep_work_dir
};

namespace generator_detail {
struct RunIndex;  // the run's index, tier graph and units (generator/src/run_index.hpp)
}

// What generate() will do, decided before it starts: in memory or unit by
// unit, where, and whether it fits.
struct GenerationPlan {
  GenerateRequest request;  // as given; the fields below resolve it
  Geometry geometry{4, 4};
  int max_pawns = 4;
  unsigned threads = 1;  // a rank's threads (request.threads resolved)
  // In memory or unit by unit, and why, in words for the user ("the table
  // needs 27 MiB in memory, more than the limit of 16 MiB; solving it unit
  // by unit in t.pawntb.work").
  GenerationMode mode = GenerationMode::in_memory;
  std::string mode_reason;
  bool in_memory() const { return mode == GenerationMode::in_memory; }
  std::filesystem::path work_dir;  // unit by unit: the work directory; empty in memory
  // What becomes of it once the table is written, and why, in words.
  WorkDirFate work_dir_fate = WorkDirFate::none;
  std::string work_dir_fate_reason;
  std::uint64_t entries = 0;
  std::uint64_t tiers = 0;
  std::uint64_t units = 0;         // work units (0 in memory)
  std::uint64_t memory_limit = 0;  // bytes (request.memory_limit or util::default_memory_limit())
  std::uint64_t memory_in_memory = 0;  // bytes the table needs solved in memory (memory_needed())
  // Bytes in memory at the peak, the process included (resident memory, as
  // --memory counts it): in memory, memory_needed(); unit by unit, the unit
  // whose values and the child slices it reads are the most, the tables of
  // the index and the plan, buffers (the model in generator/src/memory.hpp).
  std::uint64_t memory_needed = 0;
  std::uint64_t largest_tier = 0;        // entries
  std::uint64_t largest_unit = 0;        // entries
  std::uint64_t largest_unit_reads = 0;  // entries: that unit's and those it reads, at the peak
  // Unit by unit: the most bytes the work directory and the table being
  // assembled hold together (estimated from measured bytes per entry), and
  // the bytes free for them now (its file system's, plus what the work
  // directory already holds); 0 in memory.
  std::uint64_t disk_needed = 0;
  std::uint64_t disk_free = 0;
  std::uint64_t work_dir_bytes = 0;  // estimated size of the finished work directory, 0 in memory
  std::uint64_t units_done = 0;      // units already finished in the work directory
  std::uint64_t entries_done = 0;    // their entries
  // The ranks planned for (rank 0 schedules and assembles, ranks 1..N-1
  // solve; one rank does both); each holds memory_needed at most.
  int ranks = 1;
  // The longest chain of units that must be solved one after another (a
  // unit waits for every unit holding a child tier of its tiers), by
  // entries: no number of ranks solves faster than it. 0 in memory.
  std::uint64_t critical_path_units = 0;
  std::uint64_t critical_path_entries = 0;
  // The time: positions a second a rank solves and rank 0 assembles (the
  // table's compression), on `threads` threads; where the solving rate
  // comes from ("sample of 20 units of 7x6" or the default, measured on
  // another board); and the estimates: the solve on `ranks` ranks as rank 0
  // schedules it (the units left, each taking its entries at solve_rate),
  // the critical path alone, the assembly, and in all.
  double solve_rate = 0;
  double assembly_rate = 0;
  std::string rate_source;
  double solve_seconds = 0;
  double critical_path_seconds = 0;
  double assembly_seconds = 0;
  double seconds = 0;  // solve_seconds + assembly_seconds
  // The sample the rate was measured on (request.sample_units): the units
  // solved (with made-up values of the tiers they read: their timing, not
  // their values, is wanted), their entries, their wall and CPU seconds
  // (the rate comes from the CPU time over the threads), and how many
  // sample points moved to a nearby unit because theirs did not fit the
  // memory limit.
  std::uint64_t sample_units = 0, sample_entries = 0, sample_replaced = 0;
  double sample_seconds = 0, sample_cpu_seconds = 0;
  bool fits_memory() const { return memory_needed <= memory_limit; }
  bool fits_disk() const { return in_memory() || disk_free == 0 || disk_needed <= disk_free; }
  bool fits() const { return fits_memory() && fits_disk(); }
  // The index and units the plan was made from, which generate() uses: one
  // index a run.
  std::shared_ptr<const generator_detail::RunIndex> run_index;
};

// Makes every decision of a run: checks the parameters (rows and columns
// 3..8, rows*cols <= 64, 1 <= K <= columns, a board small enough to index),
// builds the index (once: generate() uses it), decides in memory or unit by
// unit, where and why (request.work_dir, or request.fallback_work_dir when
// the table does not fit in memory or the ranks are several) and what
// becomes of the work directory, works out the memory, the disk
// and the time, and measures the rate on a sample if asked (solving units
// in memory, under memory_limit, writing nothing). Looks at the work
// directory if it exists (counting the unit files already there; generate()
// checks each when it reaches it, and solves a damaged one again) and at the
// free space where it goes, and creates nothing. Throws GenerateError when
// the parameters are out of range, a run of several ranks has no work
// directory, the work directory holds another table, or no sample unit fits
// the memory limit; whether the plan fits is in the result (check_plan
// refuses).
GenerationPlan plan_generation(const GenerateRequest& request);

// Throws GenerateError with the figures when the plan does not fit its
// memory limit or the free disk.
void check_plan(const GenerationPlan& plan);

// The units of a generation unit by unit, for projections
// (tools/bench/project_tiers): each unit's tiers (consecutive, of one layer,
// generator/src/units.hpp) and entries, and the entries it holds while
// solved (its own and those it reads); each tier's entries and its children
// (the tiers its moves reach, which must be finished before any unit
// holding it is solved). Units and tiers in solving order. Throws
// GenerateError for parameters out of range.
struct WorkUnit {
  std::size_t tier = 0, last_tier = 0;  // its tiers: [tier, last_tier]
  std::uint64_t entries = 0, reads = 0;
};
struct WorkUnits {
  std::vector<WorkUnit> units;
  std::vector<std::uint64_t> tier_entries;
  std::vector<std::vector<std::size_t>> tier_children;
};
WorkUnits describe_units(Geometry g, int max_pawns, std::uint64_t unit_entries = 0);

// The longest chain of units that must be solved one after another, by
// entries (GenerationPlan::critical_path_*).
struct CriticalPath {
  std::uint64_t units = 0, entries = 0;
};
CriticalPath critical_path(const WorkUnits& w);

// How long `solvers` ranks take to solve the units of `w`, in entries solved
// by one (divide by a rate for seconds): rank 0's schedule simulated
// (generator/src/mpi_schedule.cpp), each solver taking the first ready unit
// when free, a unit taking its entries. Reading what a unit reads from a
// shared disk is left out.
double schedule_entries(const WorkUnits& w, int solvers);

struct GenerationReport {
  GenerationPlan plan;
  std::uint64_t file_size = 0;
  std::uint32_t block_count = 0;
  std::uint64_t units_solved = 0;  // by this run
  // Bytes of the unit files in the work directory once every unit was
  // solved: its peak while solving, as unit files are only added then.
  // 0 when solved in memory.
  std::uint64_t work_dir_bytes = 0;
  // The most bytes the work directory held while the table was assembled
  // (unit files and table.partial, measured at each checkpoint).
  std::uint64_t assembly_peak_bytes = 0;
  // With plan.work_dir_fate removed: whether it was (if not, on_notice said
  // why).
  bool work_dir_removed = false;
};

// Solves the table of `plan` (plan_generation(), whose request says all
// that is done) and writes it atomically to `output` (as write_table), with
// the plan's index. With plan.in_memory(), in memory (as solve() then
// write_table(), under plan.memory_limit, not the memory available);
// otherwise unit by unit (FORMAT.md, "Appendix: scheduling") in
// plan.work_dir, each finished unit written to the work directory, never
// holding more than plan.memory_limit bytes of values with the rest of the
// process (should the rest grow so that a unit and what it reads no longer
// fit, it goes on above the limit and says so once through on_notice); then
// the table is assembled in the work directory's table.partial, and each
// unit file is deleted once the table durably holds its slices, so that the
// disk holds about the table's size, not twice it; then the work directory
// is removed, unless plan.work_dir_fate is kept. A run stopped at any moment
// and started again with the same request resumes at the first unfinished
// unit, or at the assembly's last checkpoint, and the table is the same byte
// for byte. Refuses (check_plan) a plan that does not fit, and one made for
// more or fewer ranks than the process has. Under an MpiSession of several
// ranks, distributed (see MpiSession; a work directory is required) and to
// be called once on every rank; a failure on any rank is thrown on rank 0
// naming the rank and the unit, and as "stopped" on the others. Throws
// GenerateError. Not thread-safe for one work directory; for the CLI and
// the tests.
GenerationReport generate(const GenerationPlan& plan, const GenerateCallbacks& callbacks,
                          const std::filesystem::path& output);
// generate(plan_generation(request), ...); on ranks 1..N-1 of several, the
// plan is made once rank 0 has looked at the work directory, and a failure to
// make it is reported to rank 0.
GenerationReport generate(const GenerateRequest& request, const GenerateCallbacks& callbacks,
                          const std::filesystem::path& output);

// MPI (built with -DPAWNTB_MPI=ON): `mpirun -np N pawntb generate ...` runs N
// processes, the ranks 0..N-1, which share the work directory (a cluster's
// shared file system). With N > 1, generate() on rank 0 hands out the units
// whose child tiers are finished and writes the table; on ranks 1..N-1 it
// solves the units rank 0 hands it, each with its own request.memory_limit,
// and returns once rank 0 says stop (an empty report). The table is the same
// byte for byte whatever N.
//
// An MpiSession starts MPI if an MPI launcher (mpirun, srun) started the
// process, and finalizes it when destroyed; otherwise, and in builds without
// MPI, it does nothing and the run is one rank, as without it. Make at most
// one, on the main thread, around the generate() call (the CLI does). Not
// thread-safe.
class MpiSession {
 public:
  MpiSession();
  // On rank 0, first tells ranks still waiting for work to stop.
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  int rank() const;   // this process's rank: 0 unless started by an MPI launcher
  int ranks() const;  // the number of ranks: 1 unless started by an MPI launcher
};

struct SolvedTable {
  Geometry geometry;
  int max_pawns = 0;
  // Per index: plies 0..2*K*(rows-1), odd = white (to move) wins. Exact for
  // every canonical position (format::is_canonical); mirror images hold 0
  // unless a rule decides them (their value is their representative's).
  std::vector<std::uint8_t> values;
  std::uint64_t win_count = 0;      // indices whose true value is a win for white, all N
  int max_plies = 0;                // the longest game in the table
  std::uint64_t longest_index = 0;  // an index with value max_plies
};

// Bytes of memory the process holds at its peak when it solves the table in
// memory and writes it on `threads` threads (0: every core), as `pawntb
// generate` does: a byte per entry, the index, the table writer's buffers
// and contexts, and the process itself (the model in
// generator/src/memory.hpp). Thread-safe.
// Throws GenerateError for parameters out of range or a board too large to index.
std::uint64_t memory_needed(Geometry g, int max_pawns, unsigned threads = 0);

// Solves the whole domain of (g, max_pawns) in memory on `threads` threads
// (0: every core); `on_progress` gets stage "solve". Thread-safe: independent
// calls may run concurrently. Throws GenerateError if the parameters are out of
// range or memory_needed() exceeds the memory available.
SolvedTable solve(Geometry g, int max_pawns, unsigned threads = 0,
                  const ProgressCallback& on_progress = {});

struct WriteSummary {
  std::uint64_t file_size = 0;  // bytes written
  std::uint32_t block_count = 0;
};

// Compresses and writes the table atomically: to a temporary file in the same
// directory, flushed, then renamed over `path`. On any failure the temporary
// file is removed, `path` is untouched, and GenerateError names the file.
// `on_temp_file`, if given, is called with the temporary file's path once it
// exists and with nullptr once it is gone (renamed or removed), so that a
// signal handler can remove it. `on_progress` gets stage "compress".
// Compresses on `threads` threads. Thread-safe for distinct paths; called by
// the CLI and the tests.
WriteSummary write_table(const SolvedTable& table, const std::filesystem::path& path,
                         unsigned threads = 0, void (*on_temp_file)(const char* path) = nullptr,
                         const ProgressCallback& on_progress = {});

// The table file bytes write_table() would write (for tests and benchmarks),
// compressed on `threads` threads; `on_progress` gets stage "compress".
// Thread-safe.
std::vector<std::uint8_t> encode_table(const SolvedTable& table, unsigned threads = 0,
                                       const ProgressCallback& on_progress = {});

}  // namespace pawntb
