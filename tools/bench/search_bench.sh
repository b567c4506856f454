#!/bin/sh
# The proof search against its plain baseline (docs/search.md): for each
# board, `pawntb solve` with all its knowledge, with each piece left out in
# turn, and `--baseline` (boolean DFS + TT, no knowledge, no tables), all in
# the same run, without tables, one thread unless THREADS says otherwise.
# Prints one line per run: board, setting, winner, nodes, wall seconds, CPU
# seconds (user + system: on a shared machine the wall time is mostly waiting),
# peak RSS.
#
#   tools/bench/search_bench.sh build/tools/pawntb 7x6 6x7 8x6
#
# Environment: MEMORY (the TT bound, default 1G), THREADS (default 1),
# LIMIT (seconds a run may take, default 3600; a run cut off prints "cut").
set -eu
pawntb=$1
shift
memory=${MEMORY:-1G}
threads=${THREADS:-1}
limit=${LIMIT:-3600}
printf '%-5s %-22s %-6s %14s %10s %10s %10s\n' board setting winner nodes wall_s cpu_s peak_MiB
for board in "$@"; do
  rows=${board%x*}
  cols=${board#*x}
  for setting in all without:lookahead without:ordering without:unstoppable without:threats \
      without:win-in-one baseline; do
    case $setting in
      all) extra= ;;
      baseline) extra=--baseline ;;
      without:*) extra="--without ${setting#without:}" ;;
    esac
    out=$(mktemp)
    # shellcheck disable=SC2086 # $extra is two words or none
    if /usr/bin/time -f '%U %S %M' -o "$out.rss" timeout "$limit" "$pawntb" solve --rows "$rows" \
        --cols "$cols" --no-tables --threads "$threads" --memory "$memory" --json $extra \
        >"$out" 2>/dev/null; then
      set -- $(tail -1 "$out.rss")
      printf '%-5s %-22s %-6s %14s %10.1f %10.1f %10d\n' "$board" "$setting" \
        "$(jq -r .winner "$out")" "$(jq -r .nodes "$out")" "$(jq -r .seconds "$out")" \
        "$(echo "$1 + $2" | bc)" "$(($3 / 1024))"
    else
      printf '%-5s %-22s cut after %s s\n' "$board" "$setting" "$limit"
    fi
    rm -f "$out" "$out.rss"
  done
done
