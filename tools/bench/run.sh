#!/bin/sh
# Runs every benchmark in one go and prints the figures and ratios the README
# quotes. Usage: tools/bench/run.sh [BUILD_DIR]   (default: build)
# Needs a Release build with the benchmarks (the default configuration).
# Takes about four minutes, most of it generating and verifying the 5x5 table.
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-build}
bench="$build/tools/bench"
pawntb="$build/tools/pawntb"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for f in "$bench/pawntb_bench" "$bench/uva_classic" "$bench/uva_alphabeta" "$bench/make_uva_input" \
  "$bench/naive_size" "$bench/wall_time" "$bench/serve_bench" "$pawntb"; do
  [ -x "$f" ] || { echo "run.sh: $f is missing: build first (cmake --build $build)" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "run.sh: /usr/bin/time is missing: run tools/install-deps.sh" >&2; exit 2; }

echo "== in-process (Google Benchmark, medians of 5) =="
# Medians of 5 repetitions: this VM is shared and single runs are noisy. The
# repetitions of all benchmarks are interleaved in random order, so that a
# slow spell of the machine does not fall on one side of a ratio only.
"$bench/pawntb_bench" --benchmark_format=csv --benchmark_min_time=0.5 \
  --benchmark_repetitions=5 --benchmark_enable_random_interleaving=true \
  --benchmark_report_aggregates_only=true 2>/dev/null > "$work/bench.csv"
awk -F, '
  /^"BM_.*_median"/ { gsub(/"/, "", $1); sub(/_median$/, "", $1); t[$1] = $3; u[$1] = $5 }
  END {
    for (k in t) printf "  %-42s %12.3f %s\n", k, t[k], u[k]
    g = t["BM_Generate/4/4/2/real_time"]; g1 = t["BM_Generate/4/4/1/real_time"]; m = t["BM_MemoMinimax/4/4/real_time"]
    printf "generate 4x4: %.1f ms (2 threads), %.1f ms (1 thread); memoized minimax 4x4: %.1f ms -> generate is %.1fx faster (%.1fx on 1 thread; target >= 20x)\n", g, g1, m, m / g, m / g1
    p = t["BM_Probe/real_time/threads:1"]; p2 = t["BM_Probe/real_time/threads:2"]
    pm = t["BM_ProbeMany/real_time/threads:1"] / 64
    c = t["BM_ClassicAlphaBeta/real_time"]; a = t["BM_AlphaBeta/real_time"]
    printf "probe: %.1f ns (1 thread; target <= 20 ns), %.1f ns per probe with 2 threads, %.1f ns per probe with probe_many; classic alpha-beta %.1f ns -> %.1fx (target >= 300x); bitboard alpha-beta %.1f ns -> %.1fx\n", p, p2, pm, c, c / p, a, a / p
  }' "$work/bench.csv" | sort

echo "== whole process: pawntb generate, K = columns =="
echo "| board | K | positions | time (s) | peak memory (MiB) | file (bytes) | ns per position |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for rc in 3x3 3x4 4x3 4x4 4x5 5x4 5x5; do
  rows=${rc%x*}; cols=${rc#*x}
  /usr/bin/time -f "%e %M" -o "$work/time" "$pawntb" generate --rows "$rows" --cols "$cols" \
    -o "$work/$rc.pawntb" > "$work/gen.out"
  set -- $(cat "$work/time")
  entries=$(sed -n 's/^generated .*: \([0-9,]*\) positions.*/\1/p' "$work/gen.out" | tr -d ,)
  size=$(wc -c < "$work/$rc.pawntb")
  awk -v rc="$rc" -v k="$cols" -v n="$entries" -v s="$1" -v kb="$2" -v f="$size" 'BEGIN {
    printf "| %s | %d | %d | %.3f | %.0f | %d | %.0f |\n", rc, k, n, s, kb / 1024, f, s * 1e9 / n }'
  [ "$rc" = 5x5 ] || rm -f "$work/$rc.pawntb"
done

echo "== compactness: the default 4x4 table against one byte per position =="
set -- $("$bench/naive_size" "$src/data/4x4-k4.pawntb")
awk -v raw="$1" -v naive="$2" -v file="$3" 'BEGIN {
  printf "one byte per position, both sides to move: %d bytes, zstd -19: %d bytes; table file: %d bytes -> %.2fx smaller (target >= 6x, and <= 14 KB)\n", raw, naive, file, naive / file }'

echo "== whole process: all UVa-valid 4x4 positions =="
"$bench/make_uva_input" > "$work/uva.txt"
"$bench/make_uva_input" --positions > "$work/positions.txt"
cases=$(head -n 1 "$work/uva.txt")

# Median wall time in microseconds of RUNS runs, each started without a shell
# (wall_time): median_us RUNS INPUT OUTPUT COMMAND...
median_us() {
  set -- $("$bench/wall_time" "$@")
  echo "$1"
}
# The median of the numbers on stdin.
median() {
  sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
# Rounds that take turns, so that a slow spell of the machine hits all three.
: > "$work/tb.times"; : > "$work/classic.times"; : > "$work/ab.times"
for round in 1 2 3 4 5 6 7; do
  median_us 3 "$work/uva.txt" "$work/tb.out" "$pawntb" uva >> "$work/tb.times"
  median_us 1 "$work/uva.txt" "$work/classic.out" "$bench/uva_classic" >> "$work/classic.times"
  median_us 1 "$work/uva.txt" "$work/ab.out" "$bench/uva_alphabeta" >> "$work/ab.times"
done
t_tb=$(median < "$work/tb.times")
t_classic=$(median < "$work/classic.times")
t_ab=$(median < "$work/ab.times")
cmp -s "$work/tb.out" "$work/classic.out" || { echo "run.sh: pawntb uva and uva_classic disagree" >&2; exit 1; }
cmp -s "$work/tb.out" "$work/ab.out" || { echo "run.sh: pawntb uva and uva_alphabeta disagree" >&2; exit 1; }
awk -v n="$cases" -v tb="$t_tb" -v c="$t_classic" -v a="$t_ab" 'BEGIN {
  printf "%d cases (medians of 7 rounds taking turns): pawntb uva %.1f ms, classic alpha-beta %.1f ms (%.1fx; target >= 30x), bitboard alpha-beta %.1f ms (%.1fx)\n", n, tb/1000, c/1000, c/tb, a/1000, a/tb }'
# What any run costs here: starting a process, and pawntb uva with no cases
# (start-up and table load); and copying the input with cat.
printf '0\n' > "$work/none.txt"
t_true=$(median_us 11 "$work/none.txt" /dev/null /bin/true)
t_none=$(median_us 11 "$work/none.txt" /dev/null "$pawntb" uva)
t_cat=$(median_us 11 "$work/uva.txt" /dev/null cat)
awk -v t="$t_true" -v z="$t_none" -v k="$t_cat" 'BEGIN {
  printf "floor: /bin/true %.1f ms, pawntb uva on no cases %.1f ms, cat of the input %.1f ms\n", t/1000, z/1000, k/1000 }'

t_json=$(median_us 5 "$work/positions.txt" "$work/json.out" "$pawntb" probe --json -)
lines=$(wc -l < "$work/json.out")
awk -v n="$lines" -v t="$t_json" 'BEGIN { printf "pawntb probe --json -: %d positions in %.1f ms = %.2f million positions/s\n", n, t/1000, n/t }'

echo "== pawntb verify on the 5x5 table =="
/usr/bin/time -f "%e s, peak %M KiB" "$pawntb" verify "$work/5x5.pawntb" 2>&1 | tail -2

echo "== web explorer API over loopback (serve_bench, medians of 5) =="
"$bench/serve_bench" --benchmark_format=csv --benchmark_min_time=1 --benchmark_repetitions=5 \
  --benchmark_enable_random_interleaving=true --benchmark_report_aggregates_only=true \
  2>/dev/null > "$work/serve.csv"
awk -F, '
  /^"BM_.*_median"/ { gsub(/"/, "", $1); sub(/_median$/, "", $1); t[$1] = $3; u[$1] = $5; r[$1] = $7 }
  END {
    for (k in t) printf "  %-42s %10.3f %s %14.0f positions/s\n", k, t[k], u[k], r[k]
    printf "GET /api/v1/position: %.0f positions/s with 1 client, %.0f with 2 (target >= 2000); POST of 10,000: %.0f positions/s (target >= 1,000,000), without HTTP %.0f\n", r["BM_ServeGet/real_time/threads:1"], r["BM_ServeGet/real_time/threads:2"], r["BM_ServeBatch/real_time"], r["BM_ApiBatch/real_time"]
  }' "$work/serve.csv" | sort
