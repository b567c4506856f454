#include "pawntb/notation.hpp"

#include <vector>

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

// Checks the shape and builds the position from rows of 'P', 'p' and '.'.
Parsed<Position> build(const std::vector<std::string>& rows, Side to_move) {
  const int row_count = static_cast<int>(rows.size());
  const int col_count = rows.empty() ? 0 : static_cast<int>(rows.front().size());
  for (int r = 1; r < row_count; ++r) {
    if (static_cast<int>(rows[r].size()) != col_count) {
      return error("ragged board: row " + std::to_string(r + 1) + " has " +
                   std::to_string(rows[r].size()) + " squares, row 1 has " +
                   std::to_string(col_count));
    }
  }
  const Geometry g{row_count, col_count};
  if (!g.valid()) {
    return error("board is " + to_string(g) + "; rows and columns must each be " +
                 std::to_string(kMinSide) + " to " + std::to_string(kMaxSide));
  }
  Position p{g, 0, 0, to_move};
  for (int r = 0; r < row_count; ++r) {
    for (int c = 0; c < col_count; ++c) {
      const std::uint64_t bit = 1ULL << (r * col_count + c);
      if (rows[r][c] == 'P') p.white |= bit;
      if (rows[r][c] == 'p') p.black |= bit;
    }
  }
  return p;
}

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
  if (space == std::string_view::npos) {
    return error("missing side to move: expected the board, a space, then 'w' or 'b'");
  }
  const std::string_view side = text.substr(space + 1);
  if (side != "w" && side != "b") {
    return error("side to move must be 'w' or 'b', got '" + printable(side, 16) + "'");
  }
  std::vector<std::string> rows(1);
  for (const char c : text.substr(0, space)) {
    if (c == '/') {
      if (rows.size() == kMaxSide) return error("more than 8 rows");
      rows.emplace_back();
    } else if (c == 'P' || c == 'p' || c == '.') {
      rows.back().push_back(c);
    } else if (c >= '1' && c <= '8') {
      rows.back().append(static_cast<std::size_t>(c - '0'), '.');
    } else {
      return error("bad character " + show_byte(c) + " in board: use P, p, . or 1-8");
    }
    if (rows.back().size() > kMaxSide) {
      return error("row " + std::to_string(rows.size()) + " has more than 8 squares");
    }
  }
  return build(rows, side == "w" ? Side::white : Side::black);
}

Parsed<Position> parse_board_rows(const std::string_view* rows, int row_count, Side to_move) {
  std::vector<std::string> grid;
  for (int r = 0; r < row_count; ++r) {
    for (const char c : rows[r]) {
      if (c != 'P' && c != 'p' && c != '.') {
        return error("bad character " + show_byte(c) + " in board: use P, p or .");
      }
    }
    grid.emplace_back(rows[r]);
  }
  return build(grid, to_move);
}

std::string format_position(const Position& p) {
  const Geometry g = p.geometry;
  std::string out;
  for (int r = 0; r < g.rows; ++r) {
    if (r) out += '/';
    int empty = 0;
    for (int c = 0; c < g.cols; ++c) {
      const std::uint64_t bit = 1ULL << (r * g.cols + c);
      const char square = (p.white & bit) ? 'P' : (p.black & bit) ? 'p' : '.';
      if (square == '.') {
        ++empty;
        continue;
      }
      if (empty) out += static_cast<char>('0' + empty);
      empty = 0;
      out += square;
    }
    if (empty) out += static_cast<char>('0' + empty);
  }
  out += p.to_move == Side::white ? " w" : " b";
  return out;
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

std::string square_name(Geometry g, int square) {
  return std::string(1, static_cast<char>('a' + square % g.cols)) +
         static_cast<char>('0' + (g.rows - square / g.cols));
}

std::string move_name(Geometry g, Move m) {
  return square_name(g, m.from) + square_name(g, m.to);
}

}  // namespace pawntb
