"""Bad input of every kind, and missing and damaged tables: each gets its
error, with a message that names the square, the move or the file; never a
wrong answer."""

import os
import shutil
import struct
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import oracle
import pawntb
from conftest import TABLE_3X3, TABLE_4X4

# (text, a piece of the message)
BAD_TEXT = [
    ("", ""),
    ("x", ""),
    ("pppp/4/4/PPPP", ""),  # no side to move
    ("pppp/4/4/PPPP x", ""),
    ("pppp/4/4/PPPP w w", ""),
    ("pppp/4/4/PPPP  w", ""),
    ("ppp/4/4/PPPP w", "rank"),  # ragged
    ("pppp/4/4/PPPQ w", ""),
    ("pp/pp w", ""),  # 2 x 2: too small
    ("/".join(["p8"] * 3) + " w", ""),  # 9 columns
    ("/".join(["4"] * 9) + " w", ""),  # 9 rows
    ("pppp/4/4/PPPP w\nb", ""),  # one position a line: a second line is no part of it
    ("pppp/4/4/PP\x00P w", ""),
    ("pppp/4/4/PPPé w", ""),
    ("9" * 100000 + " w", "..."),  # long text is cut in the message
]
# Positions the rules do not allow, or that the 4x4 table does not cover.
BAD_POSITION = [
    # In the words of every pawntb interface (probe_problem()).
    ("P3/4/4/4 w", "': invalid position: white pawn on a4"),  # on its goal row, white to move
    ("4/4/4/3p b", "': invalid position: black pawn on d1"),  # on its goal row, black to move
    ("ppp/3/PPP w", "4x4-k4.pawntb"),  # another board size: names the table
    ("pppp/4/P3/PPPP w", "more than 4"),  # five white pawns
    ("pppppp/6/6/PPPPPP w", "4x4-k4.pawntb"),
]


@pytest.mark.parametrize("text,part", BAD_TEXT + BAD_POSITION)
def test_bad_positions_raise_invalid_position(table, text, part):
    with pytest.raises(pawntb.InvalidPositionError) as caught:
        table.probe(text)
    message = str(caught.value)
    assert part in message
    assert message.startswith("position '")
    assert len(message) < 400  # the text is cut, not copied whole
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, pawntb.Error)
    assert table.get(text) is None
    assert table.get(text, "default") == "default"
    with pytest.raises(pawntb.InvalidPositionError):
        table.mainline(text)
    with pytest.raises(pawntb.InvalidPositionError, match=r"^positions\[1\]: position '"):
        table.probe_many(["pppp/4/4/PPPP w", text, "also bad"])


@pytest.mark.parametrize("text,part", BAD_TEXT)
def test_bad_text_for_the_rules_functions(text, part):
    with pytest.raises(pawntb.InvalidPositionError):
        pawntb.legal_moves(text)
    with pytest.raises(pawntb.InvalidPositionError):
        pawntb.play(text, [])


def test_rules_functions_check_the_rules_not_a_table():
    words = r"^position 'P3/4/4/4 w': invalid position: white pawn on a4 "
    with pytest.raises(pawntb.InvalidPositionError, match=words):
        pawntb.legal_moves("P3/4/4/4 w")
    with pytest.raises(pawntb.InvalidPositionError, match=words):
        pawntb.play("P3/4/4/4 w", [])
    # Any board size: no table is needed.
    assert pawntb.legal_moves("ppppp/5/5/5/PPPPP w") == ["a1a2", "b1b2", "c1c2", "d1d2", "e1e2"]


def test_a_surrogate_is_not_a_position(table):
    with pytest.raises(pawntb.InvalidPositionError, match="UTF-8"):
        table.probe("pppp/4/4/PPP\udcff w")
    assert table.get("pppp/4/4/PPP\udcff w") is None


@pytest.mark.parametrize("value", [None, 5, b"pppp/4/4/PPPP w", ["pppp/4/4/PPPP w"], 1.5])
def test_a_position_must_be_a_str(table, value):
    for call in (table.probe, table.get, table.mainline, pawntb.legal_moves,
                 lambda v: pawntb.play(v, [])):
        with pytest.raises(TypeError, match="must be a str"):
            call(value)


ILLEGAL_MOVES = [
    (["a1a3"], "move 1: a1a3"),  # two squares
    (["a1a2", "a1a2"], "move 2: a1a2"),  # no pawn there any more
    (["a1a2", "a2a3"], "move 2: a2a3"),  # not black's pawn
    (["a1b2"], "move 1: a1b2"),  # a capture of nothing
    (["a1a0"], "move 1"),
    (["a1a5"], "move 1: a1a5"),  # off the board
    (["e1e2"], "move 1: e1e2"),
    (["a1"], "move 1"),
    ([""], "move 1"),
    (["a1a2,b4b3"], "move 1"),  # one list item is one move
    (["a1a2 "], "move 1"),
]


@pytest.mark.parametrize("moves,part", ILLEGAL_MOVES)
def test_illegal_moves_name_the_move(moves, part):
    with pytest.raises(pawntb.IllegalMoveError) as caught:
        pawntb.play("pppp/4/4/PPPP w", moves)
    assert part in str(caught.value)
    assert str(caught.value).startswith("position 'pppp/4/4/PPPP w': ")
    assert isinstance(caught.value, pawntb.InvalidPositionError)
    assert isinstance(caught.value, ValueError)


def test_illegal_moves_in_one_str_name_the_move():
    with pytest.raises(pawntb.IllegalMoveError, match="move 2: a1a2"):
        pawntb.play("pppp/4/4/PPPP w", "a1a2,a1a2")
    with pytest.raises(pawntb.IllegalMoveError, match="move 1"):
        pawntb.play("4/4/p3/P3 w", "a1a2")  # the game is over


def test_moves_must_be_strs():
    with pytest.raises(TypeError, match="list of str"):
        pawntb.play("pppp/4/4/PPPP w", 5)
    with pytest.raises(TypeError, match="must be a str"):
        pawntb.play("pppp/4/4/PPPP w", ["a1a2", 7])
    with pytest.raises(TypeError, match="must be a str"):
        pawntb.play("pppp/4/4/PPPP w", [b"a1a2"])


def test_probe_many_bad_calls(table):
    w = np.zeros(3, np.uint64)
    with pytest.raises(TypeError, match="not one str"):
        table.probe_many("pppp/4/4/PPPP w")
    with pytest.raises(TypeError, match="must be a str"):
        table.probe_many(["pppp/4/4/PPPP w", 5])
    with pytest.raises(TypeError):
        table.probe_many(5)
    with pytest.raises(TypeError):
        table.probe_many(w, w)
    with pytest.raises(TypeError):
        table.probe_many()
    with pytest.raises(TypeError, match="unexpected keyword argument 'colour'"):
        table.probe_many(w, w, w, colour=1)
    with pytest.raises(ValueError, match="threads"):
        table.probe_many(w, w, True, threads=-1)
    with pytest.raises(TypeError, match="threads"):
        table.probe_many(w, w, True, threads="2")
    with pytest.raises(TypeError, match="integers"):
        table.probe_many(w.astype(float), w, True)
    with pytest.raises(TypeError, match="integers"):
        table.probe_many(w, np.array(["a", "b", "c"]), True)
    with pytest.raises(TypeError, match="booleans"):
        table.probe_many(w, w, np.zeros(3))
    with pytest.raises(TypeError, match="integers"):
        table.probe_many(np.array([2**64], dtype=object), w[:1], True)
    with pytest.raises(ValueError):  # shapes that do not broadcast
        table.probe_many(w, np.zeros(2, np.uint64), True)


def test_probe_many_arrays_answer_nothing_for_bad_positions(table):
    def one(white, black, white_to_move=True):
        winner, plies = table.probe_many(np.array([white], np.uint64), np.array([black], np.uint64),
                                         np.array([white_to_move]))
        return int(winner[0]), int(plies[0])

    assert one(1, 1 << 15) != (0, -1)  # a valid position, for contrast
    assert one(1 | 2, 2) == (0, -1)  # overlapping pawns
    assert one(1, 1 << 16) == (0, -1)  # a black pawn off the 4x4 board
    assert one(1 << 63, 0) == (0, -1)
    assert one(1 << 12, 0) == (0, -1)  # white on its goal row, white to move
    assert one(0, 1, False) == (0, -1)  # black on its goal row, black to move
    assert one(0b11111, 0) == (0, -1)  # five white pawns
    winner, plies = table.probe_many(np.array([-1], np.int64), np.array([0]), np.array([True]))
    assert (winner[0], plies[0]) == (0, -1)  # every bit set


def test_numpy_is_needed_only_for_arrays(tmp_path):
    """In a Python without numpy (blocked here in a child process), import
    pawntb and every call with texts work; arrays raise ModuleNotFoundError
    saying what to install."""
    code = textwrap.dedent("""
        import sys
        sys.modules["numpy"] = None  # import numpy now fails as when it is not installed
        import pawntb
        t = pawntb.open_table()
        print(t.probe("pppp/4/4/PPPP w").winner, t.probe_many(["pppp/4/4/PPPP b"])[0].winner)
        try:
            t.probe_many([15], [15 << 12], [True])
        except ModuleNotFoundError as e:
            print(e)
        for call in (lambda: pawntb.to_bitboards(["pppp/4/4/PPPP w"]),
                     lambda: pawntb.from_bitboards([15], [15 << 12], [True])):
            try:
                call()
            except ModuleNotFoundError as e:
                print(e)
    """)
    env = {k: v for k, v in os.environ.items() if k != "PAWNTB_TABLE"}
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    answers, error, *others = done.stdout.splitlines()
    assert answers == "white black"
    assert [line.split(" needs numpy")[0] for line in others] == ["to_bitboards()",
                                                                   "from_bitboards()"]
    assert all(f"`{sys.executable} -m pip install numpy`" in line for line in others)
    # How to install it into this Python (a venv's, pyenv's), not Debian's package.
    assert error.startswith(f"probe_many() needs numpy, which this Python ({sys.executable}) "
                            f"lacks: install it into this Python with `{sys.executable} -m pip "
                            "install numpy`, or give probe_many() a list of positions"), error
    assert "python3-numpy" not in error


def test_open_table_bad_arguments():
    with pytest.raises(ValueError, match="together"):
        pawntb.open_table(rows=4)
    with pytest.raises(ValueError, match="together"):
        pawntb.open_table(cols=4)
    for rows, cols in ((2, 4), (4, 9), (0, 0), (-1, 4)):
        with pytest.raises(ValueError, match="3..8"):
            pawntb.open_table(rows=rows, cols=cols)
    with pytest.raises(TypeError):
        pawntb.open_table(rows="4", cols="4")
    with pytest.raises(TypeError):
        pawntb.open_table(5)
    with pytest.raises(TypeError):
        pawntb.open_table(TABLE_4X4, 4, 4)  # rows and cols are keywords
    with pytest.raises(ValueError, match="load"):
        pawntb.open_table(TABLE_4X4, load="lazy")


def test_missing_tables(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PAWNTB_TABLE", raising=False)
    missing = tmp_path / "no-such.pawntb"
    with pytest.raises(pawntb.MissingTableError) as caught:
        pawntb.open_table(missing)
    assert str(missing) in str(caught.value)
    assert isinstance(caught.value, KeyError) and isinstance(caught.value, pawntb.Error)
    assert not str(caught.value).startswith("'")  # a sentence, not a quoted key
    with pytest.raises(pawntb.MissingTableError, match="no table for 8x8 "):
        pawntb.open_table(rows=8, cols=8)
    try:
        pawntb.open_table(rows=8, cols=8)
    except pawntb.MissingTableError as e:
        for place in pawntb.search_path():
            assert place in str(e)
    with pytest.raises(pawntb.MissingTableError, match=f"no table for 4x4 in {tmp_path}"):
        pawntb.open_table(tmp_path)
    with pytest.raises(pawntb.MissingTableError, match="is a table for 4x4"):
        pawntb.open_table(TABLE_4X4, rows=3, cols=3)
    # $PAWNTB_TABLE naming a file that is not there is refused, not skipped.
    monkeypatch.setenv("PAWNTB_TABLE", str(missing))
    with pytest.raises(pawntb.MissingTableError, match=str(missing)):
        pawntb.open_table()


def block_frames(data):
    """(offset, size) of each block's zstd frame, from the block index
    (format/FORMAT.md sections 3 and 4)."""
    blocks = struct.unpack_from("<I", data, 44)[0]
    out = []
    for i in range(blocks):
        offset, size = struct.unpack_from("<QI", data, 128 + 24 * i)
        out.append((offset, size))
    return out


def damaged_copy(tmp_path, name, change):
    data = bytearray(TABLE_4X4.read_bytes())
    change(data)
    path = tmp_path / name
    path.write_bytes(bytes(data))
    return path


def flip_every_frame(data):
    for offset, size in block_frames(data):
        data[offset + size // 2] ^= 0x40


def test_damaged_tables_refused_at_open(tmp_path):
    cases = {
        "header.pawntb": lambda d: d.__setitem__(30, d[30] ^ 1),
        "index.pawntb": lambda d: d.__setitem__(130, d[130] ^ 1),
        "frames.pawntb": flip_every_frame,
        "truncated.pawntb": lambda d: d.__delitem__(slice(len(d) - 100, None)),
        "longer.pawntb": lambda d: d.extend(b"\0" * 10),
        "empty.pawntb": lambda d: d.clear(),
        "text.pawntb": lambda d: d.__setitem__(slice(None), b"not a table\n" * 50),
        "magic.pawntb": lambda d: d.__setitem__(0, ord("X")),
    }
    for name, change in cases.items():
        path = damaged_copy(tmp_path, name, change)
        with pytest.raises(pawntb.DamagedTableError) as caught:
            pawntb.open_table(path, load="all")
        assert str(path) in str(caught.value), name
        assert isinstance(caught.value, pawntb.Error) and not isinstance(caught.value, KeyError)
    # A directory given where a table file is expected, by $PAWNTB_TABLE's
    # rule, is searched; a table-named directory inside it is no table.
    (tmp_path / "dir" / "4x4-k4.pawntb").mkdir(parents=True)
    with pytest.raises(pawntb.MissingTableError):
        pawntb.open_table(tmp_path / "dir")


def test_damaged_blocks_found_when_probed(tmp_path):
    path = damaged_copy(tmp_path, "frames.pawntb", flip_every_frame)
    with pytest.raises(pawntb.DamagedTableError, match="checksum"):
        pawntb.open_table(path)  # a small table is checked at open
    t = pawntb.open_table(path, load="on_demand")  # the header and index are fine
    good = pawntb.open_table(TABLE_4X4)
    start = "pppp/4/4/PPPP w"
    for call in (t.probe, t.get, t.mainline, lambda p: t.probe_many([p])):
        with pytest.raises(pawntb.DamagedTableError, match=str(path)):
            call(start)
    rows, cols, k = t.geometry
    white, black = oracle.entries(rows, cols, k)
    with pytest.raises(pawntb.DamagedTableError, match="damaged"):
        t.probe_many(white, black, True)
    # Never a wrong answer: a position is answered as by the good table, or
    # its error is the damage (positions decided by the rules need no block).
    pick = np.random.default_rng(5).choice(len(white), 400, replace=False)
    answered = 0
    for i in pick:
        text = oracle.text((rows, cols, int(white[i]), int(black[i]), True))
        try:
            r = t.probe(text)
            moves = r.moves
        except pawntb.DamagedTableError:
            continue
        expected = good.probe(text)
        assert (r.winner, r.plies, r.best, moves) == (
            expected.winner, expected.plies, expected.best, expected.moves)
        answered += 1
    assert answered < len(pick)


def test_info_of_a_table_whose_file_is_gone(tmp_path):
    path = tmp_path / "gone.pawntb"
    shutil.copy(TABLE_3X3, path)
    t = pawntb.open_table(path)
    path.unlink()
    assert t.probe("ppp/3/PPP w").winner in ("white", "black")  # loaded at open
    with pytest.raises(pawntb.MissingTableError, match=str(path)):
        t.info()


# ------------------------------------------------------------ what a message says is expected

PROBE_MANY_TAKES = ("probe_many() takes a list of position strs, or the three arrays white, "
                    "black and white_to_move")


def test_probe_many_says_what_it_takes(table):
    white, black, to_move = pawntb.to_bitboards(["pppp/4/4/PPPP w", "1ppp/4/4/1PPP w"])
    calls = {
        "not a tuple of 2 numpy.ndarray": lambda: table.probe_many((white, black)),
        "not one numpy.ndarray of uint64": lambda: table.probe_many(white),
        "not a list of 2 numpy.ndarray": lambda: table.probe_many([white, black]),
        "not 2 arguments": lambda: table.probe_many(white, black),
        "not 4 arguments": lambda: table.probe_many(white, black, to_move, to_move),
        "not 0 arguments": table.probe_many,
    }
    for says, call in calls.items():
        with pytest.raises(TypeError) as caught:
            call()
        assert str(caught.value) == f"{PROBE_MANY_TAKES}, {says}"
    with pytest.raises(TypeError) as caught:
        table.probe_many(["pppp/4/4/PPPP w", np.uint64(15)])
    assert str(caught.value) == f"positions[1] must be a str, not numpy.uint64 ({PROBE_MANY_TAKES})"
    # A tuple of three arrays is the arrays; of texts, three positions.
    assert table.probe_many((white, black, to_move))[1].tolist() == [11, 8]
    assert len(table.probe_many(("pppp/4/4/PPPP w",) * 3)) == 3


def test_play_says_it_takes_strs():
    with pytest.raises(TypeError) as caught:
        pawntb.play("pppp/4/4/PPPP w", b"a1a2")
    assert str(caught.value) == "moves must be a list of str, or one str of moves, not bytes"
    with pytest.raises(TypeError) as caught:
        pawntb.play("pppp/4/4/PPPP w", ["a1a2", b"a4a3"])
    assert str(caught.value) == ("moves[1] must be a str, not bytes (moves is a list of str, or "
                                 "one str of moves)")


def test_moves_are_read_in_either_case_as_the_cli_reads_them():
    """Squares are read in either case, as `pawntb play` and `--moves` read
    them; what comes back is lower case."""
    lower = pawntb.play("pppp/4/4/PPPP w", ["a1a2", "a4a3"])
    for moves in (["A1A2", "A4A3"], "A1A2,a4A3", ["a1A2", "A4a3"]):
        assert pawntb.play("pppp/4/4/PPPP w", moves) == lower
    with pytest.raises(pawntb.IllegalMoveError):
        pawntb.play("pppp/4/4/PPPP w", ["A1A3"])


def test_white_to_move_must_be_booleans_or_0_and_1(table):
    w, b, _ = pawntb.to_bitboards(["pppp/4/4/PPPP w", "1ppp/4/4/1PPP w"])
    for bad, shown in ((np.array([1, 2]), "2 (at index 1)"), (np.array([-1, 0]), "-1 (at index 0)"),
                       (2, "2 (at index 0)"), ([True, 5], "5 (at index 1)")):
        for call in (lambda: table.probe_many(w, b, bad),
                     lambda: pawntb.from_bitboards(w, b, bad)):
            with pytest.raises(ValueError) as caught:
                call()
            assert str(caught.value).endswith(
                "white_to_move must be booleans (or 0 and 1), not " + shown)
    winner, plies = table.probe_many(w, b, np.array([1, 0], np.uint8))
    second = table.probe("1ppp/4/4/1PPP b")
    assert (winner.tolist(), plies.tolist()) == (
        [1, 1 if second.winner == "white" else -1], [11, second.plies])


def test_masked_arrays_are_refused(table):
    w, b, t = pawntb.to_bitboards(["pppp/4/4/PPPP w", "1ppp/4/4/1PPP w"])
    masked = np.ma.masked_array(w, mask=[False, True])
    for name, args in (("white", (masked, b, t)), ("black", (w, np.ma.masked_array(b), t)),
                       ("white_to_move", (w, b, np.ma.masked_array(t, mask=[True, False])))):
        with pytest.raises(TypeError, match=f"^probe_many\\(\\): {name} is a masked array"):
            table.probe_many(*args)
        with pytest.raises(TypeError, match=f"^from_bitboards\\(\\): {name} is a masked array"):
            pawntb.from_bitboards(*args)


def test_a_closed_table_raises_value_error_as_a_closed_file():
    t = pawntb.open_table(TABLE_4X4)
    t.close()
    for use in (lambda: t.probe("pppp/4/4/PPPP w"), lambda: t.probe_wdl("pppp/4/4/PPPP w"),
                lambda: t.get_dtm("pppp/4/4/PPPP w"), t.info):
        with pytest.raises(ValueError, match="^the table .*4x4-k4.pawntb is closed$") as caught:
            use()
        assert not isinstance(caught.value, pawntb.Error)
    with pytest.raises(ValueError, match="is closed"):
        with t:
            pass
    with open(TABLE_4X4, "rb") as f:  # as Python's files do
        pass
    with pytest.raises(ValueError):
        with f:
            pass


@pytest.mark.parametrize("around", [("", "\n"), ("", "\r\n"), ("  ", " \t\n"), ("\t", "")])
def test_spaces_and_line_ends_around_a_position_are_dropped(table, around):
    """As the pawntb command's stdin (`pawntb probe -`) reads a line."""
    before, after = around
    text = before + ".ppp/4/.PPP/4 w" + after
    assert table.probe(text) == table.probe(".ppp/4/.PPP/4 w")
    assert table.probe_wdl(text) == 1 and table.mainline(text)[0] == "c2c3"
    assert table.probe_many([text])[0].position == "1ppp/4/1PPP/4 w"
    assert pawntb.legal_moves(text) == ["b2b3", "c2c3", "d2d3"]
    assert pawntb.play(text, "c2c3") == "1ppp/2P1/1P1P/4 b"
    assert pawntb.from_bitboards(*pawntb.to_bitboards([text])) == ["1ppp/4/1PPP/4 w"]
    with pytest.raises(pawntb.InvalidPositionError, match=r"^position '1ppp/4/1PPP/4 w x'"):
        table.probe(before + "1ppp/4/1PPP/4 w x" + after)


def one_damaged_block(tmp_path):
    """A copy of the 4x4 table with one byte of block 2's frame flipped."""
    def change(data):
        offset, size = block_frames(data)[2]
        data[offset + size // 2] ^= 0x40
    return damaged_copy(tmp_path, "block2.pawntb", change)


def test_a_damaged_block_loaded_on_demand_is_named(tmp_path):
    path = one_damaged_block(tmp_path)
    with pytest.raises(pawntb.DamagedTableError) as at_open:
        pawntb.open_table(path, load="all")
    assert str(at_open.value).endswith("block 2: checksum mismatch")
    t = pawntb.open_table(path, load="on_demand")
    rows, cols, k = t.geometry
    white, black = oracle.entries(rows, cols, k)
    texts = pawntb.from_bitboards(white, black, True)
    failed = shown = 0
    for text in texts[::300]:
        try:
            r = t.probe(text)
        except pawntb.DamagedTableError as e:
            assert str(e).startswith(f"{path}: ")
            assert str(e).endswith(" (block 2: checksum mismatch)")
            failed += 1
            continue
        try:
            r.best
        except pawntb.DamagedTableError:  # its value is there, a move's is not
            assert repr(r).endswith(", reason=None, best=<damaged table>)")
            shown += 1
    assert failed > 0 and shown > 0
    with pytest.raises(pawntb.DamagedTableError, match=r"\(block 2: checksum mismatch\)$"):
        t.probe_many(white, black, True)


def test_every_damaged_block_is_named_up_to_three(tmp_path):
    path = damaged_copy(tmp_path, "frames.pawntb", flip_every_frame)
    blocks = len(block_frames(path.read_bytes()))
    assert blocks > 3
    t = pawntb.open_table(path, load="on_demand")
    with pytest.raises(pawntb.DamagedTableError) as caught:
        t.probe("pppp/4/4/PPPP w")
    assert str(caught.value).endswith(
        "(block 0: checksum mismatch; block 1: checksum mismatch; block 2: checksum mismatch; "
        f"{blocks - 3} more)")
