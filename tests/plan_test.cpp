// Tests of the plan of a run (generator/src/plan.cpp): it builds the one
// index of the run, its critical path and its time on N ranks agree with the
// schedule, and a sample measures a rate on the board without leaving files.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <string_view>

#include "pawntb/generator.hpp"
#include "pawntb/util/threads.hpp"
#include "run_index.hpp"
#include "support/test_support.hpp"
#include "work_dir.hpp"

namespace pawntb {
namespace {

using namespace pawntb_test;

// A request for board g on 2 threads: in memory, or unit by unit in
// `work_dir` with units of at most `unit_entries`; K = max_pawns, or the
// columns.
GenerateRequest board(Geometry g, const fs::path& work_dir = {}, std::uint64_t unit_entries = 0,
                      int max_pawns = 0) {
  GenerateRequest o;
  o.geometry = g;
  o.max_pawns = max_pawns ? max_pawns : g.cols;
  o.threads = 2;
  o.work_dir = work_dir;
  o.unit_entries = unit_entries;
  return o;
}

// An in-memory generate builds one index, the plan's; so does one unit by
// unit; and the tables are the published one.
TEST(Plan, OneIndexARun) {
  TempDir dir;
  GenerateRequest o = board({4, 4});
  std::uint64_t before = generator_detail::index_count();
  const GenerationPlan in_memory = plan_generation(o);
  ASSERT_TRUE(in_memory.in_memory());
  generate(in_memory, {}, dir / "memory.pawntb");
  EXPECT_EQ(generator_detail::index_count() - before, 1u);
  EXPECT_EQ(read_bytes(dir / "memory.pawntb"), read_bytes(kDefaultTable));

  o.work_dir = dir / "work";
  before = generator_detail::index_count();
  generate(o, {}, dir / "units.pawntb");
  EXPECT_EQ(generator_detail::index_count() - before, 1u);
  EXPECT_EQ(read_bytes(dir / "units.pawntb"), read_bytes(kDefaultTable));
}

// plan_generation decides where the work goes and says why: in memory when
// the table fits, else in the fallback directory, which several ranks need
// too; and what becomes of the work directory.
TEST(Plan, DecidesWhereTheWorkGoes) {
  GenerateRequest o = board({4, 5});
  o.fallback_work_dir = "table.work";
  o.memory_limit = std::uint64_t{1} << 30;
  const GenerationPlan roomy = plan_generation(o);
  EXPECT_EQ(roomy.mode, GenerationMode::in_memory);
  EXPECT_EQ(roomy.work_dir_fate, WorkDirFate::none);
  EXPECT_NE(roomy.mode_reason.find("solving it in memory"), std::string::npos) << roomy.mode_reason;
  o.memory_limit = roomy.memory_in_memory - 1;
  const GenerationPlan tight = plan_generation(o);
  EXPECT_EQ(tight.mode, GenerationMode::over_memory_limit);
  EXPECT_EQ(tight.work_dir, "table.work");
  EXPECT_EQ(tight.work_dir_fate, WorkDirFate::removed);
  EXPECT_NE(tight.mode_reason.find("more than the limit of "), std::string::npos)
      << tight.mode_reason;
  EXPECT_NE(tight.mode_reason.find("unit by unit in table.work"), std::string::npos)
      << tight.mode_reason;
  o.memory_limit = std::uint64_t{1} << 30;
  o.ranks = 3;
  const GenerationPlan ranks = plan_generation(o);
  EXPECT_EQ(ranks.mode, GenerationMode::several_ranks);
  EXPECT_EQ(ranks.work_dir, "table.work");
  EXPECT_NE(ranks.mode_reason.find("rank 0 schedules the units, ranks 1..2 solve them"),
            std::string::npos)
      << ranks.mode_reason;
  o.keep_work_dir = true;
  o.work_dir = "given";
  const GenerationPlan given = plan_generation(o);
  EXPECT_EQ(given.mode, GenerationMode::work_dir_given);
  EXPECT_EQ(given.work_dir, "given");
  EXPECT_EQ(given.work_dir_fate, WorkDirFate::kept);
  o.work_dir.clear();
  o.fallback_work_dir.clear();
  EXPECT_THROW(plan_generation(o), GenerateError);
  // Too large for memory with nowhere else to go: in memory, and refused.
  o.ranks = 1;
  o.memory_limit = roomy.memory_in_memory - 1;
  const GenerationPlan nowhere = plan_generation(o);
  EXPECT_EQ(nowhere.mode, GenerationMode::in_memory);
  EXPECT_FALSE(nowhere.fits_memory());
  EXPECT_THROW(check_plan(nowhere), GenerateError);
  // Parameters out of range.
  EXPECT_THROW(plan_generation(board({4, 4}, {}, 0, 5)), GenerateError);
  EXPECT_THROW(plan_generation(board({9, 4})), GenerateError);
}

// Every part of a request is honoured or refused, never dropped: the plan
// records it, and generate() takes nothing else but callbacks.
TEST(Plan, ARequestIsHonouredOrRefused) {
  TempDir dir;
  // The threads: the tier solver runs on three (4x5 has tiers of more than
  // three chunks), as the fault hook sees helpers 1 and 2 start, no more.
  GenerateRequest o = board({4, 5});
  o.threads = 3;
  const GenerationPlan three_threads = plan_generation(o);
  EXPECT_EQ(three_threads.threads, 3u);
  static std::atomic<unsigned> most_helpers;
  most_helpers = 0;
  util::fault_hook = +[](const util::FaultPoint& p) {
    if (p.event == util::FaultPoint::Event::thread_start &&
        std::string_view(p.pool) == "tier solve") {
      unsigned seen = most_helpers.load();
      while (p.worker > seen && !most_helpers.compare_exchange_weak(seen, p.worker)) {
      }
    }
  };
  generate(three_threads, {}, dir / "threads.pawntb");
  util::fault_hook = nullptr;
  EXPECT_EQ(most_helpers.load(), 2u);

  // A memory limit too small for any unit: refused with the figures, before
  // anything is written.
  o = board({4, 4}, dir / "work");
  o.memory_limit = 1 << 20;
  const GenerationPlan tight = plan_generation(o);
  EXPECT_EQ(tight.memory_limit, 1u << 20);
  EXPECT_FALSE(tight.fits_memory());
  EXPECT_THROW(generate(tight, {}, dir / "tight.pawntb"), GenerateError);
  EXPECT_FALSE(fs::exists(dir / "tight.pawntb"));
  EXPECT_FALSE(fs::exists(o.work_dir));

  // A plan for three ranks run by one process: refused.
  o.memory_limit = 0;
  o.ranks = 3;
  try {
    generate(plan_generation(o), {}, dir / "ranks.pawntb");
    ADD_FAILURE() << "no error";
  } catch (const GenerateError& e) {
    EXPECT_NE(std::string(e.what()).find("the plan is for 3 ranks, and this run has 1"),
              std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(fs::exists(dir / "ranks.pawntb"));
  EXPECT_FALSE(fs::exists(o.work_dir));

  // The work directory: kept when asked, else removed.
  o.ranks = 0;
  o.keep_work_dir = true;
  const GenerationReport kept = generate(o, {}, dir / "kept.pawntb");
  EXPECT_FALSE(kept.work_dir_removed);
  EXPECT_TRUE(fs::exists(generator_detail::WorkDir::unit_path(o.work_dir, 0)));
  fs::remove_all(o.work_dir);
  o.keep_work_dir = false;
  const GenerationReport removed = generate(o, {}, dir / "removed.pawntb");
  EXPECT_TRUE(removed.work_dir_removed);
  EXPECT_FALSE(fs::exists(o.work_dir));
  EXPECT_EQ(read_bytes(dir / "kept.pawntb"), read_bytes(kDefaultTable));
  EXPECT_EQ(read_bytes(dir / "removed.pawntb"), read_bytes(kDefaultTable));
}

// The critical path is a chain of units: no longer than all of them, and
// what unlimited ranks take; one solver takes every entry; more ranks never
// take longer, nor less than the critical path.
TEST(Plan, CriticalPathAndRanks) {
  const WorkUnits w = describe_units({4, 5}, 5, 2000);
  std::uint64_t entries = 0;
  for (const WorkUnit& u : w.units) entries += u.entries;
  const CriticalPath path = critical_path(w);
  EXPECT_GE(path.units, 2u);
  EXPECT_LT(path.units, w.units.size());
  EXPECT_LT(path.entries, entries);
  EXPECT_EQ(schedule_entries(w, 1), static_cast<double>(entries));
  EXPECT_EQ(schedule_entries(w, static_cast<int>(w.units.size())),
            static_cast<double>(path.entries));
  double last = schedule_entries(w, 1);
  for (const int solvers : {2, 4, 16, 64}) {
    const double span = schedule_entries(w, solvers);
    EXPECT_LE(span, last) << solvers;
    EXPECT_GE(span, static_cast<double>(path.entries)) << solvers;
    last = span;
  }

  TempDir dir;
  GenerateRequest o = board({4, 5}, dir / "work", 2000);
  o.ranks = 1;
  const GenerationPlan one = plan_generation(o);
  o.ranks = 9;
  const GenerationPlan nine = plan_generation(o);
  EXPECT_EQ(one.units, w.units.size());
  EXPECT_EQ(nine.critical_path_units, path.units);
  EXPECT_EQ(nine.critical_path_entries, path.entries);
  EXPECT_NEAR(one.solve_seconds, static_cast<double>(entries) / one.solve_rate, 1e-9);
  EXPECT_NEAR(nine.solve_seconds, schedule_entries(w, 8) / nine.solve_rate, 1e-9);
  EXPECT_LT(nine.seconds, one.seconds);
  EXPECT_GE(nine.solve_seconds, nine.critical_path_seconds);
  EXPECT_EQ(nine.memory_needed, one.memory_needed);  // per rank
  EXPECT_EQ(one.rate_source.rfind("default", 0), 0u) << one.rate_source;
  EXPECT_FALSE(fs::exists(o.work_dir));
}

// A sample solves units of the board, names itself as the rate's source,
// stays under the memory limit and writes nothing.
TEST(Plan, SampleMeasuresTheBoardsRate) {
  TempDir dir;
  GenerateRequest o = board({4, 5}, dir / "work", 5000);
  o.sample_units = 6;
  const GenerationPlan plan = plan_generation(o);
  EXPECT_EQ(plan.rate_source, "sample of 6 units of 4x5");
  EXPECT_GE(plan.sample_units, 1u);
  EXPECT_LE(plan.sample_units, 6u);
  EXPECT_GT(plan.sample_entries, 0u);
  EXPECT_GT(plan.sample_seconds, 0);
  EXPECT_GT(plan.solve_rate, 0);
  EXPECT_TRUE(std::isfinite(plan.solve_rate));
  EXPECT_NEAR(plan.solve_seconds * plan.solve_rate, static_cast<double>(plan.entries),
              1e-6 * static_cast<double>(plan.entries));
  EXPECT_TRUE(fs::is_empty(dir.path())) << "the sample wrote files";

  // In memory too (units are made for the sample).
  o.work_dir.clear();
  EXPECT_EQ(plan_generation(o).rate_source, "sample of 6 units of 4x5");

  // Too little memory for any unit: refused, naming the limit.
  o.memory_limit = 1 << 20;
  o.work_dir = dir / "work";
  try {
    plan_generation(o);
    ADD_FAILURE() << "no error";
  } catch (const GenerateError& e) {
    EXPECT_NE(std::string(e.what()).find("--sample: no unit fits the memory limit"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace pawntb
