#!/bin/sh
# Per-position figures of generate and verify on one board: CPU time, cycles,
# instructions, IPC and cache misses, for docs/benchmarks.md ("Per position").
#
#   tools/bench/profile.sh [--pawntb BIN] [--threads N] [--memory SIZE]
#       [--no-cachegrind] [--perf-record] RxC [K]
#
# BIN      the pawntb executable (default: build/tools/pawntb, a Release build)
# --memory unit by unit in a temporary work directory with this limit
#          (default: in memory)
# RxC [K]  the board, K pawns a side (default: the columns)
#
# Hardware counters are used when `perf stat` has them. Where it has not (most
# virtual machines), instructions and cache misses come from cachegrind
# (valgrind --tool=cachegrind --cache-sim=yes: a simulated L1 and last-level
# cache, exact and repeatable whatever else runs), and cycles from CPU time
# (user + system) times the clock. The clock is calibrated, since a core
# runs above the nominal MHz of /proc/cpuinfo when it can: a chain of
# dependent adds, one a cycle, is timed (it needs cc; without one the
# nominal MHz is used, and the first line says so). IPC is instructions over
# those cycles. Cachegrind runs the threads one at a time
# and takes about 50 times as long as the run itself: keep it to boards that
# generate in seconds (5x5 and below), or give --no-cachegrind.
# --perf-record adds a `perf record` profile of each run, its top symbols.
#
# Prints one markdown row per run (generate, verify), each figure divided by
# the entries of the index. Exit status: 0 ok, 1 a run failed, 2 usage or a
# missing tool.
set -eu
pawntb=build/tools/pawntb
threads=2
memory=
cachegrind=1
record=
usage() {
  sed -n '/^#   tools\/bench\/profile.sh/,/^# RxC \[K\]/p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}
while [ $# -gt 0 ]; do
  case "$1" in
    --pawntb) pawntb=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --memory) memory=$2; shift 2 ;;
    --no-cachegrind) cachegrind=; shift ;;
    --perf-record) record=1; shift ;;
    -*) usage ;;
    *) break ;;
  esac
done
[ $# -ge 1 ] && [ $# -le 2 ] || usage
case "$1" in
  [0-9]x[0-9]) ;;
  *) echo "profile.sh: '$1' is not a board RxC" >&2; exit 2 ;;
esac
rows=${1%x*}
cols=${1#*x}
pawns=${2:-$cols}
[ -x "$pawntb" ] || { echo "profile.sh: $pawntb is missing: build first" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "profile.sh: /usr/bin/time is missing" >&2; exit 2; }
if [ -n "$cachegrind" ] && ! command -v valgrind >/dev/null 2>&1; then
  echo "profile.sh: valgrind is missing (or give --no-cachegrind)" >&2
  exit 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
table="$work/table.pawntb"
mhz=$(awk -F: '/^cpu MHz/ { printf "%.0f", $2; exit }' /proc/cpuinfo)
clock="nominal, /proc/cpuinfo"
if command -v cc >/dev/null 2>&1; then
  # 2e9 dependent adds: as many cycles. The best of three runs.
  printf '%s\n' 'int main(void) {' '  unsigned long x = 0;' \
    '  for (unsigned long i = 0; i < 200000000UL; i++) {' \
    '    __asm__ volatile("add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"' \
    '                     "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0" : "+r"(x));' \
    '  }' '  return x == 0;' '}' > "$work/clock.c"
  if cc -O2 -o "$work/clock" "$work/clock.c" 2>/dev/null; then
    best=
    for _ in 1 2 3; do
      /usr/bin/time -f "%U" -o "$work/clock.time" "$work/clock" || true
      best=$(awk -v t="$(cat "$work/clock.time")" -v b="${best:-0}" 'BEGIN { print (b == 0 || t < b) ? t : b }')
    done
    mhz=$(awk -v t="$best" 'BEGIN { printf "%.0f", 2e9 / t / 1e6 }')
    clock="calibrated: 2e9 dependent adds in $best s"
  fi
fi
counters=
if command -v perf >/dev/null 2>&1 &&
  perf stat -x, -e instructions,cycles true 2>&1 >/dev/null | grep -q '^[0-9]'; then
  counters=1
fi

# The command lines of the two runs.
generate_args="generate --rows $rows --cols $cols --pawns $pawns --threads $threads --force --output $table"
if [ -n "$memory" ]; then
  generate_args="$generate_args --memory $memory --work-dir $work/work"
fi
verify_args="verify --threads $threads $table"

# measure NAME ARGS...: times the run; with counters, perf stat; with
# cachegrind, a second run under it. Leaves $work/NAME.{time,perf,cg}.
measure() {
  name=$1
  shift
  rm -rf "$work/work"
  if [ -n "$counters" ]; then
    perf stat -x, -o "$work/$name.perf" -e instructions,cycles,cache-misses \
      /usr/bin/time -f "%e %U %S %M" -o "$work/$name.time" "$pawntb" "$@" >"$work/$name.out" 2>&1 ||
      { cat "$work/$name.out" >&2; exit 1; }
  else
    /usr/bin/time -f "%e %U %S %M" -o "$work/$name.time" "$pawntb" "$@" >"$work/$name.out" 2>&1 ||
      { cat "$work/$name.out" >&2; exit 1; }
  fi
  if [ -n "$record" ]; then
    rm -rf "$work/work"
    perf record -q -g -o "$work/$name.data" "$pawntb" "$@" >/dev/null 2>&1 ||
      { echo "profile.sh: perf record failed" >&2; exit 1; }
    perf report -q -i "$work/$name.data" --no-children --percent-limit 1.5 --sort symbol \
      --stdio 2>/dev/null | grep -v '^$' | grep '%' | head -25 >"$work/$name.top"
  fi
  if [ -n "$cachegrind" ]; then
    rm -rf "$work/work"
    valgrind --tool=cachegrind --cache-sim=yes --cachegrind-out-file=/dev/null \
      "$pawntb" "$@" >"$work/$name.cgout" 2>"$work/$name.cg" ||
      { cat "$work/$name.cg" >&2; exit 1; }
  fi
}

measure generate $generate_args
entries=$("$pawntb" info --json "$table" | sed -n 's/.*"entries": *\([0-9]*\).*/\1/p' | head -1)
[ -n "$entries" ] || { echo "profile.sh: no entry count from pawntb info" >&2; exit 1; }
measure verify $verify_args

# calc EXPRESSION DECIMALS: arithmetic on decimals (awk: no bc needed).
calc() {
  awk "BEGIN { printf \"%.$2f\", $1 }"
}
# A cachegrind summary line's number ("==123== I   refs:      1,234,567").
cg() {
  sed -n "s/^==[0-9]*== $2 *\([0-9,]*\).*/\1/p" "$work/$1.cg" | head -1 | tr -d ,
}
commit=$(git -C "$(dirname "$0")" rev-parse --short=7 HEAD 2>/dev/null || echo unknown)
echo "date $(date -u +%Y-%m-%dT%H:%MZ), pawntb $pawntb (this script at $commit), $(nproc) cores at $mhz MHz ($clock), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "board ${rows}x${cols} K = $pawns, $entries entries; generate: pawntb $generate_args"
echo "counters: $([ -n "$counters" ] && echo "perf stat" || echo "none in this machine: cachegrind and CPU time")"
echo
echo "| run | threads | wall s | CPU s | cycles/pos | instructions/pos | IPC | D1 misses/pos | LL misses/pos | peak MiB |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for name in generate verify; do
  set -- $(cat "$work/$name.time")
  wall=$1
  cpu=$(calc "$2 + $3" 2)
  peak=$(( $4 / 1024 ))
  if [ -n "$counters" ]; then
    instructions=$(awk -F, '$3 == "instructions" { print $1 }' "$work/$name.perf")
    cycles=$(awk -F, '$3 == "cycles" { print $1 }' "$work/$name.perf")
  else
    cycles=$(calc "$cpu * $mhz * 1000000" 0)
    instructions=
  fi
  d1=-
  ll=-
  if [ -n "$cachegrind" ]; then
    instructions=$(cg "$name" "I *refs:")
    d1=$(calc "$(cg "$name" "D1  misses:") / $entries" 3)
    ll=$(calc "$(cg "$name" "LLd misses:") / $entries" 3)
  fi
  cpp=$(calc "$cycles / $entries" 1)
  if [ -n "$instructions" ]; then
    ipp=$(calc "$instructions / $entries" 1)
    ipc=$(calc "$instructions / $cycles" 2)
  else
    ipp=-
    ipc=-
  fi
  echo "| $name | $threads | $wall | $cpu | $cpp | $ipp | $ipc | $d1 | $ll | $peak |"
done
if [ -n "$record" ]; then
  for name in generate verify; do
    echo
    echo "perf record, $name (self time by symbol, at least 1.5 %):"
    echo '```text'
    cat "$work/$name.top"
    echo '```'
  done
fi
