#!/bin/sh
# Runs every benchmark in one go, prints the figures and ratios, and writes
# them, as tools/results.py writes docs/results.md: the headline table into
# README.md and every figure into docs/performance.md, each between its
# markers, with the date, the commit, the machine's cores and load, and this
# command. Nothing in either block is typed by hand.
#
#   tools/bench/run.sh [--no-write] [BUILD_DIR]      (BUILD_DIR: build)
#
# --no-write  only print; README.md and docs/performance.md stay as they are
# Needs a Release build with the benchmarks (the default configuration) of the
# commit checked out. CPU-heavy: it keeps both cores of a 2-core machine busy
# for about ten minutes, most of it in the tiered generations of 5x5 and 6x5
# and in generating and verifying the 5x5 table. Exit status: 0 ok, 1 a step
# failed, 2 usage or a missing tool.
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
write=1
if [ "${1:-}" = "--no-write" ]; then
  write=0
  shift
fi
case "${1:-}" in
  -*) sed -n '/^#   tools\/bench\/run.sh/,/^# failed, 2/p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
build=${1:-build}
bench="$build/tools/bench"
pawntb="$build/tools/pawntb"
readme="$src/README.md"
performance="$src/docs/performance.md"
begin_marker='<!-- begin: written by tools/bench/run.sh -->'
end_marker='<!-- end: written by tools/bench/run.sh -->'

for f in "$bench/pawntb_bench" "$bench/uva_classic" "$bench/uva_alphabeta" "$bench/make_uva_input" \
  "$bench/naive_size" "$bench/wall_time" "$bench/serve_bench" "$pawntb"; do
  [ -x "$f" ] || { echo "run.sh: $f is missing: build first (cmake --build $build)" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "run.sh: /usr/bin/time is missing: run tools/install-deps.sh" >&2; exit 2; }
if [ "$write" = 1 ]; then
  for f in "$readme" "$performance"; do
    if ! grep -qxF "$begin_marker" "$f" || ! grep -qxF "$end_marker" "$f"; then
      echo "run.sh: $f lacks the lines '$begin_marker' and '$end_marker'" >&2
      exit 2
    fi
  done
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# What the figures were measured on.
commit=$(git -C "$src" rev-parse --short=7 HEAD 2>/dev/null || echo unknown)
if [ -n "$(git -C "$src" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
  commit="$commit-dirty"
fi
started=$(date -u +%Y-%m-%dT%H:%MZ)
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
cores=$(nproc)
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
memory=$(awk '/^MemTotal:/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)

# Numbers with thousands separators, for awk programs: commas(12039) = 12,039.
commas='function commas(n,   s, neg) {
  n = sprintf("%.0f", n); neg = ""
  if (n ~ /^-/) { neg = "-"; n = substr(n, 2) }
  s = ""
  while (length(n) > 3) { s = "," substr(n, length(n) - 2) s; n = substr(n, 1, length(n) - 3) }
  return neg n s
}
# A measured figure to 3 or 4 significant digits: 12,345 / 548.6 / 19.87 / 9.87.
function num(v) {
  if (v >= 1000) return commas(v)
  if (v >= 100) return sprintf("%.1f", v)
  if (v >= 10) return sprintf("%.2f", v)
  return sprintf("%.3g", v)
}'

# The field COLUMN of the row NAME of a Google Benchmark CSV file.
field() {
  awk -F, -v name="\"$2\"" -v column="$3" '$1 == name { print $column; exit }' "$1"
}
# The medians (and single runs) of a Google Benchmark CSV file as Markdown rows:
# name, real time, CPU time, items per second.
csv_rows() {
  awk -F, "$commas"'
    NR == 1 || /_(mean|stddev|cv)"/ { next }
    { gsub(/"/, "", $1); sub(/_median$/, "", $1)
      printf "| `%s` | %s %s | %s %s | %s |\n", $1, num($3), $5, num($4), $5, ($7 == "" ? "" : commas($7))
    }' "$1"
}

echo "== in-process (Google Benchmark, medians of 5) =="
# Medians of 5 repetitions: on a shared machine single runs are noisy. The
# repetitions of all benchmarks are interleaved in random order, so that a
# slow spell of the machine does not fall on one side of a ratio only.
"$bench/pawntb_bench" --benchmark_format=csv --benchmark_min_time=0.5 \
  --benchmark_repetitions=5 --benchmark_enable_random_interleaving=true \
  --benchmark_report_aggregates_only=true 2>/dev/null > "$work/bench.csv"
csv_rows "$work/bench.csv"
g2=$(field "$work/bench.csv" BM_Generate/4/4/2/real_time_median 3)
g1=$(field "$work/bench.csv" BM_Generate/4/4/1/real_time_median 3)
memo=$(field "$work/bench.csv" BM_MemoMinimax/4/4/real_time_median 3)
probe1=$(field "$work/bench.csv" BM_Probe/real_time/threads:1_median 3)
probe2=$(field "$work/bench.csv" BM_Probe/real_time/threads:2_median 3)
many=$(field "$work/bench.csv" BM_ProbeMany/real_time/threads:1_median 3)
classic=$(field "$work/bench.csv" BM_ClassicAlphaBeta/real_time_median 3)
alphabeta=$(field "$work/bench.csv" BM_AlphaBeta/real_time_median 3)
awk -v g="$g2" -v g1="$g1" -v m="$memo" -v p="$probe1" -v p2="$probe2" -v pm="$many" \
  -v c="$classic" -v a="$alphabeta" 'BEGIN {
  printf "generate 4x4: %.1f ms (2 threads), %.1f ms (1 thread); memoized minimax 4x4: %.1f ms -> generate is %.1fx faster (%.1fx on 1 thread; target >= 20x)\n", g, g1, m, m / g, m / g1
  printf "probe: %.1f ns (1 thread; target <= 20 ns), %.1f ns per probe with 2 threads, %.1f ns per probe with probe_many; classic alpha-beta %.1f ns -> %.1fx (target >= 300x); bitboard alpha-beta %.1f ns -> %.1fx\n", p, p2, pm / 64, c, c / p, a, a / p
}' | tee "$work/inprocess.txt"

echo "== whole process: pawntb generate, K = columns =="
echo "| board | K | positions | time (s) | peak memory (MiB) | file (bytes) | ns per position |" | tee "$work/generate.md"
echo "|---|---:|---:|---:|---:|---:|---:|" | tee -a "$work/generate.md"
for rc in 3x3 3x4 4x3 4x4 4x5 5x4 5x5; do
  rows=${rc%x*}; cols=${rc#*x}
  /usr/bin/time -f "%e %M" -o "$work/time" "$pawntb" generate --rows "$rows" --cols "$cols" \
    -o "$work/$rc.pawntb" > "$work/gen.out"
  set -- $(cat "$work/time")
  entries=$(sed -n 's/^generated .*: \([0-9,]*\) positions.*/\1/p' "$work/gen.out" | tr -d ,)
  size=$(wc -c < "$work/$rc.pawntb")
  awk -v rc="$rc" -v k="$cols" -v n="$entries" -v s="$1" -v kb="$2" -v f="$size" "$commas"' BEGIN {
    printf "| %s | %d | %s | %.3f | %s | %s | %s |\n", rc, k, commas(n), s, commas(kb / 1024), commas(f), commas(s * 1e9 / n)
  }' | tee -a "$work/generate.md"
  if [ "$rc" = 5x5 ]; then
    gen55_seconds=$1; gen55_kib=$2
  else
    rm -f "$work/$rc.pawntb"
  fi
done

echo "== compactness: the default 4x4 table against one byte per position =="
set -- $("$bench/naive_size" "$src/data/4x4-k4.pawntb")
naive_raw=$1; naive_zstd=$2; table_bytes=$3
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
json_lines=$(wc -l < "$work/json.out")
awk -v n="$json_lines" -v t="$t_json" 'BEGIN { printf "pawntb probe --json -: %d positions in %.1f ms = %.2f million positions/s\n", n, t/1000, n/t }'

echo "== pawntb verify on the 5x5 table =="
/usr/bin/time -f "%e %M" -o "$work/time" "$pawntb" verify "$work/5x5.pawntb" > "$work/verify.out"
cat "$work/verify.out"
set -- $(cat "$work/time")
verify55_seconds=$1; verify55_kib=$2
echo "verify: $verify55_seconds s, peak $verify55_kib KiB"

echo "== web explorer API over loopback (serve_bench, medians of 5) =="
"$bench/serve_bench" --benchmark_format=csv --benchmark_min_time=1 --benchmark_repetitions=5 \
  --benchmark_enable_random_interleaving=true --benchmark_report_aggregates_only=true \
  2>/dev/null > "$work/serve.csv"
csv_rows "$work/serve.csv"
get1=$(field "$work/serve.csv" BM_ServeGet/real_time/threads:1_median 7)
get2=$(field "$work/serve.csv" BM_ServeGet/real_time/threads:2_median 7)
post=$(field "$work/serve.csv" BM_ServeBatch/real_time_median 7)
api=$(field "$work/serve.csv" BM_ApiBatch/real_time_median 7)
awk -v g1="$get1" -v g2="$get2" -v p="$post" -v a="$api" 'BEGIN {
  printf "GET /api/v1/position: %.0f positions/s with 1 client, %.0f with 2 (target >= 2000); POST of 10,000: %.0f positions/s (target >= 1,000,000), without HTTP %.0f\n", g1, g2, p, a }'

load_end=$(cut -d' ' -f1-3 /proc/loadavg)
[ "$write" = 1 ] || exit 0

# Where and how: the first lines of both blocks.
provenance="Measured $started on commit \`$commit\` by \`tools/bench/run.sh $build\`
(a Release build of that commit), on $cores cores ($cpu) with $memory of
memory, load average $load_start at the start and $load_end at the end: the
machine was shared with other jobs, so the times are those of a loaded machine
and runs vary by ±30 % or more. Ratios compare figures of the same run."

# The headline table of README.md.
{
  echo "$provenance"
  echo "[docs/performance.md](docs/performance.md) has every figure of the run."
  echo
  awk -v g2="$g2" -v g1="$g1" -v memo="$memo" -v probe1="$probe1" -v many="$many" \
    -v classic="$classic" -v cases="$cases" -v tb="$t_tb" -v c="$t_classic" \
    -v gs="$gen55_seconds" -v gk="$gen55_kib" -v vs="$verify55_seconds" -v vk="$verify55_kib" \
    -v get1="$get1" -v post="$post" -v file="$table_bytes" -v naive="$naive_zstd" "$commas"' BEGIN {
    print "| what | pawntb | baseline | ratio |"
    print "|---|---|---|---:|"
    printf "| generate 4×4, K = 4, in-process (`BM_Generate`: solve, compress, write) | %.1f ms (2 threads), %.1f ms (1 thread) | memoized minimax (`BM_MemoMinimax`): %.1f ms | %.1f× |\n", g2, g1, memo, memo / g2
    printf "| probe, random 4×4 positions (`BM_Probe`, 1 thread) | %.1f ns; %.1f ns a probe with `probe_many` | classic alpha-beta (`BM_ClassicAlphaBeta`): %.1f ns | %.1f× |\n", probe1, many / 64, classic, classic / probe1
    printf "| `pawntb uva`, all %s UVa-valid 4×4 cases, whole process | %.1f ms | classic alpha-beta (`uva_classic`): %.1f ms | %.1f× |\n", commas(cases), tb / 1000, c / 1000, c / tb
    printf "| `pawntb generate --rows 5 --cols 5`, whole process | %.1f s, peak %s MiB | | |\n", gs, commas(gk / 1024)
    printf "| `pawntb verify` of the 5×5 table, whole process | %.1f s, peak %s MiB | | |\n", vs, commas(vk / 1024)
    printf "| `pawntb serve` API over loopback (`serve_bench`) | GET `/api/v1/position`: %s positions/s (1 client); POST of 10,000: %s positions/s | targets: 2,000 and 1,000,000 positions/s | |\n", commas(get1), commas(post)
    printf "| 4×4 table file | %s bytes | zstd -19 of one byte per position: %s bytes | %.2f× smaller |\n", commas(file), commas(naive), naive / file
  }'
} > "$work/readme.md"

# Every figure, for docs/performance.md.
{
  echo "$provenance"
  echo
  echo "### In-process (Google Benchmark, medians of 5; the tiered generations one run each)"
  echo
  echo "| benchmark | real time | CPU time | items (positions) per second |"
  echo "|---|---:|---:|---:|"
  csv_rows "$work/bench.csv"
  echo
  sed 's/^/- /' "$work/inprocess.txt"
  echo
  echo "### Whole process: \`pawntb generate\`, K = columns, in memory"
  echo
  cat "$work/generate.md"
  echo
  echo "### Compactness: the default 4×4 table against one byte per position"
  echo
  awk -v raw="$naive_raw" -v naive="$naive_zstd" -v file="$table_bytes" "$commas"' BEGIN {
    printf "One byte per position, both sides to move (`naive_size`): %s bytes; compressed with zstd -19: %s bytes. The table file `data/4x4-k4.pawntb`: %s bytes, %.2f times smaller.\n", commas(raw), commas(naive), commas(file), naive / file }'
  echo
  echo "### Whole process: every UVa-valid 4×4 position"
  echo
  awk -v n="$cases" -v tb="$t_tb" -v c="$t_classic" -v a="$t_ab" -v z="$t_none" -v t="$t_true" \
    -v k="$t_cat" -v jn="$json_lines" -v j="$t_json" "$commas"' BEGIN {
    printf "| what | wall time |\n|---|---:|\n"
    printf "| `pawntb uva`, %s cases (median of 7 rounds taking turns, each the median of 3 runs) | %.1f ms |\n", commas(n), tb / 1000
    printf "| the same cases, classic alpha-beta (`uva_classic`, same output) | %.1f ms (%.1f×) |\n", c / 1000, c / tb
    printf "| the same cases, bitboard alpha-beta (`uva_alphabeta`, same output) | %.1f ms (%.1f×) |\n", a / 1000, a / tb
    printf "| `pawntb uva` on no cases (start-up and opening the table), median of 11 | %.1f ms |\n", z / 1000
    printf "| `/bin/true`, median of 11 | %.1f ms |\n", t / 1000
    printf "| `cat` of the %s cases, median of 11 | %.1f ms |\n", commas(n), k / 1000
    printf "| `pawntb probe --json -`, %s positions, median of 5 | %.1f ms (%.2f million positions/s) |\n", commas(jn), j / 1000, jn / j
  }'
  echo
  echo "### \`pawntb verify\` of the 5×5 table"
  echo
  awk -v s="$verify55_seconds" -v kb="$verify55_kib" "$commas"' BEGIN { printf "%.1f s wall, peak %s MiB.\n", s, commas(kb / 1024) }'
  echo
  echo "### The web explorer's API over loopback (\`serve_bench\`, medians of 5)"
  echo
  echo "| benchmark | real time | CPU time | positions per second |"
  echo "|---|---:|---:|---:|"
  csv_rows "$work/serve.csv"
} > "$work/performance.md"

# Replaces the lines between FILE's markers with the lines of BLOCK, atomically.
write_block() {
  awk -v begin="$begin_marker" -v end="$end_marker" -v block="$2" '
    $0 == begin { print; while ((getline line < block) > 0) print line; skip = 1; next }
    $0 == end { skip = 0 }
    !skip { print }' "$1" > "$1.run-sh.tmp"
  mv "$1.run-sh.tmp" "$1"
}
write_block "$readme" "$work/readme.md"
write_block "$performance" "$work/performance.md"
echo "run.sh: wrote README.md and docs/performance.md (commit $commit)" >&2
