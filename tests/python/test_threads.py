"""One Table used from many Python threads at once: the same answers as from
one thread, close() from another thread, and probe_many() letting other
threads run while it works."""

import threading
import time

import numpy as np

import oracle
import pawntb
from conftest import TABLE_4X4


def run_threads(count, work):
    """Runs work(i) on `count` threads started together; re-raises the first
    failure."""
    start = threading.Barrier(count)
    failures = []

    def body(i):
        try:
            start.wait()
            work(i)
        except BaseException as e:  # noqa: B902 (reported below)
            failures.append(e)

    threads = [threading.Thread(target=body, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)
        assert not t.is_alive(), "a thread hangs"
    if failures:
        raise failures[0]


def test_many_threads_get_the_answers_of_one(table):
    rows, cols, k = table.geometry
    white, black = oracle.entries(rows, cols, k)
    to_move = np.arange(len(white)) % 3 != 0
    expected = table.probe_many(white, black, to_move, threads=1)
    texts = [oracle.text((rows, cols, int(white[i]), int(black[i]), True)) for i in range(0, 2000)]
    expected_texts = [(r.winner, r.plies, r.best) for r in table.probe_many(texts)]

    def work(i):
        for round_ in range(3):
            # Overlapping slices of the arrays, and single probes.
            begin = (i * 37_000 + round_ * 11_000) % len(white)
            part = slice(begin, begin + 90_000)
            winner, plies = table.probe_many(white[part], black[part], to_move[part],
                                             threads=1 + i % 2)
            np.testing.assert_array_equal(winner, expected[0][part])
            np.testing.assert_array_equal(plies, expected[1][part])
            got = []
            for text in texts[i * 50:(i + 1) * 50]:
                r = table.probe(text)
                got.append((r.winner, r.plies, r.best))
                assert table.get(text) == r
            assert got == expected_texts[i * 50:(i + 1) * 50]

    run_threads(8, work)


def test_close_while_other_threads_probe():
    t = pawntb.open_table(TABLE_4X4)
    rows, cols, k = t.geometry
    white, black = oracle.entries(rows, cols, k)
    expected = t.probe_many(white, black, True)
    answered = []

    def work(i):
        if i == 0:
            time.sleep(0)  # let the others start
            t.close()
            return
        while True:
            try:
                winner, plies = t.probe_many(white, black, True)
            except ValueError as e:
                assert "is closed" in str(e)
                return
            np.testing.assert_array_equal(winner, expected[0])
            np.testing.assert_array_equal(plies, expected[1])
            answered.append(i)

    run_threads(4, work)
    assert t.closed


def test_probe_many_lets_other_python_threads_run(table):
    """While one thread is in probe_many() on a large array, another thread
    runs Python code all along: the GIL is released. With the GIL held, the
    other thread could run only at the call's two edges (numpy's copy of a
    broadcast array, the return), and would leave one gap of nearly all of it."""
    rows, cols, k = table.geometry
    white, black = oracle.entries(rows, cols, k)
    w, b = np.tile(white, 32), np.tile(black, 32)  # 9 million positions
    window = []
    done = threading.Event()

    def prober():
        window.append(time.perf_counter())
        table.probe_many(w, b, True, threads=1)
        window.append(time.perf_counter())
        done.set()

    thread = threading.Thread(target=prober)
    stamps, steps = [], 0
    thread.start()
    while not done.is_set():
        steps += 1
        if steps % 256 == 0:
            stamps.append(time.perf_counter())
    thread.join()
    begin, end = window
    assert end - begin > 0.05, "too little work to tell"
    inside = [begin] + [s for s in stamps if begin < s < end] + [end]
    longest_gap = max(later - earlier for earlier, later in zip(inside, inside[1:]))
    assert longest_gap < 0.5 * (end - begin), (longest_gap, end - begin, len(inside))
