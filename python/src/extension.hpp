// What the files of pawntb._pawntb share, one file a part: errors.cpp,
// results.cpp, pickling.cpp, tables.cpp, probe_many.cpp, rules.cpp,
// bitboards.cpp and docs.cpp; module.cpp binds them. Internal to the
// extension. Every function here is called with the GIL held (see THREADS in
// module.cpp).
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pawntb/notation.hpp"
#include "pawntb/probe.hpp"

namespace py = pybind11;
namespace fs = std::filesystem;

namespace pawntb::python {

// ---------------------------------------------------------------- errors.cpp

// The classes of pawntb/_errors.py, imported once when the module loads and
// kept for the life of the process.
struct ErrorTypes {
  py::handle error, missing_table, damaged_table, invalid_position, illegal_move;
};
extern ErrorTypes errors;

[[noreturn]] void raise(py::handle type, const std::string& message);

// A table that cannot be used: MissingTableError when it is not there,
// DamagedTableError when it is there but cannot be used.
[[noreturn]] void raise_table_error(const TableError& e, bool missing);

bool no_such_file(const fs::path& path);

// The text of a position or move argument: a str, which must encode as
// UTF-8. The view lives as long as the object.
std::string_view text_of(py::handle object, const char* what);

// A position's text: a str (see text_of) without the spaces, tabs and line
// ends around it, which the pawntb command's readers drop too.
std::string_view position_text(py::handle object, const char* what);

// "position '...'", for messages.
std::string quoted(std::string_view text);

Position parse_or_raise(std::string_view text);

// For play() and legal_moves(), which need no table: the rules alone.
Position parse_valid_or_raise(std::string_view text);

// Raises DamagedTableError for a probe of `table` that met a damaged block.
[[noreturn]] void raise_damaged(const Table& table);

// Raises the error of a probe that failed: the position's problem, naming
// the square or the table, or the damaged table.
void check_value(const Table& table, const Position& p, std::string_view text, ProbeResult r);

// ---------------------------------------------------------------- results.cpp

// What Result and Move share (pawntb._pawntb.Value): the value of a position
// (for a Move, of the one after it), for its side to move.
struct Value {
  Side to_move = Side::white;
  Side winner = Side::white;
  int plies = 0;  // to the end with best play; 0: the side to move has lost

  const char* category() const { return value_for(to_move, winner, plies).category; }
  // Plies signed for the side to move, as lichess's dtm: positive when it
  // wins, negative when it loses, 0 when it has lost already.
  int dtm() const { return value_for(to_move, winner, plies).dtm; }
  // Its fields by name, in the order of the reprs.
  void add_fields(py::dict& d) const;
};

// pawntb.Move: a legal move and the value of the position it leads to.
struct MoveAnswer : Value {
  std::string uci;
  std::string position;  // after the move

  py::dict fields() const;
};

// pawntb.Result: the value of a position. The moves and the line are found
// on first use (probe_root), so that probe() costs one lookup.
struct Answer : Value {
  // A copy, which shares the data, so that the moves can be found later;
  // none in an unpickled Result, whose moves came with it.
  std::optional<Table> table;
  Position position;
  std::shared_ptr<const RootResult> root;  // once asked for

  Answer(const Table& t, const Position& p, ProbeResult r)
      : Value{p.to_move, r.winner, r.plies}, table(t), position(p) {}
  Answer(const Position& p, std::shared_ptr<const RootResult> r)
      : Value{p.to_move, r->value.winner, r->value.plies}, position(p), root(std::move(r)) {}

  const RootResult& root_result();
  py::object best();
  py::object reason() const;
  std::vector<MoveAnswer> moves();
  std::vector<std::string> line();
  // Its fields by name, up to `best` or `moves` (the repr leaves them out).
  enum class Fields : std::uint8_t { value, best, moves };
  py::dict fields(Fields up_to);
};

// What makes two Moves or two Results equal, and their hash.
py::tuple key(const MoveAnswer& a);
py::tuple key(const Answer& a);

// __eq__: NotImplemented for another type, so that Python tries the other side.
template <class T>
py::object equal(const T& a, py::handle other) {
  if (!py::isinstance<T>(other)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
  return py::bool_(key(a).equal(key(other.cast<const T&>())));
}

template <class T>
py::ssize_t hash_of(const T& a) {
  return py::hash(key(a));
}

// "Name(key=value, ...)", each value's repr.
std::string repr_of(const char* name, const py::dict& fields);

// ---------------------------------------------------------------- pickling.cpp

// The pickled state of a Move or a Result, and back.
py::tuple state_of(const MoveAnswer& a);
py::tuple state_of(Answer& a);
MoveAnswer move_from_state(py::handle given);
Answer answer_from_state(py::handle given);

// ---------------------------------------------------------------- tables.cpp

// pawntb.Table: an open table until close().
class PyTable {
 public:
  explicit PyTable(Table table) : table_(std::move(table)), path_(table_->info().path.string()) {}

  // The table; once closed, ValueError, as Python's files raise. A copy:
  // see THREADS in module.cpp.
  Table get() const {
    if (!table_) throw py::value_error("the table " + path_ + " is closed");
    return *table_;
  }
  void close() { table_.reset(); }
  bool closed() const { return !table_; }
  const std::string& path() const { return path_; }

  // XXH3-64 of the file, read once (the file may be large).
  std::uint64_t file_checksum();

 private:
  std::optional<Table> table_;
  std::string path_;
  std::optional<std::uint64_t> checksum_;
};

PyTable open_table(const std::optional<fs::path>& path, std::optional<int> rows,
                   std::optional<int> cols, std::string_view load_name);

// The facts `pawntb info --json` prints, with the same keys in the same order.
py::dict info_of(PyTable& self);

// probe(): the Result of a position's text, or its error.
Answer probe_text(const Table& table, py::handle position);

// probe_wdl(): 1 when the side to move wins, -1 when it loses.
int wdl_of(const Table& table, py::handle position);

// probe_dtm(): Value::dtm().
int dtm_of(const Table& table, py::handle position);

// get(), get_wdl(), get_dtm(): `answer`, or `default_value` where it raises
// InvalidPositionError.
template <class Answer>
py::object or_default(const Answer& answer, py::object default_value) {
  try {
    return py::cast(answer());
  } catch (py::error_already_set& e) {
    if (!e.matches(errors.invalid_position)) throw;
    return default_value;
  }
}

// ---------------------------------------------------------------- probe_many.cpp

// Bit row * cols + col of the arrays has row 0 on white's home rank; the
// library's row 0 is the top row. So the rows are reversed: row r goes to
// rows - 1 - r, both ways. Bits off the board are kept as they are, so that
// the probe still sees them, off the board, and answers the position as
// invalid. Example, 4x4: a2 is bit 4 (row 1, col 0) here and bit 8 (row 2)
// there.
[[gnu::always_inline]] constexpr std::uint64_t flip_rows(std::uint64_t bits, int rows, int cols) {
  const std::uint64_t row_mask = (std::uint64_t{1} << cols) - 1;
  std::uint64_t out = rows * cols == 64 ? 0 : bits & (~std::uint64_t{0} << (rows * cols % 64));
  for (int r = 0; r < rows; ++r)
    out |= ((bits >> (r * cols)) & row_mask) << ((rows - 1 - r) * cols);
  return out;
}
static_assert(flip_rows(std::uint64_t{1} << 4, 4, 4) == std::uint64_t{1} << 8);

// numpy, imported when arrays are first given (pybind11's numpy support too
// imports it on first use): `import pawntb` and the functions of texts work
// without it. The message says how to install it into the Python in use (a
// venv's, pyenv's), where Debian's package would not reach.
py::module_ import_numpy(const char* function);

using Bits = py::array_t<std::uint64_t, py::array::c_style | py::array::forcecast>;
using Flags = py::array_t<bool, py::array::c_style | py::array::forcecast>;

// The arrays white, black and white_to_move as probe_many() and
// from_bitboards() take them: broadcast to one shape, C order.
struct BoardArrays {
  Bits white, black;
  Flags white_to_move;
  std::vector<py::ssize_t> shape;
  std::size_t size = 0;
};

BoardArrays board_arrays(const char* function, py::handle white, py::handle black,
                         py::handle white_to_move);

// A type's name for a message: "numpy.ndarray", "int".
std::string type_name(py::handle object);

// The texts of a list of positions (which must outlive them), for
// probe_many() and to_bitboards(), parsed up to the first that is not a
// position: its error, naming its index, is in `not_a_position`.
struct ListedPositions {
  std::vector<py::object> objects;
  std::vector<std::string_view> texts;
  std::vector<Position> parsed;
  std::optional<py::error_already_set> not_a_position;
};

void read_positions(ListedPositions& out, py::handle positions, const char* function,
                    const char* takes);

[[noreturn]] void raise_not_a_position(const ListedPositions& given);

// The three arrays (or lists of numbers) of a tuple, not texts: the one
// argument form of probe_many() and from_bitboards().
std::optional<py::tuple> three_arrays(py::handle only);

py::object probe_many(PyTable& self, const py::args& args, const py::kwargs& kwargs);

// ---------------------------------------------------------------- rules.cpp

// play(): the position after the moves.
std::string play_text(py::handle position, py::handle moves);

// legal_moves(): UCI, in board order.
std::vector<std::string> legal_moves_of(py::handle position);

// ---------------------------------------------------------------- bitboards.cpp

// to_bitboards([text, ...]): the arrays (white, black, white_to_move) that
// probe_many() takes, of positions of one board size.
py::tuple to_bitboards(py::handle positions);

// from_bitboards(white, black, white_to_move, rows=, cols=): the positions'
// texts, in C order of the broadcast arrays.
py::list from_bitboards(const py::args& args, int rows, int cols);

// ---------------------------------------------------------------- docs.cpp

// Docstrings, as const char* (pybind11 takes that as a docstring).
extern const char* const kModuleDoc;
extern const char* const kOpenTableDoc;
extern const char* const kProbeDoc;
extern const char* const kProbeManyDoc;
extern const char* const kToBitboardsDoc;
extern const char* const kFromBitboardsDoc;

}  // namespace pawntb::python
