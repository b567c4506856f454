// The ranks of an MPI run and the distributed tier schedule. mpi_schedule.cpp
// holds all of pawntb's MPI code and its description (built with
// -DPAWNTB_MPI=ON); mpi_schedule_none.cpp, built otherwise, has the same
// functions for a run of one rank.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>

#include "tier_solver.hpp"

namespace pawntb::generator_detail {

// This process's rank and the number of ranks: 0 and 1 unless an MpiSession
// (generator.hpp) started MPI. Thread-safe while the session lasts.
int this_rank();
int rank_count();

// What rank 0 needs of a run by units to schedule it.
struct ScheduledRun {
  const TierGraph& graph;
  std::size_t tiers = 0, units = 0;
  // The tiers of unit u: [first, last] (a tier may be in several units).
  std::function<std::pair<std::size_t, std::size_t>(std::size_t)> unit_tiers;
  // Whether unit u's file is whole, recording its summary (a damaged one is
  // reported and removed); called once per unit, in order, before any work.
  std::function<bool(std::size_t)> finished;
  // Unit u finished on another rank, with its summary.
  std::function<void(std::size_t, const TierSummary&)> solved;
  // Unit u for messages, such as "17 of tier 3 (2, 1, 3, 0)".
  std::function<std::string(std::size_t)> name;
};

// Rank 0 of several: schedules the run over ranks 1..N-1 until every unit
// is finished and tells them to stop; returns the number of units they
// solved. A unit is ready once every unit holding a child tier of one of its
// tiers is finished. If a rank fails, hands out no more units, waits for the units
// under way, stops every rank and throws GenerateError naming the rank and
// the unit. Call from the thread that made the MpiSession.
std::uint64_t manage_units(const ScheduledRun& run);

// Ranks 1..N-1: once rank 0 has looked at the work directory and before any
// unit is solved, calls open(); then solve(u) for each unit u rank 0 hands
// out, until rank 0 says stop. A failure of open() or solve() is reported to
// rank 0. Throws GenerateError if the run was stopped because of a failure.
// Call from the thread that made the MpiSession.
void serve_units(const std::function<void()>& open,
                 const std::function<TierSummary(std::size_t)>& solve);

}  // namespace pawntb::generator_detail
