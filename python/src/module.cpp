// pawntb._pawntb: the probe library for Python, with pybind11. The package
// pawntb (python/pawntb/__init__.py) re-exports these names; the exception
// classes are defined in Python (python/pawntb/_errors.py) and raised from
// here. Only the public headers of pawntb::probe and pawntb::game are used.
//
// THREADS. Everything runs with the GIL held except opening a table, the
// file checksum of info() and the work of probe_many(), which release it;
// each of those holds its own copy of the Table (copies share the data), so
// that close() from another thread never pulls the table away under them.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <type_traits>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <variant>
#include <vector>

#include "pawntb/notation.hpp"
#include "pawntb/pawntb.h"
#include "pawntb/probe.hpp"
#include "pawntb/util/threads.hpp"

namespace py = pybind11;
namespace fs = std::filesystem;

namespace pawntb::python {
namespace {

// ---------------------------------------------------------------- errors

// The classes of pawntb/_errors.py, imported once when the module loads and
// kept for the life of the process.
struct ErrorTypes {
  py::handle error, missing_table, damaged_table, invalid_position, illegal_move;
};
ErrorTypes errors;

[[noreturn]] void raise(py::handle type, const std::string& message) {
  PyErr_SetString(type.ptr(), message.c_str());
  throw py::error_already_set();
}

// A table that cannot be used: MissingTableError when it is not there,
// DamagedTableError when it is there but cannot be used.
[[noreturn]] void raise_table_error(const TableError& e, bool missing) {
  raise(missing ? errors.missing_table : errors.damaged_table, e.what());
}

bool no_such_file(const fs::path& path) {
  std::error_code ec;
  return !fs::exists(path, ec);
}

// The text of a position or move argument: a str, which must encode as
// UTF-8. The view lives as long as the object.
std::string_view text_of(py::handle object, const char* what) {
  if (!PyUnicode_Check(object.ptr())) {
    throw py::type_error(std::string(what) + " must be a str, not " +
                         Py_TYPE(object.ptr())->tp_name);
  }
  Py_ssize_t size = 0;
  const char* data = PyUnicode_AsUTF8AndSize(object.ptr(), &size);
  if (data == nullptr) {
    PyErr_Clear();
    raise(errors.invalid_position,
          std::string(what) + " is not valid text (not encodable as UTF-8)");
  }
  return {data, static_cast<std::size_t>(size)};
}

std::string quoted(std::string_view text) {
  return "position '" + printable(text) + "'";
}

Position parse_or_raise(std::string_view text) {
  auto parsed = parse_position(text);
  if (const auto* e = std::get_if<ParseError>(&parsed)) {
    raise(errors.invalid_position, quoted(text) + ": " + e->message);
  }
  return std::get<Position>(parsed);
}

// For play() and legal_moves(), which need no table: the rules alone.
Position parse_valid_or_raise(std::string_view text) {
  const Position p = parse_or_raise(text);
  if (classify(p) == Status::invalid) {
    raise(errors.invalid_position, quoted(text) + ": " + invalid_reason(p));
  }
  return p;
}

[[noreturn]] void raise_damaged(const Table& table) {
  raise(errors.damaged_table,
        table.info().path.string() + ": " + describe(ProbeStatus::damaged_table));
}

// Raises the error of a probe that failed: the position's problem, naming
// the square or the table, or the damaged table.
void check_value(const Table& table, const Position& p, std::string_view text, ProbeResult r) {
  switch (r.status) {
    case ProbeStatus::ok:
      return;
    case ProbeStatus::invalid_position: {
      const std::string reason = invalid_reason(p);
      raise(errors.invalid_position,
            quoted(text) + ": " + (reason.empty() ? describe(r.status) : reason));
    }
    case ProbeStatus::geometry_mismatch:
    case ProbeStatus::too_many_pawns:
      raise(errors.invalid_position, quoted(text) + ": " + probe_problem(table, p, r));
    case ProbeStatus::damaged_table:
      raise_damaged(table);
  }
  raise(errors.error, quoted(text) + ": " + describe(r.status));
}

// ---------------------------------------------------------------- results

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
};

// pawntb.Move: a legal move and the value of the position it leads to.
struct MoveAnswer : Value {
  std::string uci;
  std::string position;  // after the move
};

// pawntb.Result: the value of a position. The moves and the line are found
// on first use (probe_root), so that probe() costs one lookup.
struct Answer : Value {
  Table table;  // a copy: shares the data, so the moves can be found later
  Position position;
  std::shared_ptr<const RootResult> root;  // once asked for

  Answer(const Table& t, const Position& p, ProbeResult r)
      : Value{p.to_move, r.winner, r.plies}, table(t), position(p) {}

  const RootResult& root_result() {
    if (!root) {
      auto found = std::make_shared<const RootResult>(table.probe_root(position));
      if (!found->value.ok()) raise_damaged(table);
      root = std::move(found);
    }
    return *root;
  }
  py::object best() {
    const RootResult& r = root_result();
    if (r.moves.empty()) return py::none();
    return py::str(move_name(position.geometry, r.moves.front().move));
  }
  std::vector<MoveAnswer> moves() {
    const RootResult& r = root_result();
    std::vector<MoveAnswer> out;
    out.reserve(r.moves.size());
    for (const MoveValue& m : r.moves) {
      out.push_back(MoveAnswer{{opponent(position.to_move), m.winner, m.plies},
                               move_name(position.geometry, m.move),
                               format_position(play(position, m.move))});
    }
    return out;
  }
  std::vector<std::string> line() {
    std::vector<std::string> out;
    for (const Move m : root_result().principal_variation) {
      out.push_back(move_name(position.geometry, m));
    }
    return out;
  }
};

// What makes two Moves or two Results equal, and their hash.
py::tuple key(const MoveAnswer& a) {
  return py::make_tuple(a.uci, a.position, side_name(a.winner), a.plies);
}
py::tuple key(const Answer& a) {
  return py::make_tuple(format_position(a.position), side_name(a.winner), a.plies);
}

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

// ---------------------------------------------------------------- tables

// pawntb.Table: an open table until close().
class PyTable {
 public:
  explicit PyTable(Table table) : table_(std::move(table)), path_(table_->info().path.string()) {}

  // The table, or pawntb.Error once closed. A copy: see THREADS above.
  Table get() const {
    if (!table_) raise(errors.error, "the table " + path_ + " is closed");
    return *table_;
  }
  void close() { table_.reset(); }
  bool closed() const { return !table_; }
  const std::string& path() const { return path_; }

  // XXH3-64 of the file, read once (the file may be large).
  std::uint64_t file_checksum() {
    if (!checksum_) {
      const Table table = get();
      std::uint64_t sum = 0;
      std::optional<TableError> failed;
      {
        py::gil_scoped_release release;
        try {
          sum = pawntb::file_checksum(table.info().path);
        } catch (const TableError& e) {
          failed = e;
        }
      }
      if (failed) raise_table_error(*failed, no_such_file(table.info().path));
      checksum_ = sum;
    }
    return *checksum_;
  }

 private:
  std::optional<Table> table_;
  std::string path_;
  std::optional<std::uint64_t> checksum_;
};

Table::Load load_named(std::string_view load) {
  if (load == "automatic") return Table::Load::automatic;
  if (load == "all") return Table::Load::all;
  if (load == "on_demand") return Table::Load::on_demand;
  throw py::value_error("load must be 'automatic', 'all' or 'on_demand', not '" + printable(load) +
                        "'");
}

// open() with the GIL released; its TableError is raised as a missing table
// if missing() says so afterwards, else as a damaged one.
template <class Open, class Missing>
Table open_without_gil(const Open& open, const Missing& missing) {
  std::optional<TableError> failed;
  std::optional<Table> table;
  {
    py::gil_scoped_release release;
    try {
      table.emplace(open());
    } catch (const TableError& e) {
      failed = e;
    }
  }
  if (failed) raise_table_error(*failed, missing());
  return *std::move(table);
}

PyTable open_table(const std::optional<fs::path>& path, std::optional<int> rows,
                   std::optional<int> cols, std::string_view load_name) {
  if (rows.has_value() != cols.has_value()) {
    throw py::value_error("open_table(): give rows and cols together, or neither");
  }
  const Table::Load load = load_named(load_name);
  std::optional<Geometry> wanted;
  if (rows) {
    wanted = Geometry{*rows, *cols};
    if (!wanted->valid()) {
      throw py::value_error("open_table(): rows and cols must each be 3..8, with rows * cols <= " +
                            std::to_string(kMaxSquares) + ", not " + std::to_string(*rows) +
                            " and " + std::to_string(*cols));
    }
  }
  if (!path && wanted) {
    // As the pawntb command searches: "no table for 8x8 (looked in: ...)".
    return PyTable(open_without_gil([&] { return Table::open_for(*wanted, load); },
                                    [&] { return !Table::find(*wanted); }));
  }
  fs::path file;
  std::error_code ec;
  if (!path) {
    try {
      file = Table::default_path();
    } catch (const TableError& e) {
      raise_table_error(e, true);
    }
  } else if (fs::is_directory(*path, ec)) {
    const Geometry g = wanted.value_or(Geometry{4, 4});
    const auto found = Table::find_in(*path, g);
    if (!found) {
      raise(errors.missing_table, "no table for " + to_string(g) + " in " + path->string() +
                                      " (no file " + to_string(g) + "-kK.pawntb)");
    }
    file = *found;
  } else {
    file = *path;
  }
  Table table =
      open_without_gil([&] { return Table::open(file, load); }, [&] { return no_such_file(file); });
  if (wanted && table.info().geometry != *wanted) {
    raise(errors.missing_table, "no table for " + to_string(*wanted) + ": " + file.string() +
                                    " is a table for " + to_string(table.info().geometry));
  }
  return PyTable(std::move(table));
}

// The facts `pawntb info --json` prints, with the same keys in the same order.
py::dict info_of(PyTable& self) {
  const Table table = self.get();
  const TableInfo& i = table.info();
  const std::uint64_t checksum = self.file_checksum();
  py::dict d;
  for (const InfoField& field : info_fields(i, checksum, checksum_listing(i.path, checksum))) {
    d[field.key] = std::visit(
        [](const auto& value) -> py::object {
          if constexpr (std::is_same_v<std::decay_t<decltype(value)>, InfoObject>) {
            py::dict object;  // in order, as the JSON's keys
            for (const auto& [key, number] : value) object[py::str(key)] = number;
            return std::move(object);
          } else {
            return py::cast(value);
          }
        },
        field.value);
  }
  return d;
}

Answer probe_text(const Table& table, py::handle position) {
  const std::string_view text = text_of(position, "position");
  const Position p = parse_or_raise(text);
  const ProbeResult r = table.probe(p);
  check_value(table, p, text, r);
  return Answer(table, p, r);
}

// ---------------------------------------------------------------- probe_many

// Bit row * cols + col of the arrays has row 0 on white's home rank; the
// library's row 0 is the top row. So the rows are reversed: row r goes to
// rows - 1 - r. Bits off the board are kept as they are, so that the probe
// still sees them, off the board, and answers the position as invalid.
// Example, 4x4: a2 is bit 4 (row 1, col 0) here and bit 8 (row 2) there.
// The board size is a template argument, so that the loop unrolls and the
// shifts are constants (shifts by a register cost several times more).
template <int Rows, int Cols>
struct RowFlip {
  static constexpr std::uint64_t kRowMask = (std::uint64_t{1} << Cols) - 1;
  static constexpr std::uint64_t kOffBoard =
      Rows * Cols == 64 ? 0 : ~std::uint64_t{0} << (Rows * Cols % 64);
  std::uint64_t operator()(std::uint64_t bits) const {
    std::uint64_t out = bits & kOffBoard;
    for (int r = 0; r < Rows; ++r)
      out |= ((bits >> (r * Cols)) & kRowMask) << ((Rows - 1 - r) * Cols);
    return out;
  }
};
static_assert(sizeof(std::uint64_t) * 8 == kMaxSquares);

struct ArraysIn {
  const std::uint64_t* white;
  const std::uint64_t* black;
  const bool* white_to_move;
};
struct ArraysOut {
  std::int8_t* winner;  // 1 white, -1 black, 0 no answer
  std::int16_t* plies;  // -1 with no answer
};

// Answers positions [begin, end) in groups, so that probe_many() overlaps
// the lookups of a group. Returns true if a block of the table is damaged.
template <int Rows, int Cols>
bool answer_range(const Table& table, ArraysIn in, ArraysOut out, std::size_t begin,
                  std::size_t end) noexcept {
  constexpr std::size_t kGroup = 256;
  constexpr Geometry g{Rows, Cols};
  const RowFlip<Rows, Cols> flip;
  Position positions[kGroup];
  ProbeResult results[kGroup];
  bool damaged = false;
  for (std::size_t first = begin; first < end; first += kGroup) {
    const std::size_t count = std::min(kGroup, end - first);
    for (std::size_t j = 0; j < count; ++j) {
      const std::size_t i = first + j;
      positions[j] = Position{g, flip(in.white[i]), flip(in.black[i]),
                              in.white_to_move[i] ? Side::white : Side::black};
    }
    table.probe_many(positions, count, results);
    for (std::size_t j = 0; j < count; ++j) {
      const ProbeResult r = results[j];
      const bool ok = r.ok();
      out.winner[first + j] = static_cast<std::int8_t>(ok ? (r.winner == Side::white ? 1 : -1) : 0);
      out.plies[first + j] = static_cast<std::int16_t>(ok ? r.plies : -1);
      damaged |= r.status == ProbeStatus::damaged_table;
    }
  }
  return damaged;
}

// answer_range<rows, cols>, for every board size, at
// kAnswerRange[(rows - kMinSide) * kSides + cols - kMinSide].
constexpr int kSides = kMaxSide - kMinSide + 1;
using AnswerRange = bool (*)(const Table&, ArraysIn, ArraysOut, std::size_t, std::size_t) noexcept;
template <int... I>
constexpr std::array<AnswerRange, sizeof...(I)> answer_ranges(std::integer_sequence<int, I...>) {
  return {&answer_range<kMinSide + I / kSides, kMinSide + I % kSides>...};
}
constexpr auto kAnswerRange = answer_ranges(std::make_integer_sequence<int, kSides * kSides>{});

bool answer_range(const Table& table, ArraysIn in, ArraysOut out, std::size_t begin,
                  std::size_t end) noexcept {
  const Geometry g = table.info().geometry;
  return kAnswerRange[(g.rows - kMinSide) * kSides + g.cols - kMinSide](table, in, out, begin, end);
}

// At least this many positions a thread: fewer are answered sooner than a
// thread starts (about 3 ms of work at 20 M positions/s).
constexpr std::size_t kPositionsPerThread = std::size_t{1} << 16;

unsigned thread_count(std::size_t n, unsigned asked) {
  return static_cast<unsigned>(std::max<std::size_t>(
      1, std::min<std::size_t>(pawntb::util::thread_count(asked), n / kPositionsPerThread)));
}

// Answers n positions on up to `threads` threads (the caller's among them),
// without the GIL: pawntb's one thread pool (a helper that cannot start
// leaves its parts to the others). Returns true if a block of the table is
// damaged.
bool answer_arrays(const Table& table, ArraysIn in, ArraysOut out, std::size_t n,
                   unsigned threads) {
  const unsigned parts = thread_count(n, threads);
  const std::size_t per_part = (n + parts - 1) / parts;
  std::atomic<bool> damaged{false};
  pawntb::util::parallel_for("python", parts, parts, [&](std::uint64_t part, unsigned) {
    const std::size_t begin = std::min<std::size_t>(n, part * per_part);
    const std::size_t end = std::min(n, begin + per_part);
    if (answer_range(table, in, out, begin, end)) damaged = true;
  });
  return damaged;
}

// numpy, imported when arrays are first given (pybind11's numpy support too
// imports it on first use): `import pawntb` and the functions of texts work
// without it.
py::module_ import_numpy() {
  try {
    return py::module_::import("numpy");
  } catch (py::error_already_set& e) {
    if (!e.matches(PyExc_ModuleNotFoundError)) throw;
    py::raise_from(e, PyExc_ModuleNotFoundError,
                   "probe_many() with arrays needs numpy, which this Python lacks: install it "
                   "(Debian: python3-numpy, in a venv made with --system-site-packages), or "
                   "give probe_many() a list of positions");
    throw py::error_already_set();
  }
}

// probe_many((white, black, white_to_move)): numpy in, numpy out.
py::tuple probe_arrays(const Table& table, py::handle white, py::handle black,
                       py::handle white_to_move, unsigned threads) {
  const py::module_ numpy = import_numpy();
  const auto check_kind = [&](py::handle given, const char* name, const char* kinds) {
    const py::array a = numpy.attr("asarray")(given);
    const char kind = a.dtype().kind();
    if (std::string_view(kinds).find(kind) == std::string_view::npos) {
      throw py::type_error(std::string("probe_many(): ") + name + " must be an array of " +
                           (std::string_view(kinds) == "iu" ? "integers" : "booleans") +
                           ", not of dtype " + py::str(a.dtype()).cast<std::string>());
    }
    return a;
  };
  const py::tuple arrays = numpy.attr("broadcast_arrays")(
      check_kind(white, "white", "iu"), check_kind(black, "black", "iu"),
      check_kind(white_to_move, "white_to_move", "biu"));
  using Bits = py::array_t<std::uint64_t, py::array::c_style | py::array::forcecast>;
  using Flags = py::array_t<bool, py::array::c_style | py::array::forcecast>;
  const Bits w = Bits::ensure(arrays[0]), b = Bits::ensure(arrays[1]);
  const Flags t = Flags::ensure(arrays[2]);
  if (!w || !b || !t) throw py::error_already_set();
  const std::vector<py::ssize_t> shape(w.shape(), w.shape() + w.ndim());
  py::array_t<std::int8_t> winner(shape);
  py::array_t<std::int16_t> plies(shape);
  const ArraysIn in{w.data(), b.data(), t.data()};
  const ArraysOut out{winner.mutable_data(), plies.mutable_data()};
  const auto n = static_cast<std::size_t>(w.size());
  bool damaged = false;
  {
    py::gil_scoped_release release;
    damaged = answer_arrays(table, in, out, n, threads);
  }
  if (damaged) raise_damaged(table);
  return py::make_tuple(winner, plies);
}

// Raises the error of positions[index], naming its index.
void check_item(const Table& table, const Position& p, py::handle text, ProbeResult r,
                std::size_t index) {
  try {
    check_value(table, p, text_of(text, "a position"), r);
  } catch (py::error_already_set& e) {
    if (!e.matches(errors.invalid_position)) throw;
    raise(errors.invalid_position,
          "positions[" + std::to_string(index) + "]: " + py::str(e.value()).cast<std::string>());
  }
}

// probe_many([text, ...]): a Result for each, or the error of the first
// position that has none.
py::list probe_texts(const Table& table, py::handle positions) {
  if (PyUnicode_Check(positions.ptr())) {
    throw py::type_error("probe_many() takes a list of positions, not one str: use probe()");
  }
  std::vector<py::object> texts;
  for (py::handle item : py::iter(positions))
    texts.push_back(py::reinterpret_borrow<py::object>(item));
  // Parsed up to the first text that is not a position, if any.
  std::vector<Position> parsed;
  parsed.reserve(texts.size());
  std::optional<py::error_already_set> not_a_position;
  for (const py::object& text : texts) {
    try {
      parsed.push_back(parse_or_raise(text_of(text, "a position")));
    } catch (py::error_already_set& e) {
      if (!e.matches(errors.invalid_position)) throw;
      not_a_position.emplace(std::move(e));
      break;
    }
  }
  std::vector<ProbeResult> results(parsed.size());
  {
    py::gil_scoped_release release;
    table.probe_many(parsed.data(), parsed.size(), results.data());
  }
  for (std::size_t i = 0; i < parsed.size(); ++i) {
    if (!results[i].ok()) check_item(table, parsed[i], texts[i], results[i], i);
  }
  if (not_a_position) {
    raise(errors.invalid_position, "positions[" + std::to_string(parsed.size()) + "]: " +
                                       py::str(not_a_position->value()).cast<std::string>());
  }
  py::list out(parsed.size());
  for (std::size_t i = 0; i < parsed.size(); ++i) {
    out[i] = py::cast(Answer(table, parsed[i], results[i]));
  }
  return out;
}

py::object probe_many(PyTable& self, const py::args& args, const py::kwargs& kwargs) {
  unsigned threads = 0;
  std::vector<py::object> given;
  for (py::handle a : args) given.push_back(py::reinterpret_borrow<py::object>(a));
  std::optional<py::object> positions, white, black, white_to_move;
  for (const auto& [key, value] : kwargs) {
    const std::string name = py::str(key);
    if (name == "threads") {
      if (!PyLong_Check(value.ptr()) || PyBool_Check(value.ptr())) {
        throw py::type_error("probe_many(): threads must be an int");
      }
      const auto n = value.cast<long long>();
      if (n < 0) throw py::value_error("probe_many(): threads must be >= 0 (0: one per core)");
      threads = static_cast<unsigned>(std::min<long long>(n, 1024));
    } else if (name == "positions") {
      positions = py::reinterpret_borrow<py::object>(value);
    } else if (name == "white") {
      white = py::reinterpret_borrow<py::object>(value);
    } else if (name == "black") {
      black = py::reinterpret_borrow<py::object>(value);
    } else if (name == "white_to_move") {
      white_to_move = py::reinterpret_borrow<py::object>(value);
    } else {
      throw py::type_error("probe_many() got an unexpected keyword argument '" + name + "'");
    }
  }
  // Keywords take the places after the positional arguments.
  if (positions) given.push_back(*positions);
  if (white) given.push_back(*white);
  if (black) given.push_back(*black);
  if (white_to_move) given.push_back(*white_to_move);
  const Table table = self.get();
  if (given.size() == 1) {
    const py::object& only = given.front();
    // A tuple of three arrays (or lists of numbers), not of texts.
    if (py::isinstance<py::tuple>(only) && py::len(only) == 3) {
      const py::tuple three = only;
      if (!PyUnicode_Check(three[0].ptr()) && !PyUnicode_Check(three[1].ptr()) &&
          !PyUnicode_Check(three[2].ptr())) {
        return probe_arrays(table, three[0], three[1], three[2], threads);
      }
    }
    return probe_texts(table, only);
  }
  if (given.size() == 3) return probe_arrays(table, given[0], given[1], given[2], threads);
  throw py::type_error(
      "probe_many() takes a list of positions, or the arrays white, black and white_to_move");
}

// ---------------------------------------------------------------- rules

std::string play_text(py::handle position, py::handle moves) {
  const std::string_view text = text_of(position, "position");
  Position p = parse_valid_or_raise(text);
  if (PyUnicode_Check(moves.ptr())) {
    const auto after = play_moves(p, text_of(moves, "moves"));
    if (const auto* e = std::get_if<ParseError>(&after)) {
      raise(errors.illegal_move, quoted(text) + ": " + e->message);
    }
    return format_position(std::get<Position>(after));
  }
  if (!py::isinstance<py::iterable>(moves)) {
    throw py::type_error(std::string("moves must be a list of str, not ") +
                         Py_TYPE(moves.ptr())->tp_name);
  }
  int number = 0;
  for (py::handle m : py::iter(moves)) {
    ++number;
    const auto move = parse_move(p, text_of(m, "a move"));
    if (const auto* e = std::get_if<ParseError>(&move)) {
      raise(errors.illegal_move,
            quoted(text) + ": move " + std::to_string(number) + ": " + e->message);
    }
    p = play(p, std::get<Move>(move));
  }
  return format_position(p);
}

std::vector<std::string> legal_moves_of(py::handle position) {
  const Position p = parse_valid_or_raise(text_of(position, "position"));
  std::vector<std::string> out;
  for (const Move m : legal_moves(p)) out.push_back(move_name(p.geometry, m));
  return out;
}

// ---------------------------------------------------------------- docs

constexpr char kModuleDoc[] =
    R"doc(pawntb's compiled core; use the package pawntb, which re-exports it.)doc";

constexpr char kOpenTableDoc[] = R"doc(Opens a table and returns a Table.

- ``open_table()``: the default table, for 4x4 boards (``$PAWNTB_TABLE`` when
  it names a file, else the first 4x4 table on the search path).
- ``open_table(rows=3, cols=3)``: the table for that board size on the search
  path, as the ``pawntb`` command finds it.
- ``open_table(path)``: that file; or, when path is a directory, the table in
  it for ``rows`` x ``cols`` (4x4 when not given).

``load`` is ``"automatic"`` (decode at open up to 64 MiB of entries, on first
use above), ``"all"`` (decode and check every block now) or ``"on_demand"``.

Raises MissingTableError when there is no such table, DamagedTableError when
the file is there but cannot be used (not a table, a checksum fails, other
rules), ValueError for rows or cols out of range.)doc";

constexpr char kProbeDoc[] = R"doc(The value of a position, e.g. ``probe("pppp/4/4/PPPP w")``.

Positions are written rows from the top, ``/`` between rows, a digit for that
many empty squares, then ``w`` or ``b`` for the side to move. Returns a
Result. Raises InvalidPositionError (a ValueError) for text that is not a
position, a position the rules do not allow, or one this table does not
cover (another board size, more pawns than the table's limit), and
DamagedTableError when the part of the table it needs fails its checksum.)doc";

constexpr char kProbeManyDoc[] = R"doc(Many values at once.

- ``probe_many(positions)``: a list of position texts gives a list of
  Result; the first bad one raises as probe() does, naming its index.
- ``probe_many(white, black, white_to_move)``, or the three as one tuple:
  numpy arrays of one shape (or shapes that broadcast). ``white`` and
  ``black`` are uint64 bitboards: bit ``row * cols + col`` is the square of
  file ``col`` (a = 0) on rank ``row + 1``, so white's home rank is row 0.
  ``white_to_move`` is bool. Returns ``(winner, plies)``: winner int8, 1 when
  white wins, -1 when black wins, 0 for a position the table does not answer
  (invalid by the rules, off the board, or more pawns than the table's
  limit), and plies int16, -1 for those.

The work runs without the GIL; arrays of 65,536 positions or more are split
over ``threads`` threads (0, the default: one per core; 1: this thread only).
Raises DamagedTableError when a block of the table fails its checksum, and
ModuleNotFoundError for arrays when numpy is not installed (texts need no
numpy).)doc";

}  // namespace
}  // namespace pawntb::python

PYBIND11_MODULE(_pawntb, m) {
  using namespace pawntb;          // NOLINT: the library's names, throughout
  using namespace pawntb::python;  // NOLINT
  m.doc() = kModuleDoc;
  {
    const py::module_ e = py::module_::import("pawntb._errors");
    // Kept for the life of the process (released never, so that no
    // destructor runs at interpreter exit).
    const auto keep = [&](const char* name) { return py::object(e.attr(name)).release(); };
    errors = ErrorTypes{keep("Error"), keep("MissingTableError"), keep("DamagedTableError"),
                        keep("InvalidPositionError"), keep("IllegalMoveError")};
  }
  m.attr("__version__") = pawntb_version();

  py::class_<Value>(m, "Value", R"doc(What Result and Move share: a position's value.

``winner`` (``"white"`` or ``"black"``) wins in ``plies`` plies with best play
(the winner as fast as it can, the loser as slowly); 0 plies: the side to move
has lost already. ``dtm`` is the plies signed for the side to move (positive:
it wins, negative: it loses, 0: it has lost), as lichess's; ``category`` is
``"win"`` or ``"loss"`` for the side to move.)doc")
      .def_property_readonly(
          "to_move", [](const Value& v) { return side_name(v.to_move); },
          "'white' or 'black': the side to move")
      .def_property_readonly(
          "winner", [](const Value& v) { return side_name(v.winner); },
          "'white' or 'black': who wins with best play")
      .def_readonly("plies", &Value::plies,
                    "plies to the end with best play; 0 when the side to move has lost already")
      .def_property_readonly(
          "dtm", &Value::dtm,
          "plies signed for the side to move: positive when it wins, negative when it loses, 0 "
          "when it has lost")
      .def_property_readonly("category", &Value::category, "'win' or 'loss', for the side to move");

  py::class_<MoveAnswer, Value>(m, "Move",
                                R"doc(A legal move and the value of the position it leads to.

``uci`` is the move (``"c2c3"``) and ``position`` the position after it. The
value (``winner``, ``plies``, ``category``, ``dtm``, ``to_move``) is that of
the position after the move, for its side to move: a winning move shows
``"loss"`` and a negative dtm, as in the lichess API.)doc")
      .def_readonly("uci", &MoveAnswer::uci, "the move, from-square then to-square: 'c2c3'")
      .def_readonly("position", &MoveAnswer::position, "the position after the move")
      .def("__eq__", &equal<MoveAnswer>)
      .def("__hash__", &hash_of<MoveAnswer>)
      .def("__repr__", [](const MoveAnswer& a) {
        return "Move(uci='" + a.uci + "', winner='" + side_name(a.winner) +
               "', plies=" + std::to_string(a.plies) + ", category='" + a.category() +
               "', position='" + a.position + "')";
      });

  py::class_<Answer, Value>(m, "Result", R"doc(The value of a position, from Table.probe().

``winner``, ``plies``, ``dtm``, ``category`` and ``to_move`` are its value for
the side to move (see Value); ``position`` is its canonical text; ``reason``
says why the game is over when ``plies`` is 0. ``best`` and ``moves`` are
found on first use.)doc")
      .def_property_readonly(
          "position", [](const Answer& a) { return format_position(a.position); },
          "the position, in canonical text: '1ppp/4/1PPP/4 w'")
      .def_property_readonly("best", &Answer::best,
                             "the best move (UCI, 'c2c3'), or None when the game is over")
      .def_property_readonly(
          "reason",
          [](const Answer& a) -> py::object {
            const char* name = a.plies == 0 ? game_end_name(game_end(a.position)) : nullptr;
            return name ? py::object(py::str(name)) : py::object(py::none());
          },
          "why the game is over ('goal', 'no_pawns' or 'no_moves', as the JSON's "
          "\"reason\"), or None while it goes on")
      .def_property_readonly("moves", &Answer::moves,
                             "every legal move (a list of Move), best first: the fastest wins, "
                             "then the longest losses, ties in board order")
      .def("__eq__", &equal<Answer>)
      .def("__hash__", &hash_of<Answer>)
      .def("__repr__", [](const Answer& a) {
        return "Result(position='" + format_position(a.position) + "', winner='" +
               side_name(a.winner) + "', plies=" + std::to_string(a.plies) +
               ", dtm=" + std::to_string(a.dtm()) + ", category='" + a.category() + "')";
      });

  py::class_<PyTable>(m, "Table", R"doc(An open table; from open_table().

Any number of threads may use one Table at once. It is a context manager:
``with pawntb.open_table() as t:`` closes it at the end of the block. Results
already returned keep working after close().)doc")
      .def(
          "probe",
          [](const PyTable& self, py::handle position) { return probe_text(self.get(), position); },
          py::arg("position"), kProbeDoc)
      .def(
          "get",
          [](const PyTable& self, py::handle position, py::object default_value) -> py::object {
            const Table table = self.get();
            try {
              return py::cast(probe_text(table, position));
            } catch (py::error_already_set& e) {
              if (!e.matches(errors.invalid_position)) throw;
              return default_value;
            }
          },
          py::arg("position"), py::arg("default") = py::none(),
          R"doc(As probe(), but returns ``default`` (None) instead of raising
InvalidPositionError, as python-chess's get_wdl(). A damaged table still
raises DamagedTableError, and a position that is not a str TypeError.)doc")
      .def(
          "mainline",
          [](const PyTable& self, py::handle position) {
            return probe_text(self.get(), position).line();
          },
          py::arg("position"),
          R"doc(The moves of best play from the position to the end of the game (UCI
strings), as many as its plies; [] when the game is over. Raises as probe().)doc")
      .def("probe_many", &probe_many, kProbeManyDoc)
      .def(
          "start_position",
          [](const PyTable& self) { return format_position(self.get().start_position()); },
          "The start of a game this table covers, white to move: 'pppp/4/4/PPPP w' for 4x4.")
      .def_property_readonly(
          "geometry",
          [](const PyTable& self) {
            const TableInfo& i = self.get().info();
            return py::make_tuple(i.geometry.rows, i.geometry.cols, i.max_pawns);
          },
          "(rows, cols, max_pawns): the board size and the most pawns a side the table covers")
      .def_property_readonly(
          "path", [](const PyTable& self) { return self.path(); },
          "the table's file, as it was opened")
      .def("info", &info_of,
           R"doc(The facts of ``pawntb info --json``, in a dict with the same keys:
file, format_version, geometry ('4x4'), max_pawns, entries, placements,
white_wins, longest_game_plies, longest_game_example, file_size, blocks,
block_entries, header_checksum, index_checksum, rules_fingerprint and
file_checksum (16 hex digits each), file_checksum_listed_in (the
checksums.txt that lists the file's checksum, or None). The file checksum
reads the whole file, once.)doc")
      .def("close", &PyTable::close,
           "Closes the table: using it afterwards raises pawntb.Error. Closing twice is allowed.")
      .def_property_readonly("closed", &PyTable::closed, "True once close() was called")
      .def("__enter__", [](py::object self) { return self; })
      .def(
          "__exit__",
          [](PyTable& self, const py::args&) {
            self.close();
            return false;
          },
          "Closes the table.")
      .def("__repr__", [](const PyTable& self) {
        if (self.closed()) return "<pawntb.Table " + self.path() + " (closed)>";
        const TableInfo& i = self.get().info();
        return "<pawntb.Table " + self.path() + ": " + to_string(i.geometry) + ", up to " +
               std::to_string(i.max_pawns) + " pawns a side>";
      });

  // Shown as pawntb.Table, ..., the names to import them by.
  for (const char* name : {"Value", "Move", "Result", "Table"}) {
    m.attr(name).attr("__module__") = "pawntb";
  }

  m.def("open_table", &open_table, py::arg("path") = py::none(), py::kw_only(),
        py::arg("rows") = py::none(), py::arg("cols") = py::none(), py::arg("load") = "automatic",
        kOpenTableDoc);
  m.def("play", &play_text, py::arg("position"), py::arg("moves"),
        R"doc(The position after the moves, in canonical text. ``moves`` is a list of
UCI moves (``["c2c3", "b4c3"]``) or one str of them separated by commas or
spaces. Needs no table. Raises InvalidPositionError for a bad position and
IllegalMoveError (an InvalidPositionError) naming the move's number for a move
that is not legal there.)doc");
  m.def("legal_moves", &legal_moves_of, py::arg("position"),
        R"doc(The legal moves of the side to move (UCI), in board order: by from-square,
then to-square. [] when the game is over. Needs no table. Raises
InvalidPositionError for a bad position.)doc");
  m.def(
      "search_path",
      [] {
        std::vector<std::string> out;
        for (const fs::path& p : Table::search_path()) out.push_back(p.string());
        return out;
      },
      R"doc(Where open_table() looks for tables, in order: $PAWNTB_TABLE when set, the
current directory, ./data, and the tables installed with this package.)doc");
}
