// Tests of generation unit by unit through the CLI: the same table as in
// memory, resuming after SIGKILL at random moments (while solving and while
// assembling), damaged unit files solved again, the plan, and the refusals.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "support/cli_support.hpp"
#include "work_dir.hpp"

namespace pawntb_test {
namespace {

using pawntb::generator_detail::WorkDir;

std::vector<std::uint8_t> bytes_of(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// The unit files in dir.
int unit_files(const fs::path& dir) {
  int count = 0;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    count += WorkDir::is_unit_file(entry.path().filename().string());
  }
  return count;
}

std::vector<std::string> generate_args(const std::string& rows, const std::string& cols,
                                       const fs::path& output, const fs::path& work) {
  return {"generate", "--rows",        rows,         "--cols",     cols, "--force",
          "--output", output.string(), "--work-dir", work.string()};
}

// A run unit by unit to kill and resume (args: its output and work
// directory in a temporary directory), and the table an uninterrupted run
// makes in memory, which the resumed run must equal byte for byte.
struct ResumedRun {
  ResumedRun(const std::string& rows, const std::string& cols)
      : args(generate_args(rows, cols, output, work)),
        reference_made(
            run_cli({"generate", "--rows", rows, "--cols", cols, "--output", reference.string()})) {
  }
  TempDir dir;
  const fs::path reference = dir / "reference.pawntb", output = dir / "resumed.pawntb";
  const fs::path work = dir / "work";
  const std::vector<std::string> args;
  const RunResult reference_made;  // status 0: `reference` is there
};

// A table made in memory and unit by unit, on one or two threads, is the
// same byte for byte, and the work directory is gone afterwards.
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

// A work directory on another file system than the output (/dev/shm, a
// tmpfs): the table cannot be renamed into place and is copied by the atomic
// writer, leaving nothing beside it but the table (it once left a fixed-name
// OUTPUT.copy behind on failure).
TEST(CliTiered, OutputOnAnotherFileSystemIsCopiedAtomically) {
  TempDir dir;
  std::error_code ec;
  const fs::path shm = "/dev/shm";
  struct stat here {
  }, there{};
  if (!fs::is_directory(shm, ec) || ::stat(dir.path().c_str(), &here) != 0 ||
      ::stat(shm.c_str(), &there) != 0 || here.st_dev == there.st_dev) {
    GTEST_SKIP() << "no /dev/shm on another file system than " << dir.path();
  }
  const fs::path work = shm / ("pawntb-tiered-" + std::to_string(::getpid()));
  const fs::path out_dir = dir / "out", output = out_dir / "4x3.pawntb";
  fs::create_directories(out_dir);
  const RunResult r = run_cli(generate_args("4", "3", output, work));
  fs::remove_all(work, ec);
  ASSERT_EQ(r.status, 0) << r;
  const RunResult reference = run_cli(
      {"generate", "--rows", "4", "--cols", "3", "--output", (dir / "ref.pawntb").string()});
  ASSERT_EQ(reference.status, 0) << reference;
  EXPECT_EQ(bytes_of(output), bytes_of(dir / "ref.pawntb"));
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(out_dir)) {
    names.push_back(entry.path().filename().string());
  }
  EXPECT_EQ(names, std::vector<std::string>{"4x3.pawntb"});
}

// 1234567 as "1,234,567", as the CLI prints counts.
std::string with_commas(std::uint64_t n) {
  std::string text = std::to_string(n);
  for (auto at = static_cast<std::ptrdiff_t>(text.size()) - 3; at > 0; at -= 3) {
    text.insert(static_cast<std::size_t>(at), ",");
  }
  return text;
}

// The report gives the work directory's peak (the unit files once all are
// solved) and the assembly's (unit files and table together), which holds
// at least the table. The assembly deletes the unit files; --keep-work-dir
// keeps them, and a run again over them makes the same table.
TEST(CliTiered, ReportsTheDiskPeaksAndDeletesUnitFiles) {
  TempDir dir;
  const fs::path output = dir / "tiered.pawntb", work = dir / "work";
  const RunResult removed = run_cli(generate_args("4", "4", output, work));
  ASSERT_EQ(removed.status, 0) << removed;
  EXPECT_TRUE(contains(removed.out, " bytes of unit files at most (")) << removed;
  EXPECT_TRUE(contains(removed.out, "), removed\n")) << removed;
  const std::string assembly = "assembly: ";
  const auto at = removed.out.find(assembly);
  ASSERT_NE(at, std::string::npos) << removed;
  std::string digits;
  for (std::size_t i = at + assembly.size(); i < removed.out.size() && removed.out[i] != ' '; ++i) {
    if (removed.out[i] != ',') digits += removed.out[i];
  }
  EXPECT_GE(std::stoull(digits), fs::file_size(output)) << removed;
  EXPECT_FALSE(fs::exists(work));
  const std::vector<std::uint8_t> table = bytes_of(output);

  auto args = generate_args("4", "4", output, work);
  args.push_back("--keep-work-dir");
  const RunResult kept = run_cli(args);
  ASSERT_EQ(kept.status, 0) << kept;
  EXPECT_TRUE(contains(kept.out, "), kept\n")) << kept;
  EXPECT_GT(unit_files(work), 100);
  EXPECT_FALSE(fs::exists(work / "table.partial"));
  const RunResult again = run_cli(args);  // every unit found finished
  ASSERT_EQ(again.status, 0) << again;
  EXPECT_TRUE(contains(again.err, "resuming")) << again;
  EXPECT_EQ(bytes_of(output), table);

  const std::vector<std::string> plain = generate_args("4", "4", output, work);
  ASSERT_EQ(run_cli(plain).status, 0);
  EXPECT_FALSE(fs::exists(work));
  EXPECT_EQ(bytes_of(output), table);
}

// A random pause of up to max_us before a kill.
std::chrono::microseconds pause_of(int max_us, std::mt19937& rng) {
  return std::chrono::microseconds(std::uniform_int_distribution<int>(0, max_us)(rng));
}

// Killed with SIGKILL at random moments, each time after a random number of
// units (and so also while a unit file is being written), and started
// again with the same arguments, a run still makes the table of an
// uninterrupted run, byte for byte.
TEST(CliTiered, ResumesAfterKillsAtRandomPoints) {
  const ResumedRun run("5", "4");
  ASSERT_EQ(run.reference_made.status, 0) << run.reference_made;
  auto plan_args = run.args;
  plan_args.insert(plan_args.end(), {"--plan", "--json"});
  const RunResult plan = run_cli(plan_args);
  ASSERT_EQ(plan.status, 0) << plan;
  const int units = nlohmann::json::parse(plan.out).at("units").get<int>();
  ASSERT_GT(units, 4);
  std::mt19937 rng(20261123);
  int kills = 0;
  for (int round = 0; round < 4; ++round) {
    const int after = std::uniform_int_distribution<int>(1, units - 1)(rng);
    const KillEnd end = kill_when_ready(
        run.args, run.dir.path(), [&] { return unit_files(run.work) >= after; },
        pause_of(3000, rng));
    ASSERT_NE(end, KillEnd::hung);
    kills += end == KillEnd::killed;
  }
  EXPECT_GT(kills, 0);
  const RunResult last = run_cli(run.args);
  ASSERT_EQ(last.status, 0) << last;
  if (kills > 0) {
    EXPECT_TRUE(contains(last.err, "resuming")) << last;
  }
  EXPECT_EQ(bytes_of(run.output), bytes_of(run.reference)) << "the resumed table differs";
}

// Killed while the table is assembled (table.partial exists: before or
// after a checkpoint, while unit files are being deleted), a run resumes
// the assembly and makes the same table. 4x5 has 130 blocks, so the
// assembly checkpoints a few times. Each kill waits for table.partial to
// reach a random share of the table's size. An assembly can be quicker than
// the poll; then the run is made again from nothing, and the next attempts
// kill as soon as table.partial appears.
TEST(CliTiered, ResumesAfterKillsWhileAssembling) {
  const ResumedRun run("4", "5");
  ASSERT_EQ(run.reference_made.status, 0) << run.reference_made;
  const auto table_size = fs::file_size(run.reference);
  std::mt19937 rng(20261127);
  int kills = 0;
  for (int attempt = 0; attempt < 20 && kills == 0; ++attempt) {
    fs::remove_all(run.work);
    fs::remove(run.output);
    const bool at_once = attempt > 0;
    std::uintmax_t reached = 0;
    const auto partial_reached = [&] {
      std::error_code ec;
      const auto size = fs::file_size(run.work / "table.partial", ec);
      return !ec && size >= reached;
    };
    for (int round = 0; round < 5; ++round) {
      reached = at_once ? 0 : std::uniform_int_distribution<std::uintmax_t>(0, table_size)(rng);
      const KillEnd end = kill_when_ready(run.args, run.dir.path(), partial_reached,
                                          pause_of(at_once ? 0 : 2000, rng));
      ASSERT_NE(end, KillEnd::hung);
      if (end == KillEnd::finished) break;
      ++kills;
    }
  }
  ::testing::Test::RecordProperty("kills", kills);
  EXPECT_GT(kills, 0) << "every attempt finished before it could be killed";
  const RunResult last = run_cli(run.args);
  ASSERT_EQ(last.status, 0) << last;
  EXPECT_EQ(bytes_of(run.output), bytes_of(run.reference)) << "the resumed table differs";
}

// A unit file cut short and one with a changed byte are solved again, and
// the table is still the same.
TEST(CliTiered, DamagedUnitFilesAreSolvedAgain) {
  TempDir dir;
  const fs::path reference = dir / "reference.pawntb", output = dir / "again.pawntb";
  const fs::path work = dir / "work";
  ASSERT_EQ(run_cli({"generate", "--output", reference.string()}).status, 0);
  auto args = generate_args("4", "4", output, work);
  args.push_back("--keep-work-dir");
  ASSERT_EQ(run_cli(args).status, 0);
  const fs::path torn = WorkDir::unit_path(work, 60), flipped = WorkDir::unit_path(work, 90);
  // One byte short: the header is whole, so the size check is what refuses it.
  fs::resize_file(torn, fs::file_size(torn) - 1);
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
  // A planted file that is whole but for another unit is refused too.
  fs::copy_file(WorkDir::unit_path(work, 1), WorkDir::unit_path(work, 2),
                fs::copy_options::overwrite_existing);
  const RunResult planted = run_cli(args);
  ASSERT_EQ(planted.status, 0) << planted;
  EXPECT_TRUE(
      contains(planted.err, WorkDir::unit_path(work, 2).string() + ": made for another unit"))
      << planted;
  EXPECT_EQ(bytes_of(output), bytes_of(reference));
}

// `pawntb info --tiers` of a table made unit by unit lists the tiers the
// plan counts, tiling the entries.
TEST(CliTiered, InfoTiersTileTheEntries) {
  TempDir dir;
  const fs::path output = dir / "4x5.pawntb", work = dir / "work";
  const RunResult made = run_cli(generate_args("4", "5", output, work));
  ASSERT_EQ(made.status, 0) << made;
  const RunResult tiers = run_cli({"info", "--tiers", output.string()});
  ASSERT_EQ(tiers.status, 0) << tiers;
  const std::vector<std::string> lines = lines_of(tiers.out);
  ASSERT_GT(lines.size(), 2u);
  EXPECT_EQ(lines[0],
            "tier\twhite_pawns\tblack_pawns\twhite_advance\tblack_advance\tfirst_entry\tentries\t"
            "xxh3_64");
  EXPECT_TRUE(contains(made.err, "in " + with_commas(lines.size() - 1) + " tiers")) << made;
  std::uint64_t next_entry = 0;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    std::istringstream fields(lines[i]);
    unsigned tier = 0;
    int w = 0, b = 0, sw = 0, sb = 0;
    std::uint64_t first = 0, entries = 0;
    fields >> tier >> w >> b >> sw >> sb >> first >> entries;
    ASSERT_TRUE(fields) << lines[i];
    EXPECT_EQ(tier, i - 1);
    EXPECT_EQ(first, next_entry) << lines[i];
    next_entry = first + entries;
  }
  const RunResult info = run_cli({"info", "--json", output.string()});
  ASSERT_EQ(info.status, 0) << info;
  EXPECT_TRUE(contains(info.out, "\"entries\":" + std::to_string(next_entry) + ",")) << info;
}

// --plan prints the plan and creates nothing: status 0 when it fits, 1 when
// not; --json gives the figures as one object. 7x6 fits in 16 GiB.
TEST(CliTiered, PlanSaysWhetherTheRunFits) {
  TempDir dir;
  const fs::path output = dir / "7x6.pawntb";
  const RunResult big = run_cli({"generate", "--rows", "7", "--cols", "6", "--memory", "16G",
                                 "--output", output.string(), "--plan", "--json"});
  const nlohmann::json plan = nlohmann::json::parse(big.out);
  EXPECT_EQ(plan.at("positions"), 2372071596756u);
  EXPECT_EQ(plan.at("tiers"), 12420u);
  EXPECT_GT(plan.at("units").get<std::uint64_t>(), plan.at("tiers").get<std::uint64_t>());
  EXPECT_EQ(plan.at("memory_limit_bytes"), std::uint64_t{16} << 30);
  EXPECT_LE(plan.at("memory_needed_bytes").get<std::uint64_t>(), std::uint64_t{16} << 30);
  EXPECT_TRUE(plan.at("fits_memory").get<bool>());
  EXPECT_GT(plan.at("disk_needed_bytes").get<std::uint64_t>(), 0u);
  const bool fits = plan.at("fits").get<bool>();
  EXPECT_EQ(fits, plan.at("fits_disk").get<bool>());
  EXPECT_EQ(big.status, fits ? 0 : 1) << big;
  EXPECT_TRUE(fs::is_empty(dir.path())) << "--plan made files";

  const RunResult small = run_cli({"generate", "--rows", "5", "--cols", "5", "--memory", "1M",
                                   "--output", output.string(), "--plan"});
  EXPECT_EQ(small.status, 1) << small;
  EXPECT_TRUE(contains(small.out, "units")) << small;
  EXPECT_TRUE(contains(small.out, "does not fit\n")) << small;
  EXPECT_TRUE(fs::is_empty(dir.path())) << "--plan made files";
}

// --plan --ranks N: the memory a rank needs, the units, the critical path
// (a chain of units, so no more than all of them) and the time on N ranks:
// more ranks shorten the solve, down to the critical path, but not rank 0's
// assembly; the keys of docs/cli.md.
TEST(CliTiered, PlanForRanks) {
  TempDir dir;
  const auto plan_for = [&](const std::string& ranks) {
    const RunResult r =
        run_cli({"generate", "--rows", "6", "--cols", "6", "--memory", "2G", "--output",
                 (dir / "6x6.pawntb").string(), "--plan", "--json", "--ranks", ranks});
    EXPECT_EQ(r.status, 0) << r;
    return nlohmann::json::parse(r.out);
  };
  const nlohmann::json one = plan_for("1"), many = plan_for("32");
  for (const char* key :
       {"ranks", "memory_per_rank_bytes", "disk_needed_bytes", "units", "critical_path_units",
        "critical_path_positions", "critical_path_seconds", "solve_seconds", "assembly_seconds",
        "estimated_seconds", "solve_rate", "assembly_rate", "rate_source"}) {
    EXPECT_TRUE(many.contains(key)) << key;
  }
  EXPECT_EQ(one.at("ranks"), 1);
  EXPECT_EQ(many.at("ranks"), 32);
  EXPECT_EQ(many.at("memory_per_rank_bytes"), one.at("memory_per_rank_bytes"));
  EXPECT_EQ(many.at("memory_per_rank_bytes"), many.at("memory_needed_bytes"));
  const auto units = many.at("units").get<std::uint64_t>();
  EXPECT_GE(many.at("critical_path_units").get<std::uint64_t>(), 2u);
  EXPECT_LE(many.at("critical_path_units").get<std::uint64_t>(), units);
  EXPECT_LT(many.at("critical_path_positions").get<std::uint64_t>(),
            many.at("positions").get<std::uint64_t>());
  // The solve is spread over the ranks; rank 0's assembly is not.
  EXPECT_LT(many.at("solve_seconds").get<std::uint64_t>(),
            one.at("solve_seconds").get<std::uint64_t>() / 4);
  EXPECT_EQ(many.at("assembly_seconds"), one.at("assembly_seconds"));
  EXPECT_LT(many.at("estimated_seconds").get<std::uint64_t>(),
            one.at("estimated_seconds").get<std::uint64_t>());
  EXPECT_LE(many.at("estimated_seconds").get<std::uint64_t>(),
            many.at("solve_seconds").get<std::uint64_t>() +
                many.at("assembly_seconds").get<std::uint64_t>() + 1);
  EXPECT_GE(many.at("solve_seconds").get<std::uint64_t>(),
            many.at("critical_path_seconds").get<std::uint64_t>());
  EXPECT_EQ(many.at("rate_source").get<std::string>().rfind("default", 0), 0u) << many;
  EXPECT_TRUE(many.at("sample").is_null());
  EXPECT_TRUE(fs::is_empty(dir.path())) << "--plan made files";

  // The words: the ranks and the critical path, and the rate's source.
  const RunResult text =
      run_cli({"generate", "--rows", "6", "--cols", "6", "--memory", "2G", "--output",
               (dir / "6x6.pawntb").string(), "--plan", "--ranks", "32"});
  EXPECT_TRUE(contains(text.out, "pawntb generate: 32 ranks, ")) << text;
  EXPECT_TRUE(contains(text.out, "; the critical path ")) << text;
  EXPECT_TRUE(contains(text.out, "; rate: default: ")) << text;
}

// --plan --sample N: the rate from N units of the board solved now, named as
// the source; nothing written where the run would work.
TEST(CliTiered, PlanSamplesItsRate) {
  TempDir dir;
  const RunResult r =
      run_cli({"generate", "--rows", "4", "--cols", "5", "--memory", "64M", "--output",
               (dir / "4x5.pawntb").string(), "--plan", "--json", "--sample", "4"});
  ASSERT_EQ(r.status, 0) << r;
  const nlohmann::json plan = nlohmann::json::parse(r.out);
  EXPECT_EQ(plan.at("rate_source"), "sample of 4 units of 4x5") << r;
  const nlohmann::json& sample = plan.at("sample");
  EXPECT_GE(sample.at("units").get<std::uint64_t>(), 1u) << r;
  EXPECT_LE(sample.at("units").get<std::uint64_t>(), 4u) << r;
  EXPECT_GT(sample.at("positions").get<std::uint64_t>(), 0u) << r;
  EXPECT_GT(sample.at("seconds").get<double>(), 0) << r;
  EXPECT_GT(plan.at("solve_rate").get<std::uint64_t>(), 0u) << r;
  EXPECT_TRUE(fs::is_empty(dir.path())) << "--plan --sample made files";

  for (const std::vector<std::string>& usage :
       {std::vector<std::string>{"generate", "--ranks", "4"},
        std::vector<std::string>{"generate", "--sample", "4"},
        std::vector<std::string>{"generate", "--plan", "--ranks", "0"},
        std::vector<std::string>{"generate", "--plan", "--sample", "0"}}) {
    const RunResult bad = run_cli(usage);
    EXPECT_EQ(bad.status, 2) << bad;
    EXPECT_TRUE(contains(bad.err, "pawntb generate: --")) << bad;
  }
}

TEST(CliTiered, RefusesAnotherTablesWorkAndTooLittleMemory) {
  TempDir dir;
  auto args = generate_args("3", "3", dir / "t.pawntb", dir / "work");
  args.push_back("--keep-work-dir");
  ASSERT_EQ(run_cli(args).status, 0);
  const RunResult other = run_cli(generate_args("4", "4", dir / "u.pawntb", dir / "work"));
  EXPECT_EQ(other.status, 1) << other;
  EXPECT_TRUE(contains(other.err, "holds the work of another table")) << other;
  // --plan says so too, and counts none of the other table's unit files as
  // done (without this check it said "resuming: ..." and "fits").
  auto plan_args = generate_args("4", "4", dir / "u.pawntb", dir / "work");
  plan_args.push_back("--plan");
  const RunResult plan = run_cli(plan_args);
  EXPECT_EQ(plan.status, 1) << plan;
  EXPECT_TRUE(contains(plan.err, "holds the work of another table")) << plan;
  EXPECT_FALSE(contains(plan.out, "resuming")) << plan;

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
  // Without --work-dir, a table larger than --memory goes unit by unit in
  // FILE.work. The limit is 1 MiB under what the plan needs in memory, which
  // depends on the build (the process's base is smaller when linked
  // statically): 4x5 on 2 threads needs about 22 to 26 MiB in memory and
  // about 4 MiB less unit by unit.
  const RunResult in_memory = run_cli({"generate", "--rows", "4", "--cols", "5", "--threads", "2",
                                       "--plan", "--json", "--output", (dir / "w.pawntb").string()});
  ASSERT_EQ(in_memory.status, 0) << in_memory;
  const nlohmann::json plan_in_memory = nlohmann::json::parse(in_memory.out);
  ASSERT_TRUE(plan_in_memory.at("work_dir").is_null()) << plan_in_memory;
  const std::uint64_t limit_mib =
      plan_in_memory.at("memory_needed_bytes").get<std::uint64_t>() / (1 << 20) - 1;
  const RunResult automatic =
      run_cli({"generate", "--rows", "4", "--cols", "5", "--threads", "2", "--memory",
               std::to_string(limit_mib) + "M", "--force", "--output",
               (dir / "w.pawntb").string()});
  ASSERT_EQ(automatic.status, 0) << automatic;
  EXPECT_TRUE(contains(automatic.err, "unit by unit in " + (dir / "w.pawntb.work").string()))
      << automatic;
}

}  // namespace
}  // namespace pawntb_test
