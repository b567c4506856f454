// Table.probe_many(): many positions at once, as texts or as numpy arrays of
// bitboards, and the reading of those arguments, which to_bitboards() and
// from_bitboards() share.
#include <algorithm>
#include <array>
#include <atomic>
#include <string>
#include <utility>
#include <vector>

#include "extension.hpp"
#include "pawntb/util/threads.hpp"

namespace pawntb::python {
namespace {

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

}  // namespace

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

namespace {

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

}  // namespace

std::string type_name(py::handle object) {
  const py::handle type = py::type::handle_of(object);
  const std::string module = py::str(type.attr("__module__"));
  const std::string name = py::str(type.attr("__qualname__"));
  return module == "builtins" ? name : module + "." + name;
}

namespace {

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

}  // namespace

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

namespace {

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

}  // namespace

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

}  // namespace pawntb::python
