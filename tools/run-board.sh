#!/bin/sh
# Solves one large board in the background, resumably: generate unit by unit,
# then `pawntb stats --resume`, then `pawntb verify --resume`, each step
# skipped once done, with the files that `tools/results.py --tables DIR` reads:
# the reports RxC.generate.report.json and RxC.verify.report.json (--report),
# RxC.err (generate's progress), RxC.stats.json and RxC.verify.json;
# RxC.stats.resume.json keeps the walk of stats.
#
#   tools/run-board.sh RxC DIR [--memory SIZE] [--threads N] [--nice N] [--build DIR]
#                      [--after OTHER]
#   DIR/run.sh [--nice N]            resumes, from anywhere
#
# RxC      the board, K = columns
# DIR      the run's directory, outside the work tree: the table, the logs, the
#          work directory (DIR/work) and the run's own pawntb
# --memory passed to generate, stats and verify (default 8G)
# --nice   the scheduling priority (default 19, the lowest: other work first;
#          0 when the machine is free)
# --build  where the pawntb binary to copy is (default build): only on the
#          first start
# --after  another run's directory: that run is resumed and finished first
#          (or, when it is running already, waited for), then this one. Two
#          runs on 2 cores at once halve each other's speed, so a queue
#          finishes the first board as early as it can and the last no later.
#
# The first start copies BUILD/tools/pawntb and this script into DIR, and
# every later start runs that copy: a run is resumed only with the binary that
# started it. A lock (DIR/lock) refuses a second copy. Stopping it at any
# moment (kill, or the machine going away) loses at most the unit, or the last
# minute of verify, in flight. Exit status: 0 all done, 1 a step failed,
# 2 usage, 3 already running.
set -eu
usage() {
  sed -n '/^#   tools\/run-board.sh/,/^#   DIR\/run.sh/p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
board=
dir=
memory=
threads=
nice_level=
build=build
after=
if [ "$(basename "$0")" = run.sh ] && [ -f "$(dirname "$0")/board" ]; then
  dir=$(cd "$(dirname "$0")" && pwd)
  board=$(cat "$dir/board")
else
  [ $# -ge 2 ] || usage
  board=$1
  dir=$2
  shift 2
fi
while [ $# -gt 0 ]; do
  case "$1" in
    --memory) memory=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --nice) nice_level=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --after) after=$2; shift 2 ;;
    *) usage ;;
  esac
done
case "$board" in
  [3-8]x[3-8]) ;;
  *) echo "run-board: '$board' is not a board RxC (3..8 each)" >&2; exit 2 ;;
esac
rows=${board%x*}
cols=${board#*x}
table="$dir/$board-k$cols.pawntb"

mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
if [ ! -x "$dir/pawntb" ]; then
  [ -x "$build/tools/pawntb" ] || { echo "run-board: $build/tools/pawntb is missing: build first" >&2; exit 2; }
  cp "$build/tools/pawntb" "$dir/pawntb.tmp" && mv "$dir/pawntb.tmp" "$dir/pawntb"
  git -C "$(dirname "$self")" rev-parse --short=7 HEAD > "$dir/pawntb.commit" 2>/dev/null || true
  [ "$self" = "$dir/run.sh" ] || cp "$self" "$dir/run.sh"
  echo "$board" > "$dir/board"
fi
# Settings given once are kept for the resumes.
[ -z "$memory" ] || echo "$memory" > "$dir/memory"
[ -z "$threads" ] || echo "$threads" > "$dir/threads"
[ -z "$nice_level" ] || echo "$nice_level" > "$dir/nice"
[ -z "$after" ] || (cd "$after" && pwd) > "$dir/after"
memory=$(cat "$dir/memory" 2>/dev/null || echo 8G)
threads=$(cat "$dir/threads" 2>/dev/null || echo 0)
nice_level=$(cat "$dir/nice" 2>/dev/null || echo 19)
pawntb="$dir/pawntb"

exec 9>"$dir/lock"
flock -n 9 || { echo "run-board: $board is running already ($dir/lock)" >&2; exit 3; }
renice -n "$nice_level" $$ >/dev/null 2>&1 || true
log() { echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) $*" >> "$dir/run.log"; }
after=$(cat "$dir/after" 2>/dev/null || true)
if [ -n "$after" ]; then
  log "waiting for $after first"
  status=0
  "$after/run.sh" || status=$?
  if [ "$status" -eq 3 ]; then
    # Running already: wait for its lock, then let it confirm it is done.
    flock "$after/lock" true
    status=0
    "$after/run.sh" || status=$?
  fi
  [ "$status" -eq 0 ] || { log "$after failed (status $status): not starting"; exit 1; }
fi
log "start: $board with $pawntb ($(cat "$dir/pawntb.commit" 2>/dev/null || echo unknown)), --memory $memory, nice $nice_level"

if ! grep -q '^generated ' "$dir/$board.out" 2>/dev/null; then
  if [ ! -s "$dir/$board.plan.json" ]; then
    # The plan, its time from a sample of the board's own units
    # (tools/results.py --running shows it).
    "$pawntb" generate --rows "$rows" --cols "$cols" --memory "$memory" --threads "$threads" \
      --work-dir "$dir/work" --plan --sample 20 --json > "$dir/$board.plan.json.tmp" 2>> "$dir/$board.err" &&
      mv "$dir/$board.plan.json.tmp" "$dir/$board.plan.json" || log "plan failed (going on)"
  fi
  log "generate"
  "$pawntb" generate --rows "$rows" --cols "$cols" --memory "$memory" --threads "$threads" \
    --work-dir "$dir/work" --output "$table" --force --report "$dir/$board.generate.report.json" \
    >> "$dir/$board.out" 2>> "$dir/$board.err" || { log "generate failed"; exit 1; }
fi
if [ ! -s "$dir/$board.stats.json" ]; then
  log "stats"
  "$pawntb" stats --json --memory "$memory" --threads "$threads" \
    --resume "$dir/$board.stats.resume.json" "$table" \
    > "$dir/$board.stats.json.tmp" 2>> "$dir/$board.stats.err" || { log "stats failed"; exit 1; }
  mv "$dir/$board.stats.json.tmp" "$dir/$board.stats.json"
fi
if ! grep -q 'positions agree with their successors' "$dir/$board.verify.out" 2>/dev/null; then
  log "verify"
  "$pawntb" verify --memory "$memory" --threads "$threads" --resume "$dir/$board.verify.json" \
    --report "$dir/$board.verify.report.json" "$table" \
    >> "$dir/$board.verify.out" 2>> "$dir/$board.verify.err" || { log "verify failed"; exit 1; }
fi
log "done"
