#!/bin/sh
# Generation speed of two pawntb binaries in one run on the same machine:
# the target was 1.5 times the speed of the binary of f0965fe on 6x5 and
# 5x6. Each round runs both on each board, alternating which goes first
# (or, with --together, both at once, so that a machine whose load changes
# loads both alike), each unit by unit in its own work directory; checks
# that the two tables are the same bytes; prints one markdown row per run
# and the ratios base / new of wall and CPU (user + system) time, summed over
# the rounds, ready for docs/benchmarks.md.
#
#   tools/bench/generate_speedup.sh --base BIN --new BIN [--threads N]
#       [--memory M] [--rounds N] [--together] [RxC ...]
#
# BIN   pawntb executables, e.g. a Release build of f0965fe and of HEAD
# RxC   boards, K = columns (default: 6x5 5x6)
# Needs /usr/bin/time. Tables and work directories go to a temporary
# directory (TMPDIR) and are removed. Exit status: 0 ok (whatever the
# times), 1 a run failed or the tables differ, 2 usage or a missing tool.
set -eu
base=
new=
threads=2
memory=2G
rounds=2
together=
usage() {
  sed -n '/^#   tools\/bench\/generate_speedup.sh/,/^#       \[--memory/p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}
while [ $# -gt 0 ]; do
  case "$1" in
    --base) base=$2; shift 2 ;;
    --new) new=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --memory) memory=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --together) together=1; shift ;;
    -*) usage ;;
    *) break ;;
  esac
done
[ -n "$base" ] && [ -n "$new" ] || usage
[ $# -gt 0 ] || set -- 6x5 5x6
for bin in "$base" "$new"; do
  [ -x "$bin" ] || { echo "generate_speedup.sh: $bin is not an executable" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "generate_speedup.sh: /usr/bin/time is missing" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# run NAME BIN BOARD: one generation; its time goes to $work/NAME.time
# ("wall user system peak-KiB"), its table to $work/NAME.pawntb.
run() {
  rows=${3%x*}
  cols=${3#*x}
  rm -rf "$work/$1.wd" "$work/$1.pawntb"
  /usr/bin/time -f "%e %U %S %M" -o "$work/$1.time" "$2" generate --rows "$rows" --cols "$cols" \
    --threads "$threads" --memory "$memory" --work-dir "$work/$1.wd" \
    --output "$work/$1.pawntb" > "$work/$1.out" 2>&1 ||
    { cat "$work/$1.out" >&2; return 1; }
}

echo "date $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, --threads $threads --memory $memory, $rounds rounds${together:+, both binaries at once}"
echo "base: $base"
echo "new:  $new"
echo "| board | round | binary | wall (s) | CPU (s) | peak MiB | load before, after |"
echo "|---|---:|---|---:|---:|---:|---|"
: > "$work/sums"
for board in "$@"; do
  round=1
  while [ "$round" -le "$rounds" ]; do
    load_before=$(cut -d' ' -f1 /proc/loadavg)
    if [ -n "$together" ]; then
      run base "$base" "$board" & base_pid=$!
      run new "$new" "$board" & new_pid=$!
      wait "$base_pid" || exit 1
      wait "$new_pid" || exit 1
    elif [ $((round % 2)) -eq 1 ]; then
      run base "$base" "$board" || exit 1
      run new "$new" "$board" || exit 1
    else
      run new "$new" "$board" || exit 1
      run base "$base" "$board" || exit 1
    fi
    load_after=$(cut -d' ' -f1 /proc/loadavg)
    cmp -s "$work/base.pawntb" "$work/new.pawntb" ||
      { echo "generate_speedup.sh: $board: the two tables differ" >&2; exit 1; }
    for name in base new; do
      read -r wall user sys kib < "$work/$name.time"
      echo "$board $name $wall $user $sys" >> "$work/sums"
      awk -v b="$board" -v r="$round" -v n="$name" -v w="$wall" -v u="$user" -v s="$sys" \
        -v k="$kib" -v l0="$load_before" -v l1="$load_after" 'BEGIN {
        printf "| %s | %d | %s | %.1f | %.1f | %d | %s, %s |\n", b, r, n, w, u + s, k / 1024, l0, l1
      }'
    done
    round=$((round + 1))
  done
done
echo
echo "| board | wall base / new | CPU base / new | tables |"
echo "|---|---:|---:|---|"
for board in "$@"; do
  awk -v b="$board" '$1 == b {
    if ($2 == "base") { bw += $3; bc += $4 + $5 } else { nw += $3; nc += $4 + $5 }
  } END { printf "| %s | %.2f | %.2f | the same bytes |\n", b, bw / nw, bc / nc }' "$work/sums"
done
echo "command: tools/bench/generate_speedup.sh --base $base --new $new --threads $threads --memory $memory --rounds $rounds${together:+ --together} $*"
