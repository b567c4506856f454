"""What pickle calls to rebuild a Result or a Move (their __reduce__ names
these): Python functions, which pickle finds by name, where the compiled
core's functions cannot be pickled."""

from . import _pawntb


def result(state: tuple) -> "_pawntb.Result":
    """A Result from its pickled state."""
    return _pawntb._result_from_state(state)


def move(state: tuple) -> "_pawntb.Move":
    """A Move from its pickled state."""
    return _pawntb._move_from_state(state)
