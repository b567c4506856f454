// to_bitboards() and from_bitboards(): position texts to the arrays
// probe_many() takes, and back.
#include <bit>
#include <string>

#include "extension.hpp"

namespace pawntb::python {

py::tuple to_bitboards(py::handle positions) {
  ListedPositions given;
  read_positions(given, positions, "to_bitboards()",
                 "to_bitboards() takes a list of position strs");
  if (given.not_a_position) raise_not_a_position(given);
  import_numpy("to_bitboards()");
  const auto n = static_cast<py::ssize_t>(given.parsed.size());
  py::array_t<std::uint64_t> white(n), black(n);
  py::array_t<bool> white_to_move(n);
  std::uint64_t* w = white.mutable_data();
  std::uint64_t* b = black.mutable_data();
  bool* t = white_to_move.mutable_data();
  for (py::ssize_t i = 0; i < n; ++i) {
    const Position& p = given.parsed[static_cast<std::size_t>(i)];
    const Geometry g = p.geometry;
    if (g != given.parsed.front().geometry) {
      raise(errors.invalid_position,
            "positions[" + std::to_string(i) + "]: " + quoted(given.texts[i]) + " is " +
                to_string(g) + ", positions[0] " + to_string(given.parsed.front().geometry) +
                ": the arrays hold positions of one board size");
    }
    w[i] = flip_rows(p.white, g.rows, g.cols);
    b[i] = flip_rows(p.black, g.rows, g.cols);
    t[i] = p.to_move == Side::white;
  }
  return py::make_tuple(white, black, white_to_move);
}

py::list from_bitboards(const py::args& args, int rows, int cols) {
  const Geometry g{rows, cols};
  if (!g.valid()) {
    throw py::value_error(
        "from_bitboards(): rows and cols must each be 3..8, with rows * cols <= " +
        std::to_string(kMaxSquares) + ", not " + std::to_string(rows) + " and " +
        std::to_string(cols));
  }
  std::optional<py::tuple> three;
  if (args.size() == 3) three = py::tuple(args);
  if (args.size() == 1) three = three_arrays(args[0]);
  if (!three) {
    throw py::type_error(
        "from_bitboards() takes the three arrays white, black and white_to_move, "
        "or one tuple of them");
  }
  const BoardArrays given = board_arrays("from_bitboards()", (*three)[0], (*three)[1], (*three)[2]);
  const std::uint64_t off_board = g.squares() == 64 ? 0 : ~std::uint64_t{0} << g.squares();
  py::list out(given.size);
  for (std::size_t i = 0; i < given.size; ++i) {
    const Position p{g, flip_rows(given.white.data()[i], rows, cols),
                     flip_rows(given.black.data()[i], rows, cols),
                     given.white_to_move.data()[i] ? Side::white : Side::black};
    const std::string where = "from_bitboards(): position " + std::to_string(i) + ": ";
    if ((p.white | p.black) & off_board) {
      throw py::value_error(where + "a pawn off the " + to_string(g) + " board (a bit above bit " +
                            std::to_string(g.squares() - 1) + ")");
    }
    if (p.white & p.black) {
      throw py::value_error(where + "a white and a black pawn are both on " +
                            square_name(g, std::countr_zero(p.white & p.black)));
    }
    out[i] = format_position(p);
  }
  return out;
}

}  // namespace pawntb::python
