#!/bin/bash
# tools/results.sh --running, on a copy of the script and of the page's data
# in a scratch directory (the script writes next to itself): the progress of a
# board still generating, then of one generated whose stats are done and whose
# verify is part way, reaches its progress file and the page; and what it
# cannot read is an error that names the file.
#   tests/results_running_test.sh SOURCE_DIR SCRATCH_DIR
set -euo pipefail
source_dir="$1"
root="$2/results-running"
rm -rf "$root"
mkdir -p "$root/tools" "$root/data" "$root/docs" "$root/tables" "$root/build"
cp "$source_dir"/tools/results.sh "$source_dir"/tools/results-page.jq \
  "$source_dir"/tools/results-plot.jq "$root/tools/"
cp -r "$source_dir/data/answers" "$source_dir/data/stats" "$root/data/"
tables="$root/tables"
progress="$root/data/answers/7x6-k6.progress.json"
fail() { echo "FAIL: $*" >&2; exit 1; }
results() { "$root/tools/results.sh" --build "$root/build" "$@"; }
expect() {  # expect FIELD VALUE: the progress file's FIELD is VALUE
  local got
  got="$(jq -r ".$1" "$progress")"
  [ "$got" = "$2" ] || fail "$1 is '$got', not '$2'"
}

# Still generating: the last whole progress line (they end in \r), without
# its rate, which changes.
printf 'pawntb generate: plan\npawntb generate: solve unit 10/20 50%%, 1,234 positions/s, about 1 h left\rpawntb generate: solve unit 11/20 55%%, 1,300 positions/s, about 50 min left\r' \
  >"$tables/7x6.err"
results --running 7x6 --tables "$tables" --resume "cd /runs/7x6 && ./run.sh"
expect board 7x6
expect progress "solve unit 11/20 55%"
expect resume "cd /runs/7x6 && ./run.sh"
[[ "$(jq -r .as_of "$progress")" =~ ^20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}Z$ ]] ||
  fail "as_of is not a UTC minute: $(jq -r .as_of "$progress")"
grep -qF "running: solve unit 11/20 55%" "$root/docs/results.md" || fail "the page has no 7x6 progress"
grep -qF 'Resume: `cd /runs/7x6 && ./run.sh`' "$root/docs/results.md" ||
  fail "the page has no 7x6 resume command"
[ "$(jq -r .estimate "$progress")" = null ] || fail "an estimate without a plan"

# The run's plan (tools/run-board.sh keeps one): its estimate on the page.
echo '{"estimated_seconds": 41751, "rate_source": "sample of 20 units of 7x6"}' >"$tables/7x6.plan.json"
results --running 7x6 --tables "$tables" --resume "cd /runs/7x6 && ./run.sh"
expect estimate.seconds 41751
expect estimate.rate_source "sample of 20 units of 7x6"
grep -qF "Its plan: 11.6 h on one machine (sample of 20 units of 7x6)." "$root/docs/results.md" ||
  fail "the page has not the 7x6 plan's estimate"
echo '{"estimated_seconds": ' >"$tables/7x6.plan.json"
[ "$(results --running 7x6 --tables "$tables" --resume r 2>&1 >/dev/null | grep -c "cannot read $tables/7x6.plan.json")" = 1 ] ||
  fail "an unreadable plan is not named"
rm "$tables/7x6.plan.json"

# Generated: stats not run, verify not run.
echo "generated 7x6-k6.pawntb: 2,000,000 positions in 3 s" >"$tables/7x6.out"
results --running 7x6 --tables "$tables" --resume "r"
expect progress "generated (2,000,000 positions); stats not run yet; verify not run yet"

# Stats done, verify a quarter of the way (its --resume file).
echo '{}' >"$tables/7x6.stats.json"
echo '{"entries_done": 500000, "entries": 2000000, "mismatches": 0}' >"$tables/7x6.verify.json"
results --running 7x6 --tables "$tables" --resume "r"
expect progress "generated (2,000,000 positions); stats done; verify 25 % (500,000 of 2,000,000 positions checked, 0 mismatches)"
grep -qF "running: generated (2,000,000 positions); stats done; verify 25 %" "$root/docs/results.md" ||
  fail "the page has not the verify's progress"

# What cannot be read: status 1, naming the file; usage: status 2.
status_of() { local s=0; results "$@" 2>"$root/err" || s=$?; echo "$s"; }
echo 'not json' >"$tables/7x6.verify.json"
[ "$(status_of --running 7x6 --tables "$tables" --resume r)" = 1 ] || fail "a bad verify state passed"
grep -qF "$tables/7x6.verify.json" "$root/err" || fail "the error does not name the verify state"
rm "$tables/7x6.out" "$tables/7x6.verify.json"
echo 'pawntb generate: plan' >"$tables/7x6.err"
[ "$(status_of --running 7x6 --tables "$tables" --resume r)" = 1 ] || fail "no progress line passed"
grep -qF "$tables/7x6.err" "$root/err" || fail "the error does not name the log"
[ "$(status_of --running 7x6 --tables "$tables")" = 2 ] || fail "--running without --resume passed"
[ "$(status_of --running 9x9 --tables "$tables" --resume r)" = 2 ] || fail "a bad board passed"
echo "results.sh --running: ok"
