#!/bin/bash
# Solves the boards of docs/results.md and measures everything that page says:
# generation time and memory, verify, the independent spot check, the value of
# the start and its line, the longest win, the share won by the side to move,
# the zugzwangs, the file's size and checksum. Writes, per board RxC with K = C,
#   data/answers/RxC-kK.json   the measured figures (one JSON object)
#   data/answers/RxC-kK.tsv    the answers file (docs/results.md says its format)
#   data/tiers/RxC-kK.tsv      each tier's checksum (`pawntb info --tiers`)
#   data/stats/RxC-kK.json     `pawntb stats --json` of the table, whole
# and then, from every data/answers/RxC-kK.json there is (and
# data/answers/projections.json, see --project), docs/results.md
# (tools/results-page.jq) and its plot, docs/img/results-start-plies.svg
# (tools/results-plot.jq).
#
#   tools/results.sh [--build DIR] [--boards "3x3 4x4 ..."] [--tables DIR] [--work DIR]
#                    [--samples N] [--seed N] [--threads N] [--memory SIZE]
#                    [--no-stats "4x7 ..."] [--large "6x6 ..."] [--refresh] [--project]
#                    [--render-only] [--running BOARD --resume "COMMAND" [--lost "TEXT"]]
#
# --build    the build directory holding tools/pawntb and tests/pawntb_spot_check (build)
# --boards   the boards to measure, in this order (default: 3x3 to 8x4 and 6x5,
#            each a few minutes at most, and 5x6, about an hour with verify)
# --tables   a directory of existing tables: RxC-kK.pawntb is used as it is, not
#            generated again, and RxC.err there, if it is the
#            `/usr/bin/time -v pawntb generate` log, gives the generation's figures
#            (a log that the parts of a resumed run appended to: their sum),
#            RxC.out, its output, the work directory's peak size (its line
#            "work directory: N bytes"; from a pawntb older than that line,
#            RxC-disk.log, lines "TIME BYTES ..." of `du -sb WORKDIR` taken
#            while it ran, gives the largest BYTES instead), and RxC.verify.err and RxC.verify.out, the `/usr/bin/time -v pawntb
#            verify` log and output, the verify's (it is not run again), and
#            RxC.verify.json, its --resume file if it ran over several runs, the
#            wall time of all of them; and RxC.stats.json, the output of
#            `pawntb stats --json` of that table, its statistics (stats is not
#            run again; the file is kept as data/stats/RxC-kK.json)
# --work     where generated tables and logs go (BUILD/results)
# --memory   passed to `pawntb generate`, `pawntb verify` and `pawntb stats`
#            (their default: 3/4 of the memory available); a table larger than
#            it is solved unit by unit, in a work directory next to the table
# --no-stats boards on which `pawntb stats` is not run here, for time (on the
#            largest boards it takes hours: run it by hand and give its output,
#            see --tables), nor info's check of every block
# --large    the same, and `pawntb verify` is not run either (run it with
#            --resume, and give its log, see --tables)
# --refresh  for each board, only refresh what its JSON record takes from files,
#            running no check again: the table's header figures (entries, win
#            count, size), from the table in --tables, which must be the
#            recorded file (same XXH3-64), and the generation's and verify's
#            figures from their logs there, when they are whole, and the
#            statistics from RxC.stats.json there (see --tables), which is
#            kept as data/stats/RxC-kK.json; the spot check, start and answers
#            are kept
# --project  only write data/answers/projections.json, what
#            `tools/bench/project_tiers` (in --build) projects for the boards
#            not solved ($unsolved below) at the rate of the 6x6 run (its
#            record's positions over its wall time), with its work directory's
#            bytes per position; then the page
# --render-only  only write docs/results.md from the existing JSON files
#            (data/answers/*.json, data/stats/*.json)
# --running  only record that board BOARD's generation is still running (or
#            stopped, to be resumed): its last progress line in --tables'
#            BOARD.err (`pawntb generate`'s stderr), the estimate of
#            BOARD.plan.json there if any (`pawntb generate --plan --json`), or that it has ended when
#            BOARD.out there has its "generated" line, then whether
#            BOARD.stats.json is there and how far the verify's --resume file
#            BOARD.verify.json has come, and the time of the file read last
#            go to data/answers/RxC-kK.progress.json with --resume's COMMAND,
#            and the page shows them until the board is measured (which
#            removes that file); then the page. A run queued behind another
#            (tools/run-board.sh --after: BOARD's directory has no log yet
#            but an `after` file) is recorded as waiting for that board.
# --lost     with --running: what earlier runs of BOARD did that was lost
#            (their directory gone), kept in the record and on the page until
#            the board is measured; given once, kept by later --running calls
# Each board's statistics document, `pawntb stats --json` as it wrote it, is
# kept whole in data/stats/RxC-kK.json (the record keeps a summary); the
# page folds its per-distance and per-material tables into the board's section.
# Needs bash, jq and GNU time (/usr/bin/time). Exit status: 0 ok, 1 a step
# failed (a failed verify or spot check is recorded and also fails the run), 2 usage.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
build="$root/build"
boards="3x3 3x4 3x5 3x6 3x7 3x8 4x3 4x4 4x5 4x6 5x3 5x4 5x5 6x3 6x4 6x5 7x3 7x4 8x3 8x4 5x6"
tables=""
work=""
samples=2000
seed=1
threads=2
memory=""
no_stats=""
large=""
render_only=0
running=""
resume=""
lost=""
refresh_only=0
project_only=0
# The page's boards, by rows then columns: every R x C with 3 <= R, C <= 8 that
# one 2-core, 24 GiB machine can solve with K = C (docs/results.md).
order="3x3 3x4 3x5 3x6 3x7 3x8 4x3 4x4 4x5 4x6 4x7 4x8 5x3 5x4 5x5 5x6 5x7
       6x3 6x4 6x5 6x6 7x3 7x4 7x5 7x6 8x3 8x4 8x5"
# The boards --project projects: those of $order not solved yet, and the
# larger ones, beyond one machine.
unsolved="4x8 5x7 7x6 6x7 5x8 8x6 7x7 6x8 8x7 7x8 8x8"

usage() {
  sed -n '/^#   tools\/results.sh/,/^# Needs bash/p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build="$(cd "$2" && pwd)"; shift 2 ;;
    --boards) boards="$2"; shift 2 ;;
    --tables) tables="$(cd "$2" && pwd)"; shift 2 ;;
    --work) work="$2"; shift 2 ;;
    --samples) samples="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    --memory) memory="$2"; shift 2 ;;
    --no-stats) no_stats="$2"; shift 2 ;;
    --large) large="$2"; shift 2 ;;
    --render-only) render_only=1; shift ;;
    --running) running="$2"; shift 2 ;;
    --resume) resume="$2"; shift 2 ;;
    --lost) lost="$2"; shift 2 ;;
    --refresh) refresh_only=1; shift ;;
    --project) project_only=1; shift ;;
    -h | --help) usage ;;
    *) echo "results.sh: unknown argument '$1'" >&2; usage ;;
  esac
done
work="${work:-$build/results}"
pawntb="$build/tools/pawntb"
spot_check="$build/tests/pawntb_spot_check"
answers="$root/data/answers"
stats_dir="$root/data/stats"
mkdir -p "$work" "$answers" "$stats_dir"
failed=0
# The source a run starts from (what it writes later makes the tree dirty).
commit="$(git -C "$root" describe --always --dirty 2>/dev/null || echo unknown)"

listed() { case " $2 " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

# The figures of a `/usr/bin/time -v` log as a JSON object. A log that a
# resumed run appended to holds one report a part: the times add up, the
# peak is the largest part's, the status is the last part's ("parts" > 1).
time_figures() {
  awk -F': ' '
    /Command being timed/ { cmd = substr($0, index($0, ": ") + 2); gsub(/"/, "", cmd); ++parts }
    /User time/ { cpu += $2 } /System time/ { cpu += $2 }
    /Elapsed \(wall clock\)/ {
      n = split($NF, t, ":"); part = 0
      for (i = 1; i <= n; ++i) part = part * 60 + t[i]
      wall += part
    }
    /Maximum resident set size/ { if ($2 + 0 > rss) rss = $2 + 0 }
    /Exit status/ { status = $2 }
    END {
      printf "{\"command\":\"%s\",\"wall_s\":%.2f,\"cpu_s\":%.2f,\"peak_rss_mib\":%.1f,\"exit_status\":%d%s}\n",
             cmd, wall, cpu, rss / 1024, status, (parts > 1 ? ",\"parts\":" parts : "")
    }' "$1"
}

# `pawntb info --json`'s line, printed before it checks every block, and then
# stops it: that check holds the whole table.
info_header() {
  local line
  coproc info_process { exec "$pawntb" info --json "$1"; }
  IFS= read -r line <&"${info_process[0]}"
  kill "$info_process_PID" 2>/dev/null || true
  wait "$info_process_PID" 2>/dev/null || true
  printf '%s\n' "$line"
}

# The generation's figures as a JSON object (null without a whole
# `/usr/bin/time -v` log $1), with the work directory's peak size: the
# generator's line in its output $2, else the largest `du -sb` of the disk log
# $3; null for a table solved in memory (its log has no work directory), and
# left out when unknown. $4: the load average (JSON).
generation_figures() {
  local log="$1" out="$2" disk_log="$3" load="$4" work_dir_bytes=""
  if [ -f "$out" ] && grep -q '^work directory: [0-9,]* bytes' "$out"; then
    work_dir_bytes="$(sed -n 's/^work directory: \([0-9,]*\) bytes.*/\1/p' "$out" | tr -d , | tail -n 1)"
  elif [ -f "$log" ] && ! grep -q "work directory" "$log"; then
    work_dir_bytes=null
  elif [ -n "$disk_log" ] && [ -f "$disk_log" ]; then
    work_dir_bytes="$(awk '$2 ~ /^[0-9]+$/ && $2 > peak { peak = $2 }
                           END { if (peak != "") printf "%.0f\n", peak }' "$disk_log")"
  fi
  # A log whose first part resumed a work directory misses the parts before
  # it (their log was not kept): the record says what that part found done.
  local resumed=""
  [ -f "$log" ] && resumed="$(tr '\r' '\n' <"$log" | awk '
    /Command being timed/ { first_part_over = 1 }
    !first_part_over && !found && sub(/^pawntb generate: resuming: /, "") { print; found = 1 }')"
  if [ -f "$log" ] && grep -q "Command being timed" "$log"; then
    time_figures "$log" | jq -c --argjson load "$load" --arg disk "$work_dir_bytes" --arg resumed "$resumed" \
      '. + {load_average: $load}
       + (if $disk == "" then {} else {work_dir_peak_bytes: ($disk | fromjson)} end)
       + (if $resumed == "" then {} else {resumed_from: $resumed} end)'
  else
    echo null
  fi
}

# The verify's figures as a JSON object, from its `/usr/bin/time -v` log $1.err
# and output $1.out; with its --resume file $2, if there, the wall time of
# all the runs it took.
verify_figures() {
  local status verify
  status="$(sed -n 's/^[[:space:]]*Exit status: //p' "$1.err")"
  verify="$(time_figures "$1.err" | jq -c --argjson ok "$([ "$status" = 0 ] && echo true || echo false)" \
    --arg summary "$(tail -n 1 "$1.out")" '{ok: $ok, summary: $summary, wall_s, cpu_s, peak_rss_mib}')"
  if [ -f "$2" ]; then
    # Over several runs: the state file has the wall time of them all; the
    # time log only the last run's CPU time, so that is left out.
    verify="$(jq -c --slurpfile state "$2" \
      '. + {wall_s: ($state[0].wall_seconds | round), resumed: true} | del(.cpu_s)' <<<"$verify")"
  fi
  printf '%s\n' "$verify"
}

# The page's statistics (a JSON object) from `pawntb stats --json` on stdin.
stats_figures() {
  jq -c '
    ([.distances[] | select(.wins > 0)] | last) as $longest
    | {positions, side_to_move_wins, zugzwangs,
       longest_win: {plies: $longest.plies, positions: $longest.wins,
                     example: ([.materials[].longest_win | select(. != null and .plies == $longest.plies)
                                | .example] | first)}}'
}

# Keeps the `pawntb stats --json` document $1 as data/stats/$2.json, byte for
# byte, written atomically; a file that is not one JSON object stops the run.
keep_stats() {
  jq -e 'type == "object"' "$1" >/dev/null || { echo "results: $1 is not a stats document" >&2; exit 1; }
  cp "$1" "$stats_dir/$2.json.tmp"
  mv "$stats_dir/$2.json.tmp" "$stats_dir/$2.json"
}

# Fails the run if the statistics $1 disagree with the header's figures $2:
# every entry's colour flip has its value, so stats' counts are twice the header's.
check_stats() {
  if [ "$1" != null ] &&
    ! jq -e --argjson info "$2" '.positions == 2 * $info.entries and
        .side_to_move_wins == 2 * $info.white_wins' <<<"$1" >/dev/null; then
    echo "results: $3: stats and the header's win count disagree" >&2
    failed=1
  fi
}

measure() {
  local board="$1" rows="${1%x*}" cols="${1#*x}"
  local name="$board-k$cols" table log out disk_log="" load generation verify spot stats
  if [ -n "$tables" ] && [ -f "$tables/$name.pawntb" ]; then
    table="$tables/$name.pawntb"
    log="$tables/$board.err"
    out="$tables/$board.out"
    disk_log="$tables/$board-disk.log"
    load=null
    echo "results: $board: existing table $table" >&2
  else
    table="$work/$name.pawntb"
    log="$work/$board.err"
    out="$work/$board.out"
    load="\"$(cut -d' ' -f1-3 /proc/loadavg)\""
    echo "results: $board: generating $table" >&2
    /usr/bin/time -v "$pawntb" generate --rows "$rows" --cols "$cols" --threads "$threads" \
      ${memory:+--memory "$memory"} --force --output "$table" >"$out" 2>"$log"
  fi
  generation="$(generation_figures "$log" "$out" "$disk_log" "$load")"

  verify=null
  local verify_log="$work/$board.verify"
  if [ -n "$tables" ] && [ -f "$tables/$board.verify.err" ] && [ -f "$tables/$board.verify.out" ] &&
    grep -q "Command being timed.*verify" "$tables/$board.verify.err"; then
    # An earlier `/usr/bin/time -v pawntb verify` of this table, as for the generation.
    verify_log="$tables/$board.verify"
    echo "results: $board: existing verify log $verify_log.err" >&2
  elif ! listed "$board" "$large"; then
    echo "results: $board: verify" >&2
    /usr/bin/time -v "$pawntb" verify --threads "$threads" ${memory:+--memory "$memory"} "$table" \
      >"$verify_log.out" 2>"$verify_log.err" || true
  fi
  if [ -f "$verify_log.err" ]; then
    verify="$(verify_figures "$verify_log" "$tables/$board.verify.json")"
    jq -e '.ok' <<<"$verify" >/dev/null || { echo "results: $board: verify FAILED" >&2; failed=1; }
  fi

  echo "results: $board: spot check" >&2
  local spot_out status=0
  spot_out="$("$spot_check" "$table" "$samples" "$seed")" || status=$?
  spot="$(printf '%s\n' "$spot_out" | tail -n 1 | sed -E \
    's/.*: ([0-9]+) samples \(seed ([0-9]+)\), ([0-9]+) agreed, ([0-9]+) disagreed, ([0-9]+) skipped \(over ([0-9]+) nodes\); longest checked value ([0-9]+) plies.*/{"samples":\1,"seed":\2,"agreed":\3,"disagreed":\4,"skipped":\5,"node_budget":\6,"longest_checked":\7}/')"
  jq -e . <<<"$spot" >/dev/null || { echo "results: $board: spot check said: $spot_out" >&2; exit 1; }
  [ $status -eq 0 ] || { printf '%s\n' "$spot_out" >&2; failed=1; }

  echo "results: $board: tier checksums" >&2
  mkdir -p "$root/data/tiers"
  "$pawntb" info --tiers --threads "$threads" "$table" >"$root/data/tiers/$name.tsv"

  stats=null
  if [ -n "$tables" ] && [ -f "$tables/$board.stats.json" ]; then
    echo "results: $board: existing stats $tables/$board.stats.json" >&2
    keep_stats "$tables/$board.stats.json" "$name"
    stats="$(stats_figures <"$stats_dir/$name.json")"
  elif ! listed "$board" "$large $no_stats"; then
    echo "results: $board: stats" >&2
    "$pawntb" stats --json --threads "$threads" ${memory:+--memory "$memory"} "$table" \
      >"$work/$board.stats.json"
    keep_stats "$work/$board.stats.json" "$name"
    stats="$(stats_figures <"$stats_dir/$name.json")"
  fi

  echo "results: $board: start, answers" >&2
  local info start
  if listed "$board" "$large $no_stats"; then info="$(info_header "$table")"; else info="$("$pawntb" info --json "$table")"; fi
  info="$(jq -c '{entries, placements, white_wins, file_size, file_checksum, longest_game_plies,
                  longest_game_example}' <<<"$info")"
  check_stats "$stats" "$info" "$board"
  start="$("$pawntb" probe --json --table "$table" --start)"
  # The longest win from stats, else the header's longest game (a win or a loss).
  local longest_example longest_kind="longest win"
  [ "$stats" != null ] || longest_kind="longest game"
  longest_example="$(jq -r --argjson info "$info" 'if . == null then $info.longest_game_example
                      else .longest_win.example end' <<<"$stats")"
  # The answers file: the start, the position after each first move, the longest-win example.
  {
    printf '# pawntb answers for %s, K = %s (docs/results.md): position, what, winner, plies, best move\n' \
      "$board" "$cols"
    {
      jq -r '.position' <<<"$start"
      jq -r '.moves[].position' <<<"$start"
      printf '%s\n' "$longest_example"
    } | "$pawntb" probe --json --table "$table" - | jq -r --argjson start "$start" --arg longest "$longest_kind" '
      (.input_line - 1) as $i
      | (if $i == 0 then "start"
         elif $i <= ($start.moves | length) then "after " + $start.moves[$i - 1].uci
         else $longest end) as $what
      | [.position, $what, .winner, (.plies | tostring), (.best // "-")] | join("\t")'
  } >"$answers/$name.tsv"

  jq -n --arg board "$board" --argjson rows "$rows" --argjson cols "$cols" \
    --argjson generation "$generation" --argjson verify "$verify" --argjson spot "$spot" \
    --argjson stats "$stats" --argjson info "$info" --argjson start "$start" \
    --arg measured "$(date -u +%Y-%m-%dT%H:%MZ)" --arg version "$version" \
    --argjson large "$(listed "$board" "$large $no_stats" && echo true || echo false)" \
    --arg table "$(basename "$table")" --arg generated "$([ "$load" = null ] && echo existing || echo this run)" \
    '{board: $board, rows: $rows, cols: $cols, max_pawns: $cols, table: $table,
      large: $large, measured: $measured, version: $version, generated: $generated, generation: $generation, verify: $verify, spot_check: $spot,
      start: {position: $start.position, winner: $start.winner, plies: $start.plies, line: $start.line},
      stats: $stats, info: $info}' >"$answers/$name.json"
  rm -f "$answers/$name.progress.json"
}

# Records how far board $1's generation has come (--running).
record_progress() {
  local board="$1" cols="${1#*x}" log line
  case "$board" in [3-8]x[3-8]) ;; *) echo "results: bad board '$board'" >&2; exit 2 ;; esac
  log="$tables/$board.err"
  [ -n "$resume" ] || { echo "results: --running needs --resume COMMAND" >&2; exit 2; }
  local progress_file="$answers/$board-k$cols.progress.json"
  # What was lost is kept from the record unless given again.
  [ -n "$lost" ] || [ ! -f "$progress_file" ] || lost="$(jq -r '.lost // ""' "$progress_file")"
  # The progress lines end in \r or \n: the last one whole.
  line="$( (tr '\r' '\n' <"$log") 2>/dev/null | grep '^pawntb generate: solve ' | tail -n 1 |
    sed 's/^pawntb generate: //; s/, [0-9,]* positions\/s.*//')" || true
  local as_of_file="$log"
  if [ -z "$line" ] && [ ! -s "$log" ] && [ -s "$tables/after" ]; then
    line="queued: starts when $(basename "$(cat "$tables/after")") is done"
    as_of_file="$tables/run.log"
  fi
  [ -n "$line" ] || { echo "results: $board: no progress line in $log" >&2; exit 1; }
  # A generation that has ended (its "generated" line in BOARD.out) still
  # waits for verify and stats, which this page's line needs.
  local generated
  generated="$(sed -n 's/^generated [^:]*: \([0-9,]*\) positions.*/\1/p' "$tables/$board.out" 2>/dev/null)" || true
  if [ -n "$generated" ]; then
    local stats_done="stats not run yet" verify_done="verify not run yet"
    [ ! -s "$tables/$board.stats.json" ] || stats_done="stats done"
    # A verify under way (or stopped): its --resume file says how far it is.
    if [ -s "$tables/$board.verify.json" ]; then
      verify_done="$(jq -r '"verify \(.entries_done * 100 / .entries | floor) % (\(.entries_done) of \(.entries) positions checked, \(.mismatches) mismatches)"' \
        "$tables/$board.verify.json" | sed -E ':a; s/([0-9])([0-9]{3})([^0-9]|$)/\1,\2\3/; ta')" ||
        { echo "results: $board: cannot read $tables/$board.verify.json" >&2; exit 1; }
      as_of_file="$tables/$board.verify.json"
    fi
    line="generated ($generated positions); $stats_done; $verify_done"
  fi
  local as_of
  as_of="$(date -u -r "$as_of_file" +%Y-%m-%dT%H:%MZ)"
  # The run's own plan, when it kept one (BOARD.plan.json, `pawntb generate
  # --plan --json`, with --sample a rate measured on the board): its
  # estimate of the whole run on one machine, and the rate's source.
  local estimate=null
  if [ -s "$tables/$board.plan.json" ]; then
    estimate="$(jq -c '{seconds: .estimated_seconds, rate_source: .rate_source}' "$tables/$board.plan.json")" ||
      { echo "results: $board: cannot read $tables/$board.plan.json" >&2; exit 1; }
  fi
  jq -n --arg board "$board" --arg progress "$line" --arg resume "$resume" --arg as_of "$as_of" \
    --argjson estimate "$estimate" --arg lost "$lost" \
    '{board: $board, progress: $progress, as_of: $as_of, resume: $resume}
     + if $estimate != null then {estimate: $estimate} else {} end
     + if $lost != "" then {lost: $lost} else {} end' \
    >"$progress_file"
  echo "results: $board: $line (as of $as_of, $as_of_file)" >&2
}

# Refreshes what board $1's record takes from files in --tables.
refresh() {
  local board="$1" cols="${1#*x}" name record table info generation verify=null stats=null
  case "$board" in [3-8]x[3-8]) ;; *) echo "results: bad board '$board'" >&2; exit 2 ;; esac
  name="$board-k$cols"
  record="$answers/$name.json"
  table="$tables/$name.pawntb"
  [ -f "$record" ] && [ -f "$table" ] || {
    echo "results: $board: --refresh needs $record and $table (--tables)" >&2
    exit 2
  }
  info="$(info_header "$table")"
  [ -n "$info" ] || { echo "results: $board: pawntb info cannot read $table" >&2; exit 1; }
  info="$(jq -c '{entries, placements, white_wins, file_size, file_checksum,
                  longest_game_plies, longest_game_example}' <<<"$info")"
  if ! jq -e --argjson info "$info" '.info.file_checksum == $info.file_checksum' "$record" >/dev/null; then
    echo "results: $board: $table is not the recorded table (XXH3-64 differs)" >&2
    exit 1
  fi
  # The load average is not in the logs: the record's is kept.
  generation="$(generation_figures "$tables/$board.err" "$tables/$board.out" "$tables/$board-disk.log" \
    "$(jq -c '.generation.load_average // null' "$record")")"
  if [ -f "$tables/$board.verify.err" ] && [ -f "$tables/$board.verify.out" ] &&
    grep -q "Command being timed.*verify" "$tables/$board.verify.err"; then
    verify="$(verify_figures "$tables/$board.verify" "$tables/$board.verify.json")"
    jq -e '.ok' <<<"$verify" >/dev/null || { echo "results: $board: verify FAILED" >&2; failed=1; }
  fi
  if [ -f "$tables/$board.stats.json" ]; then
    keep_stats "$tables/$board.stats.json" "$name"
    stats="$(stats_figures <"$stats_dir/$name.json")"
    check_stats "$stats" "$info" "$board"
  fi
  # A figure whose log is not there is kept as it was.
  jq --argjson info "$info" --argjson generation "$generation" --argjson verify "$verify" \
    --argjson stats "$stats" \
    '.info = $info
     | if $generation != null then .generation = $generation else . end
     | if $verify != null then .verify = $verify else . end
     | if $stats != null then .stats = $stats else . end' "$record" >"$record.tmp"
  mv "$record.tmp" "$record"
  echo "results: $board: refreshed $record" >&2
}

# data/answers/projections.json: project_tiers for each board of $unsolved.
project() {
  local projector="$build/tools/bench/project_tiers" from="$answers/6x6-k6.json" rate bytes board
  [ -x "$projector" ] || {
    echo "results: build $projector first (cmake --build $build --target project_tiers)" >&2
    exit 2
  }
  [ -f "$from" ] || { echo "results: --project needs $from (the rate)" >&2; exit 2; }
  rate="$(jq '.info.entries / .generation.wall_s | round' "$from")"
  bytes="$(jq '.generation.work_dir_peak_bytes / .info.entries * 10000 | round / 10000' "$from")"
  for board in $unsolved; do
    local rows="${board%x*}" cols="${board#*x}" out status=0
    out="$("$projector" "$rows" "$cols" "$cols" "$rate" "$bytes" 1 2>&1)" || status=$?
    # "4x8 K=8: 2.572e+11 positions in 6408 tiers, 15852 units; the largest
    # unit 9.834e+08 entries; the most a unit holds with what it reads
    # 4.187e+09 entries (3.90 GiB at a byte each)", "work directory: about
    # 4.3 GiB", "one machine: 2.9 h; ...", or "... too large to index".
    jq -n -c --arg board "$board" --arg out "$out" --argjson status "$status" '
      ($out | capture("K=[0-9]+: (?<positions>[0-9.e+]+) positions in (?<tiers>[0-9]+) tiers, (?<units>[0-9]+) units; .*the most a unit holds with what it reads (?<reads>[0-9.e+]+) entries \\((?<reads_gib>[0-9.]+) GiB") // null) as $sizes
      | {board: $board}
        + if $status == 0 and $sizes != null then
            {positions: ($sizes.positions | tonumber), tiers: ($sizes.tiers | tonumber),
             units: ($sizes.units | tonumber), unit_with_reads: ($sizes.reads | tonumber),
             unit_with_reads_gib: ($sizes.reads_gib | tonumber),
             work_dir_gib: ($out | capture("work directory: about (?<g>[0-9.]+) GiB").g | tonumber),
             one_machine: ($out | capture("one machine: (?<t>[^;]+);").t)}
          elif ($out | test("cannot be indexed|too large to index")) then {indexable: false}
          else error("project_tiers \($board): \($out)") end'
  done | jq -s --argjson rate "$rate" --argjson bytes "$bytes" \
    --arg command "tools/bench/project_tiers ROWS COLS K $rate $bytes 1" \
    '{rate: $rate, work_bytes_per_position: $bytes, from: "6x6-k6.json", command: $command,
      boards: .}' >"$answers/projections.json.tmp"
  mv "$answers/projections.json.tmp" "$answers/projections.json"
  echo "results: wrote $answers/projections.json" >&2
}

if [ $project_only -eq 1 ]; then
  project
elif [ -n "$running" ]; then
  [ -n "$tables" ] || { echo "results: --running needs --tables" >&2; exit 2; }
  record_progress "$running"
elif [ $refresh_only -eq 1 ]; then
  [ -n "$tables" ] || { echo "results: --refresh needs --tables" >&2; exit 2; }
  [ -x "$pawntb" ] || { echo "results: build $pawntb first" >&2; exit 2; }
  for board in $boards; do refresh "$board"; done
elif [ $render_only -eq 0 ]; then
  [ -x "$pawntb" ] && [ -x "$spot_check" ] || {
    echo "results: build $pawntb and $spot_check first (cmake --build $build --target pawntb pawntb_spot_check)" >&2
    exit 2
  }
  version="$("$pawntb" --version), commit $commit"
  for board in $boards; do
    case "$board" in [3-8]x[3-8]) ;; *) echo "results: bad board '$board'" >&2; exit 2 ;; esac
    measure "$board"
  done
fi

# The page's first paragraph, and how its figures are measured.
opening_text() {
  cat <<'OPENING'
Each board R×C is solved with K = C pawns a side (every pawn of the start
position), every position with up to K pawns a side. **Everything below is
measured by `tools/results.sh`**, which writes this page, its plot and its
sentences; nothing is typed by hand. Values count plies (half-moves) to the
end when the winner hurries and the loser holds out.
OPENING
}
intro_text() {
  cat <<'INTRO'
## How it is measured

To check it yourself:

```sh
cmake -S . -B build && cmake --build build -j2 --target pawntb pawntb_spot_check
tools/results.sh                   # 3x3 to 8x4 and 6x5, each in minutes at most, and 5x6 (about an hour)
tools/results.sh --boards "4x7 7x5 8x5" --memory 6G   # a few hours
tools/results.sh --boards "6x6" --tables DIR --large 6x6   # DIR/6x6-k6.pawntb exists
```

With `--tables DIR`, the logs of runs made by hand are read from DIR when
they are there: `6x6.err` and `6x6.out` (`/usr/bin/time -v pawntb generate`),
`6x6-disk.log` (`du -sb` of the work directory, for a pawntb too old to print
its peak), `6x6.verify.{err,out,json}` (`/usr/bin/time -v pawntb verify
--resume 6x6.verify.json`) and `6x6.stats.json` (`pawntb stats --json
--memory SIZE`); `tools/results.sh --help` says more.

For each board the script runs `/usr/bin/time -v pawntb generate` (wall, CPU,
peak RSS), `pawntb verify` (re-derives every value from its successors),
`pawntb_spot_check` (random positions with at most 3 pawns a side, or with
every pawn in the three rows nearest its goal, solved by an independent plain
search, `tests/oracle/spot_check.hpp`, that shares no code with the generator
or the index, and compared with the table), `pawntb probe --start --json`
(the value of the start and the principal variation), `pawntb stats --json`
(the longest win, the share won by the side to move, the zugzwangs) and
`pawntb info --json` (entries, the header's win count and longest value, file
size and the XXH3-64 of the whole file). Where stats has not been run yet
(on the largest boards it takes hours), the share comes from the header's count of
white-to-move wins, which `pawntb verify` recounts: every position's colour
flip has its value, so the share is the same. A table solved tier by tier
also has its work directory's peak size (the generator's last line, `work
directory: N bytes`). Times are those of a 2-core, 24 GiB machine with other
jobs beside it: each board gives the load average when its generation
started, where it was recorded, and the date and commit of its measurement.
A table marked *existing* was made by an earlier run of the command shown,
and its figures are read from that run's `/usr/bin/time -v` log.

"Positions" is the number of indexed white-to-move entries; the side-to-move
share, the longest win and the zugzwangs count both sides to move
(`docs/stats.md`).

## Answers files

`data/answers/RxC-kK.tsv` holds, for each board, answers anyone can check
with another program: one line per position, tab-separated, after `#` comment
lines:

| column | meaning |
|---|---|
| position | the position in pawntb notation (rows from the top, `/` between rows, digits for empty squares, `w` or `b` to move) |
| what | `start`, `after MOVE` (the start after that first move), `longest win` (an example of the longest win, from `pawntb stats`) or, for a board where stats was not run, `longest game` (the table header's example of its longest value, a win or a loss) |
| winner | `white` or `black`, with best play |
| plies | plies to the end with best play (0: the side to move has already lost) |
| best | a best move in UCI style (`a1a2`; files from a, ranks from white's home row 1), `-` when there is none |

The CTest `Answers.MatchTheTable` re-derives every answers file whose table
is at hand (`data/`, `$PAWNTB_TABLE_DIR`, the test build's tables) and fails
on any difference; the others are skipped. `Answers.AgreeWithThemselvesWithoutTheTable`
checks every file, the 6×6 one too, with no table: the start line is the
board's start, each first move has its line, the start's value and best move
follow from theirs by the rules, and every value has its winner's parity.
`data/answers/RxC-kK.json` holds the measured figures this page is written
from. The tables under 1 MB are in `data/` (their XXH3-64 in
`data/checksums.txt`); the others are made by `pawntb generate`, and the
XXH3-64 below tells whether a table made again is the same file.

## Statistics files

`data/stats/RxC-kK.json` is, for each board where `pawntb stats` ran, its
whole `pawntb stats --json` document ([docs/stats.md](stats.md) says its
keys): the positions the side to move wins and loses at each distance to the
end, and for each material (white pawns, black pawns) its positions, the
share the side to move wins, its zugzwangs with examples and its longest win.
Each board's section below folds these two tables; the record
(`data/answers/RxC-kK.json`) keeps only their summary. The CTest
`StatsFiles.AgreeWithThemselvesAndTheirRecord` checks every file with no
table: the distances' and the materials' counts add up to the positions, the
wins and the zugzwangs, the longest win is the last distance with a win, the
record's summary is the document's, and every record with statistics has its
document.

## Tier checksums

`data/tiers/RxC-kK.tsv` is `pawntb info --tiers` of each table: one line per
tier (the positions with the same pawn counts and advancement sums, in index
order, [FORMAT.md](../format/FORMAT.md) section 6.3) with its first entry, its
size and the XXH3-64 of its values as decoded. Someone who makes a table
again, on one machine or on a cluster, can compare it tier by tier (`diff`),
and a tier file of a generator's work directory carries the same checksum
(`values_checksum`) before the table is assembled. The CTest `Tiers.*`
checks every file whose table is at hand.

## The boards
INTRO
}

# docs/results.md and its plot from every JSON record, in the order of $order.
records=()
for board in $order; do
  f="$answers/$board-k${board#*x}.json"
  [ -f "$f" ] && records+=("$f")
done
[ ${#records[@]} -gt 0 ] || { echo "results: no records in $answers" >&2; exit 1; }
plot="img/results-start-plies.svg"
mkdir -p "$root/docs/img"
jq -s -r -f "$root/tools/results-plot.jq" "${records[@]}" >"$root/docs/$plot.tmp"
mv "$root/docs/$plot.tmp" "$root/docs/$plot"
projections=null
[ -f "$answers/projections.json" ] && projections="$(cat "$answers/projections.json")"
# (None running is an empty list: no file matches.)
shopt -s nullglob
progress_files=("$answers"/*.progress.json)
shopt -u nullglob
running_runs="$(jq -s -c . "${progress_files[@]}" </dev/null)"
# The statistics documents, {"RxC-kK": document, ...}, through a file: together
# they are larger than one argument may be.
documents="$(mktemp)"
trap 'rm -f "$documents"' EXIT
shopt -s nullglob
stats_files=("$stats_dir"/*.json)
shopt -u nullglob
jq -n '[inputs | {key: (input_filename | sub("^.*/"; "") | rtrimstr(".json")), value: .}] | from_entries' \
  "${stats_files[@]}" </dev/null >"$documents"
jq -s -r -f "$root/tools/results-page.jq" --arg opening "$(opening_text)" --arg intro "$(intro_text)" \
  --arg order "$order" --arg plot "$plot" --argjson projections "$projections" \
  --argjson running "$running_runs" --slurpfile documents "$documents" \
  "${records[@]}" >"$root/docs/results.md.tmp"
mv "$root/docs/results.md.tmp" "$root/docs/results.md"
echo "results: wrote docs/results.md and docs/$plot (${#records[@]} boards)" >&2
exit $failed
