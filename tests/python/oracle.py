"""An independent model of pawn chess for the Python tests: its own reading
and writing of position text, its own rules and a brute-force search. It
shares no code with pawntb (README, "The game"; format/FORMAT.md 6.1).

A position is (rows, cols, white, black, white_to_move), with white and black
Python ints as the numpy API's bitboards: bit (rank - 1) * cols + file, file
0 = "a", rank 1 = white's home row.
"""

import functools
import itertools

import numpy as np


def bit(cols, rank, file):
    return 1 << ((rank - 1) * cols + file)


def parse(text):
    """Position text -> (rows, cols, white, black, white_to_move)."""
    board, side = text.split(" ")
    lines = board.split("/")
    rows = len(lines)
    white = black = 0
    cols = None
    for i, line in enumerate(lines):
        rank = rows - i
        squares = []
        for c in line:
            squares.extend("." * int(c) if c.isdigit() else c)
        assert cols in (None, len(squares)), text
        cols = len(squares)
        for file, c in enumerate(squares):
            if c == "P":
                white |= bit(cols, rank, file)
            elif c == "p":
                black |= bit(cols, rank, file)
            else:
                assert c == ".", text
    assert side in ("w", "b"), text
    return rows, cols, white, black, side == "w"


def text(position):
    """The canonical text: runs of empty squares as digits."""
    rows, cols, white, black, white_to_move = position
    out = []
    for rank in range(rows, 0, -1):
        line, empty = "", 0
        for file in range(cols):
            b = bit(cols, rank, file)
            c = "P" if white & b else "p" if black & b else None
            if c is None:
                empty += 1
                continue
            if empty:
                line, empty = line + str(empty), 0
            line += c
        out.append(line + (str(empty) if empty else ""))
    return "/".join(out) + (" w" if white_to_move else " b")


def square(cols, rank, file):
    return "abcdefgh"[file] + str(rank)


def invalid(position):
    """A pawn of the side to move on its own goal row (or pawns overlap)."""
    rows, cols, white, black, white_to_move = position
    if white & black:
        return True
    goal = bit_row(cols, rows) if white_to_move else bit_row(cols, 1)
    return bool((white if white_to_move else black) & goal)


def bit_row(cols, rank):
    return ((1 << cols) - 1) << ((rank - 1) * cols)


def moves(position):
    """[(uci, position after)] of the side to move, in pawntb's order (by
    from-square, then to-square; squares numbered from the top row, left to
    right); [] when the game is over."""
    rows, cols, white, black, white_to_move = position
    mine, theirs = (white, black) if white_to_move else (black, white)
    # The opponent on its goal row: the side to move has lost.
    if theirs & (bit_row(cols, 1) if white_to_move else bit_row(cols, rows)):
        return []
    step = 1 if white_to_move else -1
    found = []
    for rank, file in itertools.product(range(1, rows + 1), range(cols)):
        if not mine & bit(cols, rank, file):
            continue
        to_rank = rank + step
        if not 1 <= to_rank <= rows:
            continue
        for to_file in (file - 1, file, file + 1):
            if not 0 <= to_file < cols:
                continue
            target = bit(cols, to_rank, to_file)
            occupied = (white | black) & target
            if (to_file == file and occupied) or (to_file != file and not theirs & target):
                continue
            m = mine & ~bit(cols, rank, file) | target
            t = theirs & ~target
            after = (rows, cols, m, t, False) if white_to_move else (rows, cols, t, m, True)
            order = ((rows - rank) * cols + file, (rows - to_rank) * cols + to_file)
            found.append((order, square(cols, rank, file) + square(cols, to_rank, to_file), after))
    return [(uci, after) for _, uci, after in sorted(found)]


@functools.lru_cache(maxsize=None)
def value(position):
    """(side to move wins, plies) with best play: the winner as fast as it
    can, the loser as slowly. Plies 0: the side to move has lost."""
    children = [value(after) for _, after in moves(position)]
    if not children:
        return False, 0
    wins = [plies for child_wins, plies in children if not child_wins]
    if wins:
        return True, 1 + min(wins)
    return False, 1 + max(plies for _, plies in children)


def winner(position):
    """'white' or 'black', and the plies."""
    wins, plies = value(position)
    white_to_move = position[4]
    return ("white" if wins == white_to_move else "black"), plies


def placements(rows, cols, white_squares, black_squares, max_pawns, min_white=0):
    """Every (white, black) bitboard pair with min_white..max_pawns white pawns
    on the squares white_squares and 0..max_pawns black ones on black_squares,
    not overlapping, as two uint64 arrays."""

    def subsets(squares, low):
        out = []
        for k in range(low, max_pawns + 1):
            for chosen in itertools.combinations(squares, k):
                out.append(sum(1 << s for s in chosen))
        return np.array(out, dtype=np.uint64)

    w = subsets(white_squares, min_white)
    b = subsets(black_squares, 0)
    ww = np.repeat(w, len(b))
    bb = np.tile(b, len(w))
    keep = (ww & bb) == 0
    return ww[keep], bb[keep]


def entries(rows, cols, max_pawns):
    """The positions a table indexes (format/FORMAT.md 6.2), white to move:
    1..K white pawns off white's goal row, 0..K black ones off black's."""
    squares = rows * cols
    white_squares = range(0, squares - cols)  # ranks 1..rows-1
    black_squares = range(cols, squares)  # ranks 2..rows
    return placements(rows, cols, white_squares, black_squares, max_pawns, min_white=1)


def flip_colours(rows, cols, white, black):
    """The same position seen from the other side: each side's pawns become
    the other's, mirrored top to bottom (numpy arrays)."""
    row_mask = np.uint64((1 << cols) - 1)

    def mirror(bits):
        out = np.zeros_like(bits)
        for r in range(rows):
            out |= ((bits >> np.uint64(r * cols)) & row_mask) << np.uint64((rows - 1 - r) * cols)
        return out

    return mirror(black), mirror(white)


def board_rows(rows, cols, white, black):
    """Each position as its rows of 'P', 'p' and '.', top row first (UVa
    input): a list of lists of str, from uint64 arrays."""
    n = len(white)
    cells = np.full((n, rows, cols), ord("."), dtype=np.uint8)
    for rank in range(1, rows + 1):
        for file in range(cols):
            b = np.uint64(bit(cols, rank, file))
            cells[(white & b) != 0, rows - rank, file] = ord("P")
            cells[(black & b) != 0, rows - rank, file] = ord("p")
    return [[bytes(row).decode() for row in board] for board in cells]
