// pawntb: text notation for positions, boards and moves.
//
// Position notation: rows from the top separated by '/', each square 'P'
// (white), 'p' (black) or '.', a digit 1-8 standing for that many empty
// squares; then one space and 'w' or 'b' for the side to move.
//   Example: ".ppp/4/.PPP/4 w"
// Squares are named as in chess: files a, b, ... from the left, ranks 1, 2, ...
// from white's home row at the bottom. Moves are from-square then to-square:
// "b2b3", or "b2c3" for a capture.
//
// All functions are pure and thread-safe. Parsers never throw for bad text:
// they return an error message instead.
#pragma once

#include <string>
#include <string_view>
#include <variant>

#include "pawntb/position.hpp"

namespace pawntb {

struct ParseError {
  std::string message;  // what is wrong, e.g. "ragged board: rank 3 has 5 squares, rank 1 has 4"
};

template <class T>
using Parsed = std::variant<T, ParseError>;

// Parses position notation. Checks the board's characters and shape (every
// row as long, geometry within 3..8 x 3..8), then that the side is 'w' or 'b'.
// Messages count ranks from the bottom and name squares like "c2". It does
// not apply the rules: use classify() and invalid_reason() for that.
Parsed<Position> parse_position(std::string_view text);

// Parses a board given as rows of 'P', 'p' and '.' (top row first, no digits),
// e.g. one UVa 10838 case, with the given side to move.
Parsed<Position> parse_board_rows(const std::string_view* rows, int row_count, Side to_move);

// The move `uci` (e.g. "c2c3") of the side to move in p, which must be one of
// legal_moves(p). Otherwise the message names the move and why, e.g.
// "c2c4: not a legal move for white" or "c2c5: c5 is off the 4x4 board".
Parsed<Move> parse_move(const Position& p, std::string_view uci);

// p after the moves of `uci_list`, separated by commas and/or spaces (e.g.
// "c2c3,b4c3" or "c2c3 b4c3"); an empty list gives p. The message of a bad
// move names its number from 1 and the move: "move 2: b4b2: ...".
Parsed<Position> play_moves(const Position& p, std::string_view uci_list);

// Text fit to quote in a message: printable ASCII as is, other bytes as \xHH,
// cut after max_bytes input bytes with "...".
std::string printable(std::string_view text, std::size_t max_bytes = 40);

std::string format_position(const Position& p);   // ".ppp/4/.PPP/4 w"
std::string draw_board(const Position& p);        // one text row per board row, with coordinates
std::string square_name(Geometry g, int square);  // "b2"

// Why classify(p) is Status::invalid, in one phrase naming the square, e.g.
// "white pawn on c4 is on its goal row, with white to move" or "a white and a
// black pawn are both on b2"; empty when p is not invalid. For messages about
// positions that probe() reports as ProbeStatus::invalid_position.
std::string invalid_reason(const Position& p);
std::string move_name(Geometry g, Move m);  // "b2c3"

}  // namespace pawntb
