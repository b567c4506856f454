// The docstrings too long to sit in module.cpp's bindings.
#include "extension.hpp"

namespace pawntb::python {

const char* const kModuleDoc =
    R"doc(pawntb's compiled core; use the package pawntb, which re-exports it.)doc";

const char* const kOpenTableDoc = R"doc(Opens a table and returns a Table.

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

const char* const kProbeDoc = R"doc(The value of a position, e.g. ``probe("pppp/4/4/PPPP w")``.

Positions are written rows from the top, ``/`` between rows, a digit for that
many empty squares, then ``w`` or ``b`` for the side to move; spaces, tabs
and line ends around it are dropped, as the pawntb command does. Returns a
Result. Raises InvalidPositionError (a ValueError) for text that is not a
position, a position the rules do not allow, or one this table does not
cover (another board size, more pawns than the table's limit), and
DamagedTableError when the part of the table it needs fails its checksum.)doc";

const char* const kProbeManyDoc = R"doc(Many values at once.

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

const char* const kToBitboardsDoc = R"doc(Position texts as the arrays probe_many() takes.

``to_bitboards(["pppp/4/4/PPPP w", ...])`` returns ``(white, black,
white_to_move)``: numpy arrays of uint64, uint64 and bool, one element a
position. Bit ``row * cols + col`` is the square of file ``col`` (a = 0) on
rank ``row + 1``: white's home rank is row 0, and a1 is bit 0. The positions
must be of one board size. Raises InvalidPositionError naming the index of
text that is not a position, and ModuleNotFoundError without numpy.)doc";

const char* const kFromBitboardsDoc = R"doc(The texts of positions given as bitboards.

``from_bitboards(white, black, white_to_move, rows=4, cols=4)``, or the three
as one tuple, as probe_many() takes them (the layout of to_bitboards()),
for a board of ``rows`` x ``cols``: a list of position texts, in the C order
of the broadcast arrays. Raises ValueError for a pawn off the board or two
on one square, naming its index.)doc";

}  // namespace pawntb::python
