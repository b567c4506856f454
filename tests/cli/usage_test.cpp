// Tests of `pawntb` as a whole: help, version, usage errors and the option
// parser (called in-process).
#include <gtest/gtest.h>

#include <cstring>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "support/cli_support.hpp"

namespace {

using namespace pawntb_test;
using nlohmann::json;

// ---------------------------------------------------------------------------
// Help, version and usage errors.

TEST(CliUsage, HelpAndVersionExitZero) {
  for (const char* flag : {"--help", "-h", "help"}) {
    const RunResult r = run_cli({flag});
    EXPECT_EQ(r.status, 0) << flag << "\n" << r;
    EXPECT_TRUE(contains(r.out, "usage: pawntb COMMAND")) << r;
    for (const char* command : {"generate", "info", "verify", "uva", "probe"}) {
      EXPECT_TRUE(contains(r.out, command)) << "help does not list " << command;
    }
    EXPECT_EQ(r.err, "") << r;
  }
  for (const char* flag : {"--version", "-V"}) {
    const RunResult r = run_cli({flag});
    EXPECT_EQ(r.status, 0) << r;
    EXPECT_TRUE(std::regex_match(r.out, std::regex("pawntb [0-9]+\\.[0-9]+\\.[0-9]+\n"))) << r;
    EXPECT_EQ(r.err, "") << r;
  }
}

TEST(CliUsage, NoArgumentsIsAUsageError) {
  const RunResult r = run_cli({});
  EXPECT_EQ(r.status, 2) << r;
  EXPECT_TRUE(contains(r.err, "usage:")) << r;
  EXPECT_EQ(r.out, "") << r;
}

TEST(CliUsage, EverySubcommandHasHelp) {
  for (const char* command : {"generate", "info", "verify", "uva", "probe"}) {
    for (const char* flag : {"--help", "-h"}) {
      const RunResult r = run_cli({command, flag});
      EXPECT_EQ(r.status, 0) << command << " " << flag << "\n" << r;
      EXPECT_EQ(r.out.rfind(std::string("usage: pawntb ") + command, 0), 0u) << r;
      EXPECT_EQ(r.err, "") << r;
    }
  }
}

TEST(CliUsage, UnknownCommandExitsTwo) {
  const RunResult r = run_cli({"frobnicate"});
  EXPECT_EQ(r.status, 2) << r;
  EXPECT_TRUE(contains(r.err, "unknown command 'frobnicate'")) << r;
  EXPECT_EQ(r.out, "") << r;
}

TEST(CliUsage, UnknownOptionExitsTwo) {
  const std::vector<std::vector<std::string>> cases = {
      {"generate", "--bogus"},
      {"info", "--bogus"},
      {"verify", "--bogus"},
      {"uva", "--bogus"},
      {"probe", "--bogus", kStart},
      {"probe", "--js", kStart},  // no guessing of abbreviated options
      {"--bogus"},
  };
  for (const auto& args : cases) {
    const RunResult r = run_cli(args);
    EXPECT_EQ(r.status, 2) << args[0] << " " << args[1] << "\n" << r;
    EXPECT_NE(r.err, "") << r;
    EXPECT_EQ(r.out, "") << r;
  }
}

TEST(CliUsage, BadOperandsAndValuesExitTwo) {
  const std::vector<std::vector<std::string>> cases = {
      {"probe"},                         // no positions
      {"uva", "extra"},                  // uva takes no operand
      {"generate", "extra"},             // nor does generate
      {"info", "a.pawntb", "b.pawntb"},  // at most one table
      {"verify", "a.pawntb", "b.pawntb"},
      {"generate", "--rows", "abc"},    // not a number
      {"generate", "--threads", "-1"},  // negative threads
      {"uva", "--table"},               // missing value
  };
  for (const auto& args : cases) {
    const RunResult r = run_cli(args);
    std::string joined;
    for (const auto& a : args) joined += a + " ";
    EXPECT_EQ(r.status, 2) << joined << "\n" << r;
    EXPECT_TRUE(contains(r.err, "usage:")) << joined << "\n" << r;
    EXPECT_EQ(r.out, "") << r;
  }
}

// The parser in-process: what the options turn into.
TEST(CliUsage, ParsesOptionsIntoTheirFields) {
  using namespace pawntb::cli;
  {
    const char* argv[] = {"pawntb", "probe", "--json", "--table", "t.pawntb", "a w", "-"};
    Options o;
    std::ostringstream out, err;
    ASSERT_EQ(parse_command_line(7, argv, o, out, err), ParseOutcome::ok) << err.str();
    EXPECT_EQ(o.command, "probe");
    EXPECT_TRUE(o.json);
    EXPECT_EQ(o.table, "t.pawntb");
    EXPECT_EQ(o.positions, (std::vector<std::string>{"a w", "-"}));
  }
  {
    const char* argv[] = {"pawntb", "generate", "--rows", "3", "--cols", "5"};
    Options o;
    std::ostringstream out, err;
    ASSERT_EQ(parse_command_line(6, argv, o, out, err), ParseOutcome::ok) << err.str();
    EXPECT_EQ(o.rows, 3);
    EXPECT_EQ(o.cols, 5);
    EXPECT_EQ(o.pawns, 5);  // defaults to the number of columns
  }
  {
    const char* argv[] = {"pawntb", "info", "x.pawntb"};
    Options o;
    std::ostringstream out, err;
    ASSERT_EQ(parse_command_line(3, argv, o, out, err), ParseOutcome::ok) << err.str();
    EXPECT_EQ(o.table, "x.pawntb");
  }
}

}  // namespace
