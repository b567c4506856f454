// pawntb._pawntb: the probe library for Python, with pybind11. The package
// pawntb (python/pawntb/__init__.py) re-exports these names; the exception
// classes are defined in Python (python/pawntb/_errors.py) and raised from
// here. Only the public headers of pawntb::probe and pawntb::game are used.
//
// THREADS. Everything runs with the GIL held except opening a table, the
// file checksum of info() and the work of probe_many(), which release it;
// each of those holds its own copy of the Table (copies share the data), so
// that close() from another thread never pulls the table away under them.
//
// This file binds the functions of the other files (extension.hpp).
#include <string>
#include <vector>

#include "extension.hpp"
#include "pawntb/pawntb.h"

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
      "_no_table_for",
      [](int rows, int cols, std::string_view where) {
        return no_table_for(Geometry{rows, cols}, where);
      },
      py::arg("rows"), py::arg("cols"), py::arg("where"),
      "The message of a board size without a table, as every pawntb interface words it; for "
      "pawntb.Tablebase.");
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
