// Projects a tiered run from measured figures: the time on one machine and on
// N machines, and the disk. Usage:
//   project_tiers ROWS COLS K RATE WORK_BYTES_PER_POSITION [MACHINES...]
// RATE is the positions per second one machine solves (pawntb generate's
// average over a run), WORK_BYTES_PER_POSITION the work directory's bytes per
// position (du of a work directory over the positions of its tiers).
//
// The N-machine time simulates the MPI manager (generator/src/mpi_schedule.cpp):
// each machine solves one tier at a time, a tier is ready once its children
// are done, and a free machine takes the ready tier that comes first in index
// order. A tier takes size / RATE. This leaves out the time to load children
// from a shared disk, so it is a lower bound where the disk is slow.
#include <cstdio>
#include <cstdlib>
#include <queue>
#include <set>
#include <string>
#include <vector>

#include "pawntb/codec/index.hpp"
#include "tier_solver.hpp"

namespace {

using pawntb::codec::Index;
using pawntb::generator_detail::TierGraph;

// The makespan of `machines` machines, in positions solved by one machine
// (divide by the rate for seconds).
double simulate(const Index& index, const std::vector<std::vector<std::size_t>>& parents,
                const std::vector<int>& child_count, int machines) {
  const auto tiers = index.tiers();
  std::vector<int> waiting = child_count;
  std::set<std::size_t> ready;
  for (std::size_t t = 0; t < tiers.size(); ++t) {
    if (waiting[t] == 0) ready.insert(t);
  }
  using Event = std::pair<double, std::size_t>;  // (finish time, tier)
  std::priority_queue<Event, std::vector<Event>, std::greater<>> running;
  double now = 0;
  int free = machines;
  std::size_t done = 0;
  while (done < tiers.size()) {
    while (free > 0 && !ready.empty()) {
      const std::size_t t = *ready.begin();
      ready.erase(ready.begin());
      running.emplace(now + static_cast<double>(tiers[t].size), t);
      --free;
    }
    const auto [finish, t] = running.top();
    running.pop();
    now = finish;
    ++free;
    ++done;
    for (const std::size_t parent : parents[t]) {
      if (--waiting[parent] == 0) ready.insert(parent);
    }
  }
  return now;
}

std::string duration(double seconds) {
  char out[32];
  if (seconds >= 48 * 3600) {
    std::snprintf(out, sizeof out, "%.1f days", seconds / 86400);
  } else if (seconds >= 3600) {
    std::snprintf(out, sizeof out, "%.1f h", seconds / 3600);
  } else {
    std::snprintf(out, sizeof out, "%.0f s", seconds);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 6) {
    std::fprintf(stderr,
                 "usage: project_tiers ROWS COLS K RATE WORK_BYTES_PER_POSITION [MACHINES...]\n");
    return 2;
  }
  const pawntb::Geometry g{std::atoi(argv[1]), std::atoi(argv[2])};
  const int k = std::atoi(argv[3]);
  const double rate = std::atof(argv[4]), work_bytes = std::atof(argv[5]);
  if (!Index::valid_parameters(g, k) || rate <= 0 || work_bytes < 0) {
    std::fprintf(stderr, "project_tiers: bad board, K, rate or bytes per position\n");
    return 2;
  }
  const Index index(g, k);
  if (index.too_large()) {
    std::fprintf(stderr, "project_tiers: %dx%d with K = %d cannot be indexed\n", g.rows, g.cols, k);
    return 2;
  }
  const TierGraph graph(index);
  const auto tiers = index.tiers();
  std::vector<std::vector<std::size_t>> parents(tiers.size());
  std::vector<int> child_count(tiers.size());
  std::uint64_t peak = 0;                  // the largest tier with its children, entries
  std::vector<double> path(tiers.size());  // the longest chain ending at a tier, entries
  double critical = 0;
  for (std::size_t t = 0; t < tiers.size(); ++t) {
    std::uint64_t held = tiers[t].size;
    double longest_child = 0;
    for (const std::size_t c : graph.child_list(t)) {
      parents[c].push_back(t);
      ++child_count[t];
      held += tiers[c].size;
      longest_child = std::max(longest_child, path[c]);
    }
    peak = std::max(peak, held);
    path[t] = longest_child + static_cast<double>(tiers[t].size);
    critical = std::max(critical, path[t]);
  }
  const double positions = static_cast<double>(index.size());
  std::printf(
      "%dx%d K=%d: %.4g positions in %zu tiers; largest tier with its children %.4g "
      "entries (%.1f GiB at a byte each)\n",
      g.rows, g.cols, k, positions, tiers.size(), static_cast<double>(peak),
      static_cast<double>(peak) / (1 << 30));
  std::printf("work directory: about %.1f GiB\n", positions * work_bytes / (1 << 30));
  std::printf("one machine: %s; the critical path alone: %s\n", duration(positions / rate).c_str(),
              duration(critical / rate).c_str());
  for (int a = 6; a < argc; ++a) {
    const int machines = std::atoi(argv[a]);
    if (machines < 1) continue;
    std::printf("%d machines: %s\n", machines,
                duration(simulate(index, parents, child_count, machines) / rate).c_str());
  }
  return 0;
}
