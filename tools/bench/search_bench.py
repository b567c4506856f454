#!/usr/bin/env python3
"""The proof search against its plain baseline (docs/search.md).

For each board, in one run: `pawntb solve` with all its knowledge, with each
piece left out in turn (--without), proof-number search (`--algorithm dfpn`)
and `--baseline` (boolean DFS + TT, no knowledge, no tables), all
`--no-tables`. Prints a line per run: board,
setting, winner, nodes, wall seconds, CPU seconds (user + system of the
child: on a shared machine the wall time is mostly waiting) and peak RSS.

The settings other than `all` are cut off at RATIO times the CPU time of
`all` on the same board (and never below 60 s): a cut run shows that the
piece it leaves out saves at least that factor, without waiting hours for a
plain search. A cut run prints "cut" and the CPU seconds it had used.

  tools/bench/search_bench.py [--pawntb BIN] [--memory 1G] [--threads 1]
                              [--ratio 10] [--only all,baseline] BOARD...
"""
import argparse
import json
import os
import resource
import signal
import subprocess
import sys
import time

SETTINGS = ["all", "without:lookahead", "without:ordering", "without:unstoppable",
            "without:threats", "without:win-in-one", "without:symmetry", "dfpn", "baseline"]


def run(pawntb, rows, cols, setting, memory, threads, cpu_limit):
    """Runs one solve; returns (exit code, stdout, wall s, cpu s, peak MiB)."""
    cmd = [pawntb, "solve", "--rows", str(rows), "--cols", str(cols), "--no-tables",
           "--threads", str(threads), "--memory", memory, "--json", "--progress", "3600"]
    if setting == "baseline":
        cmd.append("--baseline")
    elif setting == "dfpn":  # the other algorithm, with all the knowledge
        cmd += ["--algorithm", "dfpn"]
    elif setting.startswith("without:"):
        cmd += ["--without", setting.split(":", 1)[1]]

    def limit():  # the child's own CPU bound: SIGXCPU ends it
        if cpu_limit:
            resource.setrlimit(resource.RLIMIT_CPU, (int(cpu_limit), int(cpu_limit) + 5))

    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            preexec_fn=limit)
    out = proc.stdout.read()
    proc.stdout.close()
    _, status, usage = os.wait4(proc.pid, 0)  # this child's own CPU time and peak
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.monotonic() - start
    return (proc.returncode, out, wall, usage.ru_utime + usage.ru_stime,
            usage.ru_maxrss // 1024)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pawntb", default="build/tools/pawntb")
    ap.add_argument("--memory", default="1G")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--ratio", type=float, default=10.0)
    ap.add_argument("--only", default=",".join(SETTINGS),
                    help="the settings to run, comma-separated (all is always run first)")
    ap.add_argument("boards", nargs="+")
    a = ap.parse_args()
    wanted = [s for s in SETTINGS if s in a.only.split(",") or s == "all"]
    unknown = set(a.only.split(",")) - set(SETTINGS)
    if unknown:
        ap.error("unknown settings: " + ", ".join(sorted(unknown)))
    print(f"{'board':5} {'setting':22} {'winner':6} {'nodes':>14} {'wall_s':>9} {'cpu_s':>9}"
          f" {'peak_MiB':>9} {'cpu_ratio':>9}", flush=True)
    for board in a.boards:
        try:
            rows, cols = (int(x) for x in board.split("x"))
        except ValueError:
            ap.error(f"'{board}' is not a board RxC")
        all_cpu = None
        for setting in wanted:
            cpu_limit = None if all_cpu is None else max(60.0, a.ratio * all_cpu)
            code, out, wall, cpu, peak = run(a.pawntb, rows, cols, setting, a.memory,
                                             a.threads, cpu_limit)
            if code == 0:
                d = json.loads(out)
                if all_cpu is None:
                    all_cpu = cpu
                ratio = f"{cpu / all_cpu:.1f}" if all_cpu else "-"
                print(f"{board:5} {setting:22} {d['winner']:6} {d['nodes']:>14,} {wall:>9.1f}"
                      f" {cpu:>9.1f} {peak:>9} {ratio:>9}", flush=True)
            elif code in (-signal.SIGXCPU, -signal.SIGKILL) and cpu_limit:
                print(f"{board:5} {setting:22} {'cut':6} {'-':>14} {wall:>9.1f} {cpu:>9.1f}"
                      f" {peak:>9} {'>' + format(cpu / all_cpu, '.1f'):>9}", flush=True)
            else:
                print(f"search_bench: {setting} on {board} failed (exit {code})", file=sys.stderr)
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
