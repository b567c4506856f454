// All of pawntb's MPI code (built with -DPAWNTB_MPI=ON): the session and the
// distributed unit schedule of `mpirun -np N pawntb generate ... --work-dir DIR`.
//
// SCHEDULING. Rank 0 is the manager, ranks 1..N-1 are workers; all share the
// work directory (on a cluster, a shared file system). A rank is given a work
// unit (units.hpp) at a time. The manager looks at the work directory as a
// run of one rank does (a whole unit file is a finished unit, a damaged one
// is removed), then keeps the tier DAG: a unit is ready when every unit
// holding a child tier (TierGraph::child_list) of one of its tiers is
// finished, as the groups it reads may come from any of them. It tells every worker to start, and
// each worker opens the work directory (which removes temporary files a
// killed run left) and answers "ready"; only then is any unit handed out, so
// that no worker removes another's temporary file. Then the manager hands
// the lowest-numbered ready unit to an idle worker ("solve U"); the worker
// reads U's groups from the unit files (kept in its own cache under its
// --memory), solves U, writes U's file atomically, and answers "finished U"
// with U's summary, or "failed U: message". Once every unit is finished,
// the manager tells the workers to stop and assembles the table from the
// unit files, as a run of one rank does. A unit's values depend only on its
// children's, so the table is the same byte for byte whatever the number of
// ranks, and whatever rank solved which unit.
//
// FAILURES. After a "failed", the manager hands out nothing more, waits for
// the units under way (their files are kept), tells every worker to stop
// with a failure, and throws GenerateError naming the rank, its node (as the
// worker said when ready) and the unit; the same command then resumes. A
// rank that dies (a signal, a lost node) ends the whole job: mpirun (or
// `srun --kill-on-bad-exit`) reports it and stops the others. Rank 0 never
// leaves workers waiting: an MpiSession destroyed before the schedule ran
// tells them to stop.
//
// MESSAGES. MPI_BYTE: four 64-bit words (a unit, then a TierSummary) and a
// text, the kind in the tag; the ranks are assumed to run on one kind of
// machine (same byte order), as a cluster's nodes do. Waiting ranks poll
// with short sleeps instead of OpenMPI's busy wait, so that an idle rank
// leaves its core to the solving ones (the manager shares a node).
#include "mpi_schedule.hpp"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <new>
#include <optional>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "pawntb/generator.hpp"

namespace pawntb {

namespace {

// Set while an MpiSession has MPI running.
int g_rank = 0;
int g_ranks = 1;
bool g_session = false;
bool g_workers_stopped = false;  // rank 0: the workers were told to stop
bool g_served = false;           // ranks 1..N-1: serve_tiers ran

// Whether an MPI launcher started this process: mpirun (OpenMPI),
// PMIx launchers (srun --mpi=pmix, prterun) or PMI ones (MPICH's hydra,
// srun --mpi=pmi2). Otherwise MPI is not started: a singleton MPI_Init costs
// about half a second and a helper daemon, for a run of one rank.
bool started_by_mpi_launcher() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"}) {
    if (std::getenv(name)) return true;
  }
  return false;
}

enum Tag : int {
  kStart = 1,  // manager -> worker: open the work directory
  kReady,      // worker -> manager: opened, text its node (MPI_Get_processor_name)
  kSolve,      // manager -> worker: solve unit `tier`
  kFinished,   // worker -> manager: unit `tier` is finished, with its summary
  kFailed,     // worker -> manager: unit `tier` (kNoTier: opening) failed, text why
  kStop,       // manager -> worker: stop; tier 1 after a failure, 0 when all is done
};

constexpr std::uint64_t kNoTier = ~std::uint64_t{0};

struct Message {
  int tag = 0;
  int from = 0;
  std::uint64_t tier = 0;
  generator_detail::TierSummary summary;
  std::string text;
};

void send(int to, int tag, std::uint64_t tier, const generator_detail::TierSummary& summary = {},
          const std::string& text = {}) {
  const std::uint64_t words[4] = {tier, summary.win_count,
                                  static_cast<std::uint64_t>(summary.max_plies),
                                  summary.longest_index};
  std::vector<char> bytes(sizeof words + text.size());
  std::memcpy(bytes.data(), words, sizeof words);
  std::memcpy(bytes.data() + sizeof words, text.data(), text.size());
  MPI_Send(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, to, tag, MPI_COMM_WORLD);
}

// The next message from `from` (MPI_ANY_SOURCE: any rank).
Message receive(int from) {
  MPI_Status status;
  auto pause = std::chrono::microseconds(20);
  for (;;) {
    int arrived = 0;
    MPI_Iprobe(from, MPI_ANY_TAG, MPI_COMM_WORLD, &arrived, &status);
    if (arrived) break;
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(5000));
  }
  int size = 0;
  MPI_Get_count(&status, MPI_BYTE, &size);
  std::vector<char> bytes(static_cast<std::size_t>(size));
  MPI_Recv(bytes.data(), size, MPI_BYTE, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD,
           MPI_STATUS_IGNORE);
  std::uint64_t words[4] = {};
  if (bytes.size() < sizeof words) throw std::logic_error("pawntb MPI: short message");
  std::memcpy(words, bytes.data(), sizeof words);
  Message m;
  m.tag = status.MPI_TAG;
  m.from = status.MPI_SOURCE;
  m.tier = words[0];
  m.summary = {words[1], static_cast<int>(words[2]), words[3]};
  m.text.assign(bytes.begin() + sizeof words, bytes.end());
  return m;
}

void stop_workers(bool failed) {
  for (int r = 1; r < g_ranks; ++r) send(r, kStop, failed ? 1 : 0);
  g_workers_stopped = true;
}

}  // namespace

MpiSession::MpiSession() {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized || !started_by_mpi_launcher()) return;
  int provided = 0;
  // Only this thread calls MPI; solve_tier's threads do not.
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_ranks);
  g_session = true;
  g_workers_stopped = g_served = false;
}

MpiSession::~MpiSession() {
  if (!g_session) return;
  if (g_ranks > 1 && g_rank == 0 && !g_workers_stopped) stop_workers(true);
  // A worker that never served: rank 0 may be waiting for its answer.
  if (g_rank != 0 && !g_served) send(0, kFailed, kNoTier, {}, "stopped before any work");
  MPI_Finalize();
  g_session = false;
  g_rank = 0;
  g_ranks = 1;
}

int MpiSession::rank() const {
  return g_rank;
}
int MpiSession::ranks() const {
  return g_ranks;
}

namespace generator_detail {

int this_rank() {
  return g_rank;
}
int rank_count() {
  return g_ranks;
}

std::uint64_t manage_units(const ScheduledRun& run) {
  const std::size_t n = run.units;
  std::vector<bool> done(n);
  std::size_t left = 0;
  std::vector<std::size_t> tier_left(run.tiers);  // unfinished units holding each tier
  for (std::size_t u = 0; u < n; ++u) {
    done[u] = run.finished(u);
    const auto [first, last] = run.unit_tiers(u);
    for (std::size_t t = first; t <= last; ++t) tier_left[t] += !done[u];
    left += !done[u];
  }
  // Each unfinished unit's unfinished child tiers, and the units that wait
  // for each tier.
  std::vector<std::size_t> waiting(n);
  std::vector<std::vector<std::size_t>> waiters(run.tiers);
  std::set<std::size_t> ready;  // lowest number first: the order of a run of one rank
  for (std::size_t u = 0; u < n; ++u) {
    if (done[u]) continue;
    const auto [first, last] = run.unit_tiers(u);
    std::set<std::size_t> children;
    for (std::size_t t = first; t <= last; ++t) {
      for (const std::size_t c : run.graph.child_list(t)) {
        if (tier_left[c] != 0) children.insert(c);
      }
    }
    for (const std::size_t c : children) waiters[c].push_back(u);
    waiting[u] = children.size();
    if (waiting[u] == 0) ready.insert(u);
  }

  std::map<int, std::uint64_t> busy;  // rank -> its unit (kNoTier: opening)
  std::map<int, std::string> nodes;   // rank -> its node, for error messages
  std::vector<int> idle;
  for (int r = 1; r < g_ranks; ++r) {
    send(r, kStart, kNoTier);
    busy[r] = kNoTier;
  }
  std::optional<Message> failure;
  std::exception_ptr error;  // of run.solved, thrown once the workers are stopped
  std::uint64_t solved = 0;
  // The loop ends once no rank is busy after handing out what is ready: a
  // test of busy ranks before that would stop with units that the last
  // answer made ready still unsent.
  for (;;) {
    while (!failure && !error && !ready.empty() && !idle.empty()) {
      const std::size_t u = *ready.begin();
      ready.erase(ready.begin());
      send(idle.back(), kSolve, u);
      busy[idle.back()] = u;
      idle.pop_back();
    }
    if (busy.empty()) break;  // all finished, or no more work after a failure
    const Message m = receive(MPI_ANY_SOURCE);
    busy.erase(m.from);
    if (m.tag == kReady) {
      nodes[m.from] = m.text;
      idle.push_back(m.from);
    } else if (m.tag == kFinished && m.tier < n && !done[m.tier]) {
      const auto u = static_cast<std::size_t>(m.tier);
      done[u] = true;
      --left;
      ++solved;
      try {
        run.solved(u, m.summary);
      } catch (...) {
        if (!error) error = std::current_exception();
      }
      const auto [first, last] = run.unit_tiers(u);
      for (std::size_t t = first; t <= last; ++t) {
        if (--tier_left[t] != 0) continue;
        for (const std::size_t p : waiters[t]) {
          if (--waiting[p] == 0) ready.insert(p);
        }
      }
      idle.push_back(m.from);
    } else if (!failure) {
      failure = m;
      if (m.tag != kFailed) failure->text = "unexpected message " + std::to_string(m.tag);
    }
  }
  stop_workers(failure || error || left > 0);
  if (error) std::rethrow_exception(error);
  if (failure) {
    const std::string where = failure->tier == kNoTier
                                  ? std::string(" before solving")
                                  : " on unit " + run.name(static_cast<std::size_t>(failure->tier));
    const auto node = nodes.find(failure->from);
    const std::string on = node == nodes.end() ? "" : " (node " + node->second + ")";
    throw GenerateError("rank " + std::to_string(failure->from) + on + " failed" + where + ": " +
                        failure->text + "; the finished units are kept: run the same command " +
                        "to resume");
  }
  if (left > 0) throw std::logic_error("manage_units: units left that never became ready");
  return solved;
}

void serve_units(const std::function<void()>& open,
                 const std::function<TierSummary(std::size_t)>& solve) {
  g_served = true;
  for (;;) {
    const Message m = receive(0);
    if (m.tag == kStop) {
      if (m.tier != 0) throw GenerateError("stopped by rank 0 after a failure");
      return;
    }
    try {
      if (m.tag == kStart) {
        open();
        char node[MPI_MAX_PROCESSOR_NAME] = {};
        int length = 0;
        MPI_Get_processor_name(node, &length);
        send(0, kReady, kNoTier, {}, std::string(node, static_cast<std::size_t>(length)));
      } else {
        send(0, kFinished, m.tier, solve(static_cast<std::size_t>(m.tier)));
      }
    } catch (const std::bad_alloc&) {
      send(0, kFailed, m.tier, {}, "out of memory");
    } catch (const std::exception& e) {
      send(0, kFailed, m.tier, {}, e.what());
    }
  }
}

}  // namespace generator_detail
}  // namespace pawntb
