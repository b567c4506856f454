"""pawntb.Tablebase: the tables of one or more directories as one, by board
size, in the shape of python-chess's chess.syzygy.Tablebase."""

import os
from typing import Any, Dict, Iterable, List, Optional, Tuple, Union

from ._errors import InvalidPositionError, MissingTableError
from ._pawntb import Result, Table, _board_size, _no_table_for, _tables_in, open_table

_Path = Union[str, "os.PathLike[str]"]


class Tablebase:
    """The tables of one or more directories, by board size; from
    open_tablebase(). Each probe goes to the table of its position's board
    size; a size without a table raises MissingTableError (a KeyError).
    It is a context manager: ``with pawntb.open_tablebase("data") as tb:``
    closes its tables at the end of the block."""

    def __init__(self, *, load: str = "automatic") -> None:
        self._load = load
        self._tables: Dict[Tuple[int, int], Table] = {}
        self._directories: List[str] = []
        self._closed = False

    def add_directory(self, directory: _Path, *, load: Optional[str] = None) -> int:
        """Opens the tables of a directory (files named RxC-kK.pawntb, as
        open_table() finds them; for each board size the one with the most
        pawns a side) and returns how many it found. A board size the
        tablebase has already keeps its table, unless the new one has more
        pawns a side. Raises MissingTableError when the directory is not
        there, DamagedTableError for a table that cannot be used, ValueError
        once closed."""
        self._check_open()
        path = os.fspath(directory)
        if not os.path.isdir(path):
            reason = ("not a directory (open_table() opens a table file)" if os.path.exists(path)
                      else "no such directory")
            raise MissingTableError(f"{path}: {reason}")
        found = [open_table(file, load=load or self._load) for file in _tables_in(path)]
        self._directories.append(path)
        for table in found:
            size = table.geometry[:2]
            held = self._tables.get(size)
            if held is None or table.geometry[2] > held.geometry[2]:
                if held is not None:
                    held.close()
                self._tables[size] = table
            else:
                table.close()
        return len(found)

    def table(self, rows: int, cols: int) -> Table:
        """The Table for boards of rows x cols (for probe_many() with arrays,
        or info()); MissingTableError when there is none."""
        self._check_open()
        try:
            return self._tables[(rows, cols)]
        except KeyError:
            raise MissingTableError(self._missing(rows, cols)) from None

    @property
    def tables(self) -> List[Table]:
        """Its tables, by board size."""
        self._check_open()
        return [self._tables[size] for size in sorted(self._tables)]

    @property
    def directories(self) -> List[str]:
        """The directories its tables came from, in the order added."""
        return list(self._directories)

    def probe(self, position: str) -> Result:
        """Table.probe() of the table for the position's board size."""
        return self._table_for(position).probe(position)

    def get(self, position: str, default: Any = None) -> Any:
        """As probe(), but returns ``default`` (None) instead of raising
        InvalidPositionError or MissingTableError."""
        return self._or_default(self.probe, position, default)

    def probe_wdl(self, position: str) -> int:
        """1 when the side to move wins, -1 when it loses (Table.probe_wdl)."""
        return self._table_for(position).probe_wdl(position)

    def probe_dtm(self, position: str) -> int:
        """Plies to the end, signed for the side to move as Result.dtm
        (Table.probe_dtm)."""
        return self._table_for(position).probe_dtm(position)

    def get_wdl(self, position: str, default: Any = None) -> Any:
        """As probe_wdl(), but returns ``default`` (None) where get() does."""
        return self._or_default(self.probe_wdl, position, default)

    def get_dtm(self, position: str, default: Any = None) -> Any:
        """As probe_dtm(), but returns ``default`` (None) where get() does."""
        return self._or_default(self.probe_dtm, position, default)

    def mainline(self, position: str) -> List[str]:
        """Table.mainline() of the table for the position's board size."""
        return self._table_for(position).mainline(position)

    def probe_many(self, positions: Iterable[str]) -> List[Result]:
        """probe() of each position (of any board sizes), in order; each
        board size's positions in one Table.probe_many(). For arrays, use
        table(rows, cols).probe_many()."""
        if isinstance(positions, str):
            raise TypeError("probe_many() takes a list of positions, not one str: use probe()")
        texts = list(positions)
        groups: Dict[Tuple[int, int], List[int]] = {}
        for i, text in enumerate(texts):
            try:
                groups.setdefault(_board_size(text), []).append(i)
            except (InvalidPositionError, TypeError) as e:
                raise type(e)(f"positions[{i}]: {e}") from None
        out: List[Any] = [None] * len(texts)
        for size, indices in groups.items():
            results = self.table(*size).probe_many([texts[i] for i in indices])
            for i, result in zip(indices, results):
                out[i] = result
        return out

    def close(self) -> None:
        """Closes its tables: using it afterwards raises ValueError, as a
        closed file does. Closing twice is allowed."""
        for table in self._tables.values():
            table.close()
        self._closed = True

    @property
    def closed(self) -> bool:
        """True once close() was called."""
        return self._closed

    def __enter__(self) -> "Tablebase":
        self._check_open()
        return self

    def __exit__(self, *args: object) -> bool:
        self.close()
        return False

    def __repr__(self) -> str:
        if self._closed:
            return "<pawntb.Tablebase (closed)>"
        sizes = ", ".join(f"{r}x{c}" for r, c in sorted(self._tables)) or "no tables"
        return f"<pawntb.Tablebase {sizes}>"

    def _check_open(self) -> None:
        if self._closed:
            raise ValueError("the tablebase is closed")

    def _missing(self, rows: int, cols: int) -> str:
        places = ", ".join(self._directories) or "no directory"
        return _no_table_for(rows, cols, f" in the tablebase (looked in: {places})")

    def _table_for(self, position: str) -> Table:
        self._check_open()
        size = _board_size(position)
        table = self._tables.get(size)
        if table is None:
            raise MissingTableError(self._missing(*size))
        return table

    @staticmethod
    def _or_default(probe: Any, position: str, default: Any) -> Any:
        try:
            return probe(position)
        except (InvalidPositionError, MissingTableError):
            return default


def open_tablebase(directory: _Path, *directories: _Path, load: str = "automatic") -> Tablebase:
    """A Tablebase of every table in one or more directories, as
    python-chess's chess.syzygy.open_tablebase(): ``open_tablebase("data")``.
    ``load`` is open_table()'s, for each table. Raises as add_directory()."""
    tablebase = Tablebase(load=load)
    try:
        for place in (directory, *directories):
            tablebase.add_directory(place)
    except BaseException:
        tablebase.close()
        raise
    return tablebase
