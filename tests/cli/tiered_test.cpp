// Tests of tiered generation through the CLI: the same table as in memory,
// resuming after SIGKILL at random moments, damaged tier files solved
// again, and the refusals.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

#include "support/cli_support.hpp"

namespace pawntb_test {
namespace {

std::vector<std::uint8_t> bytes_of(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// The files named tier-*.zst in dir.
int tier_files(const fs::path& dir) {
  int count = 0;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    count += name.rfind("tier-", 0) == 0;
  }
  return count;
}

std::vector<std::string> generate_args(const std::string& rows, const std::string& cols,
                                       const fs::path& output, const fs::path& work) {
  return {"generate", "--rows",        rows,         "--cols",     cols, "--force",
          "--output", output.string(), "--work-dir", work.string()};
}

// A table made in memory and tier by tier, on one or two threads, is the same
// byte for byte, and the work directory is gone afterwards.
TEST(CliTiered, SameTableAsInMemory) {
  TempDir dir;
  for (const auto& [rows, cols] : {std::pair{"4", "4"}, std::pair{"3", "5"}, std::pair{"4", "3"}}) {
    const fs::path in_memory = dir / "memory.pawntb", tiered = dir / "tiered.pawntb";
    const RunResult a = run_cli(
        {"generate", "--rows", rows, "--cols", cols, "--force", "--output", in_memory.string()});
    ASSERT_EQ(a.status, 0) << a;
    for (const char* threads : {"1", "2"}) {
      auto args = generate_args(rows, cols, tiered, dir / "work");
      args.insert(args.end(), {"--threads", threads});
      const RunResult b = run_cli(args);
      ASSERT_EQ(b.status, 0) << b;
      EXPECT_TRUE(contains(b.err, "tiers")) << b;
      EXPECT_EQ(bytes_of(tiered), bytes_of(in_memory)) << rows << "x" << cols << ", " << threads;
      EXPECT_FALSE(fs::exists(dir / "work")) << "the work directory was not removed";
    }
  }
}

// 1234567 as "1,234,567", as the CLI prints counts.
std::string with_commas(std::uint64_t n) {
  std::string text = std::to_string(n);
  for (auto at = static_cast<std::ptrdiff_t>(text.size()) - 3; at > 0; at -= 3) {
    text.insert(static_cast<std::size_t>(at), ",");
  }
  return text;
}

// The last line gives the work directory's peak: the bytes of the tier files
// it holds when kept (--keep-work-dir), and the same when removed.
TEST(CliTiered, ReportsTheWorkDirectorysPeakSize) {
  TempDir dir;
  const fs::path output = dir / "tiered.pawntb", work = dir / "work";
  auto args = generate_args("4", "4", output, work);
  args.push_back("--keep-work-dir");
  const RunResult kept = run_cli(args);
  ASSERT_EQ(kept.status, 0) << kept;
  std::uint64_t on_disk = 0;
  for (const auto& entry : fs::directory_iterator(work)) {
    if (entry.path().extension() == ".zst") on_disk += entry.file_size();
  }
  ASSERT_GT(on_disk, 0u);
  const std::string line = "work directory: " + with_commas(on_disk) + " bytes of tier files";
  EXPECT_TRUE(contains(kept.out, line)) << line << "\n" << kept;
  EXPECT_TRUE(contains(kept.out, "), kept\n")) << kept;

  // Resumed (every tier found finished), with a file of the user's there:
  // only the tier files count.
  write_file(work / "notes.txt", std::string(12345, 'x'));
  const RunResult resumed = run_cli(args);
  ASSERT_EQ(resumed.status, 0) << resumed;
  EXPECT_TRUE(contains(resumed.out, line)) << line << "\n" << resumed;

  fs::remove_all(work);
  const RunResult removed = run_cli(generate_args("4", "4", output, work));
  ASSERT_EQ(removed.status, 0) << removed;
  EXPECT_TRUE(contains(removed.out, line)) << line << "\n" << removed;
  EXPECT_TRUE(contains(removed.out, "), removed\n")) << removed;
  EXPECT_FALSE(fs::exists(work));
}

// Starts `pawntb args...` with stdout and stderr to files in dir.
pid_t start_cli(const std::vector<std::string>& args, const fs::path& dir) {
  const pid_t child = ::fork();
  if (child == 0) {
    const int out = ::open((dir / "out.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const int err = ::open((dir / "err.txt").c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
    ::dup2(out, STDOUT_FILENO);
    ::dup2(err, STDERR_FILENO);
    std::vector<char*> argv{const_cast<char*>(PAWNTB_CLI)};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(PAWNTB_CLI, argv.data());
    ::_exit(127);
  }
  return child;
}

// Killed with SIGKILL at random moments, each time after a random number of
// tiers (and so also while a tier file or the table is being written), and
// started again with the same arguments, a run still makes the table of an
// uninterrupted run, byte for byte.
TEST(CliTiered, ResumesAfterKillsAtRandomPoints) {
  TempDir dir;
  const fs::path reference = dir / "reference.pawntb", output = dir / "resumed.pawntb";
  const fs::path work = dir / "work";
  const RunResult whole =
      run_cli({"generate", "--rows", "5", "--cols", "4", "--output", reference.string()});
  ASSERT_EQ(whole.status, 0) << whole;
  const int tiers = 1182;  // of 5x4 with K = 4 (the plan line says so)
  std::mt19937 rng(20261123);
  int kills = 0;
  for (int round = 0; round < 4; ++round) {
    const int after = std::uniform_int_distribution<int>(1, tiers - 1)(rng);
    const pid_t child = start_cli(generate_args("5", "4", output, work), dir.path());
    ASSERT_GT(child, 0);
    const auto deadline = std::chrono::steady_clock::now() + kHangGuard;
    int status = 0;
    bool exited = false;
    while (std::chrono::steady_clock::now() < deadline) {
      if (::waitpid(child, &status, WNOHANG) == child) {
        exited = true;
        break;
      }
      if (tier_files(work) >= after) {
        // A random moment within the next tier or two.
        std::this_thread::sleep_for(
            std::chrono::microseconds(std::uniform_int_distribution<int>(0, 3000)(rng)));
        ::kill(child, SIGKILL);
        ::waitpid(child, &status, 0);
        ++kills;
        break;
      }
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    if (!exited && !WIFSIGNALED(status)) {
      ::kill(child, SIGKILL);
      ::waitpid(child, &status, 0);
      FAIL() << "the run neither finished nor reached " << after << " tiers";
    }
    if (exited) break;  // it finished before the kill: nothing left to resume
  }
  EXPECT_GT(kills, 0);
  const RunResult last = run_cli(generate_args("5", "4", output, work));
  ASSERT_EQ(last.status, 0) << last;
  if (kills > 0) {
    EXPECT_TRUE(contains(last.err, "resuming")) << last;
  }
  EXPECT_EQ(bytes_of(output), bytes_of(reference)) << "the resumed table differs";
}

// A tier file cut short and one with a changed byte are solved again, and
// the table is still the same.
TEST(CliTiered, DamagedTierFilesAreSolvedAgain) {
  TempDir dir;
  const fs::path reference = dir / "reference.pawntb", output = dir / "again.pawntb";
  const fs::path work = dir / "work";
  ASSERT_EQ(run_cli({"generate", "--output", reference.string()}).status, 0);
  auto args = generate_args("4", "4", output, work);
  args.push_back("--keep-work-dir");
  ASSERT_EQ(run_cli(args).status, 0);
  const fs::path torn = work / "tier-000300.zst", flipped = work / "tier-000400.zst";
  fs::resize_file(torn, fs::file_size(torn) / 2);
  std::fstream f(flipped, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(static_cast<std::streamoff>(fs::file_size(flipped) - 3));
  f.put('\x5A');
  f.close();
  const RunResult again = run_cli(args);
  ASSERT_EQ(again.status, 0) << again;
  EXPECT_TRUE(contains(again.err, torn.string() + ": truncated or too long; solving it again"))
      << again;
  EXPECT_TRUE(contains(again.err, flipped.string() + ":")) << again;
  EXPECT_EQ(bytes_of(output), bytes_of(reference));
  // A planted file that is whole but for another tier is refused too.
  fs::copy_file(work / "tier-000001.zst", work / "tier-000002.zst",
                fs::copy_options::overwrite_existing);
  const RunResult planted = run_cli(args);
  ASSERT_EQ(planted.status, 0) << planted;
  EXPECT_TRUE(contains(planted.err, "tier-000002.zst: made for another tier")) << planted;
  EXPECT_EQ(bytes_of(output), bytes_of(reference));
}

// `pawntb info --tiers` gives each tier the checksum its tier file carries
// (values_checksum, a u64 at byte 64 of the file, FORMAT.md appendix), and
// the tiers tile the entries.
TEST(CliTiered, InfoTiersMatchesTheTierFiles) {
  TempDir dir;
  const fs::path output = dir / "4x5.pawntb", work = dir / "work";
  auto args = generate_args("4", "5", output, work);
  args.push_back("--keep-work-dir");
  ASSERT_EQ(run_cli(args).status, 0);
  const RunResult tiers = run_cli({"info", "--tiers", output.string()});
  ASSERT_EQ(tiers.status, 0) << tiers;
  const std::vector<std::string> lines = lines_of(tiers.out);
  ASSERT_GT(lines.size(), 2u);
  EXPECT_EQ(lines[0],
            "tier\twhite_pawns\tblack_pawns\twhite_advance\tblack_advance\tfirst_entry\tentries\t"
            "xxh3_64");
  EXPECT_EQ(static_cast<int>(lines.size()) - 1, tier_files(work));
  std::uint64_t next_entry = 0;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    std::istringstream fields(lines[i]);
    unsigned tier = 0;
    int w = 0, b = 0, sw = 0, sb = 0;
    std::uint64_t first = 0, entries = 0;
    std::string checksum;
    fields >> tier >> w >> b >> sw >> sb >> first >> entries >> checksum;
    ASSERT_TRUE(fields) << lines[i];
    EXPECT_EQ(tier, i - 1);
    EXPECT_EQ(first, next_entry) << lines[i];
    next_entry = first + entries;
    char name[32];
    std::snprintf(name, sizeof name, "tier-%06u.zst", tier);
    const std::vector<std::uint8_t> file = bytes_of(work / name);
    ASSERT_GE(file.size(), 96u) << name;
    std::uint64_t values_checksum = 0;
    for (int k = 7; k >= 0; --k) values_checksum = values_checksum << 8 | file[64 + k];
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(values_checksum));
    EXPECT_EQ(checksum, hex) << name;
  }
  const RunResult info = run_cli({"info", "--json", output.string()});
  ASSERT_EQ(info.status, 0) << info;
  EXPECT_TRUE(contains(info.out, "\"entries\":" + std::to_string(next_entry) + ",")) << info;
}

TEST(CliTiered, RefusesAnotherTablesWorkAndTooLittleMemory) {
  TempDir dir;
  auto args = generate_args("3", "3", dir / "t.pawntb", dir / "work");
  args.push_back("--keep-work-dir");
  ASSERT_EQ(run_cli(args).status, 0);
  const RunResult other = run_cli(generate_args("4", "4", dir / "u.pawntb", dir / "work"));
  EXPECT_EQ(other.status, 1) << other;
  EXPECT_TRUE(contains(other.err, "holds the work of another table")) << other;

  auto small = generate_args("4", "4", dir / "u.pawntb", dir / "work2");
  small.insert(small.end(), {"--memory", "1M"});
  const RunResult little = run_cli(small);
  EXPECT_EQ(little.status, 1) << little;
  EXPECT_TRUE(contains(little.err, "not enough memory")) << little;
  EXPECT_TRUE(contains(little.err, "limit of 1 MiB")) << little;

  for (const char* bad : {"lots", "8X", "-1", ""}) {
    const RunResult r = run_cli({"generate", "--memory", bad, "--output", (dir / "v").string()});
    EXPECT_EQ(r.status, 2) << bad << r;
    EXPECT_TRUE(contains(r.err, "--memory")) << r;
  }
  // Without --work-dir, a table larger than --memory goes tier by tier in FILE.work.
  const RunResult automatic =
      run_cli({"generate", "--memory", "50M", "--force", "--output", (dir / "w.pawntb").string()});
  ASSERT_EQ(automatic.status, 0) << automatic;
  EXPECT_TRUE(contains(automatic.err, "tier by tier in " + (dir / "w.pawntb.work").string()))
      << automatic;
}

}  // namespace
}  // namespace pawntb_test
