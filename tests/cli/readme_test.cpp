// The command examples of README.md and docs/*.md (but docs/api.md, whose curl
// examples tests/serve runs), run: every ```text block line
// "$ build/tools/pawntb ARGS" is run from the source directory (without a
// shell; its words split as a POSIX shell splits quoted words, "< FILE" read
// as stdin) and must print exactly the lines that follow it, up to the next
// "$ " line or the end of the block, blank lines included.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "support/cli_support.hpp"

namespace {

using namespace pawntb_test;

TEST(ReadmeExamples, ExamplesAreTheCommandsAndOutputsOfTextBlocks) {
  const std::string markdown =
      "# Title\n"                   // 1
      "```sh\n"                     // 2
      "$ not an example\n"          // 3
      "```\n"                       // 4
      "```text\n"                   // 5
      "synopsis, not an example\n"  // 6
      "$ first --flag\n"            // 7
      "out $ 1\n"                   // 8
      "\n"                          // 9
      "out 3\n"                     // 10
      "\n"                          // 11
      "$ second\n"                  // 12
      "$ third 'a b'\n"             // 13
      "last\n"                      // 14
      "\n"                          // 15
      "```\n"                       // 16
      "$ outside any block\n"       // 17
      "```text\n"                   // 18
      "$ fourth\n"                  // 19
      "```\n";                      // 20
  const std::vector<Example> want{{7, "first --flag", "out $ 1\n\nout 3\n\n"},
                                  {12, "second", ""},
                                  {13, "third 'a b'", "last\n\n"},
                                  {19, "fourth", ""}};
  EXPECT_EQ(examples_in(markdown), want);
  EXPECT_TRUE(examples_in("no blocks\n$ x\n").empty());
}

TEST(ReadmeExamples, CommandsAreSplitLikeAPosixShell) {
  auto words = [](std::string_view text) {
    auto split = split_command(text);
    if (auto* problem = std::get_if<std::string>(&split)) {
      ADD_FAILURE() << text << ": " << *problem;
      return Command{};
    }
    return std::get<Command>(split);
  };
  const Command probe = words("build/tools/pawntb probe  '.ppp/4/.PPP/4 w'");
  EXPECT_EQ(probe.words,
            (std::vector<std::string>{"build/tools/pawntb", "probe", ".ppp/4/.PPP/4 w"}));
  EXPECT_FALSE(probe.input);
  const Command mixed = words(R"(a 'b c'd "e \"f\" \x" g\ h'' < in.txt)");
  EXPECT_EQ(mixed.words, (std::vector<std::string>{"a", "b cd", "e \"f\" \\x", "g h"}));
  EXPECT_EQ(mixed.input, "in.txt");
  const Command attached = words("uva <tests/data/x.txt --table t");
  EXPECT_EQ(attached.words, (std::vector<std::string>{"uva", "--table", "t"}));
  EXPECT_EQ(attached.input, "tests/data/x.txt");
  EXPECT_EQ(words("a '' b").words, (std::vector<std::string>{"a", "", "b"}));
  for (const char* refused : {"a | b", "a 'b", "a \"b", "a > out", "a $HOME", "a \"$HOME\"", "a <",
                              "a < x < y", "a *.txt", "a; b", "a # note", "", "< in", "a \\"}) {
    EXPECT_TRUE(std::holds_alternative<std::string>(split_command(refused))) << refused;
  }
}

// The examples of `markdown` (the file `name`, relative to the source
// directory), run with the built pawntb from the source directory with
// PAWNTB_TABLE unset, as a reader of the document would run them. Returns how
// many there were.
std::size_t run_examples(const std::string& name) {
  const fs::path path = kSourceDir / name;
  const std::string markdown = read_file(path);
  EXPECT_FALSE(markdown.empty()) << "cannot read " << path;
  const std::vector<Example> examples = examples_in(markdown);
  for (const Example& example : examples) {
    const std::string where = name + ":" + std::to_string(example.line) + ": $ " + example.command;
    auto split = split_command(example.command);
    if (auto* problem = std::get_if<std::string>(&split)) {
      ADD_FAILURE() << where << "\ncannot run this without a shell: " << *problem;
      continue;
    }
    Command& command = std::get<Command>(split);
    if (command.words[0] != "build/tools/pawntb") {
      ADD_FAILURE() << where << "\nan example must run build/tools/pawntb";
      continue;
    }
    command.words.erase(command.words.begin());
    RunOptions options;
    options.table_env = std::nullopt;
    options.cwd = kSourceDir;
    if (command.input) {
      const fs::path input = kSourceDir / *command.input;
      if (!fs::is_regular_file(input)) {
        ADD_FAILURE() << where << "\nno file " << input;
        continue;
      }
      options.input = read_file(input);
    }
    const RunResult r = run_cli(command.words, options);
    EXPECT_EQ(r.out, example.output)
        << where << "\nprints other output than " << name << " shows; the run gave exit status "
        << r.status << ", stderr:\n"
        << r.err;
  }
  return examples.size();
}

TEST(ReadmeExamples, EveryCommandExampleGivesItsOutput) {
  EXPECT_GT(run_examples("README.md"), 0u)
      << "README.md has no \"$ build/tools/pawntb …\" line in a ```text block: the examples are "
      << "not tested";
}

// Every document of docs/ but api.md, whose examples are curl commands
// (ApiDocs.EveryCurlExampleGivesItsOutput runs them).
TEST(ReadmeExamples, EveryDocsExampleGivesItsOutput) {
  std::vector<std::string> documents;
  for (const auto& entry : fs::directory_iterator(kSourceDir / "docs")) {
    const fs::path& path = entry.path();
    if (path.extension() == ".md" && path.filename() != "api.md") {
      documents.push_back("docs/" + path.filename().string());
    }
  }
  std::sort(documents.begin(), documents.end());
  ASSERT_NE(std::find(documents.begin(), documents.end(), "docs/cli.md"), documents.end());
  for (const std::string& name : documents) {
    const std::size_t count = run_examples(name);
    if (name == "docs/cli.md") {
      EXPECT_GT(count, 0u) << "docs/cli.md has no example: the CLI reference is not tested";
    }
  }
}

}  // namespace
