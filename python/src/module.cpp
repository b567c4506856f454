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
#include <bit>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "pawntb/check.hpp"
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

// A position's text: a str (see text_of) without the spaces, tabs and line
// ends around it, which the pawntb command's readers drop too.
std::string_view position_text(py::handle object, const char* what) {
  std::string_view text = text_of(object, what);
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
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

// A probe says only that a block of a table loaded on demand is damaged,
// not which: tables up to this size are read through to name it (within a
// second or so); of a larger one, `pawntb info` names them.
constexpr std::uint64_t kNameBlocksUpTo = std::uint64_t{64} << 20;

// The damaged blocks of a table, for a message: " (block 2: checksum
// mismatch)", as open() names the first with load "all".
std::string damaged_blocks(const Table& table) {
  const TableInfo& info = table.info();
  if (info.file_size > kNameBlocksUpTo) {
    return " (`pawntb info " + info.path.string() + "` names the damaged blocks)";
  }
  std::vector<check::BlockDamage> damage;
  try {
    py::gil_scoped_release release;
    damage = check::check_blocks(table, 0);
  } catch (const std::exception&) {
    return "";  // no memory for the check: the message without the blocks
  }
  constexpr std::size_t kShown = 3;
  std::string out;
  for (std::size_t i = 0; i < std::min(damage.size(), kShown); ++i) {
    out += (i == 0 ? " (block " : "; block ") + std::to_string(damage[i].block) + ": " +
           damage[i].error;
  }
  if (damage.size() > kShown) out += "; " + std::to_string(damage.size() - kShown) + " more";
  return out.empty() ? out : out + ")";
}

[[noreturn]] void raise_damaged(const Table& table) {
  raise(errors.damaged_table, table.info().path.string() + ": " +
                                  describe(ProbeStatus::damaged_table) + damaged_blocks(table));
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
  // Its fields by name, in the order of the reprs.
  void add_fields(py::dict& d) const {
    d["to_move"] = side_name(to_move);
    d["winner"] = side_name(winner);
    d["plies"] = plies;
    d["dtm"] = dtm();
    d["category"] = category();
  }
};

// pawntb.Move: a legal move and the value of the position it leads to.
struct MoveAnswer : Value {
  std::string uci;
  std::string position;  // after the move

  py::dict fields() const {
    py::dict d;
    d["uci"] = uci;
    d["position"] = position;
    add_fields(d);
    return d;
  }
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

  const RootResult& root_result() {
    if (!root) {
      auto found = std::make_shared<const RootResult>(table->probe_root(position));
      if (!found->value.ok()) raise_damaged(*table);
      root = std::move(found);
    }
    return *root;
  }
  py::object best() {
    const RootResult& r = root_result();
    if (r.moves.empty()) return py::none();
    return py::str(move_name(position.geometry, r.moves.front().move));
  }
  py::object reason() const {
    const char* name = plies == 0 ? game_end_name(game_end(position)) : nullptr;
    return name ? py::object(py::str(name)) : py::object(py::none());
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
  // Its fields by name, up to `best` or `moves` (the repr leaves them out).
  enum class Fields : std::uint8_t { value, best, moves };
  py::dict fields(Fields up_to) {
    py::dict d;
    d["position"] = format_position(position);
    add_fields(d);
    d["reason"] = reason();
    if (up_to >= Fields::best) d["best"] = best();
    if (up_to >= Fields::moves) d["moves"] = moves();
    return d;
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

// "Name(key=value, ...)", each value's repr.
std::string repr_of(const char* name, const py::dict& fields) {
  std::string out = std::string(name) + "(";
  const char* separator = "";
  for (const auto& [key, value] : fields) {
    out += separator + py::str(key).cast<std::string>() + "=" + py::repr(value).cast<std::string>();
    separator = ", ";
  }
  return out + ")";
}

// ---------------------------------------------------------------- pickling

// A Move is pickled as (uci, position, winner, plies) and a Result as
// (position, winner, plies, [(uci, winner, plies) of each move], [the line's
// moves]): with its moves, so that it needs no table when unpickled. Their
// state is checked as any input is.
[[noreturn]] void bad_state(const char* type, const std::string& what) {
  throw py::value_error(std::string("cannot unpickle a pawntb.") + type + ": " + what);
}

Side side_of_state(const char* type, py::handle name) {
  const std::string_view text = text_of(name, "a winner");
  if (text == "white") return Side::white;
  if (text == "black") return Side::black;
  bad_state(type, "the winner '" + printable(text) + "' is not 'white' or 'black'");
}

int plies_of_state(const char* type, py::handle plies) {
  if (!PyLong_Check(plies.ptr()) || PyBool_Check(plies.ptr())) bad_state(type, "plies not an int");
  const auto n = plies.cast<long long>();
  if (n < 0 || n >= ProbeResult::kNoPlies) bad_state(type, "plies out of range");
  return static_cast<int>(n);
}

py::tuple sequence_of_state(const char* type, py::handle state, std::size_t size) {
  if (!py::isinstance<py::tuple>(state) || py::len(state) != size) {
    bad_state(type, "its state is not a tuple of " + std::to_string(size));
  }
  return py::reinterpret_borrow<py::tuple>(state);
}

Move move_of_state(const Position& p, py::handle uci) {
  const auto move = parse_move(p, text_of(uci, "a move"));
  if (const auto* e = std::get_if<ParseError>(&move)) bad_state("Result", e->message);
  return std::get<Move>(move);
}

py::tuple state_of(const MoveAnswer& a) {
  return py::make_tuple(a.uci, a.position, side_name(a.winner), a.plies);
}

MoveAnswer move_from_state(py::handle given) {
  const py::tuple state = sequence_of_state("Move", given, 4);
  const auto after = parse_position(text_of(state[1], "a position"));
  if (const auto* e = std::get_if<ParseError>(&after)) bad_state("Move", e->message);
  const Position p = std::get<Position>(after);
  return MoveAnswer{{p.to_move, side_of_state("Move", state[2]), plies_of_state("Move", state[3])},
                    std::string(text_of(state[0], "a move")),
                    format_position(p)};
}

py::tuple state_of(Answer& a) {
  const RootResult& root = a.root_result();
  py::list moves, line;
  for (const MoveValue& m : root.moves) {
    moves.append(py::make_tuple(move_name(a.position.geometry, m.move), side_name(m.winner),
                                static_cast<int>(m.plies)));
  }
  for (const Move m : root.principal_variation) line.append(move_name(a.position.geometry, m));
  return py::make_tuple(format_position(a.position), side_name(a.winner), a.plies, moves, line);
}

Answer answer_from_state(py::handle given) {
  const py::tuple state = sequence_of_state("Result", given, 5);
  const auto parsed = parse_position(text_of(state[0], "a position"));
  if (const auto* e = std::get_if<ParseError>(&parsed)) bad_state("Result", e->message);
  const Position p = std::get<Position>(parsed);
  auto root = std::make_shared<RootResult>();
  root->value.winner = side_of_state("Result", state[1]);
  root->value.plies = static_cast<std::uint8_t>(plies_of_state("Result", state[2]));
  for (py::handle item : py::iter(state[3])) {
    const py::tuple m = sequence_of_state("Result", item, 3);
    root->moves.push_back(MoveValue{move_of_state(p, m[0]), side_of_state("Result", m[1]),
                                    static_cast<std::uint8_t>(plies_of_state("Result", m[2]))});
  }
  Position along = p;
  for (py::handle uci : py::iter(state[4])) {
    const Move m = move_of_state(along, uci);
    root->principal_variation.push_back(m);
    along = play(along, m);
  }
  return Answer(p, std::move(root));
}

// ---------------------------------------------------------------- tables

// pawntb.Table: an open table until close().
class PyTable {
 public:
  explicit PyTable(Table table) : table_(std::move(table)), path_(table_->info().path.string()) {}

  // The table; once closed, ValueError, as Python's files raise. A copy:
  // see THREADS above.
  Table get() const {
    if (!table_) throw py::value_error("the table " + path_ + " is closed");
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
          sum = pawntb::check::file_checksum(table.info().path);
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
  for (const InfoField& field :
       info_fields(i, checksum, pawntb::check::checksum_listing(i.path, checksum))) {
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

// The position and its value, or the error of a probe that fails.
std::pair<Position, ProbeResult> value_of(const Table& table, py::handle position) {
  const std::string_view text = position_text(position, "position");
  const Position p = parse_or_raise(text);
  const ProbeResult r = table.probe(p);
  check_value(table, p, text, r);
  return {p, r};
}

Answer probe_text(const Table& table, py::handle position) {
  const auto [p, r] = value_of(table, position);
  return Answer(table, p, r);
}

// probe_wdl(): 1 when the side to move wins, -1 when it loses.
int wdl_of(const Table& table, py::handle position) {
  const auto [p, r] = value_of(table, position);
  return r.winner == p.to_move ? 1 : -1;
}

// probe_dtm(): Value::dtm().
int dtm_of(const Table& table, py::handle position) {
  const auto [p, r] = value_of(table, position);
  return Value{p.to_move, r.winner, r.plies}.dtm();
}

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

// ---------------------------------------------------------------- probe_many

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

// flip_rows() with the board size as a template argument, so that the loop
// unrolls and the shifts are constants (shifts by a register cost several
// times more).
template <int Rows, int Cols>
struct RowFlip {
  std::uint64_t operator()(std::uint64_t bits) const { return flip_rows(bits, Rows, Cols); }
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
// without it. The message says how to install it into the Python in use (a
// venv's, pyenv's), where Debian's package would not reach.
py::module_ import_numpy(const char* function) {
  try {
    return py::module_::import("numpy");
  } catch (py::error_already_set& e) {
    if (!e.matches(PyExc_ModuleNotFoundError)) throw;
    std::string python = py::str(py::module_::import("sys").attr("executable"));
    if (python.empty()) python = "python3";
    const std::string message =
        std::string(function) + " needs numpy, which this Python (" + python +
        ") lacks: install it into this Python with `" + python + " -m pip install numpy`" +
        (std::string_view(function) == "probe_many()" ? ", or give probe_many() a list of positions"
                                                      : "");
    py::raise_from(e, PyExc_ModuleNotFoundError, message.c_str());
    throw py::error_already_set();
  }
}

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
                         py::handle white_to_move) {
  const py::module_ numpy = import_numpy(function);
  const py::object is_masked = numpy.attr("ma").attr("isMaskedArray");
  const auto array_of = [&](py::handle given, const char* name, std::string_view kinds) {
    const std::string what = std::string(function) + ": " + name;
    if (is_masked(given).cast<bool>()) {
      throw py::type_error(what +
                           " is a masked array, and its mask would be ignored: give "
                           "only the positions to answer, as plain arrays (white[keep], "
                           "black[keep], ...)");
    }
    const py::array a = numpy.attr("asarray")(given);
    const char kind = a.dtype().kind();
    if (kinds.find(kind) == std::string_view::npos) {
      throw py::type_error(what + " must be an array of " +
                           (kinds == "iu" ? "integers" : "booleans (or of 0 and 1)") +
                           ", not of dtype " + py::str(a.dtype()).cast<std::string>());
    }
    if (kind != 'b' && kinds != "iu") {  // integers for booleans: 0 and 1 only
      using Numbers = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>;
      const Numbers numbers = Numbers::ensure(a);
      if (!numbers) throw py::error_already_set();
      const std::int64_t* data = numbers.data();
      const auto n = static_cast<std::size_t>(numbers.size());
      for (std::size_t i = 0; i < n; ++i) {
        if (data[i] != 0 && data[i] != 1) {
          throw py::value_error(what + " must be booleans (or 0 and 1), not " +
                                py::str(a.attr("flat")[py::int_(i)]).cast<std::string>() +
                                " (at index " + std::to_string(i) + ")");
        }
      }
    }
    return a;
  };
  const py::tuple arrays =
      numpy.attr("broadcast_arrays")(array_of(white, "white", "iu"), array_of(black, "black", "iu"),
                                     array_of(white_to_move, "white_to_move", "biu"));
  BoardArrays out{Bits::ensure(arrays[0]), Bits::ensure(arrays[1]), Flags::ensure(arrays[2]), {}};
  if (!out.white || !out.black || !out.white_to_move) throw py::error_already_set();
  out.shape.assign(out.white.shape(), out.white.shape() + out.white.ndim());
  out.size = static_cast<std::size_t>(out.white.size());
  return out;
}

// probe_many((white, black, white_to_move)): numpy in, numpy out.
py::tuple probe_arrays(const Table& table, py::handle white, py::handle black,
                       py::handle white_to_move, unsigned threads) {
  const BoardArrays given = board_arrays("probe_many()", white, black, white_to_move);
  py::array_t<std::int8_t> winner(given.shape);
  py::array_t<std::int16_t> plies(given.shape);
  const ArraysIn in{given.white.data(), given.black.data(), given.white_to_move.data()};
  const ArraysOut out{winner.mutable_data(), plies.mutable_data()};
  bool damaged = false;
  {
    py::gil_scoped_release release;
    damaged = answer_arrays(table, in, out, given.size, threads);
  }
  if (damaged) raise_damaged(table);
  return py::make_tuple(winner, plies);
}

// What probe_many() takes, for the messages about what it was given.
constexpr char kProbeManyTakes[] =
    "probe_many() takes a list of position strs, or the three arrays white, black and "
    "white_to_move";

// A type's name for a message: "numpy.ndarray", "int".
std::string type_name(py::handle object) {
  const py::handle type = py::type::handle_of(object);
  const std::string module = py::str(type.attr("__module__"));
  const std::string name = py::str(type.attr("__qualname__"));
  return module == "builtins" ? name : module + "." + name;
}

// A numpy array (or anything like one) of numbers, not of texts.
bool array_of_numbers(py::handle object) {
  if (!py::hasattr(object, "dtype") || !py::hasattr(object, "shape")) return false;
  const std::string kind = py::str(object.attr("dtype").attr("kind"));
  return kind != "U" && kind != "S" && kind != "O";
}

// A text position of a list probe_many() or to_bitboards() was given: the
// message of anything else says what the function takes.
std::string_view listed_position(py::handle item, std::size_t index, const char* takes) {
  if (!PyUnicode_Check(item.ptr())) {
    throw py::type_error("positions[" + std::to_string(index) + "] must be a str, not " +
                         type_name(item) + " (" + takes + ")");
  }
  return position_text(item, "a position");
}

// Raises the error of positions[index], naming its index.
void check_item(const Table& table, const Position& p, std::string_view text, ProbeResult r,
                std::size_t index) {
  try {
    check_value(table, p, text, r);
  } catch (py::error_already_set& e) {
    if (!e.matches(errors.invalid_position)) throw;
    raise(errors.invalid_position,
          "positions[" + std::to_string(index) + "]: " + py::str(e.value()).cast<std::string>());
  }
}

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
                    const char* takes) {
  if (PyUnicode_Check(positions.ptr())) {
    throw py::type_error(
        std::string(function) + " takes a list of positions, not one str" +
        (std::string_view(function) == "probe_many()" ? ": use probe()" : ": put it in a list"));
  }
  for (py::handle item : py::iter(positions)) {
    out.texts.push_back(listed_position(item, out.objects.size(), takes));
    out.objects.push_back(py::reinterpret_borrow<py::object>(item));
  }
  out.parsed.reserve(out.texts.size());
  for (const std::string_view text : out.texts) {
    try {
      out.parsed.push_back(parse_or_raise(text));
    } catch (py::error_already_set& e) {
      if (!e.matches(errors.invalid_position)) throw;
      out.not_a_position.emplace(std::move(e));
      break;
    }
  }
}

[[noreturn]] void raise_not_a_position(const ListedPositions& given) {
  raise(errors.invalid_position, "positions[" + std::to_string(given.parsed.size()) + "]: " +
                                     py::str(given.not_a_position->value()).cast<std::string>());
}

// probe_many([text, ...]): a Result for each, or the error of the first
// position that has none.
py::list probe_texts(const Table& table, py::handle positions) {
  ListedPositions given;
  read_positions(given, positions, "probe_many()", kProbeManyTakes);
  const std::vector<Position>& parsed = given.parsed;
  std::vector<ProbeResult> results(parsed.size());
  {
    py::gil_scoped_release release;
    table.probe_many(parsed.data(), parsed.size(), results.data());
  }
  for (std::size_t i = 0; i < parsed.size(); ++i) {
    if (!results[i].ok()) check_item(table, parsed[i], given.texts[i], results[i], i);
  }
  if (given.not_a_position) raise_not_a_position(given);
  py::list out(parsed.size());
  for (std::size_t i = 0; i < parsed.size(); ++i) {
    out[i] = py::cast(Answer(table, parsed[i], results[i]));
  }
  return out;
}

// probe_many(x) where x is neither a list of texts nor three arrays: a
// message that says what it takes. Returns if x may be a list of texts.
void check_one_argument(py::handle only) {
  if (array_of_numbers(only)) {
    throw py::type_error(std::string(kProbeManyTakes) + ", not one " + type_name(only) + " of " +
                         py::str(only.attr("dtype")).cast<std::string>());
  }
  if (!py::isinstance<py::tuple>(only) && !py::isinstance<py::list>(only)) return;
  const py::sequence items = py::reinterpret_borrow<py::sequence>(only);
  if (items.size() == 0) return;
  for (py::handle item : items) {
    if (!array_of_numbers(item) && !py::isinstance<py::list>(item)) return;
  }
  throw py::type_error(std::string(kProbeManyTakes) + ", not a " + type_name(only) + " of " +
                       std::to_string(items.size()) + " " + type_name(items[0]));
}

// The three arrays (or lists of numbers) of a tuple, not texts: the one
// argument form of probe_many() and from_bitboards().
std::optional<py::tuple> three_arrays(py::handle only) {
  if (!py::isinstance<py::tuple>(only) || py::len(only) != 3) return std::nullopt;
  const py::tuple three = py::reinterpret_borrow<py::tuple>(only);
  for (py::handle item : three) {
    if (PyUnicode_Check(item.ptr())) return std::nullopt;
  }
  return three;
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
    if (const auto three = three_arrays(only)) {
      return probe_arrays(table, (*three)[0], (*three)[1], (*three)[2], threads);
    }
    check_one_argument(only);
    return probe_texts(table, only);
  }
  if (given.size() == 3) return probe_arrays(table, given[0], given[1], given[2], threads);
  throw py::type_error(std::string(kProbeManyTakes) + ", not " + std::to_string(given.size()) +
                       " arguments");
}

// ---------------------------------------------------------------- rules

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

// ---------------------------------------------------------------- bitboards

// to_bitboards([text, ...]): the arrays (white, black, white_to_move) that
// probe_many() takes, of positions of one board size.
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

// from_bitboards(white, black, white_to_move, rows=, cols=): the positions'
// texts, in C order of the broadcast arrays.
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
many empty squares, then ``w`` or ``b`` for the side to move; spaces, tabs
and line ends around it are dropped, as the pawntb command does. Returns a
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
  ``white_to_move`` is bool (or 0 and 1); to_bitboards() makes the three
  from texts. Masked arrays are refused. Returns ``(winner, plies)``:
  winner int8, 1 when white wins, -1 when black wins, 0 for a position the
  table does not answer (invalid by the rules, off the board, or more pawns
  than the table's limit), and plies int16, -1 for those.

The work runs without the GIL; arrays of 65,536 positions or more are split
over ``threads`` threads (0, the default: one per core; 1: this thread only).
Raises DamagedTableError when a block of the table fails its checksum, and
ModuleNotFoundError for arrays when numpy is not installed (texts need no
numpy).)doc";

constexpr char kToBitboardsDoc[] = R"doc(Position texts as the arrays probe_many() takes.

``to_bitboards(["pppp/4/4/PPPP w", ...])`` returns ``(white, black,
white_to_move)``: numpy arrays of uint64, uint64 and bool, one element a
position. Bit ``row * cols + col`` is the square of file ``col`` (a = 0) on
rank ``row + 1``: white's home rank is row 0, and a1 is bit 0. The positions
must be of one board size. Raises InvalidPositionError naming the index of
text that is not a position, and ModuleNotFoundError without numpy.)doc";

constexpr char kFromBitboardsDoc[] = R"doc(The texts of positions given as bitboards.

``from_bitboards(white, black, white_to_move, rows=4, cols=4)``, or the three
as one tuple, as probe_many() takes them (the layout of to_bitboards()),
for a board of ``rows`` x ``cols``: a list of position texts, in the C order
of the broadcast arrays. Raises ValueError for a pawn off the board or two
on one square, naming its index.)doc";

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

  // Pickling: __reduce__ names pawntb._pickling's functions, which call
  // these (pybind11's py::pickle fails with protocols 0 and 1).
  m.def("_move_from_state", &move_from_state, "A Move from its pickled state.");
  m.def("_result_from_state", &answer_from_state, "A Result from its pickled state.");

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
      .def("__repr__", [](const MoveAnswer& a) { return repr_of("Move", a.fields()); })
      .def("__reduce__", [](const MoveAnswer& a) {
        return py::make_tuple(py::module_::import("pawntb._pickling").attr("move"),
                              py::make_tuple(state_of(a)));
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
      .def_property_readonly("reason", &Answer::reason,
                             "why the game is over ('goal', 'no_pawns' or 'no_moves', as the "
                             "JSON's \"reason\"), or None while it goes on")
      .def_property_readonly("moves", &Answer::moves,
                             "every legal move (a list of Move), best first: the fastest wins, "
                             "then the longest losses, ties in board order")
      .def("__eq__", &equal<Answer>)
      .def("__hash__", &hash_of<Answer>)
      .def("__repr__",
           [](Answer& a) {
             try {
               return repr_of("Result", a.fields(Answer::Fields::best));
             } catch (py::error_already_set& e) {  // best needs a block that is damaged
               if (!e.matches(errors.damaged_table)) throw;
               std::string out = repr_of("Result", a.fields(Answer::Fields::value));
               return out.insert(out.size() - 1, ", best=<damaged table>");
             }
           })
      .def("__reduce__", [](Answer& a) {
        return py::make_tuple(py::module_::import("pawntb._pickling").attr("result"),
                              py::make_tuple(state_of(a)));
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
          [](const PyTable& self, py::handle position, py::object default_value) {
            const Table table = self.get();
            return or_default([&] { return probe_text(table, position); }, default_value);
          },
          py::arg("position"), py::arg("default") = py::none(),
          R"doc(As probe(), but returns ``default`` (None) instead of raising
InvalidPositionError, as python-chess's get_wdl(). A damaged table still
raises DamagedTableError, and a position that is not a str TypeError.)doc")
      .def(
          "probe_wdl",
          [](const PyTable& self, py::handle position) { return wdl_of(self.get(), position); },
          py::arg("position"),
          R"doc(1 when the side to move wins, -1 when it loses (there are no draws), as
python-chess's probe_wdl(). Raises as probe().)doc")
      .def(
          "probe_dtm",
          [](const PyTable& self, py::handle position) { return dtm_of(self.get(), position); },
          py::arg("position"),
          R"doc(Plies to the end with best play, signed for the side to move as
Result.dtm: positive when it wins, negative when it loses, 0 when it has
lost already. Raises as probe().)doc")
      .def(
          "get_wdl",
          [](const PyTable& self, py::handle position, py::object default_value) {
            const Table table = self.get();
            return or_default([&] { return wdl_of(table, position); }, default_value);
          },
          py::arg("position"), py::arg("default") = py::none(),
          "As probe_wdl(), but returns ``default`` (None) where get() does.")
      .def(
          "get_dtm",
          [](const PyTable& self, py::handle position, py::object default_value) {
            const Table table = self.get();
            return or_default([&] { return dtm_of(table, position); }, default_value);
          },
          py::arg("position"), py::arg("default") = py::none(),
          "As probe_dtm(), but returns ``default`` (None) where get() does.")
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
           "Closes the table: using it afterwards raises ValueError, as a closed file does. "
           "Closing twice is allowed.")
      .def_property_readonly("closed", &PyTable::closed, "True once close() was called")
      .def("__enter__",
           [](py::object self) {
             self.cast<const PyTable&>().get();  // ValueError once closed, as files
             return self;
           })
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

  // vars() of a Move or Result: its fields by name, in a new dict. vars()
  // reads __dict__, which a type's setattr refuses to set: it goes into the
  // type's dict directly.
  const auto add_dict = [&](const char* type, py::cpp_function fields, const char* doc) {
    const py::object property =
        py::module_::import("builtins").attr("property")(fields, py::none(), py::none(), doc);
    auto* cls = reinterpret_cast<PyTypeObject*>(m.attr(type).ptr());
    if (PyDict_SetItemString(cls->tp_dict, "__dict__", property.ptr()) != 0) {
      throw py::error_already_set();
    }
    PyType_Modified(cls);
  };
  add_dict("Move", py::cpp_function([](const MoveAnswer& a) { return a.fields(); }),
           "Its fields by name, in a new dict: uci, position, to_move, winner, plies, dtm, "
           "category (so that vars() works)");
  add_dict("Result", py::cpp_function([](Answer& a) { return a.fields(Answer::Fields::moves); }),
           "Its fields by name, in a new dict: position, to_move, winner, plies, dtm, category, "
           "reason, best, moves (so that vars() works)");

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
  m.def("to_bitboards", &to_bitboards, py::arg("positions"), kToBitboardsDoc);
  m.def("from_bitboards", &from_bitboards, py::kw_only(), py::arg("rows") = 4, py::arg("cols") = 4,
        kFromBitboardsDoc);
  m.def(
      "_board_size",
      [](py::handle position) {
        const Geometry g = parse_or_raise(position_text(position, "position")).geometry;
        return py::make_tuple(g.rows, g.cols);
      },
      py::arg("position"), "(rows, cols) of a position's text; for pawntb.Tablebase.");
  m.def(
      "_tables_in",
      [](const fs::path& directory) {
        std::vector<std::string> out;
        for (int rows = kMinSide; rows <= kMaxSide; ++rows) {
          for (int cols = kMinSide; cols <= kMaxSide; ++cols) {
            const Geometry g{rows, cols};
            if (!g.valid()) continue;
            if (const auto found = Table::find_in(directory, g)) out.push_back(found->string());
          }
        }
        return out;
      },
      py::arg("directory"),
      "The table files of a directory (for each board size, the one open_table(directory, "
      "rows=, cols=) opens); for pawntb.Tablebase.");
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
