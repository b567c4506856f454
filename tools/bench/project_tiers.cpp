// Projects a run unit by unit from measured figures: the time on one machine
// and on N machines, the memory and the disk. Usage:
//   project_tiers ROWS COLS K RATE WORK_BYTES_PER_POSITION [MACHINES...]
// RATE is the positions per second one machine solves (pawntb generate's
// average over a run), WORK_BYTES_PER_POSITION the work directory's bytes per
// position (du of a work directory over the positions of its units).
//
// The units come from the generator's own plan (pawntb::describe_units), the
// N-machine time and the critical path from the simulation that `pawntb
// generate --plan --ranks N` uses (pawntb::schedule_entries, critical_path):
// each machine solves one unit at a time, a unit is ready once every unit
// holding a child tier of one of its tiers is done, and a free machine takes
// the ready unit that comes first. A unit takes entries / RATE. This leaves
// out the time to read the slices a unit reads from a shared disk, so it is
// a lower bound where the disk is slow.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "pawntb/generator.hpp"

namespace {

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
  const double critical = static_cast<double>(pawntb::critical_path(w).entries);
  double positions = 0;
  for (const std::uint64_t n : w.tier_entries) positions += static_cast<double>(n);
  std::uint64_t largest = 0, reads = 0;
  for (const pawntb::WorkUnit& u : w.units) {
    largest = std::max(largest, u.entries);
    reads = std::max(reads, u.reads);
  }
  std::printf(
      "%dx%d K=%d: %.4g positions in %zu tiers, %zu units; the largest unit %.4g entries; "
      "the most a unit holds with what it reads %.4g entries (%.2f GiB at a byte each)\n",
      g.rows, g.cols, k, positions, w.tier_entries.size(), w.units.size(),
      static_cast<double>(largest), static_cast<double>(reads),
      static_cast<double>(reads) / (1 << 30));
  std::printf("work directory: about %.1f GiB\n", positions * work_bytes / (1 << 30));
  std::printf("one machine: %s; the critical path alone: %s\n", duration(positions / rate).c_str(),
              duration(critical / rate).c_str());
  for (int a = 6; a < argc; ++a) {
    const int machines = std::atoi(argv[a]);
    if (machines < 1) continue;
    std::printf("%d machines: %s\n", machines,
                duration(pawntb::schedule_entries(w, machines) / rate).c_str());
  }
  return 0;
}
