#!/bin/sh
# Generates a table and verifies it, back to back in one run on the same
# machine, and prints both times and rates: verify must not be slower than
# the generation it checks. Prints one markdown table row
# per board, with the date, the commit, the load average and the command,
# ready for docs/benchmarks.md.
#
#   tools/bench/verify_vs_generate.sh [--build DIR] [--threads N] [RxC ...]
#
# RxC   boards, K = columns (default: 5x5 6x5)
# Needs a Release build (BUILD_DIR: build) and /usr/bin/time. The tables are
# written to a temporary directory and removed. Exit status: 0 ok (whatever
# the times), 1 a step failed, 2 usage or a missing tool.
set -eu
build=build
threads=2
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    -*) sed -n '/^#   tools\/bench\/verify_vs_generate.sh/,/^# the times/p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] || set -- 5x5 6x5
src=$(cd "$(dirname "$0")/../.." && pwd)
pawntb="$build/tools/pawntb"
[ -x "$pawntb" ] || { echo "verify_vs_generate.sh: $pawntb is missing: build first" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "verify_vs_generate.sh: /usr/bin/time is missing" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

commit=$(git -C "$src" rev-parse --short=7 HEAD 2>/dev/null || echo unknown)
if [ -n "$(git -C "$src" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
  commit="$commit-dirty"
fi
echo "date $(date -u +%Y-%m-%dT%H:%MZ), commit $commit, $(nproc) cores, --threads $threads"
echo "| board | positions | generate (s) | generate (M/s) | peak MiB | verify (s) | verify (M/s) | peak MiB | verify / generate | load before, after |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"
for board in "$@"; do
  rows=${board%x*}
  cols=${board#*x}
  table="$work/$board.pawntb"
  load_before=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -f "%e %M" -o "$work/gen.time" "$pawntb" generate --rows "$rows" --cols "$cols" \
    --threads "$threads" --output "$table" > "$work/gen.out" 2>&1 ||
    { cat "$work/gen.out" >&2; exit 1; }
  /usr/bin/time -f "%e %M" -o "$work/verify.time" "$pawntb" verify --threads "$threads" \
    "$table" > "$work/verify.out" 2>&1 || { cat "$work/verify.out" >&2; exit 1; }
  load_after=$(cut -d' ' -f1 /proc/loadavg)
  positions=$(sed -n 's/.*ok, \([0-9,]*\) positions agree.*/\1/p' "$work/verify.out" | tr -d ,)
  [ -n "$positions" ] || { cat "$work/verify.out" >&2; exit 1; }
  read -r gen_s gen_kib < "$work/gen.time"
  read -r ver_s ver_kib < "$work/verify.time"
  awk -v b="$board" -v n="$positions" -v gs="$gen_s" -v gk="$gen_kib" -v vs="$ver_s" \
    -v vk="$ver_kib" -v l0="$load_before" -v l1="$load_after" 'BEGIN {
    printf "| %s | %d | %.1f | %.1f | %d | %.1f | %.1f | %d | %.2f | %s, %s |\n",
      b, n, gs, n / gs / 1e6, gk / 1024, vs, n / vs / 1e6, vk / 1024, vs / gs, l0, l1
  }'
done
echo "command: tools/bench/verify_vs_generate.sh --build $build --threads $threads $*"
