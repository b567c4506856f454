// Tests of `pawntb stats`, run as a subprocess. The figures themselves are
// checked against the oracle in tests/stats_test.cpp; here the command must
// print the library's figures, write the plots and refuse bad input.
#include <gtest/gtest.h>

#include <filesystem>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "pawntb/analysis.hpp"
#include "pawntb/probe.hpp"
#include "stats/stats_json.hpp"
#include "stats/stats_svg.hpp"
#include "support/cli_support.hpp"

namespace {

using namespace pawntb_test;

const pawntb::analysis::TableStats& default_stats() {
  static const pawntb::analysis::TableStats s =
      pawntb::analysis::compute_stats(pawntb::Table::open(kDefaultTable));
  return s;
}

TEST(CliStats, JsonIsTheLibrarysDocument) {
  for (const char* threads : {"1", "2"}) {
    const RunResult r = run_cli({"stats", "--json", "--threads", threads});
    ASSERT_EQ(r.status, 0) << r;
    EXPECT_EQ(r.err, "");
    const nlohmann::ordered_json printed = nlohmann::ordered_json::parse(r.out);
    EXPECT_EQ(printed, pawntb::stats::to_json(default_stats())) << threads << " threads";
  }
}

// The table is read block by block, keeping a bit for each position of the
// part at hand: under a --memory that holds a part of the 6x4 table's bits
// (20 million entries: 2,469 KiB), the same document as with all of them,
// with less memory than a byte a position (about 19,750 KiB) would take over
// the 3x3 table. Not under the sanitizers: AddressSanitizer's allocator
// alone grew by about 13,500 KiB there (2026-11-27; kNoMemoryBound).
TEST(CliStats, StreamsATableLargerThanMemory) {
  TempDir dir;
  const fs::path big = dir / "6x4-k4.pawntb", small = dir / "3x3-k3.pawntb";
  ASSERT_EQ(run_cli({"generate", "--rows", "6", "--cols", "4", "-o", big.string()}).status, 0);
  ASSERT_EQ(run_cli({"generate", "--rows", "3", "--cols", "3", "-o", small.string()}).status, 0);
  const RunResult whole = run_cli({"stats", "--json", big.string()});
  const RunResult streamed =
      run_cli({"stats", "--json", "--memory", "2M", "--threads", "2", big.string()});
  const RunResult baseline =
      run_cli({"stats", "--json", "--memory", "2M", "--threads", "2", small.string()});
  ASSERT_EQ(whole.status, 0) << whole;
  ASSERT_EQ(streamed.status, 0) << streamed;
  ASSERT_EQ(baseline.status, 0) << baseline;
  EXPECT_EQ(nlohmann::ordered_json::parse(streamed.out), nlohmann::ordered_json::parse(whole.out));
  if (kSanitized) GTEST_SKIP() << kNoMemoryBound;
  EXPECT_LT(streamed.peak_rss_kib - baseline.peak_rss_kib, 19750)
      << streamed.peak_rss_kib << " against " << baseline.peak_rss_kib;
}

// Less memory than the largest pair of flipped slices and the workers'
// buffers take is refused with the least that would do.
TEST(CliStats, TooLittleMemory) {
  const RunResult r = run_cli({"stats", "--json", "--memory", "1K", "--threads", "1"});
  EXPECT_EQ(r.status, 1) << r;
  EXPECT_TRUE(contains(r.err, "pawntb stats: stats of a 4x4 table need at least ")) << r;
  EXPECT_TRUE(contains(r.err, " bytes of memory")) << r;
  EXPECT_EQ(r.out, "");
}

// The positions walked so far that the --resume file `state` records, and
// its table's entries; {0, 0} while there is no such file (it is written
// atomically: never torn).
std::pair<std::uint64_t, std::uint64_t> walked(const fs::path& state) {
  std::error_code ec;
  if (!fs::exists(state, ec)) return {0, 0};
  const nlohmann::json j = nlohmann::json::parse(read_file(state));
  return {j.at("entries_done").get<std::uint64_t>(), j.at("entries").get<std::uint64_t>()};
}

// `pawntb stats --resume FILE` killed with SIGKILL once FILE shows that
// part of the table is walked, then run again, prints the document of an
// uninterrupted run byte for byte. Under --memory 400K the 6x4 table is
// walked in about 150 windows, each followed by a new FILE.
TEST(CliStats, ResumesAfterAKill) {
  TempDir dir;
  const fs::path table = dir / "6x4-k4.pawntb", state = dir / "stats.resume.json";
  ASSERT_EQ(run_cli({"generate", "--rows", "6", "--cols", "4", "-o", table.string()}).status, 0);
  const RunResult whole = run_cli({"stats", "--json", table.string()});
  ASSERT_EQ(whole.status, 0) << whole;
  const std::vector<std::string> args{"stats",    "--json",       "--memory",
                                      "400K",     "--threads",    "1",
                                      "--resume", state.string(), table.string()};
  // Kill once the first window's state is written.
  const KillEnd end = kill_when_ready(args, dir.path(), [&] { return walked(state).first > 0; });
  ASSERT_EQ(end, KillEnd::killed) << "the walk ended before it was killed: "
                                  << read_file(dir / "err.txt");
  const auto [done, entries] = walked(state);
  ASSERT_GT(done, 0u);
  ASSERT_LT(done, entries) << "the state says the walk was over when it was killed";

  const RunResult resumed = run_cli(args);
  ASSERT_EQ(resumed.status, 0) << resumed;
  EXPECT_TRUE(contains(resumed.err, "pawntb stats: resuming from " + state.string() + ": "))
      << resumed;
  EXPECT_EQ(resumed.out, whole.out) << "the resumed walk's document differs";
  EXPECT_EQ(walked(state), std::make_pair(entries, entries));
  // A finished state gives the document again without a walk.
  const RunResult again = run_cli({"stats", "--json", "--resume", state.string(), table.string()});
  ASSERT_EQ(again.status, 0) << again;
  EXPECT_EQ(again.out, whole.out);
}

// A --resume file of another table, one cut short, and one whose walked
// entries pass the table's end are refused (exit 2), naming the file.
TEST(CliStats, RefusesAStateItCannotResume) {
  TempDir dir;
  const fs::path state = dir / "state.json";
  const std::string table_3x3 = (kDataDir / "3x3-k3.pawntb").string();
  ASSERT_EQ(run_cli({"stats", "--json", "--resume", state.string(), table_3x3}).status, 0);
  const std::string saved = read_file(state);

  const RunResult foreign =
      run_cli({"stats", "--json", "--resume", state.string(), kDefaultTable.string()});
  EXPECT_EQ(foreign.status, 2) << foreign;
  EXPECT_TRUE(contains(foreign.err, "pawntb stats: " + state.string() +
                                        ": the stats state of another table (" + table_3x3))
      << foreign;
  EXPECT_EQ(foreign.out, "");
  EXPECT_EQ(read_file(state), saved) << "the refused state was changed";

  write_file(state, saved.substr(0, saved.size() / 2));
  const RunResult torn = run_cli({"stats", "--json", "--resume", state.string(), table_3x3});
  EXPECT_EQ(torn.status, 2) << torn;
  EXPECT_TRUE(contains(torn.err, "pawntb stats: " + state.string() + ": not a pawntb stats state"))
      << torn;

  nlohmann::ordered_json cut = nlohmann::ordered_json::parse(saved);
  const std::uint64_t past_the_end = cut.at("entries").get<std::uint64_t>() + 1;
  cut["done"] = nlohmann::ordered_json::array({nlohmann::ordered_json::array({0, past_the_end})});
  write_file(state, cut.dump());
  const RunResult wrong = run_cli({"stats", "--json", "--resume", state.string(), table_3x3});
  EXPECT_EQ(wrong.status, 2) << wrong;
  EXPECT_TRUE(contains(wrong.err, "pawntb stats: " + state.string() + ": ")) << wrong;
  EXPECT_TRUE(contains(wrong.err, "not a walk's")) << wrong;
}

TEST(CliStats, TextShowsEveryFigure) {
  const RunResult r = run_cli({"stats", "--table", kDefaultTable.string()});
  ASSERT_EQ(r.status, 0) << r;
  const auto& s = default_stats();
  EXPECT_TRUE(contains(r.out, kDefaultTable.string() + " (4x4, up to 4 pawns a side)")) << r;
  EXPECT_TRUE(contains(r.out, "zugzwangs:")) << r;
  // One line per distance ("plies wins losses") and per material, and the examples.
  std::vector<std::vector<std::string>> rows;
  for (const std::string& line : lines_of(r.out)) {
    std::istringstream in(line);
    rows.emplace_back(std::istream_iterator<std::string>(in), std::istream_iterator<std::string>());
  }
  for (std::size_t d = 0; d < s.distances.size(); ++d) {
    bool found = false;
    for (const auto& row : rows) found |= row.size() == 3 && row[0] == std::to_string(d);
    EXPECT_TRUE(found) << d << " plies\n" << r;
  }
  for (const auto& m : s.materials) {
    const std::string name =
        std::to_string(m.white_pawns) + "P " + std::to_string(m.black_pawns) + "p";
    bool found = false;
    for (const auto& row : rows) found |= row.size() >= 2 && row[0] + " " + row[1] == name;
    EXPECT_TRUE(found) << name << "\n" << r;
    if (m.longest_win >= 0) {
      EXPECT_TRUE(contains(r.out, m.longest_win_example)) << name;
    }
    for (const std::string& example : m.zugzwang_examples) EXPECT_TRUE(contains(r.out, example));
  }
}

TEST(CliStats, SvgWritesBothPlots) {
  TempDir dir;
  const fs::path plots = dir / "plots";  // made by the command
  const RunResult r = run_cli({"stats", "--svg", plots.string()});
  ASSERT_EQ(r.status, 0) << r;
  EXPECT_EQ(read_file(plots / "distances.svg"),
            pawntb::stats::distance_histogram_svg(default_stats()));
  EXPECT_EQ(read_file(plots / "material.svg"),
            pawntb::stats::material_heatmap_svg(default_stats()));
  EXPECT_EQ(std::distance(fs::directory_iterator(plots), fs::directory_iterator()), 2);
}

TEST(CliStats, SvgIntoAFileFails) {
  TempDir dir;
  write_file(dir / "file", "x");
  const RunResult r = run_cli({"stats", "--svg", (dir / "file").string()});
  EXPECT_EQ(r.status, 1) << r;
  EXPECT_TRUE(contains(r.err, (dir / "file").string())) << r;
}

TEST(CliStats, UsageErrors) {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"stats", "--svg", ""},
           {"stats", "--threads", "257"},
           {"stats", "--memory", "lots"},
           {"stats", "a.pawntb", "b.pawntb"},
           {"stats", "--table", kDefaultTable.string(), kDefaultTable.string()},
           {"stats", "--frob"}}) {
    const RunResult r = run_cli(args);
    EXPECT_EQ(r.status, 2) << args.back() << "\n" << r;
    EXPECT_TRUE(contains(r.err, "stats")) << r;
    EXPECT_EQ(r.out, "");
  }
}

TEST(CliStats, MissingTable) {
  const RunResult r = run_cli({"stats", "/nonexistent/t.pawntb"});
  EXPECT_EQ(r.status, 1) << r;
  EXPECT_TRUE(contains(r.err, "/nonexistent/t.pawntb")) << r;
  EXPECT_EQ(r.out, "");
}

TEST(CliStats, HelpDefinesTheCountedPositions) {
  const RunResult r = run_cli({"stats", "--help"});
  ASSERT_EQ(r.status, 0) << r;
  for (const char* text : {"--json", "--svg DIR", "--threads", "zugzwang", "Positions counted",
                           "either side to move", "goal row"}) {
    EXPECT_TRUE(contains(r.out, text)) << text << "\n" << r;
  }
}

}  // namespace
