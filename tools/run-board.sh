#!/bin/sh
# Solves one large board in the background, resumably: generate unit by unit,
# then `pawntb stats --resume`, then `pawntb verify --resume`, each step
# skipped once done, with the files that `tools/results.py --tables DIR` reads:
# the reports RxC.generate.report.json and RxC.verify.report.json (--report),
# RxC.err (generate's progress), RxC.stats.json and RxC.verify.json;
# RxC.stats.resume.json keeps the walk of stats.
# With --prove it proves who wins the board's start by search instead:
# `pawntb solve --no-tables --resume RxC.state` (saved every 10 minutes) with
# a certificate RxC.prf and the start's distance (--dtm), then `pawntb
# check-proof` of the certificate (a certificate too large to list is tried
# again from its saved walk, once with each new binary); what
# `tools/results.py --prove RxC --from-json DIR/RxC.solve.json --time-log
# DIR/RxC.solve.time --check-log DIR/RxC.check.log` records, while
# RxC.solve.err has the search's progress (tools/results.py --running).
#
#   tools/run-board.sh RxC DIR [--prove [--dtm-time S] [--certificate-memory SIZE]
#                      [--root-seed N] [--root-first LIST]]
#                      [--memory SIZE] [--threads N] [--nice N] [--build DIR] [--after OTHER]
#   DIR/run.sh [--nice N]            resumes, from anywhere
#
# RxC      the board, K = columns
# DIR      the run's directory, outside the work tree: the table, the logs, the
#          work directory (DIR/work) and the run's own pawntb
# --prove  prove who wins instead of generating the table (kept for resumes)
# --dtm-time  with --prove: seconds for the start's distance after the winner
#          (solve --dtm --time S; default 3600, counted over every part):
#          the bounds proven by then
# --certificate-memory  with --prove: solve's bound for listing the
#          certificate (default: 3/4 of the memory available then)
# --root-seed  with --prove: the root's moves in an order shuffled by N
#          (solve --root-seed N), for a second proof of a board in a
#          directory of its own
# --root-first  with --prove: try these root moves first (solve --root-first
#          LIST, e.g. b1b2): a guess of the winning move; "" forgets a list
#          given before
# --memory passed to generate, stats and verify, or solve's transposition
#          table (default 8G)
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
# minute of verify, in flight; a proof loses at most 10 minutes of search or
# of the certificate's walk (RxC.state.walk), the distance's question in
# flight (RxC.state.distance), or the check in flight. Exit status: 0 all done, 1 a step failed,
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
prove=
dtm_time=
certificate_memory=
root_seed=
root_first=
root_first_given=
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
    --prove) prove=1; shift ;;
    --dtm-time) dtm_time=$2; shift 2 ;;
    --certificate-memory) certificate_memory=$2; shift 2 ;;
    --root-seed) root_seed=$2; shift 2 ;;
    --root-first) root_first=$2; root_first_given=1; shift 2 ;;
    *) usage ;;
  esac
done
case "$board" in
  [3-8]x[3-8]) ;;
  *) echo "run-board: '$board' is not a board RxC (3..8 each)" >&2; exit 2 ;;
esac
rows=${board%x*}
cols=${board#*x}
# The start's moves are the pushes a1a2 to X1X2 (X the last file): checked
# now, not when a queue reaches the solve.
files=$(echo abcdefgh | cut -c1-"$cols")
for move in $(echo "$root_first" | tr ',' ' '); do
  file=$(echo "$move" | cut -c1)
  case "$move" in
    [a-h]1[a-h]2) [ "$file" = "$(echo "$move" | cut -c3)" ] && case "$files" in *"$file"*) continue ;; esac ;;
  esac
  echo "run-board: --root-first: $move is not a move of $board's start (a1a2 to $(echo "$files" | cut -c"$cols")1$(echo "$files" | cut -c"$cols")2)" >&2
  exit 2
done
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
[ -z "$prove" ] || echo prove > "$dir/mode"
[ -z "$dtm_time" ] || echo "$dtm_time" > "$dir/dtm_time"
[ -z "$certificate_memory" ] || echo "$certificate_memory" > "$dir/certificate_memory"
[ -z "$root_seed" ] || echo "$root_seed" > "$dir/root_seed"
if [ -n "$root_first_given" ]; then
  if [ -n "$root_first" ]; then echo "$root_first" > "$dir/root_first"; else rm -f "$dir/root_first"; fi
fi
memory=$(cat "$dir/memory" 2>/dev/null || echo 8G)
threads=$(cat "$dir/threads" 2>/dev/null || echo 0)
nice_level=$(cat "$dir/nice" 2>/dev/null || echo 19)
pawntb="$dir/pawntb"

exec 9>"$dir/lock"
flock -n 9 || { echo "run-board: $board is running already ($dir/lock)" >&2; exit 3; }
renice -n "$nice_level" $$ >/dev/null 2>&1 || true
# Started with setsid, the run has a scheduling group of its own (Linux's
# autogroup), where nice orders only its own threads: the group's nice is
# what lets other work go first.
{ echo "$nice_level" > "/proc/$$/autogroup"; } 2>/dev/null || true
log() { echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) $*" >> "$dir/run.log"; }
after=$(cat "$dir/after" 2>/dev/null || true)
if [ -n "$after" ]; then
  log "waiting for $after first"
  status=0
  "$after/run.sh" || status=$?
  while [ "$status" -eq 3 ]; do
    # Running already: wait for its lock, then let it confirm it is done
    # (or wait again, when it was started anew in between).
    flock "$after/lock" true
    status=0
    "$after/run.sh" || status=$?
  done
  [ "$status" -eq 0 ] || { log "$after failed (status $status): not starting"; exit 1; }
fi
log "start: $board with $pawntb ($(cat "$dir/pawntb.commit" 2>/dev/null || echo unknown)), --memory $memory, nice $nice_level"

if [ "$(cat "$dir/mode" 2>/dev/null)" = prove ]; then
  # /usr/bin/time -v (Debian's `time`) keeps each part's times and peak.
  timed() {
    time_file=$1
    shift
    if [ -x /usr/bin/time ]; then /usr/bin/time -v -a -o "$time_file" "$@"; else "$@"; fi
  }
  # Set by hand or by --certificate-memory: solve's bound for the list.
  certificate_memory=$(cat "$dir/certificate_memory" 2>/dev/null || true)
  root_seed=$(cat "$dir/root_seed" 2>/dev/null || true)
  root_first=$(cat "$dir/root_first" 2>/dev/null || true)
  commit=$(cat "$dir/pawntb.commit" 2>/dev/null || echo unknown)
  if [ ! -s "$dir/$board.solve.json" ]; then
    log "solve"
    # The binary that searches (a later one may replace the directory's
    # while it runs): what the record names.
    echo "$commit" > "$dir/$board.solve.commit"
    timed "$dir/$board.solve.time" "$pawntb" solve --rows "$rows" --cols "$cols" --no-tables \
      --json --memory "$memory" --threads "$threads" --resume "$dir/$board.state" \
      --save-every 600 --certificate "$dir/$board.prf" \
      ${certificate_memory:+--certificate-memory "$certificate_memory"} \
      ${root_seed:+--root-seed "$root_seed"} ${root_first:+--root-first "$root_first"} \
      --dtm --time "$(cat "$dir/dtm_time" 2>/dev/null || echo 3600)" \
      > "$dir/$board.solve.json.tmp" 2>> "$dir/$board.solve.err" || {
      # A proof too large to list in memory: the answer stands, unchecked.
      grep -q '"certificate_error":"' "$dir/$board.solve.json.tmp" || { log "solve failed"; exit 1; }
      echo "$commit" > "$dir/$board.certificate.tried"
    }
    mv "$dir/$board.solve.json.tmp" "$dir/$board.solve.json"
  fi
  if grep -q '"certificate_error":"' "$dir/$board.solve.json"; then
    # Too large to list when the search ended. Its walk is saved
    # (RxC.state.walk), so it goes on, once with each binary: a later one
    # may list more in the same memory. RxC.certificate.tried names the
    # binary that last found it too large; remove it to try again.
    if [ "$(cat "$dir/$board.certificate.tried" 2>/dev/null || true)" != "$commit" ]; then
      log "certificate"
      status=0
      timed "$dir/$board.solve.time" "$pawntb" solve --rows "$rows" --cols "$cols" --no-tables \
        --json --memory "$memory" --threads "$threads" --resume "$dir/$board.state" \
        --save-every 600 --certificate "$dir/$board.prf" \
        ${certificate_memory:+--certificate-memory "$certificate_memory"} \
        ${root_seed:+--root-seed "$root_seed"} ${root_first:+--root-first "$root_first"} \
        > "$dir/$board.certificate.json.tmp" 2>> "$dir/$board.solve.err" || status=$?
      if [ "$status" -eq 0 ] || grep -q '"certificate_error":"' "$dir/$board.certificate.json.tmp"; then
        # The record: this run's (written, or listed further), with the
        # distance the first one proved.
        cp "$dir/$board.solve.json" "$dir/$board.solve.uncertified.json"
        python3 - "$dir/$board.solve.uncertified.json" "$dir/$board.certificate.json.tmp" \
          > "$dir/$board.solve.json.tmp" <<'EOF'
import json, sys
first, now = (json.load(open(p)) for p in sys.argv[1:3])
for key in ("plies", "plies_lower", "plies_upper", "distance_nodes"):
    if key in first:
        now[key] = first[key]
print(json.dumps(now, separators=(",", ":")))  # as pawntb writes it: the greps above
EOF
        mv "$dir/$board.solve.json.tmp" "$dir/$board.solve.json"
        rm -f "$dir/$board.certificate.json.tmp"
        [ "$status" -eq 0 ] || echo "$commit" > "$dir/$board.certificate.tried"
      else
        # The answer stands without it; the queue goes on. (A binary that
        # cannot read the state, for one, fails so.)
        log "certificate: the new try failed (status $status, see $board.solve.err)"
        rm -f "$dir/$board.certificate.json.tmp"
        echo "$commit" > "$dir/$board.certificate.tried"
      fi
    fi
  fi
  if grep -q '"certificate_error":"' "$dir/$board.solve.json"; then
    log "certificate not written (see $board.solve.json)"
  elif [ ! -s "$dir/$board.check.log" ]; then
    log "check-proof"
    rm -f "$dir/$board.check.log.tmp"
    timed "$dir/$board.check.log.tmp" "$pawntb" check-proof --json "$dir/$board.prf" \
      >> "$dir/$board.check.log.tmp" 2>&1 || { log "check-proof failed"; exit 1; }
    mv "$dir/$board.check.log.tmp" "$dir/$board.check.log"
  fi
  log "done"
  exit 0
fi

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
