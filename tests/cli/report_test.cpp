// --report FILE of `pawntb generate`, `verify` and `stats`, run as
// subprocesses: each report's figures agree with what the command printed
// and with `pawntb info --json` of the table, and a report is refused where
// the command writes none.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>

#include "support/cli_support.hpp"

namespace {

using namespace pawntb_test;
namespace fs = std::filesystem;

nlohmann::json read_report(const fs::path& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in) << path;
  return nlohmann::json::parse(in);
}

// The run's cost, which every report ends with.
void expect_cost(const nlohmann::json& report) {
  EXPECT_GE(report.at("wall_seconds").get<double>(), 0.0) << report;
  EXPECT_GE(report.at("cpu_seconds").get<double>(), 0.0) << report;
  EXPECT_GT(report.at("peak_rss_bytes").get<std::uint64_t>(), 0u) << report;
}

TEST(CliReport, GenerateVerifyAndStatsReportWhatTheyDid) {
  TempDir dir;
  const fs::path table = dir / "t.pawntb";
  const RunResult g = run_cli({"generate", "--rows", "3", "--cols", "4", "--output", table.string(),
                               "--report", (dir / "g.json").string()});
  ASSERT_EQ(g.status, 0) << g;
  EXPECT_FALSE(contains(g.out, "report")) << g;  // the human output is as without --report
  const RunResult i = run_cli({"info", "--json", table.string()});
  ASSERT_EQ(i.status, 0) << i;
  const nlohmann::json info = json_lines(i.out).at(0);

  const nlohmann::json generated = read_report(dir / "g.json");
  std::ifstream text(dir / "g.json");
  EXPECT_EQ(nlohmann::ordered_json::parse(text).begin().key(), "command");
  EXPECT_TRUE(contains(generated.at("command"), "generate --rows 3 --cols 4 --output "))
      << generated;
  EXPECT_EQ(generated.at("table"), table.string());
  EXPECT_EQ(generated.at("board"), "3x4");
  EXPECT_EQ(generated.at("positions"), info.at("entries"));
  EXPECT_EQ(generated.at("file_size"), info.at("file_size"));
  EXPECT_EQ(generated.at("file_size"), fs::file_size(table));
  EXPECT_TRUE(generated.at("work_dir").is_null()) << generated;  // solved in memory
  EXPECT_TRUE(generated.at("work_dir_peak_bytes").is_null()) << generated;
  EXPECT_EQ(generated.at("units_resumed"), 0);
  expect_cost(generated);

  const RunResult v = run_cli({"verify", table.string(), "--resume", (dir / "v.state").string(),
                               "--report", (dir / "v.json").string()});
  ASSERT_EQ(v.status, 0) << v;
  const nlohmann::json verified = read_report(dir / "v.json");
  EXPECT_EQ(verified.at("ok"), true);
  EXPECT_EQ(verified.at("summary").get<std::string>() + "\n", lines_of(v.out).back() + "\n") << v;
  EXPECT_EQ(verified.at("checked"), info.at("entries"));
  EXPECT_EQ(verified.at("mismatches"), 0);
  EXPECT_EQ(verified.at("resume_file"), (dir / "v.state").string());
  EXPECT_GE(verified.at("wall_seconds_all_runs").get<double>(), 0.0);
  expect_cost(verified);

  const RunResult s = run_cli({"stats", table.string(), "--report", (dir / "s.json").string()});
  ASSERT_EQ(s.status, 0) << s;
  const nlohmann::json counted = read_report(dir / "s.json");
  // Every entry and its colour flip.
  EXPECT_EQ(counted.at("positions"), 2 * info.at("entries").get<std::uint64_t>());
  expect_cost(counted);
}

TEST(CliReport, GenerateUnitByUnitReportsTheWorkDirectorysPeak) {
  TempDir dir;
  const fs::path table = dir / "t.pawntb";
  const RunResult g =
      run_cli({"generate", "--rows", "3", "--cols", "4", "--output", table.string(), "--work-dir",
               (dir / "work").string(), "--report", (dir / "g.json").string()});
  ASSERT_EQ(g.status, 0) << g;
  std::smatch peak;
  ASSERT_TRUE(std::regex_search(g.out, peak, std::regex("work directory: ([0-9,]+) bytes"))) << g;
  std::string digits = peak[1].str();
  std::erase(digits, ',');
  const nlohmann::json generated = read_report(dir / "g.json");
  EXPECT_EQ(generated.at("work_dir"), (dir / "work").string());
  EXPECT_EQ(generated.at("work_dir_peak_bytes"), std::stoull(digits)) << generated;
  EXPECT_GT(generated.at("units").get<std::uint64_t>(), 0u) << generated;
}

TEST(CliReport, RefusedWhereNoReportIsWritten) {
  TempDir dir;
  const std::string report = (dir / "r.json").string();
  for (const auto& args : {std::vector<std::string>{"generate", "--plan", "--report", report},
                           std::vector<std::string>{"verify", "--plan", "--report", report},
                           std::vector<std::string>{"stats", "--report", ""}}) {
    const RunResult r = run_cli(args);
    EXPECT_EQ(r.status, 2) << r;
    EXPECT_TRUE(contains(r.err, "--report")) << r;
  }
  EXPECT_FALSE(fs::exists(report));
}

}  // namespace
