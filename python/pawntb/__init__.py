"""pawntb: the exact tablebase of pawn chess (UVa 10838, Octapawn on 4x4),
from Python.

>>> import pawntb
>>> table = pawntb.open_table()          # the default 4x4 table
>>> r = table.probe("pppp/4/4/PPPP w")
>>> r.winner, r.plies, r.best
('white', 11, 'a1a2')
>>> with pawntb.open_tablebase(pawntb.search_path()[-1]) as tablebase:
...     tablebase.probe_wdl("ppp/3/PPP w"), tablebase.probe_dtm("pppp/4/4/PPPP b")
(-1, 11)

See docs/python.md for the whole API. Positions are written rows from the
top, "/" between rows, a digit for that many empty squares, then "w" or "b"
for the side to move; moves are UCI style, "c2c3".
"""

from ._errors import (
    DamagedTableError,
    Error,
    IllegalMoveError,
    InvalidPositionError,
    MissingTableError,
)
from ._pawntb import (
    Move,
    Result,
    Table,
    Value,
    __version__,
    from_bitboards,
    legal_moves,
    open_table,
    play,
    search_path,
    to_bitboards,
)
from ._tablebase import Tablebase, open_tablebase

Tablebase.__module__ = "pawntb"  # shown as pawntb.Tablebase, the name to import it by

__all__ = [
    "DamagedTableError",
    "Error",
    "IllegalMoveError",
    "InvalidPositionError",
    "MissingTableError",
    "Move",
    "Result",
    "Table",
    "Tablebase",
    "Value",
    "__version__",
    "from_bitboards",
    "legal_moves",
    "open_table",
    "open_tablebase",
    "play",
    "search_path",
    "to_bitboards",
]
