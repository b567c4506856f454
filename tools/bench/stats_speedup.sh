#!/bin/sh
# `pawntb stats` of two binaries on the same tables, alternating in one run
# on the same machine: CPU seconds (user + system), wall seconds and peak
# memory of each run, and whether the two print the same bytes (JSON and
# text). Prints markdown table rows with the date, commits and load average,
# ready for docs/benchmarks.md.
#
#   tools/bench/stats_speedup.sh OLD NEW [--rounds N] [--memory SIZE] [--threads N] TABLE...
#
# OLD, NEW   pawntb binaries (e.g. a build of main and build/tools/pawntb)
# --rounds   old, new pairs per table (default 2)
# --memory, --threads   passed to both (default 2G, 2)
# Exit status: 0 ok (whatever the times), 1 the outputs differ or a run
# failed, 2 usage or a missing tool.
set -eu
usage() {
  sed -n '/^#   tools\/bench\/stats_speedup.sh/,/^# failed, 2/p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}
[ $# -ge 3 ] || usage
old=$1
new=$2
shift 2
rounds=2
memory=2G
threads=2
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --memory) memory=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    -*) usage ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] || usage
for b in "$old" "$new"; do
  [ -x "$b" ] || { echo "stats_speedup.sh: $b is not an executable" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "stats_speedup.sh: /usr/bin/time is missing" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "date $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, --memory $memory --threads $threads;" \
  "old $old, new $new"
echo "| table | binary | CPU s (user + sys) | wall s | peak MiB | load before |"
echo "|---|---|---:|---:|---:|---|"
status=0
for table in "$@"; do
  name=$(basename "$table" .pawntb)
  for round in $(seq "$rounds"); do
    for which in old new; do
      eval bin=\$$which
      load=$(cut -d' ' -f1-3 /proc/loadavg)
      /usr/bin/time -f "%U %S %e %M" -o "$work/time" \
        "$bin" stats --json --memory "$memory" --threads "$threads" "$table" \
        >"$work/$which.json" 2>/dev/null || { echo "stats_speedup.sh: $bin failed on $table" >&2; exit 1; }
      awk -v t="$name" -v b="$which" -v l="$load" \
        '{ printf "| %s | %s | %.1f | %.1f | %d | %s |\n", t, b, $1 + $2, $3, $4 / 1024, l }' "$work/time"
      [ "$round" = 1 ] && "$bin" stats --memory "$memory" --threads "$threads" "$table" \
        >"$work/$which.txt" 2>/dev/null
    done
    cmp -s "$work/old.json" "$work/new.json" || { echo "$name: the JSON differs" >&2; status=1; }
  done
  cmp -s "$work/old.txt" "$work/new.txt" || { echo "$name: the text differs" >&2; status=1; }
done
exit $status
