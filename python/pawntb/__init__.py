"""pawntb: the exact tablebase of pawn chess (UVa 10838, Octapawn on 4x4),
from Python.

>>> import pawntb
>>> table = pawntb.open_table()          # the default 4x4 table
>>> r = table.probe("pppp/4/4/PPPP w")
>>> r.winner, r.plies, r.best
('white', 11, 'a1a2')

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
    legal_moves,
    open_table,
    play,
    search_path,
)

__all__ = [
    "DamagedTableError",
    "Error",
    "IllegalMoveError",
    "InvalidPositionError",
    "MissingTableError",
    "Move",
    "Result",
    "Table",
    "Value",
    "__version__",
    "legal_moves",
    "open_table",
    "play",
    "search_path",
]
