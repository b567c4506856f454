// Tests of the table lookup and of `pawntb info` and `pawntb verify`, run as a
// subprocess, on good, damaged and foreign files.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "support/cli_support.hpp"

namespace {

using namespace pawntb_test;
using nlohmann::json;

// ---------------------------------------------------------------------------
// Tables: lookup, info, verify, damage.

TEST(CliTable, DefaultTableIsFoundWithoutTheEnvironment) {
  RunOptions options;
  options.table_env = std::nullopt;
  options.cwd = fs::temp_directory_path();  // not the source tree
  const RunResult r = run_cli({"probe", "--json", kStart}, options);
  ASSERT_EQ(r.status, 0) << r;
  const std::vector<json> answers = json_lines(r.out);
  ASSERT_EQ(answers.size(), 1u);
  EXPECT_EQ(answers[0]["plies"], 7);
  const RunResult i = run_cli({"info"}, options);
  EXPECT_EQ(i.status, 0) << i;
  EXPECT_TRUE(contains(i.out, "4x4")) << i;
}

TEST(CliTable, InfoAndVerifyTheDefaultTable) {
  const RunResult i = run_cli({"info"});
  EXPECT_EQ(i.status, 0) << i;
  EXPECT_TRUE(contains(i.out, kDefaultTable.string())) << i;
  EXPECT_TRUE(contains(i.out, "4x4, up to 4 pawns a side")) << i;
  EXPECT_TRUE(contains(i.out, "longest game:      13 plies")) << i;

  const RunResult v = run_cli({"verify"});
  EXPECT_EQ(v.status, 0) << v;
  EXPECT_TRUE(contains(v.out, ": ok,")) << v;

  const RunResult explicit_path = run_cli({"verify", kDefaultTable.string()});
  EXPECT_EQ(explicit_path.status, 0) << explicit_path;
}

TEST(CliTable, InfoAndVerifyTakeTheTableOption) {
  RunOptions no_env;
  no_env.table_env = std::nullopt;
  for (const char* command : {"info", "verify"}) {
    for (const char* flag : {"--table", "-t"}) {
      const RunResult r = run_cli({command, flag, kDefaultTable.string()}, no_env);
      EXPECT_EQ(r.status, 0) << r;
      EXPECT_TRUE(contains(r.out, kDefaultTable.string())) << r;
    }
    const RunResult missing = run_cli({command, "--table", "/nonexistent/t.pawntb"});
    EXPECT_EQ(missing.status, 1) << missing;
    EXPECT_TRUE(contains(missing.err, "/nonexistent/t.pawntb")) << missing;
    // The table once only: as the option or as the operand.
    const RunResult twice =
        run_cli({command, "--table", kDefaultTable.string(), kDefaultTable.string()});
    EXPECT_EQ(twice.status, 2) << twice;
    EXPECT_TRUE(contains(twice.err, "give the table once")) << twice;
  }
}

TEST(CliTable, InfoOnAMissingFile) {
  const RunResult r = run_cli({"info", "/nonexistent"});
  EXPECT_EQ(r.status, 1) << r;
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(contains(r.err, "/nonexistent")) << r;
}

TEST(CliTable, DamagedCopiesAreRefused) {
  TempDir dir;
  const std::string original = read_file(kDefaultTable);
  ASSERT_GT(original.size(), 1000u);
  const fs::path copy = dir / "damaged.pawntb";
  const std::size_t size = original.size();
  for (const std::size_t offset :
       {std::size_t{0}, std::size_t{12}, std::size_t{100}, size / 3, size / 2, size - 1}) {
    std::string bytes = original;
    bytes[offset] = static_cast<char>(bytes[offset] ^ 0x10);
    write_file(copy, bytes);
    const RunResult v = run_cli({"verify", copy.string()});
    EXPECT_EQ(v.status, 1) << "byte " << offset << "\n" << v;
    EXPECT_TRUE(contains(v.err, copy.string())) << "byte " << offset << "\n" << v;
  }
  // A truncated copy too, and every command refuses it.
  write_file(copy, original.substr(0, size - 100));
  for (const auto& args :
       std::vector<std::vector<std::string>>{{"verify", copy.string()},
                                             {"info", copy.string()},
                                             {"probe", "--table", copy.string(), kStart}}) {
    const RunResult r = run_cli(args);
    EXPECT_EQ(r.status, 1) << args[0] << "\n" << r;
    EXPECT_TRUE(contains(r.err, copy.string())) << r;
    EXPECT_EQ(r.out, "") << r;
  }
}

TEST(CliTable, NotATableIsRefused) {
  TempDir dir;
  const fs::path junk = dir / "junk.pawntb";
  write_file(junk, "this is not a table\n");
  const RunResult r = run_cli({"info", junk.string()});
  EXPECT_EQ(r.status, 1) << r;
  EXPECT_TRUE(contains(r.err, junk.string())) << r;
  const RunResult e = run_cli({"info", dir.path().string()});  // a directory
  EXPECT_EQ(e.status, 1) << e;
  const RunResult empty_file = [&] {
    write_file(junk, "");
    return run_cli({"verify", junk.string()});
  }();
  EXPECT_EQ(empty_file.status, 1) << empty_file;
}

}  // namespace
