"""The python-chess shaped API: open_tablebase() and its Tablebase, probe_wdl,
probe_dtm, get_wdl and get_dtm on it and on Table, and the bitboards of
to_bitboards() and from_bitboards(); against the pawntb command's answers and
the brute-force model (oracle.py)."""

import re
import shutil

import numpy as np
import pytest

import oracle
import pawntb
from conftest import REPO, TABLE_3X3, TABLE_4X4, run_cli

ANSWER = re.compile(r"^(white|black) to move: (white|black)(?: wins)?"
                    r"(?: in (\d+) pl(?:y|ies)| has won)$", re.M)


def cli_answers(cli, table_path, texts):
    """`pawntb probe -` of each position, one a line: (wdl, dtm) arrays for the
    side to move, read from its text answers ("white to move: black wins in
    8 plies")."""
    output = run_cli(cli, "probe", "--table", table_path, "-", input_text="\n".join(texts) + "\n")
    found = ANSWER.findall(output)
    assert len(found) == len(texts)
    to_move = np.array([side == "white" for side, _, _ in found])
    wins = np.array([side == winner for side, winner, _ in found])
    plies = np.array([int(n or 0) for _, _, n in found])
    assert np.array_equal(to_move, np.array([t.endswith(" w") for t in texts]))
    return np.where(wins, 1, -1), np.where(wins, plies, -plies)


@pytest.fixture(scope="module")
def tablebase(tmp_path_factory, cli):
    """A tablebase of two directories: a copy of the committed 4x4 table, and
    a 3x3 table the pawntb command generates."""
    four = tmp_path_factory.mktemp("four")
    shutil.copy(TABLE_4X4, four / TABLE_4X4.name)
    three = tmp_path_factory.mktemp("three")
    run_cli(cli, "generate", "--rows", 3, "--cols", 3, "--pawns", 3, "--output",
            three / "3x3-k3.pawntb")
    with pawntb.open_tablebase(four, three) as tb:
        yield tb


def test_every_4x4_entry_either_side_to_move_against_the_pawntb_command(tablebase, cli):
    """All 281,328 entries of the 4x4 table with white to move and with black
    to move, through probe_wdl() and probe_dtm() of the tablebase, against
    `pawntb probe -`."""
    white, black = oracle.entries(4, 4, 4)
    assert len(white) == 281_328
    n = len(white)
    to_move = np.repeat([True, False], n)
    texts = pawntb.from_bitboards(np.tile(white, 2), np.tile(black, 2), to_move)
    # Black to move with a pawn on its goal row is no position.
    valid = np.array([not (t.endswith(" b") and "p" in t.split("/")[-1]) for t in texts])
    texts = [t for t, ok in zip(texts, valid) if ok]
    assert len(texts) > 1.5 * n
    wdl, dtm = cli_answers(cli, tablebase.table(4, 4).path, texts)
    assert [tablebase.probe_wdl(t) for t in texts] == wdl.tolist()
    assert [tablebase.probe_dtm(t) for t in texts] == dtm.tolist()
    # The same through the arrays, and get_* where nothing is wrong.
    winner, plies = tablebase.table(4, 4).probe_many(*pawntb.to_bitboards(texts))
    sign = np.where([t.endswith(" w") for t in texts], 1, -1)
    np.testing.assert_array_equal(winner * sign, wdl)
    np.testing.assert_array_equal(np.where(wdl == 1, plies, -plies), dtm)
    assert [tablebase.get_dtm(t) for t in texts[::97]] == dtm[::97].tolist()
    assert [tablebase.get_wdl(t) for t in texts[::89]] == wdl[::89].tolist()


def test_every_3x3_position_in_the_same_tablebase(tablebase, cli):
    """Every 3x3 position of up to 3 pawns a side, either side to move, from
    the generated 3x3 table of the same tablebase, against `pawntb probe -`
    and the brute-force search; the ones that are no position get None."""
    squares = range(9)
    white, black = oracle.placements(3, 3, squares, squares, 3)
    positions = [(3, 3, int(w), int(b), side) for side in (True, False)
                 for w, b in zip(white, black)]
    valid = [p for p in positions if not oracle.invalid(p)]
    texts = [oracle.text(p) for p in valid]
    wdl, dtm = cli_answers(cli, tablebase.table(3, 3).path, texts)
    assert [tablebase.probe_wdl(t) for t in texts] == wdl.tolist()
    assert [tablebase.probe_dtm(t) for t in texts] == dtm.tolist()
    for p, text, d in zip(valid[::7], texts[::7], dtm[::7]):
        winner, plies = oracle.winner(p)
        to_move = "white" if p[4] else "black"
        assert d == (plies if winner == to_move else -plies), text
    invalid = [oracle.text(p) for p in positions if oracle.invalid(p) and not p[2] & p[3]]
    assert invalid
    for text in invalid:
        assert tablebase.get_wdl(text) is None and tablebase.get_dtm(text, "none") == "none"
        with pytest.raises(pawntb.InvalidPositionError):
            tablebase.probe_wdl(text)


def test_a_board_size_without_a_table_raises_missing_table_error(tablebase):
    text = "ppppp/5/5/5/PPPPP w"
    for probe in (tablebase.probe, tablebase.probe_wdl, tablebase.probe_dtm, tablebase.mainline):
        with pytest.raises(pawntb.MissingTableError) as caught:
            probe(text)
        assert str(caught.value).startswith("no table for 5x5 in the tablebase (looked in: ")
        assert str(caught.value).endswith(", ".join(tablebase.directories) + ")")
        assert isinstance(caught.value, KeyError) and isinstance(caught.value, pawntb.Error)
    for get in (tablebase.get, tablebase.get_wdl, tablebase.get_dtm):
        assert get(text) is None and get(text, default=0) == 0
    with pytest.raises(pawntb.MissingTableError, match="no table for 5x5"):
        tablebase.table(5, 5)
    with pytest.raises(pawntb.InvalidPositionError):
        tablebase.probe_wdl("not a position")
    with pytest.raises(TypeError):
        tablebase.get_wdl(5)


def test_the_tablebase_probes_each_size_with_its_table(tablebase):
    assert [t.geometry for t in tablebase.tables] == [(3, 3, 3), (4, 4, 4)]
    assert repr(tablebase) == "<pawntb.Tablebase 3x3, 4x4>"
    texts = ["ppp/3/PPP w", "pppp/4/4/PPPP b", "ppp/3/PPP b", ".ppp/4/.PPP/4 w"]
    results = tablebase.probe_many(texts)
    assert results == [tablebase.probe(t) for t in texts]
    assert [r.position for r in results] == ["ppp/3/PPP w", "pppp/4/4/PPPP b", "ppp/3/PPP b",
                                             "1ppp/4/1PPP/4 w"]
    assert tablebase.probe(".ppp/4/.PPP/4 w") == tablebase.table(4, 4).probe(".ppp/4/.PPP/4 w")
    assert tablebase.get("ppp/3/PPP w") == tablebase.table(3, 3).probe("ppp/3/PPP w")
    assert tablebase.mainline(".ppp/4/.PPP/4 w") == tablebase.table(4, 4).mainline(
        ".ppp/4/.PPP/4 w")
    with pytest.raises(pawntb.InvalidPositionError, match=r"^positions\[1\]: position 'x'"):
        tablebase.probe_many(["ppp/3/PPP w", "x"])
    with pytest.raises(TypeError, match="not one str"):
        tablebase.probe_many("ppp/3/PPP w")


def test_wdl_and_dtm_of_a_table_are_the_results(table):
    texts = ["pppp/4/4/PPPP w", "pppp/4/4/PPPP b", "1ppp/2P1/1P1P/4 b", "4/4/p3/P3 w",
             "P3/4/4/4 b", "4/4/4/PPPP b", " .ppp/4/.PPP/4 w\n"]
    for text in texts:
        r = table.probe(text)
        assert table.probe_wdl(text) == (1 if r.category == "win" else -1)
        assert table.probe_dtm(text) == r.dtm
        assert table.get_wdl(text) == table.probe_wdl(text)
        assert table.get_dtm(text, "x") == r.dtm
    assert table.probe_wdl("4/4/p3/P3 w") == -1 and table.probe_dtm("4/4/p3/P3 w") == 0
    for bad in ("ppp/3/PPP w", "P3/4/4/4 w", "pppp/4/P3/PPPP w", "x"):
        assert table.get_wdl(bad) is None and table.get_dtm(bad, default=-99) == -99
        for probe in (table.probe_wdl, table.probe_dtm):
            with pytest.raises(pawntb.InvalidPositionError):
                probe(bad)
    with pytest.raises(TypeError, match="must be a str"):
        table.get_wdl(None)


def test_add_directory(tmp_path, cli):
    """Directories add their tables; a size already held keeps its table
    unless the new one has more pawns a side."""
    small, big = tmp_path / "small", tmp_path / "big"
    small.mkdir()
    big.mkdir()
    run_cli(cli, "generate", "--rows", 4, "--cols", 4, "--pawns", 2, "--output",
            small / "4x4-k2.pawntb")
    shutil.copy(TABLE_3X3, small / "3x3-k3.pawntb")
    (small / "notes.txt").write_text("not a table")
    shutil.copy(TABLE_4X4, big / "4x4-k4.pawntb")
    tb = pawntb.open_tablebase(small)
    assert [t.geometry for t in tb.tables] == [(3, 3, 3), (4, 4, 2)]
    assert tb.get_wdl("pppp/4/4/PPPP w") is None  # more pawns than 2
    assert tb.add_directory(big) == 1
    assert [t.geometry for t in tb.tables] == [(3, 3, 3), (4, 4, 4)]
    assert tb.probe_wdl("pppp/4/4/PPPP w") == 1
    assert tb.add_directory(small) == 2  # found, but fewer pawns: the 4x4-k4 stays
    assert tb.table(4, 4).geometry == (4, 4, 4)
    assert tb.directories == [str(small), str(big), str(small)]
    assert tb.add_directory(tmp_path) == 0
    with pytest.raises(pawntb.MissingTableError, match="no such directory$"):
        tb.add_directory(tmp_path / "none")
    with pytest.raises(pawntb.MissingTableError, match=r"not a directory \(open_table\(\) "
                                                       r"opens a table file\)$"):
        tb.add_directory(TABLE_4X4)
    with pytest.raises(pawntb.MissingTableError):
        pawntb.open_tablebase(small, tmp_path / "none")
    empty = pawntb.open_tablebase(tmp_path)
    assert empty.tables == [] and repr(empty) == "<pawntb.Tablebase no tables>"
    with pytest.raises(pawntb.MissingTableError, match=f"looked in: {tmp_path}"):
        empty.probe("ppp/3/PPP w")


def test_a_damaged_table_in_a_directory_is_reported(tmp_path):
    data = bytearray(TABLE_4X4.read_bytes())
    data[30] ^= 1  # the header
    (tmp_path / "4x4-k4.pawntb").write_bytes(bytes(data))
    with pytest.raises(pawntb.DamagedTableError, match="4x4-k4.pawntb"):
        pawntb.open_tablebase(tmp_path)


def test_close_and_context_manager():
    with pawntb.open_tablebase(REPO / "data", load="on_demand") as tb:
        tables = tb.tables
        assert tb.probe_wdl("ppp/3/PPP w") == tables[0].probe_wdl("ppp/3/PPP w")
    assert tb.closed and all(t.closed for t in tables)
    assert repr(tb) == "<pawntb.Tablebase (closed)>"
    for use in (lambda: tb.probe("ppp/3/PPP w"), lambda: tb.get_wdl("ppp/3/PPP w"),
                lambda: tb.table(3, 3), lambda: tb.add_directory(REPO / "data")):
        with pytest.raises(ValueError, match="closed"):
            use()
    with pytest.raises(ValueError, match="closed"):
        with tb:
            pass
    tb.close()  # twice is fine


def test_bitboards_layout_and_round_trip():
    """Bit (rank - 1) * cols + file: a1 is bit 0 and white's home rank the
    lowest bits, as the brute-force model (oracle.py) writes them."""
    white, black, to_move = pawntb.to_bitboards(["3p/4/1P2/P3 w", "pppp/4/4/PPPP b"])
    assert (white.dtype, black.dtype, to_move.dtype) == (np.uint64, np.uint64, np.bool_)
    assert white.tolist() == [1 | 1 << 5, 0b1111] and black.tolist() == [1 << 15, 0b1111 << 12]
    assert to_move.tolist() == [True, False]
    assert pawntb.from_bitboards(white, black, to_move) == ["3p/4/1P2/P3 w", "pppp/4/4/PPPP b"]
    assert pawntb.from_bitboards((white, black, to_move)) == pawntb.from_bitboards(
        white, black, to_move)
    empty = pawntb.to_bitboards([])
    assert [a.shape for a in empty] == [(0,)] * 3 and pawntb.from_bitboards(*empty) == []
    # Broadcasting, and n-d arrays read in C order.
    assert pawntb.from_bitboards([1, 2], 1 << 15, True) == ["3p/4/4/P3 w", "3p/4/4/1P2 w"]
    assert pawntb.from_bitboards(np.array([[1], [2]]), 1 << 15, [[True, False]]) == [
        "3p/4/4/P3 w", "3p/4/4/P3 b", "3p/4/4/1P2 w", "3p/4/4/1P2 b"]


@pytest.mark.parametrize("rows,cols", [(3, 3), (4, 4), (5, 3), (3, 8), (8, 8), (6, 5)])
def test_bitboards_against_the_model(rows, cols):
    rng = np.random.default_rng(rows * 10 + cols)
    positions = []
    for _ in range(300):
        squares = rng.permutation(rows * cols)[:rng.integers(0, 7)]
        split = rng.integers(0, len(squares) + 1)
        white = sum(1 << int(s) for s in squares[:split])
        black = sum(1 << int(s) for s in squares[split:])
        positions.append((rows, cols, white, black, bool(rng.integers(2))))
    texts = [oracle.text(p) for p in positions]
    white, black, to_move = pawntb.to_bitboards(texts)
    assert white.tolist() == [p[2] for p in positions]
    assert black.tolist() == [p[3] for p in positions]
    assert to_move.tolist() == [p[4] for p in positions]
    assert pawntb.from_bitboards(white, black, to_move, rows=rows, cols=cols) == texts


def test_bitboards_bad_input():
    with pytest.raises(pawntb.InvalidPositionError,
                       match=r"^positions\[1\]: position 'ppp/3/PPP w' is 3x3, positions\[0\] 4x4"):
        pawntb.to_bitboards(["pppp/4/4/PPPP w", "ppp/3/PPP w"])
    with pytest.raises(pawntb.InvalidPositionError, match=r"^positions\[1\]: position 'x'"):
        pawntb.to_bitboards(["pppp/4/4/PPPP w", "x"])
    with pytest.raises(TypeError, match=r"^positions\[0\] must be a str, not int"):
        pawntb.to_bitboards([5])
    with pytest.raises(TypeError, match="not one str: put it in a list$"):
        pawntb.to_bitboards("pppp/4/4/PPPP w")
    # A pawn off the board, two on one square: no position to write.
    with pytest.raises(ValueError, match=r"^from_bitboards\(\): position 1: a pawn off the 4x4 "
                                         r"board \(a bit above bit 15\)$"):
        pawntb.from_bitboards([1, 1 << 16], 0, True)
    with pytest.raises(ValueError, match=r"^from_bitboards\(\): position 0: a pawn off the 3x3"):
        pawntb.from_bitboards(0, 1 << 9, True, rows=3, cols=3)
    with pytest.raises(ValueError, match="both on b2$"):
        pawntb.from_bitboards(1 << 5, 1 << 5, True)
    with pytest.raises(ValueError, match="3..8"):
        pawntb.from_bitboards(1, 0, True, rows=9, cols=8)
    with pytest.raises(TypeError, match="three arrays"):
        pawntb.from_bitboards(1, 0)
    with pytest.raises(TypeError, match="integers"):
        pawntb.from_bitboards([1.5], 0, True)
    # A position the rules do not allow is still one to write.
    assert pawntb.from_bitboards(1 << 12, 0, True) == ["P3/4/4/4 w"]
    assert pawntb.from_bitboards(np.uint64(2**63), 0, True, rows=8, cols=8) == [
        "7P/8/8/8/8/8/8/8 w"]


def test_the_package_has_the_python_chess_names():
    for name in ("open_tablebase", "Tablebase", "MissingTableError", "to_bitboards",
                 "from_bitboards"):
        assert name in pawntb.__all__ and getattr(pawntb, name).__doc__
    for name in ("add_directory", "probe_wdl", "probe_dtm", "get_wdl", "get_dtm", "probe", "get",
                 "close"):
        assert getattr(pawntb.Tablebase, name).__doc__, name
    for name in ("probe_wdl", "probe_dtm", "get_wdl", "get_dtm"):
        assert getattr(pawntb.Table, name).__doc__, name
    assert issubclass(pawntb.MissingTableError, KeyError)
    assert pawntb.Tablebase.__module__ == "pawntb"
