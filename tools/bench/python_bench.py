#!/usr/bin/env python3
"""Speed of the Python package on the default 4x4 table: one Table.probe(),
and Table.probe_many() with numpy arrays (one thread, then all cores) and
with a list of texts. The issue's targets: a probe in at most 2 us, and at
least 20 M positions/s with numpy on one thread.

Usage, with the package installed (docs/python.md):
    build/python-venv/bin/python tools/bench/python_bench.py [--repeat N]

Each figure is the best of N runs (default 7), in wall time and, for one
thread, in the thread's CPU time too: on a shared machine the CPU time says
what the code costs, the wall time what a caller waited.
"""

import argparse
import datetime
import os
import platform
import subprocess
import time
from pathlib import Path

import numpy as np

import pawntb


def positions(rows, cols, max_pawns):
    """Every white-to-move position the table indexes (format/FORMAT.md 6.2),
    as the numpy API's bitboards, in a random order: white has 1..K pawns
    below rank `rows`, black 0..K above rank 1, on different squares."""
    masks = np.arange(1 << (rows * cols), dtype=np.uint64)
    counts = np.zeros(len(masks), dtype=np.int64)
    for square in range(rows * cols):
        counts += ((masks >> np.uint64(square)) & np.uint64(1)).astype(np.int64)
    top = np.uint64(((1 << cols) - 1) << ((rows - 1) * cols))
    bottom = np.uint64((1 << cols) - 1)
    white = masks[(counts >= 1) & (counts <= max_pawns) & ((masks & top) == 0)]
    black = masks[(counts <= max_pawns) & ((masks & bottom) == 0)]
    pairs_w = np.repeat(white, len(black))
    pairs_b = np.tile(black, len(white))
    keep = (pairs_w & pairs_b) == 0
    order = np.random.default_rng(2025).permutation(int(keep.sum()))
    return pairs_w[keep][order], pairs_b[keep][order]


def best_of(repeat, run):
    """The least wall time and the least CPU time of this thread, in seconds,
    over `repeat` runs."""
    walls, cpus = [], []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.thread_time()
        run()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.thread_time() - cpu)
    return min(walls), min(cpus)


def texts_of(rows, cols, white, black, to_move):
    """Position texts, top row first, digits for runs of empty squares."""
    out = []
    for w, b, t in zip(white.tolist(), black.tolist(), to_move.tolist()):
        lines = []
        for rank in range(rows, 0, -1):
            line = ""
            for file in range(cols):
                bit = 1 << ((rank - 1) * cols + file)
                line += "P" if w & bit else "p" if b & bit else "."
            lines.append(line)
        out.append("/".join(lines) + (" w" if t else " b"))
    return out


def commit():
    try:
        return subprocess.run(["git", "-C", str(Path(__file__).parent), "rev-parse", "--short",
                               "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=7, help="runs of each, the best counts")
    args = parser.parse_args()

    table = pawntb.open_table()
    rows, cols, k = table.geometry
    white, black = positions(rows, cols, k)
    assert len(white) == table.info()["entries"], "the positions are not the table's entries"
    print(f"pawntb {pawntb.__version__} (commit {commit()}), {datetime.date.today()}, "
          f"Python {platform.python_version()}, numpy {np.__version__}, {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.1f}; table {table.path}")

    # One probe: texts of both sides to move, cycled through.
    sample = slice(0, 10_000)
    to_move = np.arange(len(white[sample])) % 2 == 0
    texts = [t for t, r in zip(texts_of(rows, cols, white[sample], black[sample], to_move),
                               table.probe_many(white[sample], black[sample], to_move)[0])
             if r != 0]  # leave out the few with no answer (black on its goal row)
    probe = table.probe
    wall, cpu = best_of(args.repeat, lambda: [probe(t) for t in texts])
    print(f"probe: {wall / len(texts) * 1e9:.0f} ns per call ({cpu / len(texts) * 1e9:.0f} ns CPU)"
          f", best of {args.repeat} x {len(texts):,} positions; target <= 2,000 ns")
    wall, cpu = best_of(args.repeat, lambda: [probe(t).best for t in texts])
    print(f"probe + best move: {wall / len(texts) * 1e9:.0f} ns per call "
          f"({cpu / len(texts) * 1e9:.0f} ns CPU)")

    # numpy: every entry 16 times over (4.5 million positions), white to move.
    w, b = np.tile(white, 16), np.tile(black, 16)
    t = np.ones(len(w), dtype=bool)
    for threads, name in ((1, "1 thread"), (0, f"threads=0 ({os.cpu_count()} cores)")):
        wall, cpu = best_of(args.repeat, lambda: table.probe_many(w, b, t, threads=threads))
        cpu_part = f", {len(w) / cpu / 1e6:.1f} M/s CPU" if threads == 1 else ""
        print(f"probe_many numpy, {name}: {len(w) / wall / 1e6:.1f} M positions/s{cpu_part}; "
              f"{len(w):,} positions" + ("; target >= 20 M/s" if threads == 1 else ""))

    wall, cpu = best_of(args.repeat, lambda: table.probe_many(texts))
    print(f"probe_many of {len(texts):,} texts: {len(texts) / wall / 1e6:.2f} M positions/s "
          f"({len(texts) / cpu / 1e6:.2f} M/s CPU)")


if __name__ == "__main__":
    main()
