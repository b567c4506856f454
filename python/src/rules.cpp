// play() and legal_moves(): the rules, without a table.
#include <string>
#include <variant>
#include <vector>

#include "extension.hpp"

namespace pawntb::python {

std::string play_text(py::handle position, py::handle moves) {
  const std::string_view text = position_text(position, "position");
  Position p = parse_valid_or_raise(text);
  if (PyUnicode_Check(moves.ptr())) {
    const std::string_view list = text_of(moves, "moves");
    const auto after = play_moves(p, list);
    if (const auto* e = std::get_if<ParseError>(&after)) {
      raise(errors.illegal_move, quoted(text) + ": " + e->message);
    }
    return format_position(std::get<Position>(after));
  }
  if (!py::isinstance<py::iterable>(moves) || PyBytes_Check(moves.ptr()) ||
      PyByteArray_Check(moves.ptr())) {
    throw py::type_error("moves must be a list of str, or one str of moves, not " +
                         type_name(moves));
  }
  int number = 0;
  for (py::handle m : py::iter(moves)) {
    ++number;
    if (!PyUnicode_Check(m.ptr())) {
      throw py::type_error("moves[" + std::to_string(number - 1) + "] must be a str, not " +
                           type_name(m) + " (moves is a list of str, or one str of moves)");
    }
    const std::string_view uci = text_of(m, "a move");
    const auto move = parse_move(p, uci);
    if (const auto* e = std::get_if<ParseError>(&move)) {
      raise(errors.illegal_move,
            quoted(text) + ": move " + std::to_string(number) + ": " + e->message);
    }
    p = play(p, std::get<Move>(move));
  }
  return format_position(p);
}

std::vector<std::string> legal_moves_of(py::handle position) {
  const Position p = parse_valid_or_raise(position_text(position, "position"));
  std::vector<std::string> out;
  for (const Move m : legal_moves(p)) out.push_back(move_name(p.geometry, m));
  return out;
}

}  // namespace pawntb::python
