#include "pawntb/notation.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <optional>
#include <span>

#include "pawntb/game/bitboard.hpp"

namespace pawntb {

namespace {

ParseError error(std::string message) {
  return ParseError{std::move(message)};
}

// Shows a byte in a message: printable ASCII as itself, anything else as hex.
std::string show_byte(char c) {
  const auto u = static_cast<unsigned char>(c);
  if (u >= 0x21 && u < 0x7f) return std::string("'") + c + "'";
  static constexpr char kHex[] = "0123456789abcdef";
  return std::string("byte 0x") + kHex[u >> 4] + kHex[u & 15];
}

// Ranks are counted from the bottom, as the drawn board labels them: rows[0]
// is rank rows.size().
std::string rank_name(std::size_t row, std::size_t row_count) {
  return "rank " + std::to_string(row_count - row);
}

// Checks the shape and builds the position from rows of 'P', 'p' and '.'. A
// ragged board blames the first rank from the top whose width differs from
// the most common one (on a tie, the bottom rank's).
Parsed<Position> build(std::span<const std::string_view> rows, Side to_move) {
  const std::size_t row_count = rows.size();
  const std::size_t width = rows.empty() ? 0 : rows.back().size();
  std::size_t common = width, common_count = 0;
  // Rows all as wide (the usual case) need no counting.
  const bool even = std::all_of(rows.begin(), rows.end(),
                                [&](std::string_view row) { return row.size() == width; });
  for (std::size_t i = 0; i < row_count && !even; ++i) {
    const std::string_view row = rows[i];
    const auto n = static_cast<std::size_t>(
        std::count_if(rows.begin(), rows.end(),
                      [&](std::string_view other) { return other.size() == row.size(); }));
    if (n > common_count || (n == common_count && row.size() == width)) {
      common = row.size();
      common_count = n;
    }
  }
  for (std::size_t r = 0; r < row_count; ++r) {
    if (rows[r].size() == common) continue;
    const auto reference = static_cast<std::size_t>(
        std::find_if(rows.rbegin(), rows.rend(),
                     [&](std::string_view row) { return row.size() == common; }) -
        rows.rbegin());
    return error("ragged board: " + rank_name(r, row_count) + " has " +
                 std::to_string(rows[r].size()) + " squares, rank " +
                 std::to_string(reference + 1) + " has " + std::to_string(common));
  }
  const Geometry g{static_cast<int>(row_count), static_cast<int>(common)};
  if (!g.valid()) {
    return error("board is " + to_string(g) + "; rows and columns must each be " +
                 std::to_string(kMinSide) + ".." + std::to_string(kMaxSide));
  }
  Position p{g, 0, 0, to_move};
  for (int r = 0; r < g.rows; ++r) {
    for (int c = 0; c < g.cols; ++c) {
      const int square = r * g.cols + c;
      p.white |= std::uint64_t{rows[r][c] == 'P'} << square;
      p.black |= std::uint64_t{rows[r][c] == 'p'} << square;
    }
  }
  return p;
}

// The rows of a board in position notation, digits expanded, in fixed
// storage: parsing a position allocates nothing unless it fails.
class ExpandedRows {
 public:
  ExpandedRows() = default;
  ExpandedRows(const ExpandedRows&) = delete;  // rows() points into this object
  ExpandedRows& operator=(const ExpandedRows&) = delete;

  // Reads `board` in one pass; the error, if any, says what is wrong with
  // it. Too many rows is reported before any other problem.
  std::optional<ParseError> read(std::string_view board) {
    constexpr auto kMax = static_cast<std::size_t>(kMaxSide);
    // The board's rows, counted again from position i on (for messages).
    const auto row_total = [&](std::size_t i) {
      return count_ + 1 + static_cast<std::size_t>(std::count(board.begin() + i, board.end(), '/'));
    };
    count_ = 0;
    std::size_t width = 0;
    for (std::size_t i = 0; i < board.size(); ++i) {
      const char c = board[i];
      if (c == '/') {
        if (count_ + 1 == kMax) return error("more than 8 rows");
        end_row(width);
        width = 0;
        continue;
      }
      const bool digit = c >= '1' && c <= '8';
      // One digit per run of empty squares, as in FEN: "12" would be read
      // as 1+2 by some and as twelve by others, so it is refused.
      if (digit && i > 0 && board[i - 1] >= '0' && board[i - 1] <= '9') {
        return error(std::string("two digits in a row in board (\"") + board[i - 1] + c +
                     "\"): one digit 1-8 per run of empty squares");
      }
      const std::size_t run = digit ? static_cast<std::size_t>(c - '0') : 1;
      const bool bad = !digit && c != 'P' && c != 'p' && c != '.';
      if (bad || width + run > kMax) {
        const std::size_t rows = row_total(i);
        if (rows > kMax) return error("more than 8 rows");
        if (bad) return error("bad character " + show_byte(c) + " in board: use P, p, . or 1-8");
        return error(rank_name(count_, rows) + " has more than 8 squares");
      }
      std::fill_n(squares_[count_].data() + width, run, digit ? '.' : c);
      width += run;
    }
    end_row(width);
    return std::nullopt;
  }
  std::span<const std::string_view> rows() const { return {rows_.data(), count_}; }

 private:
  void end_row(std::size_t width) {
    rows_[count_] = std::string_view(squares_[count_].data(), width);
    ++count_;
  }

  std::array<std::array<char, kMaxSide>, kMaxSide> squares_;
  std::array<std::string_view, kMaxSide> rows_;  // into squares_
  std::size_t count_ = 0;
};

}  // namespace

std::string printable(std::string_view text, std::size_t max_bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < text.size() && i < max_bytes; ++i) {
    const auto u = static_cast<unsigned char>(text[i]);
    if (u >= 0x20 && u < 0x7f) {
      out += text[i];
    } else {
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 15];
    }
  }
  if (text.size() > max_bytes) out += "...";
  return out;
}

Parsed<Position> parse_position(std::string_view text) {
  const std::size_t space = text.find(' ');
  ExpandedRows board;
  if (auto e = board.read(text.substr(0, space))) return std::move(*e);
  if (space == std::string_view::npos) {
    return error("missing side to move: expected the board, a space, then 'w' or 'b'");
  }
  const std::string_view side = text.substr(space + 1);
  if (side != "w" && side != "b") {
    return error("side to move must be 'w' or 'b', got '" + printable(side, 16) + "'");
  }
  return build(board.rows(), side == "w" ? Side::white : Side::black);
}

Parsed<Position> parse_board_rows(const std::string_view* rows, int row_count, Side to_move) {
  const std::span<const std::string_view> grid(rows, static_cast<std::size_t>(row_count));
  for (const std::string_view row : grid) {
    for (const char c : row) {
      if (c != 'P' && c != 'p' && c != '.') {
        return error("bad character " + show_byte(c) + " in board: use P, p or .");
      }
    }
  }
  return build(grid, to_move);
}

std::string format_position(const Position& p) {
  const Geometry g = p.geometry;
  const int rows = std::max(g.rows, 0), cols = std::max(g.cols, 0);
  // Written pawn by pawn into a buffer (the web API formats 10,000 positions
  // a request): a character per square and per row, and the side, at most.
  std::array<char, 2 * kMaxSide * kMaxSide> small;
  std::string large;  // for boards that no table has
  const auto size = static_cast<std::size_t>(rows) * (static_cast<std::size_t>(cols) + 1) + 2;
  if (size > small.size()) large.resize(size);
  char* const text = large.empty() ? small.data() : large.data();
  const std::uint64_t row_mask = cols >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << cols) - 1;
  std::size_t n = 0;
  for (int r = 0; r < rows; ++r) {
    if (r) text[n++] = '/';
    const int shift = r * cols;
    const std::uint64_t white = shift < 64 ? p.white >> shift & row_mask : 0;
    const std::uint64_t black = shift < 64 ? p.black >> shift & row_mask : 0;
    int next = 0;  // the first column not written yet
    for (std::uint64_t pawns = white | black; pawns; pawns &= pawns - 1) {
      const int c = std::countr_zero(pawns);
      if (c > next) text[n++] = static_cast<char>('0' + (c - next));
      text[n++] = (white >> c & 1) ? 'P' : 'p';
      next = c + 1;
    }
    if (cols > next) text[n++] = static_cast<char>('0' + (cols - next));
  }
  text[n++] = ' ';
  text[n++] = p.to_move == Side::white ? 'w' : 'b';
  return std::string(text, n);
}

std::string draw_board(const Position& p) {
  const Geometry g = p.geometry;
  std::string out;
  for (int r = 0; r < g.rows; ++r) {
    out += static_cast<char>('0' + (g.rows - r));
    out += ' ';
    for (int c = 0; c < g.cols; ++c) {
      const std::uint64_t bit = 1ULL << (r * g.cols + c);
      out += (p.white & bit) ? 'P' : (p.black & bit) ? 'p' : '.';
    }
    out += '\n';
  }
  out += "  ";
  for (int c = 0; c < g.cols; ++c) out += static_cast<char>('a' + c);
  out += '\n';
  return out;
}

std::string invalid_reason(const Position& p) {
  const Geometry g = p.geometry;
  if (!g.valid()) {
    return "board is " + to_string(g) + "; rows and columns must each be " +
           std::to_string(kMinSide) + " to " + std::to_string(kMaxSide) +
           ", with at most 64 squares";
  }
  if ((p.white | p.black) & ~game::board_mask(g)) {
    return "a pawn lies off the " + to_string(g) + " board";
  }
  if (const std::uint64_t both = p.white & p.black) {
    return "a white and a black pawn are both on " + square_name(g, std::countr_zero(both));
  }
  const std::uint64_t mover = p.to_move == Side::white ? p.white : p.black;
  const std::uint64_t goal = p.to_move == Side::white ? game::white_goal(g) : game::black_goal(g);
  if (const std::uint64_t arrived = mover & goal) {
    const std::string side = side_name(p.to_move);
    return side + " pawn on " + square_name(g, std::countr_zero(arrived)) +
           " is on its goal row, with " + side + " to move";
  }
  return "";
}

namespace {

// The square a name such as "c2" stands for on g, or an error.
// A file letter in either case: a square has no colour, unlike a pawn's
// letter, so "C2" is "c2" (in every reader of moves alike).
Parsed<int> parse_square(Geometry g, std::string_view name) {
  const char file = name.size() == 2 && name[0] >= 'A' && name[0] <= 'H'
                        ? static_cast<char>(name[0] - 'A' + 'a')
                        : name.empty() ? '\0' : name[0];
  if (name.size() != 2 || file < 'a' || file > 'h' || name[1] < '1' || name[1] > '8') {
    return error("expected two squares such as c2c3");
  }
  const int col = file - 'a', rank = name[1] - '0';
  if (col >= g.cols || rank > g.rows) {
    return error(std::string{file, name[1]} + " is off the " + to_string(g) + " board");
  }
  return (g.rows - rank) * g.cols + col;
}

}  // namespace

Parsed<Move> parse_move(const Position& p, std::string_view uci) {
  const std::string quoted = printable(uci, 16) + ": ";
  if (uci.size() != 4) return error(quoted + "expected two squares such as c2c3");
  const Parsed<int> from = parse_square(p.geometry, uci.substr(0, 2));
  if (const auto* e = std::get_if<ParseError>(&from)) return error(quoted + e->message);
  const Parsed<int> to = parse_square(p.geometry, uci.substr(2, 2));
  if (const auto* e = std::get_if<ParseError>(&to)) return error(quoted + e->message);
  const Move move{static_cast<std::uint8_t>(std::get<int>(from)),
                  static_cast<std::uint8_t>(std::get<int>(to))};
  const std::string side = side_name(p.to_move);
  switch (classify(p)) {
    case Status::invalid:
      return error(quoted + "the position is invalid: " + invalid_reason(p));
    case Status::over:
      return error(quoted + "the game is over: " + side + " has lost");
    case Status::playable:
      break;
  }
  for (const Move m : legal_moves(p)) {
    if (m == move) return move;
  }
  const std::uint64_t mover = p.to_move == Side::white ? p.white : p.black;
  const std::string why = (mover >> move.from & 1) ? ""
                                                   : " (no " + side + " pawn on " +
                                                         square_name(p.geometry, move.from) + ")";
  return error(quoted + "not a legal move for " + side + why);
}

Parsed<Position> play_moves(const Position& p, std::string_view uci_list) {
  Position line = p;
  int number = 0;
  for (std::size_t i = 0; i < uci_list.size();) {
    if (uci_list[i] == ',' || uci_list[i] == ' ') {
      ++i;
      continue;
    }
    const std::size_t end = std::min(uci_list.find_first_of(", ", i), uci_list.size());
    const Parsed<Move> move = parse_move(line, uci_list.substr(i, end - i));
    ++number;
    if (const auto* e = std::get_if<ParseError>(&move)) {
      return error("move " + std::to_string(number) + ": " + e->message);
    }
    line = play(line, std::get<Move>(move));
    i = end;
  }
  return line;
}

std::string square_name(Geometry g, int square) {
  return std::string(1, static_cast<char>('a' + square % g.cols)) +
         static_cast<char>('0' + (g.rows - square / g.cols));
}

std::string move_name(Geometry g, Move m) {
  return square_name(g, m.from) + square_name(g, m.to);
}

}  // namespace pawntb
