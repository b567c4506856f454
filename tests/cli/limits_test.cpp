// Tests shared by the input-reading commands (uva, probe): the bad-input
// catalogue in tests/bad_inputs.tsv and input limits (long lines, many lines,
// many errors, NUL and high bytes).
#include <gtest/gtest.h>

#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "support/cli_support.hpp"

namespace {

using namespace pawntb_test;
using nlohmann::json;

// ---------------------------------------------------------------------------
// Bad inputs: the catalogue in tests/bad_inputs.tsv, then input limits.

const fs::path kBadInputs = kSourceDir / "tests" / "bad_inputs.tsv";

// Reading a long line, or many lines, must not hold them. The measure is a
// command's peak RSS over its own peak on a short input, not an absolute
// figure. The limit is well under the 5,000,000-byte line (4,883 KiB). Not
// under the sanitizers (kNoMemoryBound): there the tests check the rest,
// the errors and answers.
constexpr long kGrowthLimitKib = 2 * 1024;

// The peak RSS of `args` on a short, well-formed input.
long short_input_rss_kib(const std::vector<std::string>& args, std::string input) {
  const RunResult r = run_with_input(args, std::move(input));
  EXPECT_EQ(r.status, 0) << r;
  return r.peak_rss_kib;
}

::testing::AssertionResult held_little(const RunResult& r, long short_input_kib) {
  if (kSanitized) return ::testing::AssertionSuccess() << kNoMemoryBound;
  if (r.peak_rss_kib - short_input_kib < kGrowthLimitKib) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "peak RSS " << r.peak_rss_kib << " KiB against "
                                       << short_input_kib << " KiB on a short input";
}

// Undoes the escapes of bad_inputs.tsv: \n \r \t \0 \xHH \\. Returns nullopt
// and says why in `problem` on a malformed escape.
std::optional<std::string> unescape(std::string_view text, std::string& problem) {
  auto hex_digit = [](char h) {
    if (h >= '0' && h <= '9') return h - '0';
    if (h >= 'a' && h <= 'f') return h - 'a' + 10;
    if (h >= 'A' && h <= 'F') return h - 'A' + 10;
    return -1;
  };
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\\') {
      out += text[i];
      continue;
    }
    if (++i == text.size()) {
      problem = "a backslash at the end of '" + std::string(text) + "'";
      return std::nullopt;
    }
    switch (text[i]) {
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case '0':
        out += '\0';
        break;
      case '\\':
        out += '\\';
        break;
      case 'x': {
        const int high = i + 1 < text.size() ? hex_digit(text[i + 1]) : -1;
        const int low = i + 2 < text.size() ? hex_digit(text[i + 2]) : -1;
        if (high < 0 || low < 0) {
          problem = "\\x needs two hex digits in '" + std::string(text) + "'";
          return std::nullopt;
        }
        out += static_cast<char>(high * 16 + low);
        i += 2;
        break;
      }
      default:
        problem = std::string("unknown escape \\") + text[i] + " in '" + std::string(text) + "'";
        return std::nullopt;
    }
  }
  return out;
}

// The fields of a line split at every tab, empty ones included.
std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> fields;
  for (std::size_t start = 0;;) {
    const std::size_t tab = line.find('\t', start);
    fields.push_back(line.substr(start, tab == std::string::npos ? tab : tab - start));
    if (tab == std::string::npos) return fields;
    start = tab + 1;
  }
}

// "pawntb probe: stdin:N: ..." (or uva) with N a line number, or the final
// count of unshown errors.
bool is_input_error_line(const std::string& line) {
  static const std::regex kLine(
      "pawntb (probe|uva): stdin:[1-9][0-9]*: [\\s\\S]+|pawntb: [1-9][0-9]* more errors not shown");
  return std::regex_match(line, kLine);
}

TEST(BadInputCatalogue, EveryEntryGivesItsExpectedResult) {
  std::ifstream file(kBadInputs, std::ios::binary);
  ASSERT_TRUE(file) << "cannot read " << kBadInputs;
  const std::map<std::string, std::vector<std::string>> commands = {
      {"uva", {"uva"}}, {"probe", {"probe", "-"}}, {"probe-json", {"probe", "--json", "-"}}};
  std::map<std::string, int> entries;
  int number = 0;
  for (std::string text; std::getline(file, text);) {
    ++number;
    if (!text.empty() && text.back() == '\r') text.pop_back();
    if (text.empty() || text.front() == '#') continue;
    const std::string where = "bad_inputs.tsv:" + std::to_string(number);
    const std::vector<std::string> fields = split_tabs(text);
    if (fields.size() != 5) {
      ADD_FAILURE() << where << ": " << fields.size() << " tab-separated fields, expected 5";
      continue;
    }
    const auto command = commands.find(fields[0]);
    if (command == commands.end()) {
      ADD_FAILURE() << where << ": unknown command '" << fields[0] << "'";
      continue;
    }
    int expected_status = -1;
    const auto [end, ec] =
        std::from_chars(fields[2].data(), fields[2].data() + fields[2].size(), expected_status);
    if (ec != std::errc() || end != fields[2].data() + fields[2].size()) {
      ADD_FAILURE() << where << ": bad exit status '" << fields[2] << "'";
      continue;
    }
    std::string problem;
    const std::optional<std::string> input = unescape(fields[1], problem);
    const std::optional<std::string> err_part = unescape(fields[3], problem);
    const bool check_out = fields[4] != "*";
    const std::optional<std::string> out =
        check_out ? unescape(fields[4], problem) : std::optional<std::string>("");
    if (!input || !err_part || !out) {
      ADD_FAILURE() << where << ": " << problem;
      continue;
    }
    ++entries[fields[0]];

    const RunResult r = run_with_input(command->second, *input);
    const std::string context = where + ": " + fields[0] + " '" + fields[1] + "'\n";
    EXPECT_FALSE(r.signaled) << context << r;
    EXPECT_EQ(r.status, expected_status) << context << r;
    EXPECT_TRUE(contains(r.err, *err_part)) << context << "stderr lacks '" << fields[3] << "'\n"
                                            << r;
    if (check_out) {
      EXPECT_EQ(r.out, *out) << context << r;
    }
    if (r.status == 0) {
      EXPECT_EQ(r.err, "") << context << r;
    } else {
      EXPECT_NE(r.err, "") << context << r;
      for (const std::string& line : lines_of(r.err)) {
        EXPECT_TRUE(is_input_error_line(line))
            << context << "stderr line without a line number: '" << line << "'\n"
            << r;
      }
    }
    if (fields[0] == "probe-json") {
      // One JSON object per line: answers, and one error object per input
      // error, in the order (and with the places) of the stderr lines.
      std::vector<std::string> json_places;
      for (const std::string& line : lines_of(r.out)) {
        json value;
        try {
          value = json::parse(line);
        } catch (const json::exception& e) {
          ADD_FAILURE() << context << "stdout line is not JSON: '" << line << "': " << e.what();
          continue;
        }
        ASSERT_TRUE(value.is_object()) << context << line;
        if (value.contains("error")) {
          EXPECT_TRUE(value["error"].is_string()) << context << line;
          EXPECT_TRUE(value.contains("input") && value["input"].is_string()) << context << line;
          EXPECT_FALSE(value.contains("winner")) << context << line;
          if (value.contains("input_line")) {
            json_places.push_back("stdin:" + std::to_string(value["input_line"].get<int>()));
          } else {
            ASSERT_TRUE(value.contains("argument")) << context << line;
            json_places.push_back("argument " + std::to_string(value["argument"].get<int>()));
          }
        } else {
          EXPECT_TRUE(value.contains("winner") && value.contains("plies")) << context << line;
        }
      }
      EXPECT_EQ(json_places, error_places(r.err)) << context << r;
    }
  }
  int total = 0;
  for (const auto& [name, count] : entries) total += count;
  EXPECT_GE(total, 25) << "the catalogue has only " << total << " entries";
  for (const auto& [name, args] : commands) {
    EXPECT_GT(entries[name], 0) << "no entries for " << name;
  }
}

// A line of 5,000,000 bytes is reported by line number and skipped, without
// being stored: the next position is still answered, in little memory.
TEST(InputLimits, FiveMillionByteLineToProbe) {
  const std::string huge(5'000'000, 'p');
  for (const bool json_output : {false, true}) {
    std::vector<std::string> args{"probe", "-"};
    if (json_output) args.insert(args.begin() + 1, "--json");
    const long short_kib = short_input_rss_kib(args, std::string(kStart) + "\n");
    const RunResult r = run_with_input(args, huge + "\n" + kStart + "\n");
    EXPECT_FALSE(r.signaled) << r;
    EXPECT_EQ(r.status, 2) << r;
    EXPECT_EQ(lines_of(r.err),
              std::vector<std::string>{"pawntb probe: stdin:1: line longer than 4096 bytes"})
        << r;
    EXPECT_TRUE(held_little(r, short_kib));
    if (json_output) {
      const std::vector<json> answers = json_lines(r.out);
      ASSERT_EQ(answers.size(), 2u) << r;
      EXPECT_EQ(answers[0].value("input_line", 0), 1);
      EXPECT_TRUE(answers[0].contains("error"));
      EXPECT_EQ(answers[1]["plies"], 7);
    } else {
      EXPECT_TRUE(contains(r.out, "white to move: white wins in 7 plies\n")) << r;
    }
  }
  // The same line last, without a newline.
  const long short_kib = short_input_rss_kib({"probe", "-"}, std::string(kStart) + "\n");
  const RunResult r = run_with_input({"probe", "-"}, std::string(kStart) + "\n" + huge);
  EXPECT_FALSE(r.signaled) << r;
  EXPECT_EQ(r.status, 2) << r;
  EXPECT_EQ(lines_of(r.err),
            std::vector<std::string>{"pawntb probe: stdin:2: line longer than 4096 bytes"})
      << r;
  EXPECT_TRUE(contains(r.out, "white to move: white wins in 7 plies\n")) << r;
  EXPECT_TRUE(held_little(r, short_kib));
}

TEST(InputLimits, FiveMillionByteBoardRowToUva) {
  const std::string input =
      "2\n" + std::string(5'000'000, 'p') + "\n....\n.PPP\n....\n\n" + kGoodBoard1;
  const long short_kib = short_input_rss_kib({"uva"}, "1\n" + std::string(kGoodBoard1));
  const RunResult r = run_with_input({"uva"}, input);
  EXPECT_FALSE(r.signaled) << r;
  EXPECT_EQ(r.status, 2) << r;
  EXPECT_EQ(r.out, "white (7)\n") << r;
  const std::vector<std::string> err = lines_of(r.err);
  ASSERT_EQ(err.size(), 1u) << r;
  EXPECT_TRUE(std::regex_match(
      err[0], std::regex("pawntb uva: stdin:2: line (too long|longer than 4096 bytes)")))
      << r;
  EXPECT_TRUE(held_little(r, short_kib));
}

// 20,000,000 lines (empty ones, which probe skips, to keep the input at 20 MB):
// bounded memory and line numbers still right (its speed is a benchmark's
// business, not a unit test's). One
// input buffer serves both runs.
TEST(InputLimits, TwentyMillionLinesToProbe) {
  constexpr std::size_t kLines = 20'000'000;
  RunOptions options;
  options.input.emplace();
  options.input->reserve(kLines + 64);
  options.input->assign(kLines, '\n');
  *options.input += std::string(kStart) + "\n";
  const long json_kib = short_input_rss_kib({"probe", "--json", "-"}, std::string(kStart) + "\n");
  const long text_kib = short_input_rss_kib({"probe", "-"}, std::string(kStart) + "\n");
  {
    const RunResult r = run_cli({"probe", "--json", "-"}, options);
    EXPECT_FALSE(r.signaled) << r;
    EXPECT_EQ(r.status, 0) << r;
    EXPECT_EQ(r.err, "") << r;
    const std::vector<json> answers = json_lines(r.out);
    ASSERT_EQ(answers.size(), 1u) << r;
    EXPECT_EQ(answers[0]["plies"], 7);
    EXPECT_TRUE(held_little(r, json_kib));
  }
  {
    options.input->resize(kLines);
    *options.input += "xyz w";  // line 20,000,001, without a newline
    const RunResult r = run_cli({"probe", "-"}, options);
    EXPECT_FALSE(r.signaled) << r;
    EXPECT_EQ(r.status, 2) << r;
    EXPECT_EQ(r.out, "") << r;
    EXPECT_EQ(lines_of(r.err),
              std::vector<std::string>{
                  "pawntb probe: stdin:20000001: bad character 'x' in board: use P, p, . or 1-8"})
        << r;
    EXPECT_TRUE(held_little(r, text_kib));
  }
}

// probe reports every bad line on stderr, in text mode as with --json (text
// mode once stopped after 100); with --json each also gets its
// object on stdout. uva, below, shows 100 and counts the rest.
TEST(InputLimits, AThousandBadLinesShowEveryProbeErrorAndAHundredUvaErrors) {
  std::string input;
  for (int i = 0; i < 1000; ++i) input += "xyz w\n";
  for (const bool json_output : {false, true}) {
    std::vector<std::string> args{"probe", "-"};
    if (json_output) args.insert(args.begin() + 1, "--json");
    const RunResult r = run_with_input(args, input);
    EXPECT_FALSE(r.signaled) << r;
    EXPECT_EQ(r.status, 2) << r;
    const std::vector<std::string> err = lines_of(r.err);
    ASSERT_EQ(err.size(), 1000u) << r;
    for (int i = 0; i < 1000; ++i) {
      EXPECT_EQ(err[i], "pawntb probe: stdin:" + std::to_string(i + 1) +
                            ": bad character 'x' in board: use P, p, . or 1-8");
    }
    if (json_output) {
      const std::vector<json> answers = json_lines(r.out);
      ASSERT_EQ(answers.size(), 1000u);
      for (int i = 0; i < 1000; ++i) {
        ASSERT_EQ(answers[i].value("input_line", 0), i + 1);
        ASSERT_TRUE(answers[i].contains("error"));
      }
    } else {
      EXPECT_EQ(r.out, "");
    }
  }

  // uva: 1,000 boards with a bad character, each on the board's first line.
  std::string boards = "1000\n";
  for (int i = 0; i < 1000; ++i) boards += ".ppx\n....\n.PPP\n....\n\n";
  const RunResult u = run_with_input({"uva"}, boards);
  EXPECT_FALSE(u.signaled) << u;
  EXPECT_EQ(u.status, 2) << u;
  EXPECT_EQ(u.out, "");
  const std::vector<std::string> err = lines_of(u.err);
  ASSERT_EQ(err.size(), 101u) << u;
  for (int i = 0; i < 100; ++i) {
    EXPECT_EQ(err[i], "pawntb uva: stdin:" + std::to_string(2 + 5 * i) +
                          ": bad character 'x' in board: use P, p or .");
  }
  EXPECT_EQ(err[100], "pawntb: 900 more errors not shown");
}

std::string byte_name(unsigned char b) {
  char text[5];
  std::snprintf(text, sizeof text, "0x%02x", b);
  return text;
}

// NUL and every byte 0x80-0xff, in the board and after the side to move:
// each line is an input error (exit 2) and, with --json, a valid JSON error
// object; a good position after them is still answered.
TEST(InputLimits, NulAndHighBytesInPositionLines) {
  std::vector<unsigned char> bytes{0};
  for (int b = 0x80; b <= 0xff; ++b) bytes.push_back(static_cast<unsigned char>(b));
  std::string input;
  for (const unsigned char b : bytes) {
    input += std::string(".pp") + static_cast<char>(b) + "/4/.PPP/4 w\n";  // in the board
    input += std::string(kStart) + static_cast<char>(b) + "\n";            // after the side
  }
  input += std::string(kStart) + "\n";
  const std::size_t bad_lines = 2 * bytes.size();

  const RunResult j = run_with_input({"probe", "--json", "-"}, input);
  EXPECT_FALSE(j.signaled) << j;
  EXPECT_EQ(j.status, 2) << j;
  const std::vector<json> answers = json_lines(j.out);
  ASSERT_EQ(answers.size(), bad_lines + 1) << j;
  for (std::size_t i = 0; i < bad_lines; ++i) {
    const json& a = answers[i];
    ASSERT_TRUE(a.is_object()) << a.dump();
    EXPECT_EQ(a.value("input_line", 0u), i + 1) << a.dump();
    ASSERT_TRUE(a.contains("error") && a["error"].is_string()) << a.dump();
    EXPECT_TRUE(a.contains("input") && a["input"].is_string()) << a.dump();
    EXPECT_FALSE(a.contains("winner")) << a.dump();
    if (i % 2 == 0) {
      EXPECT_TRUE(contains(a["error"].get<std::string>(), "byte " + byte_name(bytes[i / 2])))
          << a.dump();
    } else {
      EXPECT_TRUE(contains(a["error"].get<std::string>(), "side to move")) << a.dump();
    }
  }
  // NUL is valid UTF-8: the input comes back exactly.
  EXPECT_EQ(answers[0].value("input", ""), std::string(".pp\0/4/.PPP/4 w", 15));
  EXPECT_EQ(answers[1].value("input", ""), std::string(kStart) + std::string(1, '\0'));
  EXPECT_EQ(answers[bad_lines]["plies"], 7);
  const std::vector<std::string> err = lines_of(j.err);
  ASSERT_EQ(err.size(), bad_lines) << j;
  EXPECT_EQ(err[0], "pawntb probe: stdin:1: bad character byte 0x00 in board: use P, p, . or 1-8");
  EXPECT_EQ(err[2], "pawntb probe: stdin:3: bad character byte 0x80 in board: use P, p, . or 1-8");
  for (std::size_t i = 0; i < bad_lines; ++i) {
    EXPECT_EQ(err[i].rfind("pawntb probe: stdin:" + std::to_string(i + 1) + ": ", 0), 0u) << err[i];
  }

  const RunResult h = run_with_input({"probe", "-"}, input);
  EXPECT_FALSE(h.signaled) << h;
  EXPECT_EQ(h.status, 2) << h;
  EXPECT_TRUE(contains(h.out, "white to move: white wins in 7 plies\n")) << h;
  EXPECT_EQ(lines_of(h.err).size(), bad_lines) << h;

  // uva: the same bytes in a board row.
  std::string boards = std::to_string(bytes.size() + 1) + "\n";
  for (const unsigned char b : bytes)
    boards += std::string(".p") + static_cast<char>(b) + "p\n....\n.PPP\n....\n\n";
  boards += kGoodBoard1;
  const RunResult u = run_with_input({"uva"}, boards);
  EXPECT_FALSE(u.signaled) << u;
  EXPECT_EQ(u.status, 2) << u;
  EXPECT_EQ(u.out, "white (7)\n") << u;
  const std::vector<std::string> uva_err = lines_of(u.err);
  ASSERT_EQ(uva_err.size(), 101u) << u;
  for (std::size_t i = 0; i < 100; ++i) {
    EXPECT_EQ(uva_err[i], "pawntb uva: stdin:" + std::to_string(2 + 5 * i) +
                              ": bad character byte " + byte_name(bytes[i]) +
                              " in board: use P, p or .");
  }
  EXPECT_EQ(uva_err[100],
            "pawntb: " + std::to_string(bytes.size() - 100) + " more errors not shown");
}

}  // namespace
