// Tests of `pawntb` as a whole: help, version, usage errors and the option
// parser (called in-process).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <boost/program_options.hpp>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <typeinfo>
#include <vector>

#include "cli/commands.hpp"
#include "cli/command_support.hpp"
#include "cli/generate.hpp"
#include "cli/info.hpp"
#include "cli/probe_command.hpp"
#include "cli/verify.hpp"
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

// Each command with a table says in --help which table it uses without
// --table and where it is looked for, with the search path as it is now.
TEST(CliUsage, HelpSaysWhichTableIsUsed) {
  TempDir tables, elsewhere;
  fs::copy_file(kDefaultTable, tables / "4x4-k4.pawntb");
  RunOptions options;
  options.table_env = tables.path().string();
  options.cwd = elsewhere.path();
  for (const char* command : {"info", "verify", "uva", "probe"}) {
    const RunResult r = run_cli({command, "--help"}, options);
    ASSERT_EQ(r.status, 0) << r;
    for (const char* place :
         {"$PAWNTB_TABLE (a table file, or a directory to search)", "the current directory",
          "./data", "installed data directory", "RxC-kK.pawntb"}) {
      EXPECT_TRUE(contains(r.out, place)) << command << " lacks " << place << "\n" << r;
    }
    // The search path as it is: $PAWNTB_TABLE first.
    EXPECT_TRUE(contains(r.out, "Here the search path is:\n  " + tables.path().string() + "\n"))
        << r;
    const std::size_t from = r.out.find("Without --table"), to = r.out.find("\noptions:");
    ASSERT_NE(from, std::string::npos) << r;
    const std::string text = r.out.substr(from, to - from);
    if (contains(text, "the 4x4 table,")) {
      EXPECT_TRUE(contains(text, "the 4x4 table is " + (tables / "4x4-k4.pawntb").string() + ".\n"))
          << r;
    }
  }
  // info and verify both use the 4x4 table: the same text from one place.
  const RunResult info = run_cli({"info", "--help"}, options);
  const RunResult verify = run_cli({"verify", "--help"}, options);
  auto table_text = [](const std::string& help) {
    const std::size_t from = help.find("Without --table");
    return help.substr(from, help.find("\noptions:") - from);
  };
  EXPECT_EQ(table_text(info.out), table_text(verify.out));
  const RunResult generate = run_cli({"generate", "--help"}, options);
  EXPECT_FALSE(contains(generate.out, "--table")) << generate;
}

TEST(CliUsage, UnknownCommandExitsTwo) {
  const RunResult r = run_cli({"frobnicate"});
  EXPECT_EQ(r.status, 2) << r;
  EXPECT_TRUE(contains(r.err, "unknown command 'frobnicate'")) << r;
  EXPECT_EQ(r.out, "") << r;
}

TEST(CliUsage, UnknownLeadingOptionIsAnUnknownOption) {
  const RunResult r = run_cli({"--frob"});
  EXPECT_EQ(r.status, 2) << r;
  EXPECT_EQ(lines_of(r.err).front(), "pawntb: unknown option '--frob'") << r;
  EXPECT_EQ(r.out, "") << r;
}

TEST(CliUsage, EveryCommandShowsTheVersion) {
  const RunResult top = run_cli({"--version"});
  ASSERT_EQ(top.status, 0) << top;
  for (const char* command : {"generate", "info", "verify", "uva", "probe"}) {
    for (const char* flag : {"--version", "-V"}) {
      const RunResult r = run_cli({command, flag});
      EXPECT_EQ(r.status, 0) << command << " " << flag << "\n" << r;
      EXPECT_EQ(r.out, top.out) << command << " " << flag;
      EXPECT_EQ(r.err, "") << r;
    }
  }
}

// Help or version text that cannot be written is a failure, said on stderr.
TEST(CliUsage, HelpThatCannotBeWrittenExitsOne) {
  TempDir dir;
  const fs::path err = dir / "stderr";
  for (const std::string args : {"--help", "--version", "probe --help", "info --version"}) {
    const std::string command =
        std::string(PAWNTB_CLI) + " " + args + " > /dev/full 2> " + err.string();
    const int status = std::system(command.c_str());
    ASSERT_TRUE(WIFEXITED(status)) << args;
    EXPECT_EQ(WEXITSTATUS(status), 1) << args;
    const std::string message = read_file(err);
    EXPECT_EQ(message.rfind("pawntb", 0), 0u) << message;
    EXPECT_TRUE(contains(message, "stdout: write error")) << message;
  }
}

// Usage errors name the command ("pawntb generate: ...") and give its usage.
TEST(CliUsage, UsageErrorsNameTheCommand) {
  const std::vector<std::vector<std::string>> cases = {
      {"generate", "--threads", "300"},
      {"generate", "extra"},
      {"info", "a", "b"},
      {"verify", "--bogus"},
      {"uva", "--table"},
      {"probe"},
  };
  for (const auto& args : cases) {
    const RunResult r = run_cli(args);
    EXPECT_EQ(r.status, 2) << r;
    EXPECT_EQ(r.err.rfind("pawntb " + args[0] + ": ", 0), 0u) << r;
    EXPECT_TRUE(contains(r.err, "\nusage: pawntb " + args[0])) << r;
  }
}

// Ranges are written 0..256 (two dots), in messages and in --help.
TEST(CliUsage, RangesHaveTwoDots) {
  const RunResult r = run_cli({"generate", "--threads", "300"});
  EXPECT_TRUE(contains(r.err, "--threads must be 0..256\n")) << r;
  const RunResult rows = run_cli({"generate", "--rows", "9"});
  EXPECT_TRUE(contains(rows.err, "3..8")) << rows;
  for (const char* command : {"generate", "info", "verify", "uva", "probe"}) {
    const RunResult h = run_cli({command, "--help"});
    EXPECT_FALSE(std::regex_search(h.out, std::regex("[0-9]\\.\\.\\.[0-9]"))) << h;
  }
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

// The parser in-process: what the options turn into, each command's in its
// own args.
TEST(CliUsage, ParsesOptionsIntoTheirFields) {
  using namespace pawntb::cli;
  {
    const char* argv[] = {"pawntb", "probe", "--json", "--table", "t.pawntb", "a w", "-"};
    CommandLine line;
    std::ostringstream out, err;
    ASSERT_EQ(parse_command_line(7, argv, line, out, err), ParseOutcome::ok) << err.str();
    EXPECT_EQ(line.command, &kProbe);
    const auto& o = line.args_as<ProbeArgs>();
    EXPECT_TRUE(o.json);
    EXPECT_EQ(o.table, "t.pawntb");
    EXPECT_EQ(o.positions, (std::vector<std::string>{"a w", "-"}));
  }
  {
    const char* argv[] = {"pawntb", "generate", "--rows", "3", "--cols", "5"};
    CommandLine line;
    std::ostringstream out, err;
    ASSERT_EQ(parse_command_line(6, argv, line, out, err), ParseOutcome::ok) << err.str();
    const auto& o = line.args_as<GenerateArgs>();
    EXPECT_EQ(o.rows, 3);
    EXPECT_EQ(o.cols, 5);
    EXPECT_EQ(o.pawns, 5);  // defaults to the number of columns
  }
  {
    const char* argv[] = {"pawntb", "info", "x.pawntb"};
    CommandLine line;
    std::ostringstream out, err;
    ASSERT_EQ(parse_command_line(3, argv, line, out, err), ParseOutcome::ok) << err.str();
    EXPECT_EQ(line.args_as<InfoArgs>().table, "x.pawntb");
  }
  {
    const char* argv[] = {"pawntb", "verify", "--table", "y.pawntb", "--memory", "2M"};
    CommandLine line;
    std::ostringstream out, err;
    ASSERT_EQ(parse_command_line(6, argv, line, out, err), ParseOutcome::ok) << err.str();
    EXPECT_EQ(line.args_as<VerifyArgs>().table, "y.pawntb");
    EXPECT_EQ(line.args_as<VerifyArgs>().memory.bytes, 2u << 20);
  }
  {
    const char* argv[] = {"pawntb", "generate", "--threads", "3"};
    CommandLine line;
    std::ostringstream out, err;
    ASSERT_EQ(parse_command_line(4, argv, line, out, err), ParseOutcome::ok) << err.str();
    EXPECT_EQ(line.args_as<GenerateArgs>().threads, 3u);
  }
  {  // 0 goes to the library, which picks one per hardware thread
    const char* argv[] = {"pawntb", "generate"};
    CommandLine line;
    std::ostringstream out, err;
    ASSERT_EQ(parse_command_line(2, argv, line, out, err), ParseOutcome::ok) << err.str();
    EXPECT_EQ(line.args_as<GenerateArgs>().threads, 0u);
    EXPECT_THROW(static_cast<void>(line.args_as<ProbeArgs>()), std::bad_cast);
  }
}

// Every option of every command in the command table, given without its
// value or with values it may refuse, is either accepted or refused with a
// message naming it (`play --seed x` once said "the argument ('x') for
// option is invalid"). Values go as --name=VALUE, so that "-1" is
// the value, not an option.
TEST(CliUsage, EveryOptionErrorNamesItsOption) {
  namespace po = boost::program_options;
  namespace cli = pawntb::cli;
  TempDir dir;
  // What each command needs besides the option to parse at all.
  const std::map<std::string, std::vector<std::string>> needs = {
      {"generate", {"--output", (dir / "new.pawntb").string()}},
      {"probe", {"--start"}},
      {"solve", {"--rows", "4", "--cols", "4"}},
      {"check-proof", {"proof.prf"}},
  };
  int refused = 0;
  for (const cli::Command* command : cli::all_commands()) {
    const std::unique_ptr<cli::CommandArgs> scratch = command->make_args();
    po::options_description desc;
    // --table as parse_command_line adds it.
    if (command->default_table != cli::DefaultTable::none) {
      desc.add_options()("table", po::value(&scratch->table));
    }
    if (command->add_options) command->add_options(desc, *scratch);
    for (const auto& option : desc.options()) {
      if (option->semantic()->max_tokens() == 0) continue;  // a switch takes no value
      const std::string name = "--" + option->long_name();
      for (const std::optional<std::string>& value :
           {std::optional<std::string>(), std::optional<std::string>("x"),
            std::optional<std::string>("-1"), std::optional<std::string>(""),
            std::optional<std::string>("99999999999999999999999")}) {
        std::vector<std::string> args{"pawntb", command->name};
        const auto need = needs.find(command->name);
        if (need != needs.end() && need->second.front() != name) {
          args.insert(args.end(), need->second.begin(), need->second.end());
        }
        args.push_back(value ? name + "=" + *value : name);
        std::vector<const char*> argv;
        for (const std::string& a : args) argv.push_back(a.c_str());
        cli::CommandLine line;
        std::ostringstream out, err;
        const cli::ParseOutcome outcome =
            cli::parse_command_line(static_cast<int>(argv.size()), argv.data(), line, out, err);
        const std::string given = command->name + std::string(" ") + args.back();
        if (!value) {
          EXPECT_EQ(outcome, cli::ParseOutcome::fail) << given;
        }
        if (outcome != cli::ParseOutcome::fail) continue;
        ++refused;
        const std::string first_line = err.str().substr(0, err.str().find('\n'));
        EXPECT_TRUE(contains(first_line, name)) << given << ": " << first_line;
      }
    }
  }
  EXPECT_GT(refused, 40);  // the loop saw the options
}

// A --json result holding a file name that is not UTF-8 is printed with
// those bytes as U+FFFD, by every command alike (solve, check-proof and
// generate --plan once failed there, "invalid UTF-8 byte", where info did
// not).
TEST(CliUsage, JsonResultsSurviveAFileNameThatIsNotUtf8) {
  TempDir dir;
  const fs::path odd = dir / "odd\xff";
  fs::create_directories(odd);
  const fs::path table = odd / "4x4-k4.pawntb", proof = odd / "3x3.prf";
  fs::copy_file(kDefaultTable, table);
  const std::string replaced = (dir / "odd\xEF\xBF\xBD").string();
  const std::vector<std::pair<std::vector<std::string>, const char*>> runs = {
      {{"solve", "--rows", "3", "--cols", "3", "--no-tables", "--json", "--certificate",
        proof.string()},
       "certificate"},
      {{"check-proof", "--json", proof.string()}, "file"},
      {{"info", "--json", table.string()}, "file"},
      {{"generate", "--plan", "--json", "--rows", "4", "--cols", "4", "--output",
        (odd / "new.pawntb").string(), "--work-dir", (odd / "work").string()},
       "work_dir"},
  };
  for (const auto& [args, key] : runs) {
    const RunResult r = run_cli(args);
    ASSERT_EQ(r.status, 0) << args[0] << "\n" << r;
    const json j = json::parse(r.out, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << args[0] << "\n" << r;
    ASSERT_TRUE(j.at(key).is_string()) << args[0] << "\n" << r;
    EXPECT_EQ(j.at(key).get<std::string>().rfind(replaced, 0), 0u) << args[0] << "\n" << r;
  }
}

// `pawntb serve` runs pawntb-serve from its own directory: a pawntb copied
// alone says what is missing and what to copy, and the README says so too
// (it once said the explorer ran "from the pawntb executable alone").
TEST(CliUsage, ServeWithoutPawntbServeSaysWhatToCopy) {
  TempDir dir;
  const fs::path copy = dir / "pawntb";
  fs::copy_file(PAWNTB_CLI, copy);
  const fs::path err = dir / "stderr";
  const int status =
      std::system((copy.string() + " serve --port 0 </dev/null >/dev/null 2>" + err.string()).c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 1);
  const std::string message = read_file(err);
  EXPECT_TRUE(contains(message, (dir / "pawntb-serve").string())) << message;
  EXPECT_TRUE(contains(message, "copy both")) << message;
  const std::string readme = read_file(kSourceDir / "README.md");
  EXPECT_FALSE(contains(readme, "executable alone"));
  EXPECT_TRUE(contains(readme, "`pawntb-serve`")) << "README does not name pawntb-serve";
}

}  // namespace
