// Projects a run unit by unit from measured figures: the time on one machine
// and on N machines, the memory and the disk. Usage:
//   project_tiers ROWS COLS K RATE WORK_BYTES_PER_POSITION [MACHINES...]
// RATE is the positions per second one machine solves (pawntb generate's
// average over a run), WORK_BYTES_PER_POSITION the work directory's bytes per
// position (du of a work directory over the positions of its units).
//
// The units come from the generator's own plan (pawntb::describe_units). The
// N-machine time simulates the MPI manager (generator/src/mpi_schedule.cpp):
// each machine solves one unit at a time, a unit is ready once every unit
// holding a child tier of one of its tiers is done, and a free machine takes
// the ready unit that comes first. A unit takes entries / RATE. This leaves out the time to
// read the slices a unit reads from a shared disk, so it is a lower bound
// where the disk is slow.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <queue>
#include <set>
#include <string>
#include <vector>

#include "pawntb/generator.hpp"

namespace {

// The makespan of `machines` machines, in positions solved by one machine
// (divide by the rate for seconds).
double simulate(const pawntb::WorkUnits& w, int machines) {
  const std::size_t tiers = w.tier_entries.size();
  // Units holding each tier; for each tier, the units waiting for it; each
  // unit's unfinished child tiers.
  std::vector<std::size_t> left(tiers), waiting(w.units.size());
  std::vector<std::vector<std::size_t>> waiters(tiers);
  for (const pawntb::WorkUnit& u : w.units) {
    for (std::size_t t = u.tier; t <= u.last_tier; ++t) ++left[t];
  }
  std::set<std::size_t> ready;
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
  int free = machines;
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
  if (rate <= 0 || work_bytes < 0) {
    std::fprintf(stderr, "project_tiers: bad rate or bytes per position\n");
    return 2;
  }
  pawntb::WorkUnits w;
  try {
    w = pawntb::describe_units(g, k);
  } catch (const pawntb::GenerateError& e) {
    std::fprintf(stderr, "project_tiers: %s\n", e.what());
    return 2;
  }
  // The longest chain of tiers, each taking its largest unit (its units run
  // side by side on enough machines).
  const std::size_t tiers = w.tier_entries.size();
  std::vector<double> path(tiers), largest_in(tiers);
  for (const pawntb::WorkUnit& u : w.units) {
    for (std::size_t t = u.tier; t <= u.last_tier; ++t) {
      largest_in[t] = std::max(largest_in[t], static_cast<double>(u.entries));
    }
  }
  double critical = 0, positions = 0;
  for (std::size_t t = 0; t < tiers; ++t) {
    double longest_child = 0;
    for (const std::size_t c : w.tier_children[t]) longest_child = std::max(longest_child, path[c]);
    path[t] = longest_child + largest_in[t];
    critical = std::max(critical, path[t]);
    positions += static_cast<double>(w.tier_entries[t]);
  }
  std::uint64_t largest = 0, reads = 0;
  for (const pawntb::WorkUnit& u : w.units) {
    largest = std::max(largest, u.entries);
    reads = std::max(reads, u.reads);
  }
  std::printf(
      "%dx%d K=%d: %.4g positions in %zu tiers, %zu units; the largest unit %.4g entries; "
      "the most a unit holds with what it reads %.4g entries (%.2f GiB at a byte each)\n",
      g.rows, g.cols, k, positions, tiers, w.units.size(), static_cast<double>(largest),
      static_cast<double>(reads), static_cast<double>(reads) / (1 << 30));
  std::printf("work directory: about %.1f GiB\n", positions * work_bytes / (1 << 30));
  std::printf("one machine: %s; the critical path alone: %s\n", duration(positions / rate).c_str(),
              duration(critical / rate).c_str());
  for (int a = 6; a < argc; ++a) {
    const int machines = std::atoi(argv[a]);
    if (machines < 1) continue;
    std::printf("%d machines: %s\n", machines, duration(simulate(w, machines) / rate).c_str());
  }
  return 0;
}
