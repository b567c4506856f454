"""pawntb's exceptions. The compiled core (pawntb._pawntb) raises them; import
them from pawntb."""


class Error(Exception):
    """The base of every error pawntb raises."""


class MissingTableError(Error, KeyError):
    """No table where one was looked for: no such file, or none of that
    board size on the search path (a KeyError, as python-chess's
    MissingTableError). The message names the file or the places looked in."""

    def __str__(self) -> str:
        # A KeyError would quote its message; this is a sentence.
        return str(self.args[0]) if self.args else ""


class DamagedTableError(Error):
    """A table file that is there but cannot be used: unreadable, not a pawntb
    table, made for other rules or another format version, or a part of it
    fails its checksum. The message names the file."""


class InvalidPositionError(Error, ValueError):
    """A position that cannot be answered: text that is not a position, a
    position the rules do not allow, or one the table does not cover (another
    board size, more pawns than its limit). The message names the square or
    the table."""


class IllegalMoveError(InvalidPositionError):
    """A move that is not legal in the position it is played from; the message
    names the move and its number."""


# Shown as pawntb.Error, ..., the names to import them by.
for _cls in (Error, MissingTableError, DamagedTableError, InvalidPositionError, IllegalMoveError):
    _cls.__module__ = "pawntb"
del _cls
