"""Tests of tools/results.py and tools/results_page.py (the results page),
with the standard library's unittest:

  python3 -m unittest discover -s tests/results -t tests/results

The page rendered from the committed data must be the committed page, byte
for byte; the parts are checked on small records made up here; --running
on a made-up run directory, as tools/run-board.sh leaves one."""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(SOURCE, "tools"))
import results  # noqa: E402
import results_page as page  # noqa: E402

SCRIPT = os.path.join(SOURCE, "tools", "results.py")


def copy_of_the_data(into):
    """A tree with a copy of the page's data (data/answers, data/stats,
    data/proofs) and an empty docs/."""
    shutil.copytree(os.path.join(SOURCE, "data", "answers"), os.path.join(into, "data", "answers"))
    shutil.copytree(os.path.join(SOURCE, "data", "stats"), os.path.join(into, "data", "stats"))
    if os.path.isdir(os.path.join(SOURCE, "data", "proofs")):
        shutil.copytree(os.path.join(SOURCE, "data", "proofs"), os.path.join(into, "data", "proofs"))
    os.makedirs(os.path.join(into, "docs"))


def run_script(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


class CommittedPage(unittest.TestCase):
    def test_the_committed_data_gives_the_committed_page_and_plot(self):
        with tempfile.TemporaryDirectory() as tmp:
            copy_of_the_data(tmp)
            run = run_script("--render-only", "--root", tmp)
            self.assertEqual(run.returncode, 0, run.stderr)
            for name in ("results.md", "img/results-start-plies.svg"):
                with open(os.path.join(SOURCE, "docs", name), "rb") as f:
                    committed = f.read()
                with open(os.path.join(tmp, "docs", name), "rb") as f:
                    self.assertEqual(f.read(), committed, "docs/%s differs from what the data gives: run "
                                     "tools/results.py --render-only" % name)


class Numbers(unittest.TestCase):
    def test_a_double_is_written_in_its_shortest_form(self):
        self.assertEqual(page.num(8585.0), "8585")
        self.assertEqual(page.num(8585), "8585")
        self.assertEqual(page.num(12261.92), "12261.92")
        self.assertEqual(page.num(0.1), "0.1")
        self.assertEqual(page.num(0.0001), "0.0001")
        self.assertEqual(page.num(0.00001), "1e-05")
        self.assertEqual(page.num(1e17), "1e+17")
        self.assertEqual(page.num(2.372e12), "2372000000000")
        self.assertEqual(page.num(-3.5), "-3.5")

    def test_thousands_are_separated(self):
        self.assertEqual(page.n(1234567), "1,234,567")
        self.assertEqual(page.n(999), "999")
        self.assertEqual(page.n(1000), "1,000")
        self.assertEqual(page.n(214648869424), "214,648,869,424")

    def test_rounding_is_half_away_from_zero(self):
        self.assertEqual(page.rnd(2.5), 3)
        self.assertEqual(page.rnd(3.5), 4)
        self.assertEqual(page.rnd(-2.5), -3)

    def test_shares(self):
        self.assertEqual(page.one_decimal(66), "66.0")
        self.assertEqual(page.one_decimal(81.04), "81.0")
        self.assertEqual(page.one_decimal(81.05), "81.1")
        self.assertEqual(page.pct(3, 4), "75.0 %")
        self.assertEqual(page.pct2(1, 3), "33.33 %")
        self.assertEqual(page.pct2(66, 1000000), "0.0066 %")
        self.assertEqual(page.pct2(0, 5), "0 %")
        self.assertEqual(page.pct1(1, 100000), "< 0.1 %")
        self.assertEqual(page.pct1(99999, 100000), "> 99.9 %")
        self.assertEqual(page.pct1(1, 2), "50.0 %")
        self.assertEqual(page.pct1(0, 2), "0.0 %")

    def test_sizes(self):
        self.assertEqual(page.mib(1), 1)
        self.assertEqual(page.mib(1048576), 1)
        self.assertEqual(page.mib(1048577), 2)
        self.assertEqual(page.sci(999), "999")
        self.assertEqual(page.sci(257157997536), "2.6e11")
        self.assertEqual(page.sci(7.045e11), "7.0e11")
        self.assertEqual(page.sci(None), "null")

    def test_words(self):
        self.assertEqual(page.words([]), "")
        self.assertEqual(page.words(["a"]), "a")
        self.assertEqual(page.words(["a", "b"]), "a and b")
        self.assertEqual(page.words(["a", "b", "c"]), "a, b and c")
        self.assertEqual(page.number_word(2), "two")
        self.assertEqual(page.number_word(13), "13")
        self.assertEqual(page.runs([3, 4, 5, 7]), [[3, 4, 5], [7]])


def record(board, winner, plies, longest=None, stats=True):
    """A made-up record of a solved board, enough for the page."""
    rows, cols = (int(x) for x in board.split("x"))
    entries = 1000 * rows * cols
    return {
        "board": board, "rows": rows, "cols": cols, "max_pawns": cols, "table": board + ".pawntb",
        "large": False, "measured": "2026-01-01T00:00Z", "version": "pawntb 0", "generated": "this run",
        "generation": {"command": "/b/pawntb generate --rows %d --cols %d --output /t/x.pawntb" % (rows, cols),
                       "wall_s": 1.5, "cpu_s": 2.25, "peak_rss_mib": 10.0, "exit_status": 0,
                       "load_average": "1.00 1.00 1.00", "work_dir_peak_bytes": None},
        "verify": {"ok": True, "summary": "x.pawntb: ok, %d positions agree with their successors" % entries,
                   "wall_s": 3, "cpu_s": 4, "peak_rss_mib": 5},
        "spot_check": {"samples": 10, "seed": 1, "agreed": 10, "disagreed": 0, "skipped": 0,
                       "node_budget": 100, "longest_checked": 5},
        "start": {"position": "start", "winner": winner, "plies": plies, "line": ["a1a2"]},
        "stats": {"positions": 2 * entries, "side_to_move_wins": entries, "zugzwangs": rows,
                  "longest_win": {"plies": plies + 1, "positions": 2, "example": "x w"}} if stats else None,
        "info": {"entries": entries, "placements": 0, "white_wins": entries // 2, "file_size": 100,
                 "file_checksum": "00", "longest_game_plies": longest or plies, "longest_game_example": "y w"},
    }


def render(records, order, projections=None, running=(), proofs=(), beyond=""):
    return page.page(records, order, "OPENING", "INTRO", "plot.svg", projections, list(running), {}, "tool",
                     list(proofs), beyond)


def proof(board, winner, checked=True):
    """A made-up record of a board proven by search (data/proofs/RxC.json)."""
    return {"board": board, "winner": winner, "best_move": "b1b2" if winner == "white" else None, "nodes": 1234567, "seconds": 12.5, "wall_seconds": 20.75,
            "cpu_seconds": 10.25, "peak_rss_bytes": 3 * 1048576, "tt_bytes": 2 * 1048576, "threads": 1,
            "load_average": "2.00 1.00 0.50", "command": "pawntb solve --rows 9 --certificate %s.prf" % board,
            "date": "2026-01-02T03:04:05Z", "commit": "abcdef0",
            "certificate": {"bytes": 64018, "positions": 3555, "checked": checked,
                            "message": None if checked else "entry 7 is out of order",
                            "replayed_positions": 9999 if checked else None, "check_seconds": 1.5,
                            "check_peak_rss_bytes": 1048576, "check_command": "pawntb check-proof --json %s.prf" % board}}


class Page(unittest.TestCase):
    def test_the_map_shows_each_board_in_its_place(self):
        records = [record("3x3", "black", 6), record("3x4", "white", 5)]
        projections = {"rate": 1e6, "work_bytes_per_position": 0.01, "command": "project",
                       "boards": [{"board": "4x4", "indexable": False},
                                  {"board": "4x5", "positions": 5e9, "tiers": 10, "units": 20, "unit_with_reads": 1e9,
                                   "unit_with_reads_gib": 0.93, "work_dir_gib": 1.5, "one_machine": "2 h"}]}
        running = [{"board": "4x3", "progress": "solve unit 1/2 50%", "as_of": "2026-01-01T00:00Z",
                    "resume": "./run.sh", "lost": "a run"}]
        text = render(records, "3x3 3x4 4x3 4x4", projections, running)
        self.assertIn("| rows \\ columns | 3 | 4 | 5 |\n|---|---:|---:|---:|\n"
                      "| **3** | B 6 | W 5 |  |\n| **4** | running | not yet run | left out |\n", text)
        self.assertIn("| 4x3 | 3 |  | running: solve unit 1/2 50% (2026-01-01T00:00Z); lost before: a run | | | | |", text)
        self.assertIn("- 4x3: solve unit 1/2 50%, as of 2026-01-01T00:00Z. Lost: a run. Resume: `./run.sh`", text)
        self.assertIn("| 4x5 | 5 | 5.0e9 | 10 | 20 | 1.0e9 entries: 0.93 GiB | 2 h | 1.5 GiB |", text)
        self.assertIn("- Not solved yet: 4x3 and 4x4 (below).", text)
        self.assertTrue(text.startswith("# Results: pawn chess solved on 2 boards, 3x3 to 3x4\n\nOPENING\n"))
        self.assertTrue(text.endswith("\n\n"))

    def test_a_proven_board_shows_its_winner_in_the_map_and_its_proof_below(self):
        records = [record("3x3", "black", 6), record("3x4", "white", 5)]
        projections = {"rate": 1e6, "work_bytes_per_position": 0.01, "command": "project",
                       "boards": [{"board": "3x5", "indexable": False}, {"board": "4x5", "indexable": False},
                                  {"board": "4x4", "positions": 5e9, "tiers": 10, "units": 20, "unit_with_reads": 1e9,
                                   "unit_with_reads_gib": 0.93, "work_dir_gib": 1.5, "one_machine": "2 h"}]}
        running = [{"board": "4x3", "progress": "solve unit 1/2 50%", "as_of": "2026-01-01T00:00Z", "resume": "r"}]
        proofs = [proof("4x3", "white"), proof("4x4", "black"), proof("4x5", "white", checked=False)]
        text = render(records, "3x3 3x4 4x3", projections, running, proofs, "3x5 4x4 4x5")
        # 4x3 is running and proven, 4x4 (left out) and 4x5 (cannot be indexed)
        # have proofs, 3x5 none.
        self.assertIn("| **3** | B 6 | W 5 | cannot be indexed |\n"
                      "| **4** | proven: W; running | proven: B | not proven (certificate refused) |\n", text)
        self.assertIn("A board marked *proven* has no table", text)
        self.assertIn("| 4x3 | 3 |  | proven: W; running: solve unit 1/2 50% (2026-01-01T00:00Z) | | | | |", text)
        self.assertIn("- Proven from the start by search, with no table: 4x3 (white wins) and 4x4 (black wins) "
                      "([below](#boards-beyond-the-tables)).", text)
        section = text[text.index("## Boards beyond the tables"):]
        self.assertIn("| 3x5 | not proven yet | | | | | | | | | | |", section)
        self.assertIn("| 4x4 | black | none: white, to move, loses | not proven | 1,234,567 | 12.5 / 20.75 | 10.25 | 3 | 2 | 64,018 bytes, 3,555 positions | "
                      "yes, 1.5 s, peak RSS 1 MiB | 2026-01-02T03:04:05Z | abcdef0 |", section)
        self.assertIn("| 4x5 | white | `b1b2` |", section)
        self.assertIn("| REFUSED: entry 7 is out of order |", section)
        self.assertIn("- 4x4: `pawntb solve --rows 9 --certificate 4x4.prf`, then `pawntb check-proof --json 4x4.prf`; "
                      "load average 2.00 1.00 0.50.", section)
        # In the map's order (rows, then columns), each board once.
        self.assertEqual(re.findall(r"^\| ([0-9]x[0-9]) \| (?:not|white|black)", section, re.M), ["3x5", "4x3", "4x4", "4x5"])
        # Without proofs and boards beyond, no such section nor legend.
        plain = render(records, "3x3 3x4 4x3", projections, running)
        self.assertNotIn("Boards beyond the tables", plain)
        self.assertNotIn("proven", plain)
        self.assertIn("| **4** | running | left out | cannot be indexed |\n", plain)

    def test_a_proofs_distance_is_exact_or_its_bounds(self):
        def with_plies(lower, upper):
            return {**proof("4x3", "white"), "plies_lower": lower, "plies_upper": upper}
        self.assertEqual(page.distance(with_plies(35, 35)), "35")
        self.assertEqual(page.distance(with_plies(41, 47)), "41–47")
        self.assertEqual(page.distance(with_plies(41, None)), "≥41")
        self.assertEqual(page.distance(with_plies(1, 47)), "≤47")
        self.assertEqual(page.distance(with_plies(1, None)), "")
        self.assertEqual(page.distance(proof("4x3", "white")), "")
        self.assertEqual(page.proven(with_plies(35, 35)), "proven: W 35")
        self.assertEqual(page.proven(with_plies(41, 47)), "proven: W 41–47")
        self.assertEqual(page.proven(proof("4x3", "white")), "proven: W")

    def test_sentences_follow_the_lines_of_the_map(self):
        records = [record("3x3", "black", 6), record("3x4", "white", 5, longest=7), record("3x5", "white", 7),
                   record("4x3", "white", 8), record("4x4", "white", 11), record("5x3", "black", 11),
                   record("6x3", "white", 14), record("7x3", "black", 19, stats=False)]
        text = render(records, "3x3 3x4 3x5 4x3 4x4 5x3 6x3 7x3")
        self.assertIn("- White, who moves first, wins on five of the 8 boards (3x4, 3x5, 4x3, 4x4 and 6x3); "
                      "black wins on the other three (3x3, 5x3 and 7x3).", text)
        self.assertIn("- Down a column of the map, the winner changes with every row added: "
                      "with 3 columns from 3 to 7 rows.", text)
        self.assertIn("- The start's value runs from 5 plies (3x4) to 19 (7x3). It grows with every row added "
                      "for 3 and 4 columns; it grows with every column added for 4 rows and neither grows nor "
                      "falls throughout for 3 rows (6, 5, 7 for 3 to 5 columns).", text)
        self.assertIn("at most 2 plies longer than the start's value; on 3x3, 3x5, 4x3, 4x4, 5x3, 6x3 and 7x3 the "
                      "start's is the longest.", text)
        self.assertIn("where `pawntb stats` ran (not yet on 7x3).", text)
        self.assertIn("`pawntb stats` has not been run on this board yet: it takes hours on it.", text)
        self.assertIn("Generation (`pawntb generate --rows 3 --cols 3 --output x.pawntb`, this run, load average "
                      "1.00 1.00 1.00): 1.5 s wall, 2.25 s CPU, peak RSS 10 MiB.", text)


class Figures(unittest.TestCase):
    def test_a_resumed_report_says_what_it_found_done(self):
        g = results.generation_from_report({
            "command": "pawntb generate", "wall_seconds": 12.3456, "cpu_seconds": 20.001,
            "peak_rss_bytes": 3 * 1048576 + 1, "work_dir_peak_bytes": 5000, "units": 22874,
            "units_resumed": 4364, "positions_resumed": 123456789})
        self.assertEqual(g["wall_s"], 12.35)
        self.assertEqual(g["cpu_s"], 20.0)
        self.assertEqual(g["peak_rss_mib"], 3.0)
        self.assertEqual(g["resumed_from"], "4,364 of 22,874 units (123,456,789 positions) already in the work directory")

    def test_a_time_log_of_two_parts_adds_up(self):
        with tempfile.TemporaryDirectory() as tmp:
            part = ('\tCommand being timed: "./pawntb generate --rows 5"\n\tUser time (seconds): %s\n'
                    '\tSystem time (seconds): 1.00\n\tElapsed (wall clock) time (h:mm:ss or m:ss): %s\n'
                    '\tMaximum resident set size (kbytes): %d\n\tExit status: 0\n')
            with open(os.path.join(tmp, "5x5.err"), "w") as f:
                f.write("pawntb generate: resuming: 3 of 9 units (10 positions) already in the work directory\n")
                f.write(part % ("2.50", "1:02:03", 2048))
                f.write("pawntb generate: resuming: 5 of 9 units\n")
                f.write(part % ("1.25", "0:10.50", 1024))
            with open(os.path.join(tmp, "5x5.out"), "w") as f:
                f.write("work directory: 1,234 bytes of unit files at most (1 MiB), removed\n")
            g = results.generation_figures(tmp, "5x5", "0.5 0.5 0.5")
        self.assertEqual(g, {"command": "./pawntb generate --rows 5", "wall_s": 3733.5, "cpu_s": 5.75,
                             "peak_rss_mib": 2.0, "exit_status": 0, "parts": 2, "load_average": "0.5 0.5 0.5",
                             "work_dir_peak_bytes": 1234,
                             "resumed_from": "3 of 9 units (10 positions) already in the work directory"})

    def test_a_resumed_verify_gives_the_wall_time_of_all_runs(self):
        with tempfile.TemporaryDirectory() as tmp:
            def report(**fields):
                with open(os.path.join(tmp, "6x6.verify.report.json"), "w") as f:
                    json.dump({"ok": True, "summary": "t: ok", "wall_seconds": 5, "cpu_seconds": 9,
                               "peak_rss_bytes": 1048576, **fields}, f)
            report(positions_resumed=0, wall_seconds_all_runs=5)
            self.assertEqual(results.verify_figures(tmp, "6x6"),
                             {"ok": True, "summary": "t: ok", "wall_s": 5.0, "cpu_s": 9.0, "peak_rss_mib": 1.0})
            report(positions_resumed=100, wall_seconds_all_runs=14604.6)
            self.assertEqual(results.verify_figures(tmp, "6x6"),
                             {"ok": True, "summary": "t: ok", "wall_s": 14605, "peak_rss_mib": 1.0, "resumed": True})
            # An older run: its time log, output and --resume file.
            os.remove(os.path.join(tmp, "6x6.verify.report.json"))
            with open(os.path.join(tmp, "6x6.verify.err"), "w") as f:
                f.write('\tCommand being timed: "pawntb verify t"\n\tUser time (seconds): 1.5\n'
                        '\tElapsed (wall clock) time (h:mm:ss or m:ss): 0:02.00\n'
                        '\tMaximum resident set size (kbytes): 2048\n\tExit status: 1\n')
            with open(os.path.join(tmp, "6x6.verify.out"), "w") as f:
                f.write("t: header ok\n")
            self.assertEqual(results.verify_figures(tmp, "6x6"),
                             {"ok": False, "summary": "t: header ok", "wall_s": 2.0, "cpu_s": 1.5, "peak_rss_mib": 2.0})
            with open(os.path.join(tmp, "6x6.verify.json"), "w") as f:
                json.dump({"wall_seconds": 99.5}, f)
            self.assertEqual(results.verify_figures(tmp, "6x6")["wall_s"], 100)

    def test_the_progress_line_is_the_last_whole_one_without_its_rate(self):
        with tempfile.TemporaryDirectory() as tmp:
            log = os.path.join(tmp, "x.err")
            with open(log, "w") as f:
                f.write("pawntb generate: plan\npawntb generate: solve unit 10/20 50%, 1,234 positions/s, about 1 h left\r"
                        "pawntb generate: solve unit 11/20 55%, 1,300 positions/s, about 50 min left\r")
            self.assertEqual(results.last_progress_line(log), "solve unit 11/20 55%")
            with open(log, "a") as f:
                f.write("pawntb generate: solve unit 20/20 100%, 1,300 positions/s\r"
                        "pawntb generate: compress 51%, about 24 min 0 s left\r")
            self.assertEqual(results.last_progress_line(log), "compress 51%")
            self.assertEqual(results.last_progress_line(os.path.join(tmp, "none")), "")


class Running(unittest.TestCase):
    """--running on a copy of the page's data: the progress of a board still
    generating, then of one generated whose stats are done and whose verify
    is part way, reaches its progress file and the page; and what it cannot
    read is an error that names the file."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = self.tmp.name
        copy_of_the_data(self.root)
        self.tables = os.path.join(self.root, "tables")
        os.makedirs(self.tables)
        self.progress = os.path.join(self.root, "data", "answers", "7x6-k6.progress.json")
        if os.path.exists(self.progress):
            os.remove(self.progress)

    def tearDown(self):
        self.tmp.cleanup()

    def running(self, *more, resume="cd /runs/7x6 && ./run.sh"):
        args = ["--root", self.root, "--running", "7x6", "--tables", self.tables] + (["--resume", resume] if resume else [])
        return run_script(*args, *more)

    def write(self, name, text):
        with open(os.path.join(self.tables, name), "w") as f:
            f.write(text)

    def record(self):
        with open(self.progress) as f:
            return json.load(f)

    def page(self):
        return read(os.path.join(self.root, "docs", "results.md"))

    def test_a_run_from_queued_to_verified(self):
        # Queued behind another run: no log yet, an `after` file.
        self.write("after", "/runs/5x7\n")
        self.write("run.log", "waiting\n")
        run = self.running("--lost", "a run to unit 5")
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(self.record()["progress"], "queued: starts when 5x7 is done")
        self.assertIn("running: queued: starts when 5x7 is done", self.page())

        # Still generating: the last whole progress line, without its rate.
        self.write("7x6.err", "pawntb generate: plan\npawntb generate: solve unit 10/20 50%, 1,234 positions/s\r"
                   "pawntb generate: solve unit 11/20 55%, 1,300 positions/s, about 50 min left\r")
        run = self.running()
        self.assertEqual(run.returncode, 0, run.stderr)
        r = self.record()
        self.assertEqual(r["board"], "7x6")
        self.assertEqual(r["progress"], "solve unit 11/20 55%")
        self.assertEqual(r["resume"], "cd /runs/7x6 && ./run.sh")
        self.assertEqual(r["lost"], "a run to unit 5")  # kept from the earlier call
        self.assertRegex(r["as_of"], r"^20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}Z$")
        self.assertNotIn("estimate", r)
        self.assertIn("running: solve unit 11/20 55%", self.page())
        self.assertIn("Lost: a run to unit 5. Resume: `cd /runs/7x6 && ./run.sh`", self.page())

        # The run's plan: its estimate on the page.
        self.write("7x6.plan.json", '{"estimated_seconds": 41751, "rate_source": "sample of 20 units of 7x6"}')
        self.assertEqual(self.running().returncode, 0)
        self.assertEqual(self.record()["estimate"], {"seconds": 41751, "rate_source": "sample of 20 units of 7x6"})
        self.assertIn("Its plan: 11.6 h on one machine (sample of 20 units of 7x6).", self.page())
        self.write("7x6.plan.json", '{"estimated_seconds": ')
        run = self.running(resume="r")
        self.assertEqual(run.returncode, 1)
        self.assertIn("cannot read " + os.path.join(self.tables, "7x6.plan.json"), run.stderr)
        os.remove(os.path.join(self.tables, "7x6.plan.json"))

        # Generated (an older pawntb's output line): stats and verify not run.
        self.write("7x6.out", "generated 7x6-k6.pawntb: 2,000,000 positions in 3 s\n")
        self.assertEqual(self.running(resume="r").returncode, 0)
        self.assertEqual(self.record()["progress"], "generated (2,000,000 positions); stats not run yet; verify not run yet")
        # Stats under way: its last progress line, without the time left.
        self.write("7x6.stats.err", "pawntb stats: stats 3%, about 31 min left\rpawntb stats: stats 62%, about 11 min 14 s left\r")
        self.assertEqual(self.running(resume="r").returncode, 0)
        self.assertEqual(self.record()["progress"], "generated (2,000,000 positions); stats 62%; verify not run yet")

        # Generated (its report), stats done, verify a quarter of the way.
        os.remove(os.path.join(self.tables, "7x6.out"))
        self.write("7x6.generate.report.json", '{"positions": 3000000}')
        self.write("7x6.stats.json", "{}")
        self.write("7x6.verify.json", '{"entries_done": 750000, "entries": 3000000, "mismatches": 1234}')
        self.assertEqual(self.running(resume="r").returncode, 0)
        self.assertEqual(self.record()["progress"], "generated (3,000,000 positions); stats done; "
                         "verify 25 % (750,000 of 3,000,000 positions checked, 1,234 mismatches)")
        self.assertIn("running: generated (3,000,000 positions); stats done; verify 25 %", self.page())

        # What cannot be read: status 1, naming the file.
        self.write("7x6.verify.json", "not json")
        run = self.running(resume="r")
        self.assertEqual(run.returncode, 1)
        self.assertIn(os.path.join(self.tables, "7x6.verify.json"), run.stderr)

    def test_a_proof_run_names_its_winner_once_searched(self):
        self.write("mode", "prove\n")
        self.write("7x6.solve.err", "pawntb solve: 1,000 nodes, 500 nodes/s, table 5 % full, root moves: "
                   "0 proven, 1 refuted of 6, 2 s\n")
        self.assertEqual(self.running(resume="r").returncode, 0)
        self.assertEqual(self.record()["progress"],
                         "proving who wins: 1,000 nodes, table 5 % full, root moves: 0 proven, 1 refuted of 6, 2 s")
        with open(os.path.join(self.tables, "7x6.solve.err"), "a") as f:
            f.write("pawntb solve: white wins; writing the certificate: 65,536 positions listed, 3 s\n")
        self.assertEqual(self.running(resume="r").returncode, 0)
        self.assertEqual(self.record()["progress"],
                         "searched: white wins; writing the certificate: 65,536 positions listed, 3 s")
        self.assertIn("running: searched: white wins; writing the certificate", self.page())
        self.assertIn("| searched: W; running |", self.page())  # the map's cell names the winner

    def test_a_second_proofs_run_has_a_progress_file_of_its_own(self):
        self.write("mode", "prove\n")
        self.write("7x6.solve.err", "pawntb solve: 1,000 nodes, 500 nodes/s, table 5 % full, root moves: "
                   "0 proven, 1 refuted of 6, 2 s\n")
        self.assertEqual(self.running(resume="first").returncode, 0)
        self.write("root_seed", "1\n")
        self.write("7x6.solve.err", "pawntb solve: 2,000 nodes, 500 nodes/s, table 5 % full, root moves: "
                   "0 proven, 0 refuted of 6, 4 s\n")
        self.assertEqual(self.running(resume="second").returncode, 0)
        self.assertEqual(self.record()["resume"], "first")
        with open(os.path.join(self.root, "data", "answers", "7x6-k6.seed1.progress.json")) as f:
            second = json.load(f)
        self.assertEqual((second["resume"], second["root_seed"]), ("second", 1))
        self.assertIn("- 7x6 (second proof, root seed 1): proving who wins: 2,000 nodes", self.page())
        self.assertIn("| running; second proof running |", self.page())  # the map's cell
        self.write("root_seed", "one\n")
        run = self.running(resume="r")
        self.assertEqual(run.returncode, 2)
        self.assertIn(os.path.join(self.tables, "root_seed"), run.stderr)

    def test_every_run_of_a_directory_at_once(self):
        runs = os.path.join(self.root, "runs")
        for name, board, err in (("a", "7x6", "pawntb generate: solve unit 5/10 50%, 9 positions/s, about 1 min left\n"),
                                 ("b", "5x7", "pawntb generate: plan\n")):  # b: no progress line
            os.makedirs(os.path.join(runs, name))
            for file, text in (("board", board + "\n"), (board + ".err", err)):
                with open(os.path.join(runs, name, file), "w") as f:
                    f.write(text)
        os.makedirs(os.path.join(runs, "not-a-run"))
        # A proof run whose search is the one recorded: not running any more.
        with open(os.path.join(self.root, "data", "proofs", "6x7.json")) as f:
            nodes = json.load(f)["nodes"]
        os.makedirs(os.path.join(runs, "c"))
        for file, text in (("board", "6x7\n"), ("mode", "prove\n"), ("6x7.solve.json", json.dumps({"nodes": nodes}))):
            with open(os.path.join(runs, "c", file), "w") as f:
                f.write(text)
        run = run_script("--root", self.root, "--running-all", runs)
        self.assertEqual(run.returncode, 1)
        self.assertIn(os.path.join(runs, "b"), run.stderr)  # said, and the others go on
        self.assertEqual(self.record()["progress"], "solve unit 5/10 50%")
        self.assertEqual(self.record()["resume"], "(setsid %s > /dev/null 2>&1 &)" % os.path.join(runs, "a", "run.sh"))
        self.assertFalse(os.path.exists(os.path.join(self.root, "data", "answers", "6x7-k7.progress.json")))
        self.assertEqual(run_script("--root", self.root, "--running-all", os.path.join(runs, "not-a-run")).returncode, 2)

    def test_a_run_queued_again_keeps_its_progress(self):
        self.write("7x6.err", "pawntb generate: solve unit 5/10 50%, 9 positions/s, about 1 min left\n")
        self.write("run.log", "2026-01-01T00:00:00Z generate\n2026-01-02T00:00:00Z waiting for /runs/5x7 first\n")
        self.assertEqual(self.running(resume="r").returncode, 0)
        self.assertEqual(self.record()["progress"], "queued: starts again when 5x7 is done; so far: solve unit 5/10 50%")
        self.assertRegex(self.page(), r"\| \*\*7\*\* \|[^\n]*\| queued \|")  # the map's cell
        with open(os.path.join(self.tables, "run.log"), "a") as f:
            f.write("2026-01-02T01:00:00Z generate failed\n")
        self.assertEqual(self.running(resume="r").returncode, 0)
        self.assertEqual(self.record()["progress"], "stopped (generate failed); so far: solve unit 5/10 50%")
        # A note about a failure is no failure of a step.
        with open(os.path.join(self.tables, "run.log"), "a") as f:
            f.write("2026-01-02T02:00:00Z binary replaced (a failed retry now goes on)\n")
        self.assertEqual(self.running(resume="r").returncode, 0)
        self.assertEqual(self.record()["progress"], "solve unit 5/10 50%")

    def test_no_progress_line_and_usage(self):
        self.write("7x6.err", "pawntb generate: plan\n")
        run = self.running(resume="r")
        self.assertEqual(run.returncode, 1)
        self.assertIn(os.path.join(self.tables, "7x6.err"), run.stderr)
        self.assertFalse(os.path.exists(self.progress))
        self.assertEqual(self.running(resume="").returncode, 2)  # --running without --resume
        run = run_script("--root", self.root, "--running", "9x9", "--tables", self.tables, "--resume", "r")
        self.assertEqual(run.returncode, 2)
        self.assertEqual(run_script("--root", self.root, "--no-such-option").returncode, 2)


class ProveFromJson(unittest.TestCase):
    """--prove BOARD --from-json: a search run by hand, with its time log and
    check-proof's output, becomes data/proofs/RxC.json and reaches the page;
    a field missing, another board or a refused check is said so."""

    START_6X7 = "ppppppp/7/7/7/7/PPPPPPP w"

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = self.tmp.name
        copy_of_the_data(self.root)
        self.run_dir = os.path.join(self.root, "run")
        os.makedirs(self.run_dir)
        with open(os.path.join(self.run_dir, "6x7.prf"), "wb") as f:
            f.write(b"P" * 1000)
        self.solve = {"position": self.START_6X7, "geometry": {"rows": 6, "cols": 7}, "to_move": "white",
                      "winner": "black", "best_move": "d2d3", "nodes": 14324591, "seconds": 505.123, "tt_bytes": 1 << 30,
                      "threads": 1, "certificate": "6x7.prf", "certificate_positions": 52}
        # No proof records but the one made here.
        shutil.rmtree(os.path.join(self.root, "data", "proofs"), ignore_errors=True)
        self.record = os.path.join(self.root, "data", "proofs", "6x7.json")

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, content):
        path = os.path.join(self.run_dir, name)
        with open(path, "w") as f:
            f.write(content if isinstance(content, str) else json.dumps(content) + "\n")
        return path

    def time_log(self, command, cpu, wall, kib):
        return ('\tCommand being timed: "%s"\n\tUser time (seconds): %s\n\tSystem time (seconds): 0.50\n'
                '\tElapsed (wall clock) time (h:mm:ss or m:ss): %s\n\tMaximum resident set size (kbytes): %d\n'
                '\tExit status: 0\n' % (command, cpu, wall, kib))

    def prove(self, *more):
        return run_script("--root", self.root, "--build", os.path.join(self.root, "no-build"), "--prove", "6x7",
                          "--from-json", self.write("6x7.solve.json", self.solve), *more)

    def check_log(self, **fields):
        check = {"file": "6x7.prf", "ok": True, "error": None, "failing_position": None, "winner": "black",
                 "root": self.START_6X7, "entries": 52, "positions_checked": 99, "table_leaves": 0, "game_ends": 40,
                 "table": None, **fields}
        return self.write("6x7.check.log", json.dumps(check) + "\n" +
                          self.time_log("/opt/b/pawntb check-proof --json /w/6x7.prf", "1.00", "0:02.25", 2048))

    def test_a_run_by_hand_is_recorded(self):
        solve_log = self.write("6x7.solve.err", "pawntb solve: 1,000 nodes\n" + self.time_log(
            "/opt/b/pawntb solve --rows 6 --cols 7 --no-tables --json --certificate /w/6x7.prf --memory 1G --threads 1",
            "40.25", "8:30.50", 1048576))
        run = self.prove("--time-log", solve_log, "--check-log", self.check_log())
        self.assertEqual(run.returncode, 0, run.stderr)
        with open(self.record) as f:
            r = json.load(f)
        c = r.pop("certificate")
        date = r.pop("date")
        self.assertRegex(date, r"^20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$")
        commit = r.pop("commit")
        self.assertEqual(commit, subprocess.run(["git", "-C", SOURCE, "rev-parse", "--short=7", "HEAD"],
                                                capture_output=True, text=True).stdout.strip())
        self.assertEqual(r, {"board": "6x7", "rows": 6, "cols": 7, "position": self.START_6X7, "winner": "black",
                             "best_move": "d2d3", "nodes": 14324591, "seconds": 505.12, "wall_seconds": 510.5, "cpu_seconds": 40.75,
                             "peak_rss_bytes": 1 << 30, "plies_lower": None, "plies_upper": None,
                             "tt_bytes": 1 << 30, "threads": 1, "load_average": None,
                             "command": "pawntb solve --rows 6 --cols 7 --no-tables --json --certificate 6x7.prf "
                                        "--memory 1G --threads 1"})
        self.assertEqual(c, {"bytes": 1000, "positions": 52, "checked": True, "message": None, "replayed_positions": 99,
                             "longest_line": None, "check_seconds": 2.25, "check_peak_rss_bytes": 2 << 20,
                             "check_command": "pawntb check-proof --json 6x7.prf"})
        text = read(os.path.join(self.root, "docs", "results.md"))
        self.assertIn("| 6x7 | black | `d2d3` | not proven | 14,324,591 | 505.12 / 510.5 | 40.75 | 1,024 | 1,024 | 1,000 bytes, 52 positions | "
                      "yes, 2.25 s, peak RSS 2 MiB | %s | %s |" % (date, commit), text)
        self.assertNotIn("| 6x7 | not proven yet |", text)
        self.assertIn("| 5x8 | not proven yet |", text)

    def test_a_second_proof_stands_beside_the_first(self):
        # Recorded before any first, it is the board's proof.
        first_solve = self.solve
        self.solve = {**self.solve, "root_seed": 1, "nodes": 777}
        run = self.prove("--check-log", self.check_log())
        self.assertEqual(run.returncode, 0, run.stderr)
        text = read(os.path.join(self.root, "docs", "results.md"))
        self.assertIn("| 6x7, second proof (root seed 1) | black |", text)
        self.assertNotIn("| 6x7 | not proven yet |", text)
        self.assertIn("- 6x7, second proof (root seed 1): `", text)
        second_solve, self.solve = self.solve, first_solve
        self.assertEqual(self.prove("--check-log", self.check_log()).returncode, 0)
        self.solve = second_solve
        with open(self.record) as f:
            first = json.load(f)
        with open(os.path.join(self.root, "data", "proofs", "6x7.seed1.json")) as f:
            second = json.load(f)
        self.assertNotIn("root_seed", first)
        self.assertEqual((first["nodes"], second["nodes"], second["root_seed"]), (14324591, 777, 1))
        text = read(os.path.join(self.root, "docs", "results.md"))
        self.assertIn("| proven: B; second proof: proven: B |", text)  # the map's cell
        self.assertIn("| 6x7 | black |", text)
        self.assertIn("| 6x7, second proof (root seed 1) | black | `d2d3` | not proven | 777 |", text)
        self.assertIn("- 6x7, second proof (root seed 1): `", text)
        # A second proof naming the other winner is shown as such, never merged.
        self.solve = {**self.solve, "winner": "white"}
        self.assertEqual(self.prove("--check-log", self.check_log(winner="white")).returncode, 0)
        self.assertIn("| proven: B; SECOND PROOF DISAGREES: W |",
                      read(os.path.join(self.root, "docs", "results.md")))

    def test_the_certificates_longest_line_bounds_the_distance_from_above(self):
        # The search proved 20 <= n and no upper bound in its time; the
        # checked certificate's longest line is 36, and then 40 against the
        # search's 38, which stays.
        self.solve.update({"plies_lower": 20, "plies_upper": None})
        run = self.prove("--check-log", self.check_log(longest_line=36))
        self.assertEqual(run.returncode, 0, run.stderr)
        with open(self.record) as f:
            r = json.load(f)
        self.assertEqual((r["plies_lower"], r["plies_upper"], r["certificate"]["longest_line"]), (20, 36, 36))
        self.assertIn("| 6x7 | black | `d2d3` | 20–36 |", read(os.path.join(self.root, "docs", "results.md")))
        self.solve.update({"plies_lower": 20, "plies_upper": 38})
        run = self.prove("--check-log", self.check_log(longest_line=40))
        self.assertEqual(run.returncode, 0, run.stderr)
        with open(self.record) as f:
            self.assertEqual(json.load(f)["plies_upper"], 38)
        # A refused certificate bounds nothing.
        run = self.prove("--check-log", self.check_log(ok=False, error="bad", longest_line=None))
        with open(self.record) as f:
            self.assertEqual(json.load(f)["plies_upper"], 38)

    def test_the_text_of_check_proof_gives_the_longest_line(self):
        log = self.write("6x7.check.log", "/w/6x7.prf: ok, black wins %s within 34 plies: 1,234 positions checked "
                         "(1 games over, 2 wins in one, 0 table leaves)\n" % self.START_6X7)
        run = self.prove("--check-log", log)
        self.assertEqual(run.returncode, 0, run.stderr)
        with open(self.record) as f:
            r = json.load(f)
        self.assertEqual((r["certificate"]["longest_line"], r["certificate"]["replayed_positions"]), (34, 1234))

    def test_a_certificate_too_large_to_write_is_recorded_unchecked(self):
        self.solve["certificate_error"] = "the proof has more than 40 positions of the winner to move"
        self.solve["certificate_positions"] = 40
        os.remove(os.path.join(self.run_dir, "6x7.prf"))
        run = self.prove()
        self.assertEqual(run.returncode, 0, run.stderr)
        with open(self.record) as f:
            c = json.load(f)["certificate"]
        self.assertEqual((c["written"], c["checked"], c["positions"], c["bytes"]), (False, False, 40, None))
        text = read(os.path.join(self.root, "docs", "results.md"))
        self.assertIn("| more than 40 positions | no: not written: the proof has more than 40 positions", text)
        self.assertIn("searched: B (certificate too large to check)", text)
        self.assertNotIn("Proven from the start by search", text)

    def test_a_larger_listing_of_an_earlier_run_is_kept(self):
        # The first run listed 40 positions; a second, with less memory for
        # the walk, 7: the record keeps 40 and names the run that found it.
        self.solve["certificate_error"] = "the proof has more than 40 positions of the winner to move"
        self.solve["certificate_positions"] = 40
        os.remove(os.path.join(self.run_dir, "6x7.prf"))
        self.assertEqual(self.prove().returncode, 0)
        with open(self.record) as f:
            first = json.load(f)
        self.solve["certificate_error"] = "the proof has more than 7 positions of the winner to move"
        self.solve["certificate_positions"] = 7
        self.solve["nodes"] = 999
        run = self.prove()
        self.assertEqual(run.returncode, 0, run.stderr)
        with open(self.record) as f:
            r = json.load(f)
        self.assertEqual((r["nodes"], r["certificate"]["positions"]), (999, 40))
        self.assertEqual(r["certificate"]["message"], "not written: the proof has more than 40 positions of the winner "
                         "to move (the run of %s, %s)" % (first["date"], first["commit"]))
        # A later run that lists more says so itself.
        self.solve["certificate_error"] = "the proof has more than 50 positions of the winner to move"
        self.solve["certificate_positions"] = 50
        self.assertEqual(self.prove().returncode, 0)
        with open(self.record) as f:
            c = json.load(f)["certificate"]
        self.assertEqual((c["positions"], c["message"]), (50, "not written: the proof has more than 50 positions of the winner to move"))

    def test_without_its_time_log_the_figures_are_not_recorded(self):
        run = self.prove("--check-log", self.check_log())
        self.assertEqual(run.returncode, 0, run.stderr)
        with open(self.record) as f:
            r = json.load(f)
        self.assertEqual((r["command"], r["wall_seconds"], r["cpu_seconds"], r["peak_rss_bytes"]), (None, None, None, None))
        self.assertIn("| 6x7 | black | `d2d3` | not proven | 14,324,591 | 505.12 / not recorded | not recorded | not recorded |",
                      read(os.path.join(self.root, "docs", "results.md")))

    def test_a_missing_field_is_refused(self):
        for key in ("nodes", "certificate_positions", "winner"):
            del self.solve[key]
        run = self.prove("--check-log", self.check_log())
        self.assertEqual(run.returncode, 2)
        self.assertIn(os.path.join(self.run_dir, "6x7.solve.json"), run.stderr)
        self.assertIn("no winner, nodes and certificate_positions", run.stderr)
        self.assertFalse(os.path.exists(self.record))

    def test_another_board_or_no_certificate_is_refused(self):
        self.solve["geometry"] = {"rows": 7, "cols": 6}
        run = self.prove("--check-log", self.check_log())
        self.assertEqual(run.returncode, 2)
        self.assertIn("a search of a board other than 6x7", run.stderr)
        self.solve["geometry"] = {"rows": 6, "cols": 7}
        os.remove(os.path.join(self.run_dir, "6x7.prf"))
        run = self.prove("--check-log", self.check_log())
        self.assertEqual(run.returncode, 2)
        self.assertIn(os.path.join(self.run_dir, "6x7.prf") + " is not there", run.stderr)
        self.assertFalse(os.path.exists(self.record))

    def test_a_refused_or_disagreeing_check_is_recorded_and_fails(self):
        refusal = self.write("6x7.check.log", "pawntb check-proof: /w/6x7.prf: entry 7 is out of order\n")
        run = self.prove("--check-log", refusal)
        self.assertEqual(run.returncode, 1)
        with open(self.record) as f:
            c = json.load(f)["certificate"]
        self.assertEqual((c["checked"], c["message"], c["check_seconds"]), (False, "/w/6x7.prf: entry 7 is out of order", None))
        self.assertIn("| **6** |", read(os.path.join(self.root, "docs", "results.md")))
        self.assertIn("not proven (certificate refused)", read(os.path.join(self.root, "docs", "results.md")))
        run = self.prove("--check-log", self.check_log(winner="white"))
        self.assertEqual(run.returncode, 1)
        with open(self.record) as f:
            self.assertEqual(json.load(f)["certificate"]["message"], "check-proof says white wins, the search black")


class Project(unittest.TestCase):
    def test_the_projectors_lines_become_projections(self):
        with tempfile.TemporaryDirectory() as tmp:
            copy_of_the_data(tmp)
            bench = os.path.join(tmp, "build", "tools", "bench")
            os.makedirs(bench)
            # A made-up project_tiers: 8x8 cannot be indexed, every other board the same sizes.
            with open(os.path.join(bench, "project_tiers"), "w") as f:
                f.write('#!/bin/sh\necho "$*" >> "%s/calls"\n'
                        'if [ "$1x$2" = 8x8 ]; then echo "8x8 K=8: too large to index" >&2; exit 1; fi\n'
                        'echo "$1x$2 K=$3: 2.572e+11 positions in 6408 tiers, 15852 units; the largest unit 9.834e+08 '
                        'entries; the most a unit holds with what it reads 4.187e+09 entries (3.90 GiB at a byte each)"\n'
                        'echo "work directory: about 4.3 GiB"\necho "one machine: 2.9 h; 4 machines: 1 h"\n' % tmp)
            os.chmod(os.path.join(bench, "project_tiers"), 0o755)
            run = run_script("--root", tmp, "--build", os.path.join(tmp, "build"), "--project")
            self.assertEqual(run.returncode, 0, run.stderr)
            with open(os.path.join(tmp, "data", "answers", "projections.json")) as f:
                projections = json.load(f)
            with open(os.path.join(tmp, "data", "answers", "6x6-k6.json")) as f:
                six = json.load(f)
            rate = round(six["info"]["entries"] / six["generation"]["wall_s"])
            self.assertEqual(projections["rate"], rate)
            self.assertEqual(projections["boards"][0], {
                "board": "4x8", "positions": 257200000000, "tiers": 6408, "units": 15852,
                "unit_with_reads": 4187000000, "unit_with_reads_gib": 3.9, "work_dir_gib": 4.3, "one_machine": "2.9 h"})
            self.assertEqual(projections["boards"][-1], {"board": "8x8", "indexable": False})
            self.assertEqual(read(os.path.join(tmp, "calls")).splitlines()[0],
                             "4 8 8 %d %s 1" % (rate, page.num(projections["work_bytes_per_position"])))


class Prove(unittest.TestCase):
    """--prove with the build's pawntb (the build directory in $PAWNTB_BUILD):
    the search's winner of 4x4 is the one its table gives (the committed
    record), and check-proof holds its certificate."""

    def test_4x4_by_search_agrees_with_its_table(self):
        build = os.environ.get("PAWNTB_BUILD")
        if not build:
            self.skipTest("PAWNTB_BUILD (the build directory) is not set")
        with tempfile.TemporaryDirectory() as tmp:
            copy_of_the_data(tmp)
            work = os.path.join(tmp, "work")
            run = run_script("--root", tmp, "--build", build, "--prove", "4x4", "--memory", "64M", "--threads", "1",
                             "--proofs", work)
            self.assertEqual(run.returncode, 0, run.stderr)
            with open(os.path.join(tmp, "data", "proofs", "4x4.json")) as f:
                r = json.load(f)
            with open(os.path.join(SOURCE, "data", "answers", "4x4-k4.json")) as f:
                table = json.load(f)
            self.assertEqual(r["winner"], table["start"]["winner"])
            self.assertEqual(r["position"], table["start"]["position"])
            self.assertTrue(r["certificate"]["checked"], r["certificate"]["message"])
            self.assertEqual(r["certificate"]["bytes"], os.path.getsize(os.path.join(work, "4x4.prf")))
            self.assertEqual(r["command"], "pawntb solve --rows 4 --cols 4 --no-tables --json --certificate 4x4.prf "
                                           "--memory 64M --threads 1 --dtm --time 3600")
            self.assertEqual((r["plies_lower"], r["plies_upper"]), (table["start"]["plies"], table["start"]["plies"]))
            self.assertGreater(r["cpu_seconds"], 0)
            self.assertGreaterEqual(r["wall_seconds"], r["seconds"])
            self.assertGreater(r["peak_rss_bytes"], 0)


class RunBoardProve(unittest.TestCase):
    """tools/run-board.sh --prove with the build's pawntb: a proof run of 4x4
    searches, writes and checks its certificate, is done when run again, and
    --running and --prove --from-json record it from its directory."""

    def test_a_proof_run_from_start_to_record(self):
        build = os.environ.get("PAWNTB_BUILD")
        if not build:
            self.skipTest("PAWNTB_BUILD (the build directory) is not set")
        with tempfile.TemporaryDirectory() as tmp:
            copy_of_the_data(tmp)
            run_dir = os.path.join(tmp, "runs", "4x4")
            script = os.path.join(SOURCE, "tools", "run-board.sh")
            run = subprocess.run(["sh", script, "4x4", run_dir, "--prove", "--build", build, "--nice", "0",
                                  "--memory", "64M", "--threads", "1"], capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stderr)
            with open(os.path.join(SOURCE, "data", "answers", "4x4-k4.json")) as f:
                table = json.load(f)
            with open(os.path.join(run_dir, "4x4.solve.json")) as f:
                solve = json.load(f)
            self.assertEqual(solve["winner"], table["start"]["winner"])
            # Run again: every step is done, nothing runs.
            again = subprocess.run(["sh", os.path.join(run_dir, "run.sh")], capture_output=True, text=True)
            self.assertEqual(again.returncode, 0, again.stderr)
            log = read(os.path.join(run_dir, "run.log"))
            self.assertEqual(log.count(" solve\n"), 1, log)
            self.assertEqual(log.count(" done\n"), 2, log)

            # The binary that ran the solve is kept apart from the directory's,
            # which a later one may replace while it runs: the record names it.
            self.assertEqual(read(os.path.join(run_dir, "4x4.solve.commit")),
                             read(os.path.join(run_dir, "pawntb.commit")))
            with open(os.path.join(run_dir, "4x4.solve.commit"), "w") as f:
                f.write("0123abc\n")

            progress = os.path.join(tmp, "data", "answers", "4x4-k4.progress.json")
            run = run_script("--root", tmp, "--running", "4x4", "--tables", run_dir, "--resume", "run.sh")
            self.assertEqual(run.returncode, 0, run.stderr)
            with open(progress) as f:
                self.assertEqual(json.load(f)["progress"], "searched: %s wins (%s nodes); certificate checked" % (
                    table["start"]["winner"], page.n(solve["nodes"])))
            run = run_script("--root", tmp, "--prove", "4x4", "--from-json", os.path.join(run_dir, "4x4.solve.json"),
                             "--time-log", os.path.join(run_dir, "4x4.solve.time"),
                             "--check-log", os.path.join(run_dir, "4x4.check.log"))
            self.assertEqual(run.returncode, 0, run.stderr)
            self.assertFalse(os.path.exists(progress))
            with open(os.path.join(tmp, "data", "proofs", "4x4.json")) as f:
                r = json.load(f)
            self.assertTrue(r["certificate"]["checked"], r["certificate"]["message"])
            self.assertEqual(r["winner"], table["start"]["winner"])
            self.assertEqual(r["resume"], "4x4.state")
            self.assertEqual((r["plies_lower"], r["plies_upper"]), (table["start"]["plies"], table["start"]["plies"]))
            self.assertIn("--resume 4x4.state --save-every 600 --certificate 4x4.prf", r["command"])
            self.assertEqual(r["commit"], "0123abc")


    def start_proof_run(self, board, run_dir, *extra):
        """tools/run-board.sh BOARD RUN_DIR --prove with the build's pawntb, one
        thread and a 64M table, and EXTRA options; skipped without PAWNTB_BUILD."""
        build = os.environ.get("PAWNTB_BUILD")
        if not build:
            self.skipTest("PAWNTB_BUILD (the build directory) is not set")
        script = os.path.join(SOURCE, "tools", "run-board.sh")
        return subprocess.run(["sh", script, board, run_dir, "--prove", "--build", build, "--nice", "0",
                               "--memory", "64M", "--threads", "1", *extra], capture_output=True, text=True)

    def test_a_second_proof_takes_the_root_in_another_order(self):
        # Shuffled by seed 3, with the moves given tried first.
        with tempfile.TemporaryDirectory() as tmp:
            run_dir = os.path.join(tmp, "4x4s")
            # A move that is not the start's is refused at once, not when the solve starts.
            run = self.start_proof_run("4x4", run_dir, "--root-first", "d1d2,e1e2")
            self.assertEqual(run.returncode, 2)
            self.assertIn("--root-first: e1e2 is not a move of 4x4's start (a1a2 to d1d2)", run.stderr)
            self.assertFalse(os.path.exists(os.path.join(run_dir, "root_first")))
            run = self.start_proof_run("4x4", run_dir, "--root-seed", "3", "--root-first", "d1d2,a1a2")
            self.assertEqual(run.returncode, 0, run.stderr)
            with open(os.path.join(SOURCE, "data", "answers", "4x4-k4.json")) as f:
                table = json.load(f)
            with open(os.path.join(run_dir, "4x4.solve.json")) as f:
                solve = json.load(f)
            self.assertEqual((solve["root_seed"], solve["root_first"]), (3, ["d1d2", "a1a2"]))
            self.assertEqual(solve["winner"], table["start"]["winner"])
            # Kept for resumes.
            self.assertEqual(read(os.path.join(run_dir, "root_seed")).strip(), "3")
            self.assertEqual(read(os.path.join(run_dir, "root_first")).strip(), "d1d2,a1a2")

    def test_a_certificate_too_large_is_tried_again_with_a_new_binary(self):
        with tempfile.TemporaryDirectory() as tmp:
            run_dir = os.path.join(tmp, "5x5")
            run = self.start_proof_run("5x5", run_dir, "--certificate-memory", "1K")
            self.assertEqual(run.returncode, 0, run.stderr)
            with open(os.path.join(run_dir, "5x5.solve.json")) as f:
                first = json.load(f)
            self.assertIsInstance(first["certificate_error"], str, first)
            self.assertFalse(os.path.exists(os.path.join(run_dir, "5x5.check.log")))
            # The same binary again: not tried again.
            run = subprocess.run(["sh", os.path.join(run_dir, "run.sh")], capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stderr)
            self.assertNotIn(" certificate\n", read(os.path.join(run_dir, "run.log")))
            # Another binary, still without room: tried, too large again, the
            # record keeps the first run's distance.
            with open(os.path.join(run_dir, "pawntb.commit"), "w") as f:
                f.write("second\n")
            run = subprocess.run(["sh", os.path.join(run_dir, "run.sh")], capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stderr)
            self.assertEqual(read(os.path.join(run_dir, "run.log")).count(" certificate\n"), 1)
            self.assertEqual(read(os.path.join(run_dir, "5x5.certificate.tried")).strip(), "second")
            with open(os.path.join(run_dir, "5x5.solve.json")) as f:
                again = json.load(f)
            self.assertIsInstance(again["certificate_error"], str, again)
            self.assertEqual(again["plies"], first["plies"])
            # Another binary, with room: the walk goes on, the certificate is
            # written and checked, and the record keeps the first run's distance.
            os.remove(os.path.join(run_dir, "certificate_memory"))
            with open(os.path.join(run_dir, "pawntb.commit"), "w") as f:
                f.write("another\n")
            run = subprocess.run(["sh", os.path.join(run_dir, "run.sh")], capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stderr)
            log = read(os.path.join(run_dir, "run.log"))
            self.assertEqual(log.count(" certificate\n"), 2, log)
            self.assertEqual(log.count(" check-proof\n"), 1, log)
            with open(os.path.join(run_dir, "5x5.solve.json")) as f:
                now = json.load(f)
            self.assertIsNone(now["certificate_error"], now)
            self.assertGreater(now["certificate_positions"], 1024 // 9)
            self.assertEqual(now["winner"], first["winner"])
            for key in ("plies", "plies_lower", "plies_upper"):
                self.assertEqual(now[key], first[key], key)
            self.assertIsNotNone(now["plies"])
            with open(os.path.join(run_dir, "5x5.check.log")) as f:
                check = json.loads(f.readline())
            self.assertTrue(check["ok"], check)


class Measure(unittest.TestCase):
    """Measuring a board with the build's programs (the build directory in
    $PAWNTB_BUILD, as CTest gives it): 3x3 gives its committed answers and
    tier checksums, and a record whose figures come from the reports."""

    def test_3x3_from_a_fresh_table(self):
        build = os.environ.get("PAWNTB_BUILD")
        if not build:
            self.skipTest("PAWNTB_BUILD (the build directory) is not set")
        with tempfile.TemporaryDirectory() as tmp:
            copy_of_the_data(tmp)
            run = run_script("--root", tmp, "--build", build, "--boards", "3x3", "--work", os.path.join(tmp, "work"),
                             "--samples", "50")
            self.assertEqual(run.returncode, 0, run.stderr)
            for name in ("answers/3x3-k3.tsv", "tiers/3x3-k3.tsv", "stats/3x3-k3.json"):
                self.assertEqual(read(os.path.join(tmp, "data", name)), read(os.path.join(SOURCE, "data", name)), name)
            with open(os.path.join(tmp, "data", "answers", "3x3-k3.json")) as f:
                r = json.load(f)
            with open(os.path.join(tmp, "work", "3x3.generate.report.json")) as f:
                generated = json.load(f)
            self.assertEqual(r["generated"], "this run")
            self.assertEqual(r["generation"]["command"], generated["command"])
            self.assertIsNone(r["generation"]["work_dir_peak_bytes"])
            self.assertEqual(r["info"]["entries"], generated["positions"])
            self.assertTrue(r["verify"]["ok"])
            self.assertEqual(r["spot_check"]["samples"], 50)
            self.assertEqual(r["spot_check"]["disagreed"], 0)


if __name__ == "__main__":
    unittest.main()
