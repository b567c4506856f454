// Tests of `mpirun -np N pawntb generate` (built with PAWNTB_MPI=ON): the
// table of 1 and 3 ranks is the table made in memory, only rank 0 prints, and
// a rank that fails is named, stops the run with status 1, and the same
// command then resumes. CTest sets the OpenMPI variables that allow root and
// more ranks than cores (tests/CMakeLists.txt).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <regex>

#include "support/cli_support.hpp"
#include "work_dir.hpp"

namespace pawntb_test {
namespace {

using pawntb::generator_detail::WorkDir;

// Runs `mpirun -np ranks --oversubscribe pawntb args...`, stopped if it
// hangs (kHangGuard).
RunResult run_mpi(int ranks, const std::vector<std::string>& args) {
  RunResult result;
  TempDir io;
  const fs::path out_path = io / "stdout", err_path = io / "stderr";
  std::vector<std::string> strings{"timeout",
                                   "--kill-after=10",
                                   std::to_string(kHangGuardSeconds),
                                   PAWNTB_MPIEXEC,
                                   "-np",
                                   std::to_string(ranks),
                                   "--oversubscribe",
                                   PAWNTB_CLI};
  strings.insert(strings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& s : strings) argv.push_back(s.data());
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int in = ::open("/dev/null", O_RDONLY);
    const int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (in < 0 || out < 0 || err < 0) ::_exit(125);
    if (::dup2(in, 0) < 0 || ::dup2(out, 1) < 0 || ::dup2(err, 2) < 0) ::_exit(125);
    ::execvp(argv[0], argv.data());
    ::_exit(127);
  }
  int status = 0;
  if (pid < 0 || ::waitpid(pid, &status, 0) != pid) {
    ADD_FAILURE() << "could not run " << PAWNTB_MPIEXEC;
    return result;
  }
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.out = read_file(out_path);
  result.err = read_file(err_path);
  return result;
}

std::vector<std::string> generate_args(const std::string& rows, const std::string& cols,
                                       const fs::path& output, const fs::path& work) {
  return {"generate", "--rows",        rows,         "--cols",     cols, "--force",
          "--output", output.string(), "--work-dir", work.string()};
}

// How often `needle` occurs in `text`.
int count(const std::string& text, const std::string& needle) {
  int n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

// 1 rank on one thread and 3 ranks on two threads each make the table made
// in memory, byte for byte; the plan and the report are printed once, by
// rank 0. (Tiered runs on 1 and 2 threads are compared in tiered_test.cpp.)
TEST(Mpi, SameTableAsInMemory) {
  TempDir dir;
  for (const auto& [rows, cols] : {std::pair{"4", "4"}, std::pair{"5", "4"}}) {
    const fs::path in_memory = dir / "memory.pawntb", ranked = dir / "ranked.pawntb";
    const RunResult a = run_cli(
        {"generate", "--rows", rows, "--cols", cols, "--force", "--output", in_memory.string()});
    ASSERT_EQ(a.status, 0) << a;
    for (const auto& [ranks, threads] : {std::pair{1, "1"}, std::pair{3, "2"}}) {
      auto args = generate_args(rows, cols, ranked, dir / "work");
      args.insert(args.end(), {"--threads", threads});
      const RunResult b = run_mpi(ranks, args);
      const std::string what = std::string(rows) + "x" + cols + ", " + std::to_string(ranks) +
                               " ranks, " + threads + " threads";
      ASSERT_EQ(b.status, 0) << what << b;
      EXPECT_EQ(read_bytes(ranked), read_bytes(in_memory)) << what;
      EXPECT_EQ(count(b.err, "positions in"), 1) << what << b;
      EXPECT_EQ(count(b.out, "generated "), 1) << what << b;
      EXPECT_EQ(contains(b.err, "rank 0 schedules the units"), ranks > 1) << what << b;
      EXPECT_FALSE(fs::exists(dir / "work")) << "the work directory was not removed";
    }
  }
}

// A unit file that cannot be written (a directory holds its name) fails the
// rank that solved it: rank 0 names the rank, its node and the unit, every
// rank stops, mpirun exits 1, the finished units are kept, and once the
// directory is gone the same command finishes the table.
TEST(Mpi, FailedRankIsNamedAndTheRunResumes) {
  TempDir dir;
  const fs::path reference = dir / "reference.pawntb", output = dir / "out.pawntb";
  const fs::path work = dir / "work", blocker = WorkDir::unit_path(work, 60);
  ASSERT_EQ(run_cli({"generate", "--output", reference.string()}).status, 0);
  fs::create_directories(blocker / "in-the-way");
  const auto args = generate_args("4", "4", output, work);
  const RunResult failed = run_mpi(3, args);
  EXPECT_EQ(failed.status, 1) << failed;
  EXPECT_TRUE(std::regex_search(
      failed.err, std::regex("rank [12] \\(node [^)]+\\) failed on unit 60 \\(tiers? .*" +
                             blocker.filename().string())))
      << failed;
  EXPECT_TRUE(contains(failed.err, "run the same command to resume")) << failed;
  EXPECT_FALSE(contains(failed.out, "generated ")) << failed;
  EXPECT_FALSE(fs::exists(output));
  int kept = 0;
  for (const auto& entry : fs::directory_iterator(work)) {
    kept += WorkDir::is_unit_file(entry.path().filename().string());
  }
  EXPECT_GT(kept, 30) << "finished units were not kept";  // of the 60 before the blocker

  fs::remove_all(blocker);
  const RunResult resumed = run_mpi(3, args);
  ASSERT_EQ(resumed.status, 0) << resumed;
  EXPECT_TRUE(contains(resumed.err, "resuming")) << resumed;
  EXPECT_EQ(read_bytes(output), read_bytes(reference));
}

}  // namespace
}  // namespace pawntb_test
