// What a run needs in memory, for the generator's plans (what the process
// holds and may still use: pawntb/util/memory.hpp).
//
// THE MEMORY MODEL. What a run holds at its peak, as resident memory: the
// figure `generate --plan` prints (memory_needed) and that the run is
// checked against (--memory). Each term is the size of what the code
// allocates, but for the process base, which is measured:
//   in memory:    base + index + graph + N + writer(N, T)
//   unit by unit: base + index + graph + plan + summaries + records
//                 + max(V + tallies + write, S + writer(N, T)) + read(E)
// with N the entries, T the threads, V the most values a unit holds with the
// groups it reads (largest_unit_reads), E the largest unit's entries and S
// the largest slice's (the assembly holds one slice); index, graph, plan:
// their heap_bytes(); summaries: a TierSummary per unit; records: the unit
// files' checked headers and slice records (WorkDir::records_bytes); writer:
// TableWriter::memory_bytes (the table writer's batch, frames and contexts);
// read, write: WorkDir::read_bytes and write_bytes (unit files' buffers and
// contexts); tallies: the solver's chunk list, tallies and ranges
// (solver_scratch_bytes), the most of any unit. One index lives in a run: the plan builds it and
// the run uses it (GenerationPlan).
//   Example: 5x5 in memory on 2 threads, with MPI: base 6.5 MiB, index and graph
// 1,474,880 bytes, N = 182,544,682 bytes, writer 11,476,160 bytes:
// 202,311,466 bytes (192.9 MiB) in all, where the peak resident set measured
// 196,616 KiB (192.0 MiB; 2026-11-27). Checked on several boards by
// CliGenerate.PlanMemoryIsThePeak (tests/cli/generate_test.cpp).
#pragma once

#include <cstdint>

namespace pawntb::generator_detail {

// The process base: the program, its shared libraries, the C++ runtime and
// what `pawntb generate` holds besides the model's terms (its options, the
// read-back of the written table), as the peak resident set of `pawntb
// generate --rows 3 --cols 3 --threads 1` less its writer's 1.5 MiB. It
// depends on how `pawntb` is linked, so each way has its figure, in the one
// source file CMake builds for it (as MPI's, mpi_schedule*.cpp):
// process_base_static.cpp (PAWNTB_STATIC_CLI, the default build) and
// process_base_dynamic.cpp (MPI, shared libraries, the sanitizers).
std::uint64_t process_base_bytes();

// The solver's scratch for a unit of `entries` entries in `ranges` slices
// (tier_solver.cpp, generate.cpp): 56 bytes a chunk (its place, 32, and its
// tally, 24) for each 2^14 entries and each slice (a slice starts a chunk),
// and 408 bytes a slice (its EntryRange, 216, and the solver's copy of its
// children, 192: kMaxSide = 8 TierValues of 24 bytes).
constexpr std::uint64_t solver_scratch_bytes(std::uint64_t entries, std::uint64_t ranges) {
  return ((entries + (1 << 14) - 1) / (1 << 14) + ranges) * 56 + ranges * 408;
}
// 7x6's largest unit, one slice: 2.8 MiB.
static_assert(solver_scratch_bytes(874'800'000, 1) == 2'990'528);

}  // namespace pawntb::generator_detail
