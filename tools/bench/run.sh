#!/bin/sh
# Runs every benchmark in one go and prints the figures and ratios the README
# quotes. Usage: tools/bench/run.sh [BUILD_DIR]   (default: build)
# Needs a Release build with the benchmarks (the default configuration).
set -eu
build=${1:-build}
bench="$build/tools/bench"
pawntb="$build/tools/pawntb"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for f in "$bench/pawntb_bench" "$bench/uva_classic" "$bench/uva_alphabeta" "$bench/make_uva_input" "$pawntb"; do
  [ -x "$f" ] || { echo "run.sh: $f is missing: build first (cmake --build $build)" >&2; exit 2; }
done

echo "== in-process (Google Benchmark, medians of 5) =="
# Medians of 5 repetitions: this VM is shared and single runs are noisy.
"$bench/pawntb_bench" --benchmark_format=csv --benchmark_min_time=0.5 \
  --benchmark_repetitions=5 --benchmark_report_aggregates_only=true 2>/dev/null > "$work/bench.csv"
awk -F, '
  /^"BM_.*_median"/ { gsub(/"/, "", $1); sub(/_median$/, "", $1); t[$1] = $3; u[$1] = $5 }
  END {
    for (k in t) printf "  %-42s %12.3f %s\n", k, t[k], u[k]
    g = t["BM_Generate/4/4/2/real_time"]; g1 = t["BM_Generate/4/4/1/real_time"]; m = t["BM_MemoMinimax/4/4/real_time"]
    printf "generate 4x4: %.1f ms (2 threads), %.1f ms (1 thread); memoized minimax 4x4: %.1f ms -> generate is %.1fx faster (%.1fx on 1 thread; target >= 20x)\n", g, g1, m, m / g, m / g1
    p = t["BM_Probe/real_time/threads:1"]; p2 = t["BM_Probe/real_time/threads:2"]; a = t["BM_AlphaBeta/real_time"]
    printf "probe: %.1f ns (1 thread), %.1f ns per probe with 2 threads; alpha-beta %.1f ns -> probe is %.1fx faster\n", p, p2, a, a / p
  }' "$work/bench.csv" | sort

echo "== whole process: all UVa-valid 4x4 positions =="
"$bench/make_uva_input" > "$work/uva.txt"
"$bench/make_uva_input" --positions > "$work/positions.txt"
cases=$(head -n 1 "$work/uva.txt")

# best wall time in ms of 5 runs: best_ms OUTPUT COMMAND...
best_ms() {
  out=$1; shift
  best=""
  for i in 1 2 3 4 5; do
    s=$(date +%s%N); "$@" > "$out"; e=$(date +%s%N)
    ms=$(( (e - s) / 1000 ))
    if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
  done
  echo "$best"
}
t_tb=$(best_ms "$work/tb.out" sh -c "\"$pawntb\" uva < \"$work/uva.txt\"")
t_classic=$(best_ms "$work/classic.out" sh -c "\"$bench/uva_classic\" < \"$work/uva.txt\"")
t_ab=$(best_ms "$work/ab.out" sh -c "\"$bench/uva_alphabeta\" < \"$work/uva.txt\"")
cmp -s "$work/tb.out" "$work/classic.out" || { echo "run.sh: pawntb uva and uva_classic disagree" >&2; exit 1; }
cmp -s "$work/tb.out" "$work/ab.out" || { echo "run.sh: pawntb uva and uva_alphabeta disagree" >&2; exit 1; }
awk -v n="$cases" -v tb="$t_tb" -v c="$t_classic" -v a="$t_ab" 'BEGIN {
  printf "%d cases: pawntb uva %.1f ms, classic alpha-beta %.1f ms (%.1fx), tuned bitboard alpha-beta %.1f ms (%.1fx); target >= 30x vs classic\n", n, tb/1000, c/1000, c/tb, a/1000, a/tb }'

t_json=$(best_ms "$work/json.out" sh -c "\"$pawntb\" probe --json - < \"$work/positions.txt\"")
lines=$(wc -l < "$work/json.out")
awk -v n="$lines" -v t="$t_json" 'BEGIN { printf "pawntb probe --json -: %d positions in %.1f ms = %.2f million positions/s\n", n, t/1000, n/t }'
