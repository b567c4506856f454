"""Whole tables through probe_many with numpy, against answers that do not go
through the Python package: the pawntb command (C++, another code path from
text to the probe), the table's header, and the brute-force model
(oracle.py)."""

import json

import numpy as np
import pytest

import oracle
import pawntb
from conftest import TABLE_3X3, TABLE_4X4, run_cli


def uva_answers(cli, table_path, rows, cols, white, black):
    """`pawntb uva` of each position, white to move: (winner, plies) arrays,
    winner 1 for white and -1 for black."""
    boards = oracle.board_rows(rows, cols, white, black)
    text = f"{len(boards)}\n" + "\n".join("\n".join(b) + "\n" for b in boards)
    lines = run_cli(cli, "uva", "--table", table_path, input_text=text).splitlines()
    assert len(lines) == len(boards)
    winner = np.array([1 if line.startswith("white (") else -1 for line in lines], np.int8)
    plies = np.array([int(line[line.index("(") + 1:-1]) for line in lines], np.int16)
    assert all(line.startswith(("white (", "black (")) for line in lines)
    return winner, plies


def test_every_4x4_entry_against_the_pawntb_command(table, cli):
    rows, cols, k = table.geometry
    white, black = oracle.entries(rows, cols, k)
    info = table.info()
    assert len(white) == info["entries"] == 281_328
    winner, plies = table.probe_many(white, black, np.ones(len(white), bool), threads=1)
    expected_winner, expected_plies = uva_answers(cli, TABLE_4X4, rows, cols, white, black)
    mismatch = np.flatnonzero((winner != expected_winner) | (plies != expected_plies))
    assert mismatch.size == 0, [
        (oracle.text((rows, cols, int(white[i]), int(black[i]), True)), winner[i], plies[i],
         expected_winner[i], expected_plies[i]) for i in mismatch[:5]]
    # The header's counts, which the generator wrote, agree too.
    assert int((winner == 1).sum()) == info["white_wins"] == 220_897
    assert int(plies.max()) == info["longest_game_plies"]
    longest = table.probe(info["longest_game_example"])
    assert longest.plies == info["longest_game_plies"]
    # Every value has its winner's parity: white, to move, wins in odd plies.
    assert np.all((plies % 2 == 1) == (winner == 1))


def test_every_4x4_entry_with_black_to_move_is_its_colour_flip(table):
    """Black to move in a position has the value of white to move in the
    position seen from the other side (the game is symmetric)."""
    rows, cols, k = table.geometry
    white, black = oracle.entries(rows, cols, k)
    winner, plies = table.probe_many(white, black, True)
    flipped_white, flipped_black = oracle.flip_colours(rows, cols, white, black)
    black_winner, black_plies = table.probe_many(flipped_white, flipped_black, False)
    np.testing.assert_array_equal(black_winner, -winner)
    np.testing.assert_array_equal(black_plies, plies)


def test_a_sample_against_pawntb_probe_json(table, cli):
    """Everything a Result holds, against `pawntb probe --json` on the same
    positions, either side to move, games over included."""
    rows, cols, k = table.geometry
    white, black = oracle.entries(rows, cols, k)
    rng = np.random.default_rng(2024)
    texts = []
    for i in rng.choice(len(white), 1500, replace=False):
        for white_to_move in (True, False):
            position = (rows, cols, int(white[i]), int(black[i]), white_to_move)
            if not oracle.invalid(position):
                texts.append(oracle.text(position))
    output = run_cli(cli, "probe", "--json", "--table", TABLE_4X4, "-",
                     input_text="\n".join(texts) + "\n")
    answers = [json.loads(line) for line in output.splitlines()]
    assert len(answers) == len(texts)
    results = table.probe_many(texts)
    for text, r, a in zip(texts, results, answers):
        assert "error" not in a, a
        assert r.position == a["position"], text
        assert (r.to_move, r.winner, r.plies, r.category, r.best) == (
            a["to_move"], a["winner"], a["plies"], a["category"], a["best"]), text
        assert [(m.uci, m.winner, m.plies, m.category, m.position) for m in r.moves] == [
            (m["uci"], m["winner"], m["plies"], m["category"], m["position"]) for m in a["moves"]]
        assert table.mainline(text) == a["line"], text
    assert any(r.plies == 0 for r in results) and any(r.to_move == "black" for r in results)


def test_every_3x3_position_against_brute_force():
    """Every 3x3 position of up to 3 pawns a side, either side to move, games
    over included, against the brute-force search: arrays and texts."""
    t = pawntb.open_table(TABLE_3X3)
    rows, cols, k = t.geometry
    squares = range(rows * cols)
    white, black = oracle.placements(rows, cols, squares, squares, k)
    for white_to_move in (True, False):
        winner, plies = t.probe_many(white, black, white_to_move)
        texts, expected = [], []
        for i in range(len(white)):
            position = (rows, cols, int(white[i]), int(black[i]), white_to_move)
            if oracle.invalid(position):
                assert (winner[i], plies[i]) == (0, -1), oracle.text(position)
                continue
            side, n = oracle.winner(position)
            assert (winner[i], plies[i]) == ((1 if side == "white" else -1), n), \
                oracle.text(position)
            texts.append(oracle.text(position))
            expected.append((side, n))
        assert [(r.winner, r.plies) for r in t.probe_many(texts)] == expected
        assert len(texts) > 1000


def test_a_4x4_sample_against_brute_force(table):
    rows, cols, k = table.geometry
    white, black = oracle.entries(rows, cols, k)
    pick = np.random.default_rng(99).choice(len(white), 300, replace=False)
    winner, plies = table.probe_many(white[pick], black[pick], True)
    for j, i in enumerate(pick):
        side, n = oracle.winner((rows, cols, int(white[i]), int(black[i]), True))
        assert (winner[j], plies[j]) == ((1 if side == "white" else -1), n)


@pytest.mark.parametrize("threads", [1, 2])
def test_large_arrays_split_over_threads_agree(table, threads):
    rows, cols, k = table.geometry
    white, black = oracle.entries(rows, cols, k)
    reps = 4  # over a million positions, so that the work is split
    w, b = np.tile(white, reps), np.tile(black, reps)
    to_move = np.resize(np.array([True, False, True]), len(w))
    winner, plies = table.probe_many(w, b, to_move, threads=threads)
    one_w, one_p = table.probe_many(white, black, True)
    np.testing.assert_array_equal(winner[to_move], np.tile(one_w, reps)[to_move])
    np.testing.assert_array_equal(plies[to_move], np.tile(one_p, reps)[to_move])


@pytest.mark.parametrize("rows,cols,k", [(5, 3, 3), (8, 3, 2), (3, 8, 2), (8, 8, 1), (6, 5, 2),
                                         (7, 4, 2)])
def test_other_board_sizes_against_brute_force(tmp_path, cli, rows, cols, k):
    """Tables the pawntb command generates for other board sizes (every row
    count, and a 64-square board): their directory is searched by size, and
    the numpy bitboards of any size are read right, against brute force."""
    run_cli(cli, "generate", "--rows", rows, "--cols", cols, "--pawns", k,
            "--output", tmp_path / f"{rows}x{cols}-k{k}.pawntb")
    t = pawntb.open_table(tmp_path, rows=rows, cols=cols)
    assert t.geometry == (rows, cols, k)
    squares = range(rows * cols)
    white, black = oracle.placements(rows, cols, squares, squares, k)
    pick = np.random.default_rng(rows * 10 + cols).choice(len(white), min(len(white), 3000),
                                                         replace=False)
    to_move = np.arange(len(pick)) % 2 == 0
    winner, plies = t.probe_many(white[pick], black[pick], to_move)
    for j, i in enumerate(pick):
        position = (rows, cols, int(white[i]), int(black[i]), bool(to_move[j]))
        if oracle.invalid(position):
            assert (winner[j], plies[j]) == (0, -1), oracle.text(position)
            continue
        side, n = oracle.winner(position)
        assert (winner[j], plies[j]) == ((1 if side == "white" else -1), n), oracle.text(position)
        if j < 50:
            assert t.probe(oracle.text(position)).plies == n
