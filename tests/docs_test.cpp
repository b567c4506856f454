// The links of README.md, format/FORMAT.md and docs/*.md: every relative link
// names a file or directory of the source tree, and a link with "#anchor"
// names a heading of its Markdown file (the anchor GitHub gives it) or an
// <a id="…"> there. Links with a scheme (https:, mailto:) are not followed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "support/test_support.hpp"

namespace {

using namespace pawntb_test;

struct Link {
  int line = 0;
  std::string target;  // as written: path, path#anchor or #anchor
  bool operator==(const Link&) const = default;
};

std::ostream& operator<<(std::ostream& os, const Link& l) {
  return os << "line " << l.line << ": " << l.target;
}

// `line` without its code spans (`…`), whose text is not Markdown.
std::string without_code_spans(const std::string& line) {
  std::string out;
  bool in_code = false;
  for (char c : line) {
    if (c == '`') {
      in_code = !in_code;
    } else if (!in_code) {
      out += c;
    }
  }
  return out;
}

// Whether `line` opens or closes a fenced code block.
bool is_fence(const std::string& line) {
  const std::size_t start = line.find_first_not_of(' ');
  return start != std::string::npos && start < 4 && line.compare(start, 3, "```") == 0;
}

// The inline links and images ([text](target), ![alt](target)) and reference
// definitions ([name]: target) of `markdown`, outside code blocks and code spans.
std::vector<Link> links_in(const std::string& markdown) {
  static const std::regex inline_link(R"(\]\(\s*<?([^()\s<>]+)>?(\s+"[^"]*")?\s*\))");
  static const std::regex definition(R"(^\s{0,3}\[[^\]]+\]:\s*<?([^\s<>]+)>?)");
  std::vector<Link> links;
  std::istringstream in(markdown);
  bool in_block = false;
  int number = 0;
  for (std::string raw; std::getline(in, raw);) {
    ++number;
    if (is_fence(raw)) {
      in_block = !in_block;
      continue;
    }
    if (in_block) continue;
    const std::string line = without_code_spans(raw);
    std::smatch m;
    if (std::regex_search(line, m, definition)) links.push_back({number, m[1]});
    for (auto it = std::sregex_iterator(line.begin(), line.end(), inline_link);
         it != std::sregex_iterator(); ++it) {
      links.push_back({number, (*it)[1]});
    }
  }
  return links;
}

// The anchor GitHub makes of a heading's text: inline markup dropped (code
// spans keep their text, links their text), letters and digits lowercased,
// spaces turned into '-', '-' and '_' kept, other ASCII dropped. Beyond ASCII
// it keeps letters and drops the common punctuation and symbols (× … — ’ “ ”
// and the like), as GitHub does.
std::string github_anchor(std::string_view heading) {
  static const std::regex link(R"(!?\[([^\]]*)\]\([^)]*\))");
  std::string text = std::regex_replace(std::string(heading), link, "$1");
  std::string anchor;
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if (std::isalnum(c)) {
        anchor += static_cast<char>(std::tolower(c));
      } else if (c == ' ') {
        anchor += '-';
      } else if (c == '-' || c == '_') {
        anchor += static_cast<char>(c);
      }
      ++i;
      continue;
    }
    // A UTF-8 sequence: decode it to tell punctuation and symbols from letters.
    const std::size_t length = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
    char32_t code = c & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07);
    for (std::size_t k = 1; k < length && i + k < text.size(); ++k) {
      code = (code << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
    }
    const bool dropped = (code >= 0xA0 && code <= 0xBF) || code == 0xD7 || code == 0xF7 ||
                         (code >= 0x2000 && code <= 0x2BFF) || (code >= 0x3000 && code <= 0x303F);
    if (!dropped) anchor.append(text, i, length);
    i += length;
  }
  return anchor;
}

// The anchors of `markdown`: one per ATX heading outside code blocks (a
// repeated one gets -1, -2, … as on GitHub), and every <a id="…"> or
// <a name="…">.
std::set<std::string> anchors_in(const std::string& markdown) {
  static const std::regex heading(R"(^ {0,3}#{1,6}\s+(.*?)(\s+#+)?\s*$)");
  static const std::regex html_anchor(R"re(<a\s+(?:id|name)\s*=\s*"([^"]+)")re");
  std::set<std::string> anchors;
  std::istringstream in(markdown);
  bool in_block = false;
  for (std::string line; std::getline(in, line);) {
    if (is_fence(line)) {
      in_block = !in_block;
      continue;
    }
    if (in_block) continue;
    std::smatch m;
    for (auto it = std::sregex_iterator(line.begin(), line.end(), html_anchor);
         it != std::sregex_iterator(); ++it) {
      anchors.insert((*it)[1]);
    }
    if (!std::regex_match(line, m, heading)) continue;
    const std::string base = github_anchor(m[1].str());
    std::string anchor = base;
    for (int n = 1; anchors.count(anchor) != 0; ++n) anchor = base + "-" + std::to_string(n);
    anchors.insert(anchor);
  }
  return anchors;
}

// What is wrong with the link `target` of the file `document`, or "" when it
// resolves.
std::string problem_with(const fs::path& document, const std::string& target) {
  if (target.find("://") != std::string::npos || target.rfind("mailto:", 0) == 0) return "";
  const std::size_t hash = target.find('#');
  const std::string path = target.substr(0, hash);
  const fs::path file =
      path.empty() ? document : (document.parent_path() / path).lexically_normal();
  if (!fs::exists(file)) return "no file " + file.string();
  if (hash == std::string::npos) return "";
  const std::string anchor = target.substr(hash + 1);
  if (file.extension() != ".md") return "an anchor into " + file.string() + ", not Markdown";
  const std::set<std::string> anchors = anchors_in(read_file(file));
  if (anchors.count(anchor) == 0)
    return "no heading of " + file.string() + " has anchor #" + anchor;
  return "";
}

TEST(DocLinks, LinksAreFoundOutsideCode) {
  const std::string markdown =
      "# Title\n"                                          // 1
      "See [a](a.md), ![img](img/x.png \"title\").\n"      // 2
      "`[not](a link)` and [b](b.md#part) [c](#local)\n"   // 3
      "```sh\n"                                            // 4
      "[not](in a block)\n"                                // 5
      "```\n"                                              // 6
      "[ref]: https://example.org/x\n"                     // 7
      "[web](https://example.org) (plain parentheses)\n";  // 8
  const std::vector<Link> want{{2, "a.md"},
                               {2, "img/x.png"},
                               {3, "b.md#part"},
                               {3, "#local"},
                               {7, "https://example.org/x"},
                               {8, "https://example.org"}};
  EXPECT_EQ(links_in(markdown), want);
}

TEST(DocLinks, AnchorsAreGitHubs) {
  EXPECT_EQ(github_anchor("Finding tables"), "finding-tables");
  EXPECT_EQ(github_anchor("`pawntb stats`: the shape of a whole table"),
            "pawntb-stats-the-shape-of-a-whole-table");
  EXPECT_EQ(github_anchor("6.3 The index (`index_scheme = 2`)"), "63-the-index-index_scheme--2");
  EXPECT_EQ(github_anchor("Planning a run: 6×6 and 7×6"), "planning-a-run-66-and-76");
  EXPECT_EQ(github_anchor("See [the API](api.md)"), "see-the-api");
  const std::set<std::string> anchors = anchors_in(
      "# Usage\n## Usage\n```\n# not a heading\n```\n### Notes ##\n<a id=\"here\"></a>\n");
  EXPECT_EQ(anchors, (std::set<std::string>{"usage", "usage-1", "notes", "here"}));
}

TEST(DocLinks, ABrokenLinkIsFound) {
  const fs::path readme = kSourceDir / "README.md";
  EXPECT_EQ(problem_with(readme, "docs/cli.md"), "");
  EXPECT_NE(problem_with(readme, "docs/no-such-file.md"), "");
  EXPECT_NE(problem_with(readme, "docs/cli.md#no-such-heading"), "");
  EXPECT_NE(problem_with(readme, "#no-such-heading"), "");
}

TEST(DocLinks, EveryRelativeLinkResolves) {
  std::vector<fs::path> documents{kSourceDir / "README.md", kSourceDir / "format" / "FORMAT.md"};
  const std::size_t named = documents.size();
  for (const auto& entry : fs::directory_iterator(kSourceDir / "docs")) {
    if (entry.path().extension() == ".md") documents.push_back(entry.path());
  }
  std::sort(documents.begin() + static_cast<std::ptrdiff_t>(named), documents.end());
  ASSERT_GT(documents.size(), named) << "no docs/*.md";
  for (const fs::path& document : documents) {
    const std::string markdown = read_file(document);
    ASSERT_FALSE(markdown.empty()) << "cannot read " << document;
    const std::string name = document.lexically_relative(kSourceDir).string();
    for (const Link& link : links_in(markdown)) {
      const std::string problem = problem_with(document, link.target);
      EXPECT_EQ(problem, "") << name << ":" << link.line << ": (" << link.target << ")";
    }
  }
}

}  // namespace
