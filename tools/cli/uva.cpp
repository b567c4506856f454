#include "uva.hpp"

#include <charconv>
#include <variant>

#include "pawntb/notation.hpp"

namespace pawntb::cli {

namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t';
}

bool blank(std::string_view s) {
  for (const char c : s) {
    if (!is_space(c)) return false;
  }
  return true;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

// Adds board row `row` (top first) to p if it is exactly p.geometry.cols
// squares of 'P', 'p' and '.', possibly with spaces or tabs around.
bool add_row(Position& p, int row, std::string_view text) {
  const int cols = p.geometry.cols;
  if (static_cast<int>(text.size()) != cols) {
    text = trim(text);
    if (static_cast<int>(text.size()) != cols) return false;
  }
  std::uint64_t white = 0, black = 0;
  for (int c = 0; c < cols; ++c) {
    const char square = text[c];
    if (square == 'P') {
      white |= 1ULL << c;
    } else if (square == 'p') {
      black |= 1ULL << c;
    } else if (square != '.') {
      return false;
    }
  }
  const int shift = row * cols;
  p.white |= white << shift;
  p.black |= black << shift;
  return true;
}

// Why add_row refused a row.
std::string row_problem(std::string_view text, Geometry g) {
  text = trim(text);
  const auto bad = text.find_first_not_of("Pp.");
  if (bad != std::string_view::npos) {
    return std::get<ParseError>(parse_board_rows(&text, 1, Side::white)).message;
  }
  return "board row has " + std::to_string(text.size()) + " squares, expected " +
         std::to_string(g.cols);
}

}  // namespace

std::uint64_t read_uva(LineReader& in, Geometry g,
                       const std::function<void(std::uint64_t, const Position&)>& on_case,
                       const std::function<void(const UvaError&)>& on_error) {
  std::uint64_t errors = 0;
  auto error = [&](std::uint64_t line, std::string message) {
    ++errors;
    on_error(UvaError{line, std::move(message)});
  };
  LineReader::Line line;
  // The case count: the first non-blank line.
  bool have_line = false;
  while ((have_line = in.next(line)) && !line.too_long && blank(line.text)) {
  }
  if (!have_line) {
    error(line.number + 1, "empty input: expected the number of cases");
    return errors;
  }
  std::uint64_t count = 0;
  const std::string_view count_text = trim(line.text);
  const auto [end, ec] =
      std::from_chars(count_text.data(), count_text.data() + count_text.size(), count);
  if (line.too_long) {
    error(line.number, "line longer than " + std::to_string(LineReader::kMaxLine) + " bytes");
    return errors;
  }
  if (ec != std::errc() || end != count_text.data() + count_text.size()) {
    error(line.number, "expected the number of cases, got '" + printable(count_text) + "'");
    return errors;
  }

  std::uint64_t boards = 0;
  for (;;) {
    // Skip blank lines up to the next board.
    bool more = false;
    while ((more = in.next(line)) && !line.too_long && blank(line.text)) {
    }
    if (!more) break;
    const std::uint64_t first_line = line.number;
    ++boards;
    if (boards == count + 1) {
      error(first_line, "more boards than the case count " + std::to_string(count));
    }
    // A board is up to `rows` consecutive non-blank lines. Well-formed rows
    // (exactly `cols` of P, p and .) go straight into the bitboards; anything
    // else is diagnosed.
    Position position{g, 0, 0, Side::white};
    int have = 0;
    std::string problem;
    std::uint64_t problem_line = 0;
    for (;;) {
      if (line.too_long) {
        if (problem.empty())
          problem = "line longer than " + std::to_string(LineReader::kMaxLine) + " bytes",
          problem_line = line.number;
      } else if (problem.empty() && !add_row(position, have, line.text)) {
        problem = row_problem(line.text, g);
        problem_line = line.number;
      }
      if (++have == g.rows) break;
      if (!in.next(line) || (!line.too_long && blank(line.text))) {
        if (problem.empty()) {
          problem =
              "board has " + std::to_string(have) + " rows, expected " + std::to_string(g.rows);
          problem_line = first_line;
        }
        break;
      }
    }
    if (boards > count) continue;  // already reported
    if (!problem.empty()) {
      error(problem_line, problem);
      continue;
    }
    on_case(first_line, position);
  }
  if (boards < count) {
    error(line.number + (in.read_error() ? 0 : 1), "the case count says " + std::to_string(count) +
                                                       " but the input has " +
                                                       std::to_string(boards) + " boards");
  }
  if (in.read_error()) error(line.number, "read error");
  return errors;
}

}  // namespace pawntb::cli
