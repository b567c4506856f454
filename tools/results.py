#!/usr/bin/env python3
"""Solves the boards of docs/results.md and measures everything that page says:
generation time and memory, verify, the independent spot check, the value of
the start and its line, the longest win, the share won by the side to move,
the zugzwangs, the file's size and checksum. Writes, per board RxC with K = C,
  data/answers/RxC-kK.json   the measured figures (one JSON object)
  data/answers/RxC-kK.tsv    the answers file (docs/results.md says its format)
  data/tiers/RxC-kK.tsv      each tier's checksum (`pawntb info --tiers`)
  data/stats/RxC-kK.json     `pawntb stats --json` of the table, whole
and then, from every data/answers/RxC-kK.json there is (and
data/answers/projections.json, see --project, data/answers/*.progress.json,
see --running, and data/proofs/RxC.json, see --prove), docs/results.md and
its plot, docs/img/results-start-plies.svg (tools/results_page.py).

  tools/results.py [--build DIR] [--boards "3x3 4x4 ..."] [--tables DIR] [--work DIR]
                   [--samples N] [--seed N] [--threads N] [--memory SIZE]
                   [--no-stats "4x7 ..."] [--large "6x6 ..."] [--refresh] [--project]
                   [--render-only] [--running BOARD --resume "COMMAND" [--lost "TEXT"]]
                   [--running-all DIR]
                   [--prove BOARD [--proofs DIR] [--dtm-time S]
                    [--from-json SOLVE.json [--time-log FILE]] [--check-log FILE]]
                   [--root DIR]

--build    the build directory holding tools/pawntb and tests/pawntb_spot_check (build)
--boards   the boards to measure, in this order (default: 3x3 to 8x4 and 6x5,
           each a few minutes at most, and 5x6, about an hour with verify)
--tables   a run directory (tools/run-board.sh's) or a directory of tables:
           RxC-kK.pawntb there is used as it is, not generated again, and
           the figures of the runs that made and checked it are read from
           there: RxC.generate.report.json and RxC.verify.report.json (the
           commands' --report), RxC.verify.json (verify's --resume file: the
           wall time of all its runs) and RxC.stats.json (`pawntb stats
           --json`, kept as data/stats/RxC-kK.json; stats is not run again).
           Runs made before the reports existed left `/usr/bin/time -v` logs
           instead: RxC.err and RxC.out (generate; a log the parts of a resumed
           run appended to gives their sum), RxC-disk.log (`du -sb` of the work
           directory, lines "TIME BYTES", for a pawntb too old to print its
           peak), RxC.verify.err and RxC.verify.out (verify); they are read
           when there is no report
--work     where generated tables and their reports go (BUILD/results)
--memory   passed to `pawntb generate`, `pawntb verify` and `pawntb stats`
           (their default: 3/4 of the memory available); a table larger than
           it is solved unit by unit, in a work directory next to the table
--no-stats boards on which `pawntb stats` is not run here, for time (on the
           largest boards it takes hours: run it by hand and give its output,
           see --tables), nor info's check of every block
--large    the same, and `pawntb verify` is not run either (run it with
           --resume, and give its report, see --tables)
--refresh  for each board, only refresh what its JSON record takes from files,
           running no check again: the table's header figures (entries, win
           count, size), from the table in --tables, which must be the
           recorded file (same XXH3-64), the generation's and verify's
           figures from their reports (or logs) there, and the statistics
           from RxC.stats.json there, which is kept as data/stats/RxC-kK.json;
           the spot check, start and answers are kept
--project  only write data/answers/projections.json, what
           `tools/bench/project_tiers` (in --build) projects for the boards
           not solved (UNSOLVED below) at the rate of the 6x6 run (its
           record's positions over its wall time), with its work directory's
           bytes per position; then the page
--render-only  only write the page from the existing JSON files
--running  only record that board BOARD's generation is still running (or
           stopped, to be resumed): its last progress line in --tables'
           BOARD.err (`pawntb generate`'s stderr), the estimate of
           BOARD.plan.json there if any (`pawntb generate --plan --json`), or
           that it has ended when its report BOARD.generate.report.json is
           there (or BOARD.out has its "generated" line), then whether
           BOARD.stats.json is there and how far the verify's --resume file
           BOARD.verify.json has come, and the time of the file read last go
           to data/answers/RxC-kK.progress.json with --resume's COMMAND, and
           the page shows them until the board is measured (which removes
           that file); then the page. A run queued behind another
           (tools/run-board.sh --after: BOARD's directory has no log yet but
           an `after` file) is recorded as waiting for that board. A proof
           run (tools/run-board.sh --prove: a `mode` file saying "prove") is
           recorded with the last progress line of BOARD.solve.err, then the
           search's result (BOARD.solve.json) and the check's
           (BOARD.check.log), until --prove records it (which removes that
           file). A second proof's run (a `root_seed` file, run-board.sh
           --root-seed N) goes to RxC-kK.seedN.progress.json instead.
--running-all  --running for every run of tools/run-board.sh in DIR (each
           subdirectory with a `board` file), with the command that resumes
           it, `(setsid SUB/run.sh > /dev/null 2>&1 &)`, but the runs whose
           board or proof is recorded already; one that cannot be read is
           said and the others go on (then the status is 1)
--lost     with --running: what earlier runs of BOARD did that was lost
           (their directory gone), kept in the record and on the page until
           the board is measured; given once, kept by later --running calls
--prove    only prove who wins board BOARD's start by search, with no table:
           `pawntb solve --rows R --cols C --no-tables --json --certificate
           FILE` (with --memory and --threads) and then `pawntb check-proof
           --json FILE`, each timed (wall, CPU, peak RSS: the process's
           rusage), to data/proofs/RxC.json: the winner, a winning first
           move, nodes, the search's wall time (as solve reports it) and the
           whole run's (with allocating the transposition table and writing
           the certificate), CPU time, peak RSS, the
           transposition table's size, threads, the command, date (UTC) and
           commit (`git rev-parse --short=7 HEAD`), and the certificate's
           size and positions and whether check-proof held it (with its time
           and peak RSS, or its reason when it refused: then the status is
           1); then the page. The certificate, and the commands' output, stay
           in --proofs DIR (BUILD/results/proofs), out of the repository.
           A search of the root in another order (`solve --root-seed N`, its
           JSON's root_seed) is a second proof of the board, kept beside the
           first as data/proofs/RxC.seedN.json. A certificate too large to
           write is recorded with the most positions listed: an earlier
           record's, naming its run, when it listed more
--dtm-time  with --prove: the seconds `solve --dtm --time` may spend on the
           start's distance after the winner is proven (default 3600); the
           record keeps the bounds proven (plies_lower, plies_upper: equal
           when exact)
--from-json  with --prove: record a run made by hand instead: SOLVE.json
           is `pawntb solve --json`'s output, naming its certificate (a path
           relative to SOLVE.json's directory, or absolute), which must be
           there; a field missing is an error (status 2). --time-log is the
           run's `/usr/bin/time -v` log (its stderr), for its command, wall
           and CPU time and peak RSS (without it they are "not recorded"); the date
           is SOLVE.json's time, and the commit that of RxC.solve.commit or
           pawntb.commit beside it (tools/run-board.sh --prove keeps them),
           else this tree's
--check-log  with --prove: the output of a `pawntb check-proof [--json] FILE`
           run by hand (its JSON line or its text line, with its
           `/usr/bin/time -v` report in the same file if it had one, for its
           time and peak), instead of running check-proof here
--root     the source tree whose data/ and docs/ are read and written (the
           one this script is in)
Each board's statistics document, `pawntb stats --json` as it wrote it, is
kept whole in data/stats/RxC-kK.json (the record keeps a summary); the
page folds its per-distance and per-material tables into the board's section.
Needs Python 3.9 or later (the standard library only). Exit status: 0 ok, 1 a
step failed (a failed verify or spot check is recorded and also fails the
run), 2 usage.
"""

import argparse
import datetime
import glob
import json
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import results_page  # noqa: E402  (next to this script)

TOOL = "tools/results.py"
# The page's boards, by rows then columns: every R x C with 3 <= R, C <= 8 that
# one 2-core, 24 GiB machine can solve with K = C (docs/results.md).
ORDER = "3x3 3x4 3x5 3x6 3x7 3x8 4x3 4x4 4x5 4x6 4x7 4x8 5x3 5x4 5x5 5x6 5x7 6x3 6x4 6x5 6x6 7x3 7x4 7x5 7x6 8x3 8x4 8x5"
# The boards --project projects: those of ORDER not solved yet, and the
# larger ones, beyond one machine.
# The boards beyond ORDER, with no table: the page lists which are proven by
# search (--prove).
BEYOND = "6x7 5x8 8x6 7x7 6x8 8x7 7x8 8x8"
UNSOLVED = "4x8 5x7 7x6 " + BEYOND
DEFAULT_BOARDS = "3x3 3x4 3x5 3x6 3x7 3x8 4x3 4x4 4x5 4x6 5x3 5x4 5x5 6x3 6x4 6x5 7x3 7x4 8x3 8x4 5x6"
PLOT = "img/results-start-plies.svg"

OPENING = """Each board R×C is solved with K = C pawns a side (every pawn of the start
position), every position with up to K pawns a side. **Everything below is
measured by `tools/results.py`**, which writes this page, its plot and its
sentences; nothing is typed by hand. Values count plies (half-moves) to the
end when the winner hurries and the loser holds out."""

INTRO = """## How it is measured

To check it yourself:

```sh
cmake -S . -B build && cmake --build build -j2 --target pawntb pawntb_spot_check
tools/results.py                   # 3x3 to 8x4 and 6x5, each in minutes at most, and 5x6 (about an hour)
tools/results.py --boards "4x7 7x5 8x5" --memory 6G   # a few hours
tools/results.py --boards "6x6" --tables DIR --large 6x6   # DIR/6x6-k6.pawntb exists
tools/results.py --prove 6x7 --memory 2G --threads 1        # who wins 6x7's start, by search
```

With `--tables DIR`, the figures of runs made by hand, or by
`tools/run-board.sh`, are read from DIR when they are there:
`6x6.generate.report.json` and `6x6.verify.report.json` (the `--report FILE`
of `pawntb generate` and `pawntb verify`), `6x6.verify.json` (`pawntb verify
--resume 6x6.verify.json`: the wall time of all its runs) and `6x6.stats.json`
(`pawntb stats --json --memory SIZE`); runs made before the reports existed
left `/usr/bin/time -v` logs, which are read instead. `tools/results.py
--help` says more.

For each board the script runs `pawntb generate` and `pawntb verify`, each
with `--report FILE` (wall and CPU time, peak RSS; verify re-derives every
value from its successors), `pawntb_spot_check` (random positions with at
most 3 pawns a side, or with every pawn in the three rows nearest its goal,
solved by an independent plain search, `tests/oracle/spot_check.hpp`, that
shares no code with the generator or the index, and compared with the table),
`pawntb probe --start --json` (the value of the start and the principal
variation), `pawntb stats --json` (the longest win, the share won by the side
to move, the zugzwangs) and `pawntb info --json` (entries, the header's win
count and longest value, file size and the XXH3-64 of the whole file). Where
stats has not been run yet (on the largest boards it takes hours), the share
comes from the header's count of white-to-move wins, which `pawntb verify`
recounts: every position's colour flip has its value, so the share is the
same. A table solved tier by tier also has its work directory's peak size.
Times are those of a 2-core, 24 GiB machine with other jobs beside it: each
board gives the load average when its generation started, where it was
recorded, and the date and commit of its measurement. A table marked
*existing* was made by an earlier run of the command shown, and its figures
are read from that run's report (or `/usr/bin/time -v` log).

"Positions" is the number of indexed white-to-move entries; the side-to-move
share, the longest win and the zugzwangs count both sides to move
(`docs/stats.md`).

## Answers files

`data/answers/RxC-kK.tsv` holds, for each board, answers anyone can check
with another program: one line per position, tab-separated, after `#` comment
lines:

| column | meaning |
|---|---|
| position | the position in pawntb notation (rows from the top, `/` between rows, digits for empty squares, `w` or `b` to move) |
| what | `start`, `after MOVE` (the start after that first move), `longest win` (an example of the longest win, from `pawntb stats`) or, for a board where stats was not run, `longest game` (the table header's example of its longest value, a win or a loss) |
| winner | `white` or `black`, with best play |
| plies | plies to the end with best play (0: the side to move has already lost) |
| best | a best move in UCI style (`a1a2`; files from a, ranks from white's home row 1), `-` when there is none |

The CTest `Answers.MatchTheTable` re-derives every answers file whose table
is at hand (`data/`, `$PAWNTB_TABLE_DIR`, the test build's tables) and fails
on any difference; the others are skipped. `Answers.AgreeWithThemselvesWithoutTheTable`
checks every file, the 6×6 one too, with no table: the start line is the
board's start, each first move has its line, the start's value and best move
follow from theirs by the rules, and every value has its winner's parity.
`data/answers/RxC-kK.json` holds the measured figures this page is written
from. The tables under 1 MB are in `data/` (their XXH3-64 in
`data/checksums.txt`); the others are made by `pawntb generate`, and the
XXH3-64 below tells whether a table made again is the same file.

## Statistics files

`data/stats/RxC-kK.json` is, for each board where `pawntb stats` ran, its
whole `pawntb stats --json` document ([docs/stats.md](stats.md) says its
keys): the positions the side to move wins and loses at each distance to the
end, and for each material (white pawns, black pawns) its positions, the
share the side to move wins, its zugzwangs with examples and its longest win.
Each board's section below folds these two tables; the record
(`data/answers/RxC-kK.json`) keeps only their summary. The CTest
`StatsFiles.AgreeWithThemselvesAndTheirRecord` checks every file with no
table: the distances' and the materials' counts add up to the positions, the
wins and the zugzwangs, the longest win is the last distance with a win, the
record's summary is the document's, and every record with statistics has its
document.

## Tier checksums

`data/tiers/RxC-kK.tsv` is `pawntb info --tiers` of each table: one line per
tier (the positions with the same pawn counts and advancement sums, in index
order, [FORMAT.md](../format/FORMAT.md) section 6.3) with its first entry, its
size and the XXH3-64 of its values as decoded. Someone who makes a table
again, on one machine or on a cluster, can compare it tier by tier (`diff`),
and a tier file of a generator's work directory carries the same checksum
(`values_checksum`) before the table is assembled. The CTest `Tiers.*`
checks every file whose table is at hand.

## The boards"""


class Failure(Exception):
    """A step failed: the message goes to stderr, and the status is `status`."""

    def __init__(self, message, status=1):
        super().__init__(message)
        self.status = status


def say(message):
    print("results: " + message, file=sys.stderr)


def check_board(board):
    if not re.fullmatch(r"[3-8]x[3-8]", board):
        raise Failure("bad board '%s'" % board, 2)
    rows, cols = board.split("x")
    return int(rows), int(cols)


def name_of(board):
    return "%s-k%s" % (board, board.split("x")[1])


# ---- JSON files ----------------------------------------------------------------


def plain_numbers(value):
    """Whole doubles as integers (180.0 -> 180), as the records were always
    written, recursively."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e17:
        return int(value)
    if isinstance(value, dict):
        return {k: plain_numbers(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain_numbers(v) for v in value]
    return value


def write_atomically(path, content):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(content)
    os.replace(tmp, path)


def write_json(path, value):
    write_atomically(path, json.dumps(plain_numbers(value), indent=2, ensure_ascii=False) + "\n")


def read_json(path, what=None):
    """The JSON value of the file `path`; a file that cannot be read or is not
    JSON stops the run, naming it."""
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise Failure("%scannot read %s (%s)" % (what + ": " if what else "", path, e)) from None


def read_text(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def nonempty(path):
    return os.path.isfile(path) and os.path.getsize(path) > 0


def minute_of(seconds):
    return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%MZ")


# ---- A run's figures: from its reports, or from the logs of older runs ------------


def two_decimals(x):
    return float("%.2f" % x)


def mib_of(kib_or_bytes, unit):
    return float("%.1f" % (kib_or_bytes / unit))


def time_log(log):
    """What a `/usr/bin/time -v` log says, whole: the command, the parts (one
    report a part: a resumed run appends one each time), the CPU and wall
    seconds they add up to, the largest part's peak RSS in KiB and the last
    part's exit status."""
    cmd, parts, cpu, wall, rss_kib, status = "", 0, 0.0, 0.0, 0, 0
    with open(log, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            value = line.split(": ", 1)[1] if ": " in line else ""
            if "Command being timed" in line:
                cmd = value.replace('"', "")
                parts += 1
            elif "User time" in line or "System time" in line:
                cpu += float(value)
            elif "Elapsed (wall clock)" in line:
                part = 0.0
                for t in line.rsplit(" ", 1)[-1].split(":"):
                    part = part * 60 + float(t)
                wall += part
            elif "Maximum resident set size" in line:
                rss_kib = max(rss_kib, int(value))
            elif "Exit status" in line:
                status = int(value)
    return {"command": cmd, "parts": parts, "cpu_s": cpu, "wall_s": wall, "peak_rss_kib": rss_kib, "exit_status": status}


def time_figures(log):
    """The record's figures of a `/usr/bin/time -v` log: the times add up over
    the parts of a resumed run, the peak is the largest part's, the status is
    the last part's ("parts" > 1)."""
    t = time_log(log)
    figures = {"command": t["command"], "wall_s": two_decimals(t["wall_s"]), "cpu_s": two_decimals(t["cpu_s"]),
               "peak_rss_mib": mib_of(t["peak_rss_kib"], 1024), "exit_status": t["exit_status"]}
    if t["parts"] > 1:
        figures["parts"] = t["parts"]
    return figures


def generation_from_logs(log, out, disk_log):
    """The generation's figures from a `/usr/bin/time -v` log (None without
    one), with the work directory's peak size: the generator's line in its
    output, else the largest `du -sb` of the disk log; None for a table solved
    in memory (its log has no work directory), and left out when unknown."""
    if not os.path.isfile(log):
        return None
    with open(log, encoding="utf-8", errors="replace") as f:
        text = f.read()
    if "Command being timed" not in text:
        return None
    figures = time_figures(log)
    out_text = ""
    if os.path.isfile(out):
        with open(out, encoding="utf-8", errors="replace") as f:
            out_text = f.read()
    peaks = re.findall(r"^work directory: ([0-9,]*) bytes", out_text, re.M)
    if peaks:
        figures["work_dir_peak_bytes"] = int(peaks[-1].replace(",", ""))
    elif "work directory" not in text:
        figures["work_dir_peak_bytes"] = None
    elif disk_log and os.path.isfile(disk_log):
        with open(disk_log, encoding="utf-8", errors="replace") as f:
            sizes = [int(w[1]) for w in (l.split() for l in f) if len(w) > 1 and w[1].isdigit()]
        if sizes:
            figures["work_dir_peak_bytes"] = max(sizes)
    # A log whose first part resumed a work directory misses the parts before
    # it (their log was not kept): the record says what that part found done.
    first_part = text.replace("\r", "\n").split("Command being timed")[0]
    resumed = re.search(r"^pawntb generate: resuming: (.*)$", first_part, re.M)
    if resumed:
        figures["resumed_from"] = resumed.group(1)
    return figures


def generation_from_report(report):
    """The generation's figures from `pawntb generate --report`'s JSON."""
    figures = {"command": report["command"], "wall_s": two_decimals(report["wall_seconds"]),
               "cpu_s": two_decimals(report["cpu_seconds"]),
               "peak_rss_mib": mib_of(report["peak_rss_bytes"], 1048576), "exit_status": 0,
               "work_dir_peak_bytes": report["work_dir_peak_bytes"]}
    if report["units_resumed"]:
        figures["resumed_from"] = "%s of %s units (%s positions) already in the work directory" % (
            results_page.n(report["units_resumed"]), results_page.n(report["units"]),
            results_page.n(report["positions_resumed"]))
    return figures


def generation_figures(directory, board, load):
    """Board `board`'s generation figures in `directory` (a report, else the
    logs of an older run), with the load average `load` (a string or None);
    None when neither is there."""
    report = os.path.join(directory, board + ".generate.report.json")
    if os.path.isfile(report):
        figures = generation_from_report(read_json(report))
    else:
        figures = generation_from_logs(os.path.join(directory, board + ".err"), os.path.join(directory, board + ".out"),
                                       os.path.join(directory, board + "-disk.log"))
    if figures is None:
        return None
    # The load average's place in the record, after the times.
    ordered = {k: figures[k] for k in ("command", "wall_s", "cpu_s", "peak_rss_mib", "exit_status", "parts") if k in figures}
    ordered["load_average"] = load
    ordered.update({k: v for k, v in figures.items() if k not in ordered})
    return ordered


def verify_figures(directory, board):
    """Board `board`'s verify figures in `directory`: its report
    (BOARD.verify.report.json), else the `/usr/bin/time -v` log and output
    of an older run and its --resume file BOARD.verify.json; over several
    runs, the wall time of them all (and not the CPU time: only the last
    run's is known). None when neither is there."""
    report_path = os.path.join(directory, board + ".verify.report.json")
    log = os.path.join(directory, board + ".verify")
    state = os.path.join(directory, board + ".verify.json")
    if os.path.isfile(report_path):
        report = read_json(report_path)
        verify = {"ok": report["ok"], "summary": report["summary"], "wall_s": two_decimals(report["wall_seconds"]),
                  "cpu_s": two_decimals(report["cpu_seconds"]), "peak_rss_mib": mib_of(report["peak_rss_bytes"], 1048576)}
        several = report.get("positions_resumed", 0) > 0
        wall = report.get("wall_seconds_all_runs")
    elif (os.path.isfile(log + ".err") and os.path.isfile(log + ".out")
          and re.search(r"Command being timed.*verify", read_text(log + ".err"))):
        figures = time_figures(log + ".err")
        lines = read_text(log + ".out").splitlines()
        verify = {"ok": figures["exit_status"] == 0, "summary": lines[-1] if lines else "",
                  "wall_s": figures["wall_s"], "cpu_s": figures["cpu_s"], "peak_rss_mib": figures["peak_rss_mib"]}
        several = os.path.isfile(state)
        wall = read_json(state)["wall_seconds"] if several else None
    else:
        return None
    if several:
        verify["wall_s"] = results_page.rnd(wall)
        verify["resumed"] = True
        del verify["cpu_s"]
    return verify


def stats_figures(doc):
    """The record's summary of a `pawntb stats --json` document."""
    longest = [d for d in doc["distances"] if d["wins"] > 0][-1]
    examples = [m["longest_win"]["example"] for m in doc["materials"]
                if m.get("longest_win") is not None and m["longest_win"]["plies"] == longest["plies"]]
    return {"positions": doc["positions"], "side_to_move_wins": doc["side_to_move_wins"], "zugzwangs": doc["zugzwangs"],
            "longest_win": {"plies": longest["plies"], "positions": longest["wins"],
                            "example": examples[0] if examples else None}}


INFO_KEYS = ("entries", "placements", "white_wins", "file_size", "file_checksum", "longest_game_plies",
             "longest_game_example")


def check_stats(stats, info, board):
    """Whether the statistics agree with the header's figures: every entry's
    colour flip has its value, so stats' counts are twice the header's."""
    if stats is not None and not (stats["positions"] == 2 * info["entries"]
                                  and stats["side_to_move_wins"] == 2 * info["white_wins"]):
        say("%s: stats and the header's win count disagree" % board)
        return False
    return True


# ---- The tree -------------------------------------------------------------------


class Tree:
    """Where the data and the page are: ROOT/data/answers, ROOT/data/stats,
    ROOT/data/tiers, ROOT/docs."""

    def __init__(self, root):
        self.root = root
        self.answers = os.path.join(root, "data", "answers")
        self.stats = os.path.join(root, "data", "stats")
        self.tiers = os.path.join(root, "data", "tiers")
        self.docs = os.path.join(root, "docs")
        self.proofs = os.path.join(root, "data", "proofs")

    def record_path(self, board):
        return os.path.join(self.answers, name_of(board) + ".json")

    def proof_path(self, board, seed=0):
        """data/proofs/RxC.json, or for a second proof from the root order
        of seed N (`solve --root-seed N`), RxC.seedN.json."""
        return os.path.join(self.proofs, board + seed_suffix(seed) + ".json")

    def progress_path(self, board, seed=0):
        return os.path.join(self.answers, name_of(board) + seed_suffix(seed) + ".progress.json")

    def keep_stats(self, path, board):
        """Keeps the `pawntb stats --json` document `path` as
        data/stats/RxC-kK.json, byte for byte; a file that is not one JSON
        object stops the run. Returns the document."""
        doc = read_json(path)
        if not isinstance(doc, dict):
            raise Failure("%s is not a stats document" % path)
        with open(path, "rb") as f:
            content = f.read()
        tmp = os.path.join(self.stats, name_of(board) + ".json.tmp")
        with open(tmp, "wb") as f:
            f.write(content)
        os.replace(tmp, os.path.join(self.stats, name_of(board) + ".json"))
        return doc

    def render(self):
        """docs/results.md and its plot from every JSON record, in ORDER."""
        records = [read_json(self.record_path(b)) for b in ORDER.split() if os.path.isfile(self.record_path(b))]
        if not records:
            raise Failure("no records in %s" % self.answers)
        projections_path = os.path.join(self.answers, "projections.json")
        projections = read_json(projections_path) if os.path.isfile(projections_path) else None
        running = [read_json(p) for p in sorted(glob.glob(os.path.join(self.answers, "*.progress.json")))]
        documents = {os.path.basename(p)[:-len(".json")]: read_json(p)
                     for p in sorted(glob.glob(os.path.join(self.stats, "*.json")))}
        proofs = [read_json(p) for p in sorted(glob.glob(os.path.join(self.proofs, "*.json")))]
        os.makedirs(os.path.join(self.docs, "img"), exist_ok=True)
        write_atomically(os.path.join(self.docs, PLOT), results_page.plot(records))
        write_atomically(os.path.join(self.docs, "results.md"),
                         results_page.page(records, ORDER, OPENING, INTRO, PLOT, projections, running, documents, TOOL,
                                           proofs, BEYOND))
        say("wrote docs/results.md and docs/%s (%d boards)" % (PLOT, len(records)))


def seed_suffix(seed):
    """The part of a file's name that tells a second proof (root seed N) from the first."""
    return ".seed%d" % seed if seed else ""


def root_seed_of(tables):
    """The root seed of a proof run of tools/run-board.sh (its file
    root_seed), 0 when none."""
    path = os.path.join(tables, "root_seed")
    if not nonempty(path):
        return 0
    try:
        return int(read_text(path).strip())
    except ValueError:
        raise Failure("%s: not a root seed" % path, 2) from None


# ---- --running ------------------------------------------------------------------


def last_progress_line(log, prefix="pawntb generate: ", kinds=("solve ", "compress ")):
    """The last whole `pawntb generate: solve ...` or `... compress ...` (the
    table's assembly) progress line of the log (they end in \\r or \\n),
    without the prefix, the rate and the time left; "" if none. Another
    command's lines: its `prefix` and the `kinds` of line that count."""
    try:
        with open(log, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return ""
    lines = [l for l in text.replace("\r", "\n").split("\n") if l.startswith(tuple(prefix + k for k in kinds))]
    if not lines:
        return ""
    return re.sub(r", ([0-9,]* positions/s|about ).*", "", lines[-1][len(prefix):], count=1)


def proof_progress(tables, board):
    """How far a proof run (tools/run-board.sh --prove) has come: its check's
    result, the search's result, else the last progress line of `pawntb
    solve` in BOARD.solve.err without its prefix and rate (after the search,
    the line names the winner: "searched: white wins; writing the
    certificate: ..."); "" if none."""
    check_log = os.path.join(tables, board + ".check.log")
    solve_json = os.path.join(tables, board + ".solve.json")
    if nonempty(solve_json):
        solve = read_json(solve_json, board)
        line = "searched: %s wins (%s nodes)" % (solve.get("winner"), results_page.n(solve.get("nodes", 0)))
        if solve.get("certificate_error"):
            return line + "; certificate not written: %s" % solve["certificate_error"]
        if not nonempty(check_log):
            return line + "; certificate not checked yet"
        check = check_result(read_text(check_log), check_log)
        return line + ("; certificate checked" if check["ok"] else "; certificate refused: %s" % check["error"])
    log = os.path.join(tables, board + ".solve.err")
    text = read_text(log) if os.path.isfile(log) else ""
    lines = [l for l in text.splitlines() if l.startswith("pawntb solve: ")]
    if not lines:
        return ""
    last = lines[-1][len("pawntb solve: "):]
    if re.match(r"(white|black) wins; ", last):  # searched: the certificate or the distance
        return "searched: " + last
    return "proving who wins: " + re.sub(r", [0-9,]* nodes/s", "", last, count=1)


def generated_positions(tables, board):
    """The positions of a generation that has ended, as "1,234" (its report,
    else the "generated" line of its output), or None."""
    report = os.path.join(tables, board + ".generate.report.json")
    if os.path.isfile(report):
        return results_page.n(read_json(report, board)["positions"])
    try:
        with open(os.path.join(tables, board + ".out"), encoding="utf-8", errors="replace") as f:
            found = re.findall(r"^generated [^:]*: ([0-9,]*) positions", f.read(), re.M)
    except OSError:
        return None
    return found[-1] if found else None


def record_progress(tree, board, tables, resume, lost):
    """Records how far board `board`'s run in `tables` has come (--running)."""
    check_board(board)
    if not resume:
        raise Failure("--running needs --resume COMMAND", 2)
    seed = root_seed_of(tables)
    progress_file = tree.progress_path(board, seed)
    # What was lost is kept from the record unless given again.
    if not lost and os.path.isfile(progress_file):
        lost = read_json(progress_file, board).get("lost") or ""
    mode = os.path.join(tables, "mode")
    proving = nonempty(mode) and read_text(mode).strip() == "prove"
    log = os.path.join(tables, board + (".solve.err" if proving else ".err"))
    line = proof_progress(tables, board) if proving else last_progress_line(log)
    as_of_file = log
    # The run log's last word: that it waits for another run (tools/run-board.sh
    # --after), with work done before it was queued, or that a step failed.
    run_log = os.path.join(tables, "run.log")
    last = read_text(run_log).rstrip("\n").split("\n")[-1] if nonempty(run_log) else ""
    waiting = re.match(r"\S+ waiting for (.*) first$", last)
    # run-board.sh's own words for a step that failed: "verify failed", "X
    # failed (status N): not starting" (not a note that mentions a failure).
    stopped = re.match(r"\S+ (\S+ failed|\S+ failed \(status [0-9]+\): not starting)$", last)
    if proving:  # the newest of its outputs
        for name in (".solve.json", ".check.log"):
            if nonempty(os.path.join(tables, board + name)):
                as_of_file = os.path.join(tables, board + name)
    if not line and not nonempty(log) and nonempty(os.path.join(tables, "after")):
        with open(os.path.join(tables, "after")) as f:
            after = f.read().strip()
        line = "queued: starts when %s is done" % os.path.basename(after)
        as_of_file = os.path.join(tables, "run.log")
    generated = None if proving else generated_positions(tables, board)
    if not line and generated is None:
        raise Failure("%s: no progress line in %s" % (board, log))
    # A generation that has ended still waits for verify and stats, which
    # this page's line needs.
    if generated is not None:
        stats_done = "stats done" if nonempty(os.path.join(tables, board + ".stats.json")) else "stats not run yet"
        stats_log = os.path.join(tables, board + ".stats.err")
        if stats_done != "stats done" and nonempty(stats_log):  # under way: "stats 62%"
            stats_done = last_progress_line(stats_log, "pawntb stats: ", ("stats ",)) or "stats started"
            as_of_file = stats_log
        verify_done = "verify not run yet"
        state_path = os.path.join(tables, board + ".verify.json")
        if nonempty(state_path):
            state = read_json(state_path, board)
            try:
                verify_done = "verify %d %% (%s of %s positions checked, %s mismatches)" % (
                    state["entries_done"] * 100 // state["entries"], results_page.n(state["entries_done"]),
                    results_page.n(state["entries"]), results_page.n(state["mismatches"]))
            except (KeyError, TypeError, ZeroDivisionError) as e:
                raise Failure("%s: cannot read %s (%s)" % (board, state_path, e)) from None
            as_of_file = state_path
        elif as_of_file == log and not os.path.isfile(log):
            as_of_file = os.path.join(tables, board + ".generate.report.json")
        line = "generated (%s positions); %s; %s" % (generated, stats_done, verify_done)
    if line and waiting and not line.startswith("queued"):
        line = "queued: starts again when %s is done; so far: %s" % (os.path.basename(waiting.group(1)), line)
    elif line and stopped:  # its last step failed: not running until resumed
        line = "stopped (%s); so far: %s" % (stopped.group(1), line)
    try:
        as_of = minute_of(os.path.getmtime(as_of_file))
    except OSError as e:
        raise Failure("%s: cannot read %s (%s)" % (board, as_of_file, e.strerror)) from None
    # The run's own plan, when it kept one (BOARD.plan.json, `pawntb generate
    # --plan --json`, with --sample a rate measured on the board): its
    # estimate of the whole run on one machine, and the rate's source.
    record = {"board": board, "progress": line, "as_of": as_of, "resume": resume}
    if seed:
        record["root_seed"] = seed
    plan_path = os.path.join(tables, board + ".plan.json")
    if nonempty(plan_path):
        plan = read_json(plan_path, board)
        record["estimate"] = {"seconds": plan.get("estimated_seconds"), "rate_source": plan.get("rate_source")}
    if lost:
        record["lost"] = lost
    write_json(progress_file, record)
    say("%s: %s (as of %s, %s)" % (board, line, as_of, as_of_file))


def recorded(tree, tables, board):
    """Whether the run in `tables` is on the page already, as a measured
    board (its record) or a proof whose record is of this run's search (the
    same nodes)."""
    mode = os.path.join(tables, "mode")
    if nonempty(mode) and read_text(mode).strip() == "prove":
        solve = os.path.join(tables, board + ".solve.json")
        proof = tree.proof_path(board, root_seed_of(tables))
        return (nonempty(solve) and os.path.isfile(proof)
                and read_json(proof, board).get("nodes") == read_json(solve, board).get("nodes"))
    return os.path.isfile(tree.record_path(board))


def record_every_run(tree, runs):
    """--running-all: records every run of tools/run-board.sh in `runs` but
    those recorded already; False when one could not be."""
    if not os.path.isdir(runs):
        raise Failure("--running-all %s: no such directory" % runs, 2)
    ok = True
    found = 0
    for name in sorted(os.listdir(runs)):
        tables = os.path.abspath(os.path.join(runs, name))
        if not nonempty(os.path.join(tables, "board")):
            continue
        found += 1
        board = read_text(os.path.join(tables, "board")).strip()
        try:
            if recorded(tree, tables, board):
                continue
            record_progress(tree, board, tables, "(setsid %s > /dev/null 2>&1 &)" % os.path.join(tables, "run.sh"), "")
        except Failure as e:
            say("%s: %s" % (tables, e))
            ok = False
    if not found:
        raise Failure("--running-all %s: no run of tools/run-board.sh there" % runs, 2)
    return ok


# ---- --prove ---------------------------------------------------------------------

# What a record takes from `pawntb solve --json`'s object; each must be there.
SOLVE_KEYS = ("position", "geometry", "winner", "best_move", "nodes", "seconds", "tt_bytes", "threads", "certificate",
              "certificate_positions")
# What a resumed search adds, kept as it is when there.
RESUME_KEYS = ("resume", "resumed", "states_saved")


def start_position(rows, cols):
    """The start of an R x C board in pawntb notation: black's pawns on the
    top row, white's on the bottom row, white to move."""
    return "/".join(["p" * cols] + [str(cols)] * (rows - 2) + ["P" * cols]) + " w"


def timed(argv, out, err):
    """Runs argv with its stdout and stderr to the files `out` and `err`; its
    exit status, wall seconds, CPU seconds and peak RSS in bytes (its rusage)."""
    with open(out, "w") as stdout, open(err, "w") as stderr:
        begun = time.monotonic()
        process = subprocess.Popen(argv, stdout=stdout, stderr=stderr)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.monotonic() - begun
    process.returncode = os.waitstatus_to_exitcode(status)
    return process.returncode, wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024


def solve_fields(solve, source, board):
    """The fields of `pawntb solve --json`'s object `solve` (read from
    `source`) that a proof record keeps; a missing field, a board other than
    `board` or a position other than its start is an input error (status 2)."""
    missing = [k for k in SOLVE_KEYS if k not in solve]
    if missing:
        raise Failure("%s: not a record of `pawntb solve --json`: no %s" % (source, results_page.words(missing)), 2)
    rows, cols = check_board(board)
    geometry = solve["geometry"]
    if not isinstance(geometry, dict) or (geometry.get("rows"), geometry.get("cols")) != (rows, cols):
        raise Failure("%s: a search of a board other than %s (geometry %s)" % (source, board, json.dumps(geometry)), 2)
    if solve["position"] != start_position(rows, cols):
        raise Failure("%s: a search of %s, not of the start %s" % (source, solve["position"], start_position(rows, cols)), 2)
    if not solve["certificate"]:
        raise Failure("%s: the search wrote no certificate (run it with --certificate FILE)" % source, 2)
    return solve


def check_result(text, source):
    """What `pawntb check-proof` said in `text` (its output, maybe with a
    `/usr/bin/time -v` report around it): its --json object, else its text
    line ("FILE: ok, white wins ... within L plies: N positions checked ...")
    or its refusal ("pawntb check-proof: FILE: REASON"), as {"ok", "error",
    "winner", "root", "entries", "positions_checked", "longest_line"}
    (unknown ones None)."""
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("{"):
            try:
                j = json.loads(line)
            except ValueError:
                continue
            if isinstance(j, dict) and "ok" in j:
                return {k: j.get(k) for k in ("ok", "error", "winner", "root", "entries", "positions_checked",
                                              "longest_line")}
    m = re.search(r": ok, (white|black) wins (.*?)(?: within ([0-9]+) plies)?: ([0-9,]+) positions checked", text)
    if m:
        return {"ok": True, "error": None, "winner": m.group(1), "root": m.group(2), "entries": None,
                "positions_checked": int(m.group(4).replace(",", "")),
                "longest_line": int(m.group(3)) if m.group(3) else None}
    m = re.search(r"^pawntb check-proof: (.*)$", text, re.M)
    if m:
        return {"ok": False, "error": m.group(1), "winner": None, "root": None, "entries": None, "positions_checked": None,
                "longest_line": None}
    raise Failure("%s: no result of `pawntb check-proof` in it" % source, 2)


def certificate_figures(solve, path, check, check_command, seconds, peak):
    """The record's certificate: its size, its positions, whether the check
    held (it must say so, of the start the search solved, with its winner,
    over its positions) and the check's figures."""
    problems = []
    if not check["ok"]:
        problems.append(check["error"] or "refused")
    else:
        if check["winner"] != solve["winner"]:
            problems.append("check-proof says %s wins, the search %s" % (check["winner"], solve["winner"]))
        if check["root"] is not None and check["root"] != solve["position"]:
            problems.append("check-proof replayed %s, the search solved %s" % (check["root"], solve["position"]))
        if check["entries"] is not None and check["entries"] != solve["certificate_positions"]:
            problems.append("check-proof read %d positions, the search wrote %d" % (check["entries"], solve["certificate_positions"]))
    return {"bytes": os.path.getsize(path), "positions": solve["certificate_positions"], "checked": not problems,
            "message": "; ".join(problems) if problems else None,
            "replayed_positions": check["positions_checked"] if not problems else None,
            "longest_line": check.get("longest_line") if not problems else None,
            "check_seconds": None if seconds is None else two_decimals(seconds), "check_peak_rss_bytes": peak,
            "check_command": re.sub(r"[^ ]*/([^ /]+)$", r"\1", results_page.shown_command(check_command))}


def prove(tree, programs, board, opts):
    """Proves who wins board `board`'s start by search (`pawntb solve
    --no-tables --certificate`), or takes a run made by hand (--from-json),
    checks the certificate and writes data/proofs/RxC.json. Returns False when
    the check refused it (recorded); a certificate too large to be written
    is recorded as not checked, and is no failure."""
    rows, cols = check_board(board)
    os.makedirs(tree.proofs, exist_ok=True)
    os.makedirs(opts.proofs, exist_ok=True)
    # The commit of the source this script (and, by default, the build) is of.
    commit = subprocess.run(["git", "-C", os.path.dirname(os.path.abspath(__file__)), "rev-parse", "--short=7", "HEAD"],
                            capture_output=True, text=True).stdout.strip() or None
    resumed = {}
    if opts.from_json:
        source = opts.from_json
        solve = solve_fields(read_json(source, board), source, board)
        certificate = os.path.join(os.path.dirname(os.path.abspath(source)), solve["certificate"])
        if not solve.get("certificate_error") and not os.path.isfile(certificate):
            raise Failure("%s: its certificate %s is not there" % (source, certificate), 2)
        # The time log of the run, if kept: its command, times and peak.
        if opts.time_log:
            t = time_log(opts.time_log)
            if not t["parts"]:
                raise Failure("%s: not a `/usr/bin/time -v` log" % opts.time_log, 2)
            command, wall, cpu, peak = t["command"], t["wall_s"], t["cpu_s"], t["peak_rss_kib"] * 1024
        else:
            command = wall = cpu = peak = None
        load = None
        date = datetime.datetime.fromtimestamp(os.path.getmtime(source), datetime.timezone.utc)
        resumed = {k: solve[k] for k in RESUME_KEYS if k in solve}
        if resumed.get("resume"):  # the state file's name, not where it was
            resumed["resume"] = os.path.basename(resumed["resume"])
        # A run of tools/run-board.sh --prove names the commit of its pawntb:
        # the one its solve started with (RxC.solve.commit, kept when the
        # binary is replaced while it runs), else the directory's.
        run_dir = os.path.dirname(os.path.abspath(source))
        for name in (board + ".solve.commit", "pawntb.commit"):
            if nonempty(os.path.join(run_dir, name)):
                commit = read_text(os.path.join(run_dir, name)).strip()
                break
    else:
        certificate = os.path.join(opts.proofs, board + ".prf")
        out, err = os.path.join(opts.proofs, board + ".solve.json"), os.path.join(opts.proofs, board + ".solve.err")
        argv = [programs.pawntb, "solve", "--rows", str(rows), "--cols", str(cols), "--no-tables", "--json",
                "--certificate", certificate, *memory_args(opts.memory), "--threads", str(opts.threads),
                "--dtm", "--time", str(opts.dtm_time)]
        with open("/proc/loadavg") as f:
            load = " ".join(f.read().split()[:3])
        say("%s: %s" % (board, " ".join(argv)))
        status, wall, cpu, peak = timed(argv, out, err)
        if status != 0 and not (status == 1 and '"certificate_error":"' in read_text(out)):
            raise Failure("%s: pawntb solve failed (status %d): see %s" % (board, status, err))
        date = datetime.datetime.now(datetime.timezone.utc)
        solve = solve_fields(read_json(out, board), out, board)
        command = " ".join(argv)

    check_command = [programs.pawntb, "check-proof", "--json", certificate]
    if solve.get("certificate_error"):  # too large to list here: the answer stands, unchecked
        figures = {"written": False, "bytes": None, "positions": solve["certificate_positions"], "checked": False,
                   "message": "not written: %s" % solve["certificate_error"], "replayed_positions": None,
                   "check_seconds": None, "check_peak_rss_bytes": None, "check_command": None}
        # An earlier run of the same search that listed more (with more
        # memory) said more of the proof's size: that is kept, and named.
        earlier = tree.proof_path(board, solve.get("root_seed") or 0)
        if os.path.isfile(earlier):
            before = read_json(earlier, board)
            c = before.get("certificate") or {}
            if (before.get("winner") == solve["winner"] and c.get("written") is False
                    and (c.get("positions") or 0) > figures["positions"]):
                figures["positions"] = c["positions"]
                figures["message"] = "%s (the run of %s, %s)" % (c["message"], before.get("date"), before.get("commit"))
    elif opts.check_log:
        check = check_result(read_text(opts.check_log), opts.check_log)
        t = time_log(opts.check_log)
        seconds, check_peak = (t["wall_s"], t["peak_rss_kib"] * 1024) if t["parts"] else (None, None)
        if t["parts"]:
            check_command = t["command"].split()
    else:
        if not os.access(programs.pawntb, os.X_OK):
            raise Failure("build %s first (cmake --build %s --target pawntb)" % (programs.pawntb, opts.build), 2)
        say("%s: %s" % (board, " ".join(check_command)))
        out, err = os.path.join(opts.proofs, board + ".check.json"), os.path.join(opts.proofs, board + ".check.err")
        status, seconds, _, check_peak = timed(check_command, out, err)
        check = check_result(read_text(out) + read_text(err), err)
        if status != 0 and check["ok"]:
            check = {**check, "ok": False, "error": "exit status %d" % status}
    if not solve.get("certificate_error"):
        figures = certificate_figures(solve, certificate, check, " ".join(check_command), seconds, check_peak)

    # The distance's bounds: the search's, and the checked certificate's
    # longest line, which bounds it from above too.
    lower, upper = solve.get("plies_lower"), solve.get("plies_upper")
    longest = figures.get("longest_line") if figures["checked"] else None
    if longest is not None and (upper is None or longest < upper):
        upper = longest
    record = {"board": board, "rows": rows, "cols": cols, "position": solve["position"], "winner": solve["winner"],
              "best_move": solve["best_move"], "nodes": solve["nodes"], "seconds": two_decimals(solve["seconds"]),
              "wall_seconds": None if wall is None else two_decimals(wall),
              "cpu_seconds": None if cpu is None else two_decimals(cpu), "peak_rss_bytes": peak,
              "plies_lower": lower, "plies_upper": upper,
              "tt_bytes": solve["tt_bytes"], "threads": solve["threads"], **resumed, "load_average": load,
              "command": None if command is None else results_page.shown_command(command),
              "date": date.strftime("%Y-%m-%dT%H:%M:%SZ"), "commit": commit, "certificate": figures}
    # A second proof, from another root order, is kept beside the first.
    seed = solve.get("root_seed") or 0
    if seed:
        record["root_seed"] = seed
    write_json(tree.proof_path(board, seed), record)
    if os.path.isfile(tree.progress_path(board, seed)):  # a proof run's progress, now done
        os.remove(tree.progress_path(board, seed))
    say("%s: %s wins, %s; wrote %s" % (board, solve["winner"],
                                       "checked" if figures["checked"] else "NOT checked: " + figures["message"],
                                       tree.proof_path(board, seed)))
    return figures["checked"] or figures.get("written") is False


# ---- Running pawntb -------------------------------------------------------------


class Pawntb:
    """The programs of a build: tools/pawntb and tests/pawntb_spot_check."""

    def __init__(self, build):
        self.build = build
        self.pawntb = os.path.join(build, "tools", "pawntb")
        self.spot_check = os.path.join(build, "tests", "pawntb_spot_check")

    def output(self, *args, stdin=None):
        run = subprocess.run([self.pawntb, *args], input=stdin, capture_output=True, text=True)
        if run.returncode != 0:
            raise Failure("pawntb %s failed (status %d): %s" % (" ".join(args), run.returncode, run.stderr.strip()))
        return run.stdout

    def info_header(self, table):
        """`pawntb info --json`'s line, printed before it checks every block,
        and then stops it: that check holds the whole table."""
        process = subprocess.Popen([self.pawntb, "info", "--json", table], stdout=subprocess.PIPE, text=True)
        line = process.stdout.readline()
        process.kill()
        process.wait()
        process.stdout.close()
        if not line.strip():
            raise Failure("pawntb info cannot read %s" % table)
        return json.loads(line)


def memory_args(memory):
    return ["--memory", memory] if memory else []


def spot_check_figures(text):
    """The spot check's summary line as figures (pawntb_spot_check prints no JSON)."""
    last = text.strip().splitlines()[-1] if text.strip() else ""
    m = re.search(r": ([0-9]+) samples \(seed ([0-9]+)\), ([0-9]+) agreed, ([0-9]+) disagreed, ([0-9]+) skipped "
                  r"\(over ([0-9]+) nodes\); longest checked value ([0-9]+) plies", last)
    if not m:
        return None
    keys = ("samples", "seed", "agreed", "disagreed", "skipped", "node_budget", "longest_checked")
    return dict(zip(keys, map(int, m.groups())))


def answers_lines(start, answers, longest_kind):
    """The answers file's lines for the positions probed: the start, the
    position after each first move, the longest-win example."""
    out = []
    for a in answers:
        i = a["input_line"] - 1
        what = "start" if i == 0 else "after " + start["moves"][i - 1]["uci"] if i <= len(start["moves"]) else longest_kind
        out.append("\t".join([a["position"], what, a["winner"], results_page.text(a["plies"]), a.get("best") or "-"]))
    return out


def measure(tree, programs, board, opts, version):
    """Measures board `board` (generating its table unless --tables has it)
    and writes its record, answers file and tier checksums. Returns False
    when a check failed (recorded)."""
    rows, cols = check_board(board)
    name = name_of(board)
    ok = True
    existing = opts.tables and os.path.isfile(os.path.join(opts.tables, name + ".pawntb"))
    large = board in opts.large.split() or board in opts.no_stats.split()
    if existing:
        directory, load = opts.tables, None
        table = os.path.join(directory, name + ".pawntb")
        say("%s: existing table %s" % (board, table))
    else:
        directory = opts.work
        table = os.path.join(directory, name + ".pawntb")
        with open("/proc/loadavg") as f:
            load = " ".join(f.read().split()[:3])
        say("%s: generating %s" % (board, table))
        report = os.path.join(directory, board + ".generate.report.json")
        if os.path.exists(report):
            os.remove(report)
        with open(os.path.join(directory, board + ".out"), "w") as out, open(os.path.join(directory, board + ".err"), "w") as err:
            status = subprocess.call([programs.pawntb, "generate", "--rows", str(rows), "--cols", str(cols),
                                      "--threads", str(opts.threads), *memory_args(opts.memory), "--force",
                                      "--output", table, "--report", report], stdout=out, stderr=err)
        if status != 0:
            raise Failure("%s: pawntb generate failed (status %d): see %s" % (board, status, err.name))
    generation = generation_figures(directory, board, load)

    verify = verify_figures(opts.tables, board) if opts.tables else None
    if verify is not None:
        say("%s: existing verify of %s" % (board, opts.tables))
    elif board not in opts.large.split():
        say("%s: verify" % board)
        stale = os.path.join(opts.work, board + ".verify.report.json")
        if os.path.exists(stale):
            os.remove(stale)
        with open(os.path.join(opts.work, board + ".verify.out"), "w") as out, \
                open(os.path.join(opts.work, board + ".verify.err"), "w") as err:
            subprocess.call([programs.pawntb, "verify", "--threads", str(opts.threads), *memory_args(opts.memory),
                             "--report", os.path.join(opts.work, board + ".verify.report.json"), table],
                            stdout=out, stderr=err)
        verify = verify_figures(opts.work, board)
        if verify is None:
            raise Failure("%s: pawntb verify wrote no report: see %s" % (board, err.name))
    if verify is not None and not verify["ok"]:
        say("%s: verify FAILED" % board)
        ok = False

    say("%s: spot check" % board)
    run = subprocess.run([programs.spot_check, table, str(opts.samples), str(opts.seed)], capture_output=True, text=True)
    spot = spot_check_figures(run.stdout)
    if spot is None:
        raise Failure("%s: spot check said: %s" % (board, run.stdout + run.stderr))
    if run.returncode != 0:
        print(run.stdout, file=sys.stderr)
        ok = False

    say("%s: tier checksums" % board)
    os.makedirs(tree.tiers, exist_ok=True)
    write_atomically(os.path.join(tree.tiers, name + ".tsv"),
                     programs.output("info", "--tiers", "--threads", str(opts.threads), table))

    stats = None
    if opts.tables and os.path.isfile(os.path.join(opts.tables, board + ".stats.json")):
        say("%s: existing stats %s" % (board, os.path.join(opts.tables, board + ".stats.json")))
        stats = stats_figures(tree.keep_stats(os.path.join(opts.tables, board + ".stats.json"), board))
    elif not large:
        say("%s: stats" % board)
        path = os.path.join(opts.work, board + ".stats.json")
        write_atomically(path, programs.output("stats", "--json", "--threads", str(opts.threads), *memory_args(opts.memory), table))
        stats = stats_figures(tree.keep_stats(path, board))

    say("%s: start, answers" % board)
    info = programs.info_header(table) if large else json.loads(programs.output("info", "--json", table).splitlines()[0])
    info = {k: info.get(k) for k in INFO_KEYS}
    ok = check_stats(stats, info, board) and ok
    start = json.loads(programs.output("probe", "--json", "--table", table, "--start"))
    # The longest win from stats, else the header's longest game (a win or a loss).
    longest_kind = "longest win" if stats is not None else "longest game"
    longest_example = stats["longest_win"]["example"] if stats is not None else info["longest_game_example"]
    positions = [start["position"]] + [m["position"] for m in start["moves"]] + [longest_example]
    answers = [json.loads(l) for l in programs.output("probe", "--json", "--table", table, "-",
                                                       stdin="\n".join(positions) + "\n").splitlines() if l.strip()]
    header = "# pawntb answers for %s, K = %d (docs/results.md): position, what, winner, plies, best move" % (board, cols)
    write_atomically(os.path.join(tree.answers, name + ".tsv"), "\n".join([header] + answers_lines(start, answers, longest_kind)) + "\n")

    write_json(tree.record_path(board), {
        "board": board, "rows": rows, "cols": cols, "max_pawns": cols, "table": os.path.basename(table),
        "large": large, "measured": minute_of(datetime.datetime.now(datetime.timezone.utc).timestamp()),
        "version": version, "generated": "existing" if existing else "this run", "generation": generation,
        "verify": verify, "spot_check": spot,
        "start": {k: start[k] for k in ("position", "winner", "plies", "line")},
        "stats": stats, "info": info})
    if os.path.exists(tree.progress_path(board)):
        os.remove(tree.progress_path(board))
    return ok


def refresh(tree, programs, board, tables):
    """Refreshes what board `board`'s record takes from files in `tables`."""
    check_board(board)
    name = name_of(board)
    record_path = tree.record_path(board)
    table = os.path.join(tables, name + ".pawntb")
    if not (os.path.isfile(record_path) and os.path.isfile(table)):
        raise Failure("%s: --refresh needs %s and %s (--tables)" % (board, record_path, table), 2)
    info = programs.info_header(table)
    info = {k: info.get(k) for k in INFO_KEYS}
    record = read_json(record_path)
    if record["info"]["file_checksum"] != info["file_checksum"]:
        raise Failure("%s: %s is not the recorded table (XXH3-64 differs)" % (board, table))
    ok = True
    # The load average is not in the reports: the record's is kept.
    generation = generation_figures(tables, board, (record.get("generation") or {}).get("load_average"))
    verify = verify_figures(tables, board)
    if verify is not None and not verify["ok"]:
        say("%s: verify FAILED" % board)
        ok = False
    stats = None
    if os.path.isfile(os.path.join(tables, board + ".stats.json")):
        stats = stats_figures(tree.keep_stats(os.path.join(tables, board + ".stats.json"), board))
        ok = check_stats(stats, info, board) and ok
    # A figure whose report or log is not there is kept as it was.
    record["info"] = info
    for key, value in (("generation", generation), ("verify", verify), ("stats", stats)):
        if value is not None:
            record[key] = value
    write_json(record_path, record)
    say("%s: refreshed %s" % (board, record_path))
    return ok


def project(tree, build):
    """data/answers/projections.json: project_tiers for each board of UNSOLVED."""
    projector = os.path.join(build, "tools", "bench", "project_tiers")
    source = tree.record_path("6x6")
    if not os.access(projector, os.X_OK):
        raise Failure("build %s first (cmake --build %s --target project_tiers)" % (projector, build), 2)
    if not os.path.isfile(source):
        raise Failure("--project needs %s (the rate)" % source, 2)
    six = read_json(source)
    rate = results_page.rnd(six["info"]["entries"] / six["generation"]["wall_s"])
    bytes_per_position = results_page.rnd(six["generation"]["work_dir_peak_bytes"] / six["info"]["entries"] * 10000) / 10000
    boards = []
    for board in UNSOLVED.split():
        rows, cols = board.split("x")
        run = subprocess.run([projector, rows, cols, cols, str(rate), results_page.num(bytes_per_position), "1"],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        out = run.stdout
        # "4x8 K=8: 2.572e+11 positions in 6408 tiers, 15852 units; the largest
        # unit 9.834e+08 entries; the most a unit holds with what it reads
        # 4.187e+09 entries (3.90 GiB at a byte each)", "work directory: about
        # 4.3 GiB", "one machine: 2.9 h; ...", or "... too large to index".
        sizes = re.search(r"K=[0-9]+: ([0-9.e+]+) positions in ([0-9]+) tiers, ([0-9]+) units; .*the most a unit "
                          r"holds with what it reads ([0-9.e+]+) entries \(([0-9.]+) GiB", out)
        if run.returncode == 0 and sizes:
            boards.append({"board": board, "positions": float(sizes.group(1)), "tiers": int(sizes.group(2)),
                           "units": int(sizes.group(3)), "unit_with_reads": float(sizes.group(4)),
                           "unit_with_reads_gib": float(sizes.group(5)),
                           "work_dir_gib": float(re.search(r"work directory: about ([0-9.]+) GiB", out).group(1)),
                           "one_machine": re.search(r"one machine: ([^;]+);", out).group(1)})
        elif re.search(r"cannot be indexed|too large to index", out):
            boards.append({"board": board, "indexable": False})
        else:
            raise Failure("project_tiers %s: %s" % (board, out))
    write_json(os.path.join(tree.answers, "projections.json"), {
        "rate": rate, "work_bytes_per_position": bytes_per_position, "from": "6x6-k6.json",
        "command": "tools/bench/project_tiers ROWS COLS K %s %s 1" % (results_page.num(rate), results_page.num(bytes_per_position)),
        "boards": boards})
    say("wrote %s" % os.path.join(tree.answers, "projections.json"))


# ---- The command line -------------------------------------------------------------


def parse(argv):
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(prog="tools/results.py", description=__doc__.split("\n\n")[0],
                                     usage=__doc__.split("\n\n")[1].strip(), add_help=False)
    parser.add_argument("-h", "--help", action="store_true")
    parser.add_argument("--build", default=os.path.join(here, "build"))
    parser.add_argument("--boards", default=DEFAULT_BOARDS)
    parser.add_argument("--tables", default="")
    parser.add_argument("--work", default="")
    parser.add_argument("--samples", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--memory", default="")
    parser.add_argument("--no-stats", default="")
    parser.add_argument("--large", default="")
    parser.add_argument("--render-only", action="store_true")
    parser.add_argument("--running", default="")
    parser.add_argument("--running-all", default="")
    parser.add_argument("--resume", default="")
    parser.add_argument("--lost", default="")
    parser.add_argument("--refresh", action="store_true")
    parser.add_argument("--project", action="store_true")
    parser.add_argument("--prove", default="")
    parser.add_argument("--proofs", default="")
    parser.add_argument("--from-json", default="")
    parser.add_argument("--time-log", default="")
    parser.add_argument("--check-log", default="")
    parser.add_argument("--dtm-time", type=int, default=3600)
    parser.add_argument("--root", default=here)
    opts = parser.parse_args(argv)
    if opts.help:
        print(__doc__.split("\n\n", 1)[1].rstrip(), file=sys.stderr)
        sys.exit(2)
    opts.build = os.path.abspath(opts.build)
    if opts.tables:
        if not os.path.isdir(opts.tables):
            parser.error("--tables %s: no such directory" % opts.tables)
        opts.tables = os.path.abspath(opts.tables)
    opts.work = os.path.abspath(opts.work or os.path.join(opts.build, "results"))
    opts.proofs = os.path.abspath(opts.proofs or os.path.join(opts.work, "proofs"))
    if (opts.from_json or opts.time_log or opts.check_log) and not opts.prove:
        parser.error("--from-json, --time-log and --check-log go with --prove")
    if opts.time_log and not opts.from_json:
        parser.error("--time-log goes with --from-json")
    for path in (opts.from_json, opts.time_log, opts.check_log):
        if path and not os.path.isfile(path):
            parser.error("%s: no such file" % path)
    return opts


def main(argv):
    opts = parse(argv)
    tree = Tree(os.path.abspath(opts.root))
    programs = Pawntb(opts.build)
    ok = True
    try:
        for d in (tree.answers, tree.stats):
            os.makedirs(d, exist_ok=True)
        if opts.prove:
            if not opts.from_json and not os.access(programs.pawntb, os.X_OK):
                raise Failure("build %s first (cmake --build %s --target pawntb)" % (programs.pawntb, opts.build), 2)
            ok = prove(tree, programs, opts.prove, opts)
        elif opts.project:
            project(tree, opts.build)
        elif opts.running:
            if not opts.tables:
                raise Failure("--running needs --tables", 2)
            record_progress(tree, opts.running, opts.tables, opts.resume, opts.lost)
        elif opts.running_all:
            ok = record_every_run(tree, opts.running_all)
        elif opts.refresh:
            if not opts.tables:
                raise Failure("--refresh needs --tables", 2)
            if not os.access(programs.pawntb, os.X_OK):
                raise Failure("build %s first" % programs.pawntb, 2)
            for board in opts.boards.split():
                ok = refresh(tree, programs, board, opts.tables) and ok
        elif not opts.render_only:
            if not (os.access(programs.pawntb, os.X_OK) and os.access(programs.spot_check, os.X_OK)):
                raise Failure("build %s and %s first (cmake --build %s --target pawntb pawntb_spot_check)"
                              % (programs.pawntb, programs.spot_check, opts.build), 2)
            for board in opts.boards.split():
                check_board(board)
            os.makedirs(opts.work, exist_ok=True)
            # The source a run starts from (what it writes later makes the tree dirty).
            commit = subprocess.run(["git", "-C", tree.root, "describe", "--always", "--dirty"],
                                    capture_output=True, text=True).stdout.strip() or "unknown"
            version = "%s, commit %s" % (programs.output("--version").strip(), commit)
            for board in opts.boards.split():
                ok = measure(tree, programs, board, opts, version) and ok
        tree.render()
    except Failure as e:
        say(str(e))
        return e.status
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
