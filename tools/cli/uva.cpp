#include "uva.hpp"

#include <charconv>
#include <variant>

#include "pawntb/notation.hpp"

namespace pawntb::cli {

namespace {

bool blank(std::string_view s) { return s.find_first_not_of(" \t") == std::string_view::npos; }

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
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
  const auto [end, ec] = std::from_chars(count_text.data(), count_text.data() + count_text.size(), count);
  if (line.too_long || ec != std::errc() || end != count_text.data() + count_text.size()) {
    error(line.number, "expected the number of cases, got '" +
                           std::string(count_text.substr(0, 40)) + "'");
    return errors;
  }

  std::uint64_t boards = 0;
  std::string rows[kMaxSide];
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
    // A board is up to `rows` consecutive non-blank lines.
    int have = 0;
    std::string problem;
    std::uint64_t problem_line = 0;
    for (;;) {
      if (line.too_long) {
        if (problem.empty()) problem = "line too long", problem_line = line.number;
      } else {
        const std::string_view text = trim(line.text);
        const auto bad = text.find_first_not_of("Pp.");
        if (problem.empty() && bad != std::string_view::npos) {
          problem = std::get<ParseError>(parse_board_rows(&text, 1, Side::white)).message;
          problem_line = line.number;
        }
        if (problem.empty() && static_cast<int>(text.size()) != g.cols) {
          problem = "board row has " + std::to_string(text.size()) + " squares, expected " +
                    std::to_string(g.cols);
          problem_line = line.number;
        }
        if (have < g.rows) rows[have] = std::string(text);
      }
      if (++have == g.rows) break;
      if (!in.next(line) || (!line.too_long && blank(line.text))) {
        if (problem.empty()) {
          problem = "board has " + std::to_string(have) + " rows, expected " +
                    std::to_string(g.rows);
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
    std::string_view views[kMaxSide];
    for (int r = 0; r < g.rows; ++r) views[r] = rows[r];
    auto parsed = parse_board_rows(views, g.rows, Side::white);
    if (auto* e = std::get_if<ParseError>(&parsed)) {
      error(first_line, e->message);
      continue;
    }
    on_case(first_line, std::get<Position>(parsed));
  }
  if (boards < count) {
    error(line.number + (in.read_error() ? 0 : 1),
          "the case count says " + std::to_string(count) + " but the input has " +
              std::to_string(boards) + " boards");
  }
  if (in.read_error()) error(line.number, "read error");
  return errors;
}

}  // namespace pawntb::cli
