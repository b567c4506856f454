// The command examples of README.md, run: every ```text block line
// "$ build/tools/pawntb ARGS" is run from the source directory (without a
// shell; its words split as a POSIX shell splits quoted words, "< FILE" read
// as stdin) and must print exactly the lines that follow it, up to the next
// "$ " line or the end of the block, blank lines included.
#include <gtest/gtest.h>

#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "support/cli_support.hpp"

namespace {

using namespace pawntb_test;

const fs::path kReadme = kSourceDir / "README.md";
constexpr std::string_view kPrompt = "$ ";

struct Example {
  int line = 0;         // of the "$ " line in the Markdown text, from 1
  std::string command;  // after the prompt
  std::string output;   // the lines shown after it, each ending in '\n'
};

bool operator==(const Example& a, const Example& b) {
  return a.line == b.line && a.command == b.command && a.output == b.output;
}

std::ostream& operator<<(std::ostream& os, const Example& e) {
  return os << "line " << e.line << ": $ " << e.command << "\n" << e.output;
}

// The examples of every ```text block of `markdown`.
std::vector<Example> examples_in(const std::string& markdown) {
  std::vector<Example> examples;
  bool in_block = false, in_text_block = false, in_example = false;
  std::istringstream in(markdown);
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (line.rfind("```", 0) == 0) {
      in_text_block = !in_block && line == "```text";
      in_block = !in_block;
      in_example = false;
    } else if (in_text_block && line.rfind(kPrompt, 0) == 0) {
      examples.push_back({number, line.substr(kPrompt.size()), ""});
      in_example = true;
    } else if (in_example) {
      examples.back().output += line + "\n";
    }
  }
  return examples;
}

struct Command {
  std::vector<std::string> words;
  std::optional<std::string> input;  // the file after '<'
};

// Splits `text` into words as a POSIX shell does with quoting ('…', "…" and
// backslash) and one "< FILE". Anything needing a shell (expansions, pipes,
// other redirections, globs, comments) is an error message.
std::variant<Command, std::string> split_command(std::string_view text) {
  Command command;
  std::string word;
  bool in_word = false, redirect = false;
  auto end_word = [&]() -> std::optional<std::string> {
    if (!in_word) return std::nullopt;
    if (redirect) {
      if (command.input) return "more than one '<'";
      command.input = word;
      redirect = false;
    } else {
      command.words.push_back(word);
    }
    word.clear();
    in_word = false;
    return std::nullopt;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == ' ' || c == '\t' || c == '<') {
      if (auto problem = end_word()) return *problem;
      if (c == '<') {
        if (redirect) return std::string("'<' without a file");
        redirect = true;
      }
    } else if (c == '\'') {
      const std::size_t close = text.find('\'', i + 1);
      if (close == std::string_view::npos) return std::string("unterminated '");
      word += text.substr(i + 1, close - i - 1);
      in_word = true;
      i = close;
    } else if (c == '"') {
      in_word = true;
      for (++i;; ++i) {
        if (i == text.size()) return std::string("unterminated \"");
        if (text[i] == '"') break;
        if (text[i] == '$' || text[i] == '`')
          return "unsupported shell syntax: " + std::string(1, text[i]);
        if (text[i] == '\\' && i + 1 < text.size() &&
            std::string_view("$`\"\\").find(text[i + 1]) != std::string_view::npos) {
          ++i;
        }
        word += text[i];
      }
    } else if (c == '\\') {
      if (i + 1 == text.size()) return std::string("a backslash at the end");
      word += text[++i];
      in_word = true;
    } else if (std::string_view("|&;>()$`*?[~#").find(c) != std::string_view::npos) {
      return "unsupported shell syntax: " + std::string(1, c);
    } else {
      word += c;
      in_word = true;
    }
  }
  if (auto problem = end_word()) return *problem;
  if (redirect) return std::string("'<' without a file");
  if (command.words.empty()) return std::string("no command");
  return command;
}

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

// The README's examples, run with the built pawntb from the source directory
// with PAWNTB_TABLE unset, as a reader of the README would run them.
TEST(ReadmeExamples, EveryCommandExampleGivesItsOutput) {
  const std::string readme = read_file(kReadme);
  ASSERT_FALSE(readme.empty()) << "cannot read " << kReadme;
  const std::vector<Example> examples = examples_in(readme);
  ASSERT_FALSE(examples.empty()) << kReadme << " has no \"$ build/tools/pawntb …\" line in a "
                                 << "```text block: the examples are not tested";
  for (const Example& example : examples) {
    const std::string where =
        "README.md:" + std::to_string(example.line) + ": $ " + example.command;
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
    EXPECT_EQ(r.out, example.output) << where << "\nprints other output than README.md shows; "
                                     << "the run gave exit status " << r.status << ", stderr:\n"
                                     << r.err;
  }
}

}  // namespace
