"""Every function of the Python package, on positions whose answers come from
the independent brute-force model (oracle.py) or from the pawntb command."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import oracle
import pawntb
from conftest import REPO, TABLE_3X3, TABLE_4X4, run_cli

# A few positions of each kind: wins and losses for either side to move,
# positions whose game is over, and one whose side to move has no pawns.
POSITIONS = [
    "pppp/4/4/PPPP w",
    ".ppp/4/.PPP/4 w",
    "1ppp/2P1/1P1P/4 b",
    "p1pp/1p2/P3/1PPP w",
    "pp1p/1p2/4/PPPP w",
    "4/4/p3/P3 w",  # white to move cannot: it has lost
    "4/4/p3/P3 b",  # black to move cannot either
    "1P2/4/4/4 b",  # white has reached its goal row
    "4/4/4/1p2 w",  # black has reached its goal row
    "pppp/4/4/4 w",  # white has no pawns
    "4/4/4/PPPP b",  # black has no pawns
    "4/p3/P3/4 b",
]


def oracle_value(text):
    return oracle.winner(oracle.parse(text))


@pytest.mark.parametrize("text", POSITIONS)
def test_probe_fields_agree_with_brute_force(table, text):
    r = table.probe(text)
    position = oracle.parse(text)
    winner, plies = oracle_value(text)
    to_move = "white" if position[4] else "black"
    assert (r.winner, r.plies) == (winner, plies)
    assert r.to_move == to_move
    assert r.position == oracle.text(position)
    assert r.category == ("win" if winner == to_move else "loss")
    assert r.dtm == (plies if winner == to_move else -plies)
    moves = oracle.moves(position)
    assert [m.uci for m in r.moves] == sorted(
        (uci for uci, _ in moves), key=lambda uci: best_first(position, uci))
    assert r.best == (r.moves[0].uci if moves else None)
    for m in r.moves:
        after = dict(moves)[m.uci]
        after_winner, after_plies = oracle.winner(after)
        after_to_move = "white" if after[4] else "black"
        assert m.position == oracle.text(after)
        assert (m.winner, m.plies) == (after_winner, after_plies)
        assert m.category == ("win" if after_winner == after_to_move else "loss")
        assert m.dtm == (after_plies if after_winner == after_to_move else -after_plies)


def best_first(position, uci):
    """pawntb's order of moves: the fastest wins, then the longest losses, ties
    in move generation order (oracle.moves gives that order)."""
    order = [u for u, _ in oracle.moves(position)]
    wins, plies = oracle.value(dict(oracle.moves(position))[uci])
    # A move is a win for the mover when the opponent then loses.
    return (0, plies, order.index(uci)) if not wins else (1, -plies, order.index(uci))


def test_dtm_signs_for_win_loss_and_lost():
    t = pawntb.open_table(TABLE_4X4)
    win = t.probe(".ppp/4/.PPP/4 w")
    assert win.category == "win" and win.dtm == win.plies > 0
    loss = t.probe("1ppp/2P1/1P1P/4 b")
    assert loss.category == "loss" and loss.dtm == -loss.plies < 0
    lost = t.probe("4/4/p3/P3 w")
    assert (lost.category, lost.plies, lost.dtm, lost.best, lost.moves) == ("loss", 0, 0, None, [])
    assert lost.winner == "black"


def test_reason_says_why_a_game_is_over():
    t = pawntb.open_table(TABLE_4X4)
    assert t.probe(".ppp/4/.PPP/4 w").reason is None
    assert t.probe("4/4/p3/P3 w").reason == "no_moves"
    assert t.probe("P3/4/4/4 b").reason == "goal"
    assert t.probe("4/4/4/PPPP b").reason == "no_pawns"


def test_result_and_move_compare_hash_and_print(table):
    a, b = table.probe(".ppp/4/.PPP/4 w"), table.probe("1ppp/4/1PPP/4 w")
    assert a == b and hash(a) == hash(b) and a is not b
    assert a != table.probe("pppp/4/4/PPPP w")
    assert a != "1ppp/4/1PPP/4 w"
    assert repr(a) == ("Result(position='1ppp/4/1PPP/4 w', to_move='white', winner='white', "
                       "plies=7, dtm=7, category='win', reason=None, best='c2c3')")
    m = a.moves[0]
    assert m == b.moves[0] and hash(m) == hash(b.moves[0]) and m != a.moves[1]
    assert repr(m) == ("Move(uci='c2c3', position='1ppp/2P1/1P1P/4 b', to_move='black', "
                       "winner='white', plies=6, dtm=-6, category='loss')")
    over = table.probe("P3/4/4/4 b")
    assert repr(over) == ("Result(position='P3/4/4/4 b', to_move='black', winner='white', "
                          "plies=0, dtm=0, category='loss', reason='goal', best=None)")
    with pytest.raises(AttributeError):
        a.winner = "black"


def test_mainline_is_best_play_to_the_end(table):
    for text in POSITIONS:
        r = table.probe(text)
        line = table.mainline(text)
        assert len(line) == r.plies
        position = oracle.parse(text)
        for ply, uci in enumerate(line):
            # Each move is a best one: the value goes down by one ply, same winner.
            position = dict(oracle.moves(position))[uci]
            assert oracle.winner(position) == (r.winner, r.plies - ply - 1)
        assert oracle.moves(position) == []
    assert table.mainline("pppp/4/4/PPPP w")[0] == table.probe("pppp/4/4/PPPP w").best


def test_get_is_probe_or_the_default(table):
    assert table.get("pppp/4/4/PPPP w") == table.probe("pppp/4/4/PPPP w")
    assert table.get("not a position") is None
    assert table.get("P3/4/4/4 w") is None
    assert table.get("ppp/3/PPP w", "none") == "none"
    assert table.get("ppp/3/PPP w", default=0) == 0


def test_probe_many_of_texts_is_probe_of_each(table):
    texts = POSITIONS * 3
    assert table.probe_many(texts) == [table.probe(t) for t in texts]
    assert table.probe_many(tuple(texts)) == table.probe_many(iter(texts))
    assert table.probe_many(positions=texts[:2]) == table.probe_many(texts[:2])
    assert table.probe_many([]) == []
    many = table.probe_many(texts)
    assert many[1].moves == table.probe(texts[1]).moves  # moves work on these too


def test_probe_many_of_arrays_agrees_with_probe_of_texts(table):
    rows, cols, k = table.geometry
    white, black = oracle.entries(rows, cols, k)
    pick = np.random.default_rng(27).choice(len(white), 3000, replace=False)
    w, b = white[pick], black[pick]
    to_move = np.arange(len(w)) % 2 == 0
    winner, plies = table.probe_many(w, b, to_move)
    assert winner.dtype == np.int8 and plies.dtype == np.int16
    assert winner.shape == plies.shape == w.shape
    texts = [oracle.text((rows, cols, int(x), int(y), bool(z))) for x, y, z in zip(w, b, to_move)]
    for i, text in enumerate(texts):
        r = table.get(text)
        if r is None:  # black to move with a pawn on its goal row: no answer
            assert (winner[i], plies[i]) == (0, -1), text
        else:
            assert (winner[i], plies[i]) == ((1 if r.winner == "white" else -1), r.plies), text


def test_probe_many_array_forms_and_shapes(table):
    rows, cols, k = table.geometry
    white, black = oracle.entries(rows, cols, k)
    w, b = white[:24], black[:24]
    t = np.ones(24, dtype=bool)
    winner, plies = table.probe_many(w, b, t)
    # As one tuple, by keyword, from lists, from signed integers, on one thread.
    for other in (table.probe_many((w, b, t)),
                  table.probe_many(white=w, black=b, white_to_move=t),
                  table.probe_many(w, b, white_to_move=t),
                  table.probe_many(list(map(int, w)), list(map(int, b)), [True] * 24),
                  table.probe_many(w.astype(np.int64), b.astype(np.int32), t.astype(np.uint8)),
                  table.probe_many(w, b, t, threads=1),
                  table.probe_many(w[::-1][::-1], b, t)):
        np.testing.assert_array_equal(other[0], winner)
        np.testing.assert_array_equal(other[1], plies)
    # Broadcasting: one side to move for all; the shape is kept.
    np.testing.assert_array_equal(table.probe_many(w, b, True)[0], winner)
    two_d = table.probe_many(w.reshape(4, 6), b.reshape(4, 6), t.reshape(4, 6))
    assert two_d[0].shape == (4, 6)
    np.testing.assert_array_equal(two_d[0].ravel(), winner)
    # Strided input (every other position).
    np.testing.assert_array_equal(table.probe_many(w[::2], b[::2], t[::2])[1], plies[::2])
    # Nothing in, nothing out; one position in a 0-d array.
    empty = table.probe_many(np.array([], np.uint64), np.array([], np.uint64), np.array([], bool))
    assert empty[0].shape == (0,) and empty[1].dtype == np.int16
    scalar = table.probe_many(np.uint64(w[3]), np.uint64(b[3]), True)
    assert scalar[0].shape == () and (scalar[0], scalar[1]) == (winner[3], plies[3])


def test_probe_many_bit_layout_is_rank_major_from_white_home(table):
    # White pawns on a1 and b2 (bits 0 and 5), black on d4 (bit 15), white to move.
    text = "3p/4/1P2/P3 w"
    winner, plies = table.probe_many(np.array([1 | 1 << 5], np.uint64),
                                     np.array([1 << 15], np.uint64), np.array([True]))
    r = table.probe(text)
    assert (winner[0], plies[0]) == ((1 if r.winner == "white" else -1), r.plies)
    assert oracle.parse(text)[2:4] == (1 | 1 << 5, 1 << 15)


def test_probe_many_threads_give_the_same_answers(table):
    rows, cols, k = table.geometry
    white, black = oracle.entries(rows, cols, k)
    t = np.ones(len(white), dtype=bool)
    one = table.probe_many(white, black, t, threads=1)
    for threads in (0, 2, 3, 64):
        many = table.probe_many(white, black, t, threads=threads)
        np.testing.assert_array_equal(many[0], one[0])
        np.testing.assert_array_equal(many[1], one[1])


def test_start_position_and_geometry():
    for path, rows, cols, k in ((TABLE_4X4, 4, 4, 4), (TABLE_3X3, 3, 3, 3)):
        with pawntb.open_table(path) as t:
            assert t.geometry == (rows, cols, k)
            middle = "/".join([str(cols)] * (rows - 2))
            assert t.start_position() == f"{'p' * cols}/{middle}/{'P' * cols} w"
            assert t.probe(t.start_position()).to_move == "white"


def test_info_is_pawntb_info_json(table, cli):
    expected = json.loads(run_cli(cli, "info", "--json", "--table", TABLE_4X4))
    info = table.info()
    assert list(info) == list(expected)  # the same keys, in the same order
    assert info == expected
    assert info["file_checksum_listed_in"] is not None  # data/checksums.txt lists it


def test_info_of_an_unlisted_copy_has_no_listing(tmp_path, monkeypatch, cli):
    monkeypatch.chdir(tmp_path)  # no data/ or checksums.txt around
    monkeypatch.delenv("PAWNTB_TABLE", raising=False)
    copy = tmp_path / "copy.pawntb"
    copy.write_bytes(TABLE_4X4.read_bytes())
    with pawntb.open_table(copy) as t:
        info = t.info()
    assert info["file_checksum_listed_in"] is None
    assert info == json.loads(run_cli(cli, "info", "--json", copy))


def test_open_table_finds_tables(tmp_path, monkeypatch):
    monkeypatch.delenv("PAWNTB_TABLE", raising=False)
    monkeypatch.chdir(tmp_path)
    default = pawntb.open_table()
    assert default.geometry == (4, 4, 4)
    # Nothing in the current directory: the table installed with the package.
    assert Path(default.path).parent == Path(pawntb.__file__).parent / "share" / "pawntb"
    assert pawntb.open_table(rows=3, cols=3).geometry == (3, 3, 3)
    assert pawntb.open_table(str(TABLE_3X3)).geometry == (3, 3, 3)
    assert pawntb.open_table(TABLE_3X3, rows=3, cols=3).path == str(TABLE_3X3)
    # A directory: its table for the size asked (4x4 by default).
    assert pawntb.open_table(REPO / "data").path == str(REPO / "data" / "4x4-k4.pawntb")
    assert pawntb.open_table(REPO / "data", rows=3, cols=3).geometry == (3, 3, 3)
    for load in ("automatic", "all", "on_demand"):
        with pawntb.open_table(TABLE_4X4, load=load) as t:
            assert t.probe("pppp/4/4/PPPP w") == default.probe("pppp/4/4/PPPP w")
    # $PAWNTB_TABLE comes first, as for the pawntb command.
    monkeypatch.setenv("PAWNTB_TABLE", str(TABLE_3X3))
    assert pawntb.open_table().geometry == (3, 3, 3)
    assert pawntb.open_table(rows=4, cols=4).geometry == (4, 4, 4)
    # The current directory comes before the installed tables.
    monkeypatch.delenv("PAWNTB_TABLE")
    (tmp_path / "4x4-k4.pawntb").symlink_to(TABLE_4X4)
    assert pawntb.open_table().path == "./4x4-k4.pawntb"


def test_search_path(tmp_path, monkeypatch):
    monkeypatch.delenv("PAWNTB_TABLE", raising=False)
    places = pawntb.search_path()
    assert places[:2] == [".", "data"]
    assert Path(places[-1]) == Path(pawntb.__file__).parent / "share" / "pawntb"
    assert (Path(places[-1]) / "4x4-k4.pawntb").read_bytes() == TABLE_4X4.read_bytes()
    monkeypatch.setenv("PAWNTB_TABLE", str(tmp_path))
    assert pawntb.search_path() == [str(tmp_path)] + places


def test_close_and_context_manager():
    t = pawntb.open_table(TABLE_4X4)
    r = t.probe(".ppp/4/.PPP/4 w")
    assert not t.closed and "4x4" in repr(t)
    with t as same:
        assert same is t
    assert t.closed and repr(t).endswith("(closed)>")
    t.close()  # twice is fine
    for use in (lambda: t.probe("pppp/4/4/PPPP w"), lambda: t.get("pppp/4/4/PPPP w"),
                lambda: t.mainline("pppp/4/4/PPPP w"), lambda: t.probe_many(["pppp/4/4/PPPP w"]),
                lambda: t.probe_many(np.zeros(1, np.uint64), np.zeros(1, np.uint64), True),
                t.start_position, t.info, lambda: t.geometry):
        with pytest.raises(ValueError, match="is closed"):
            use()
    # What was answered before still works, moves included.
    assert r.best is not None and r.moves and r.winner == "white"
    assert t.path == str(TABLE_4X4)


def test_legal_moves_and_play_follow_the_rules():
    rows, cols, k = 4, 4, 4
    white, black = oracle.entries(rows, cols, k)
    pick = np.random.default_rng(7).choice(len(white), 1500, replace=False)
    for n, i in enumerate(pick):
        position = (rows, cols, int(white[i]), int(black[i]), n % 2 == 0)
        if oracle.invalid(position):
            continue
        text = oracle.text(position)
        expected = oracle.moves(position)
        assert pawntb.legal_moves(text) == [uci for uci, _ in expected], text
        for uci, after in expected:
            assert pawntb.play(text, [uci]) == oracle.text(after)
        if expected:
            uci, after = expected[-1]
            follow = oracle.moves(after)
            if follow:
                two = [uci, follow[0][0]]
                assert pawntb.play(text, two) == oracle.text(follow[0][1])
                assert pawntb.play(text, ",".join(two)) == pawntb.play(text, " ".join(two))
                assert pawntb.play(text, tuple(two)) == pawntb.play(text, two)
    assert pawntb.play(".ppp/4/.PPP/4 w", []) == "1ppp/4/1PPP/4 w"
    assert pawntb.play(".ppp/4/.PPP/4 w", "") == "1ppp/4/1PPP/4 w"
    assert pawntb.legal_moves("4/4/p3/P3 w") == []
    assert pawntb.legal_moves("ppp/3/PPP w") == ["a1a2", "b1b2", "c1c2"]


def test_version_is_the_projects():
    text = (REPO / "CMakeLists.txt").read_text()
    assert pawntb.__version__ == re.search(r"project\(pawntb VERSION ([0-9.]+)", text).group(1)


def test_default_table_from_anywhere(tmp_path):
    """The issue's check: after pip install, from a directory with no tables."""
    env = {k: v for k, v in os.environ.items() if k != "PAWNTB_TABLE"}
    code = "import pawntb; print(pawntb.open_table().probe('pppp/4/4/PPPP w').winner)"
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (0, "white\n", "")


def test_results_and_moves_pickle(table, tmp_path):
    """Pickled with their moves and line, so that an unpickled Result needs
    no table (multiprocessing sends results this way)."""
    import pickle

    for text in POSITIONS:
        r = table.probe(text)
        for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
            back = pickle.loads(pickle.dumps(r, protocol))
            assert back == r and hash(back) == hash(r) and repr(back) == repr(r)
            assert vars(back) == vars(r)
        for m in r.moves:
            back = pickle.loads(pickle.dumps(m))
            assert back == m and vars(back) == vars(m)
    # From a table that is gone: the moves came with the pickle.
    path = tmp_path / "4x4-k4.pawntb"
    path.write_bytes(TABLE_4X4.read_bytes())
    with pawntb.open_table(path, load="on_demand") as t:
        data = pickle.dumps(t.probe(".ppp/4/.PPP/4 w"))
    path.unlink()
    back = pickle.loads(data)
    assert back.best == "c2c3" and [m.uci for m in back.moves] == ["c2c3", "b2b3", "d2d3"]
    assert back.moves == table.probe(".ppp/4/.PPP/4 w").moves


def test_a_damaged_pickle_is_refused(table):
    import pickle

    data = pickle.dumps(table.probe(".ppp/4/.PPP/4 w"))
    for old, new, says in ((b"white", b"whitx", "the winner 'whitx' is not 'white' or 'black'"),
                           (b"c2c3", b"c2c5", "c2c5: "),
                           (b"1ppp/4/1PPP/4 w", b"1ppp/4/1PPP/4 x", "side")):
        with pytest.raises(ValueError, match="^cannot unpickle a pawntb.Result: .*" + says):
            pickle.loads(data.replace(old, new))


def test_vars_gives_every_field(table):
    r = table.probe(".ppp/4/.PPP/4 w")
    assert vars(r) == {"position": "1ppp/4/1PPP/4 w", "to_move": "white", "winner": "white",
                       "plies": 7, "dtm": 7, "category": "win", "reason": None, "best": "c2c3",
                       "moves": r.moves}
    m = r.moves[0]
    assert vars(m) == {"uci": "c2c3", "position": "1ppp/2P1/1P1P/4 b", "to_move": "black",
                       "winner": "white", "plies": 6, "dtm": -6, "category": "loss"}
    assert all(getattr(r, k) == v for k, v in vars(r).items())
    vars(r)["plies"] = 0  # a new dict each time: the Result stays as it was
    assert r.plies == 7
