# docs/results.md from the boards' JSON records (data/answers/RxC-kK.json, as
# one array in the page's order: jq -s). tools/results.sh runs it with
#   --arg opening TEXT       the page's first paragraph (Markdown)
#   --arg intro TEXT        how the figures are measured (Markdown)
#   --arg order "3x3 ..."   every board of the page, solved or not
#   --arg plot PATH         the plot, relative to docs/
#   --argjson projections   data/answers/projections.json, or null
#   --argjson running       the runs not finished: data/answers/*.progress.json, as an array
#   --slurpfile documents   one object, {"RxC-kK": the board's data/stats/RxC-kK.json, ...}
# Every sentence about the boards is worked out here from the records, so it
# stays true as boards are added.

def n: tostring as $s | ($s | length) as $l
  | [range(0; $l) | $s[.:. + 1] + (if . < $l - 1 and ($l - . - 1) % 3 == 0 then "," else "" end)] | join("");
# 66 -> "66.0", 81.04 -> "81.0": one decimal always, so columns read alike.
def one_decimal: (. * 10 | round) as $t | "\($t / 10 | floor).\($t % 10)";
def pct(a; b): (a * 100 / b | one_decimal) + " %";
# A share in per cent with two significant digits at least: 4.47 %, 0.0066 %.
def pct2(a; b): (a * 100 / b) as $v
  | (if $v <= 0 then 2 else [2, 1 - ($v | log10 | floor)] | max end) as $d
  | ($v * pow(10; $d) | round / pow(10; $d) | tostring) + " %";
# A share in per cent to one decimal that is never rounded to 0 or 100 % when it is not.
def pct1(a; b): (a * 1000 / b | round) as $t
  | if a > 0 and $t == 0 then "< 0.1 %" elif a < b and $t == 1000 then "> 99.9 %" else "\($t / 10 | one_decimal) %" end;
def orblank(f): if . == null then "" else f end;
def mib: . / 1048576 | ceil;  # as pawntb prints it: rounded up
def gib: . / 1073741824 | . * 10 | round / 10;
# 2.572e11 -> "2.6e11", 7.045e11 -> "7.0e11"
def sci: . as $x | if $x < 1000 then tostring
                   else ($x | log10 | floor) as $e | ($x / pow(10; $e) * 10 | round) as $d
                     | "\($d / 10 | floor).\($d % 10)e\($e)" end;
# "a", "a and b", "a, b and c"
def words: if length <= 1 then join("") else (.[:-1] | join(", ")) + " and " + last end;
def number_word: ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"][.] // tostring;
# The share the side to move wins: from stats, else the header's win count of
# the white-to-move entries (the same share; verify recounts it).
def share_of: if .stats != null then [.stats.side_to_move_wins, .stats.positions]
              elif .info.white_wins != null then [.info.white_wins, .info.entries] else null end;
def share: share_of | orblank(pct(.[0]; .[1]));
def zugzwang_share: if .stats != null then pct2(.stats.zugzwangs; .stats.positions) else "" end;
def letter: if . == "white" then "W" else "B" end;
# Consecutive runs of an array of numbers: [3,4,5,7] -> [[3,4,5],[7]].
# A board's statistics document (`pawntb stats --json`, docs/stats.md) as
# two tables folded in a <details> block: the positions at each distance to
# the end, and each material's.
def statistics($name; $doc):
  if $doc == null then
    "No statistics document (`data/stats/\($name).json`): `pawntb stats` has not been run on this board yet."
  else
    "<details><summary>Statistics (<code>data/stats/\($name).json</code>): positions by distance to the end, and by material</summary>", "",
    "| plies to the end | side to move wins | side to move loses |", "|---:|---:|---:|",
    ($doc.distances[] | "| \(.plies) | \(.wins | n) | \(.losses | n) |"), "",
    "| white pawns | black pawns | positions | side to move wins | zugzwangs | longest win (plies) | a zugzwang |",
    "|---:|---:|---:|---:|---:|---:|---|",
    ($doc.materials[]
     | "| \(.white_pawns) | \(.black_pawns) | \(.positions | n) | \(pct1(.side_to_move_wins; .positions)) | \(.zugzwangs | n) | " +
       "\(.longest_win | orblank(.plies | tostring)) | \(.zugzwang_examples | first | orblank("`\(.)`")) |"), "",
    "</details>"
  end;
def runs: reduce .[] as $x ([]; if length > 0 and (last | last) == $x - 1 then .[-1] += [$x] else . + [[$x]] end);

. as $records
| ([$order | splits("\\s+")] | map(select(length > 0))) as $all
| ($records | map(.board)) as $solved
| ($all - $solved) as $pending
| (($projections // {boards: []}).boards) as $projected
| def projection($b): $projected | map(select(.board == $b)) | first;
  def record($b): $records | map(select(.board == $b)) | first;
  def run($b): $running | map(select(.board == $b)) | first;

"# Results: pawn chess solved on \($records | length) boards, \($records | first.board) to \($records | last.board)", "",
$opening, "",

# ---- What the map shows: sentences worked out from the records. ----------
( ($records | map(select(.start.winner == "white") | .board)) as $white
  | ($records | map(select(.start.winner == "black") | .board)) as $black
  | ($records | min_by(.start.plies)) as $shortest | ($records | max_by(.start.plies)) as $longest
  # The boards along each line of the map (columns fixed, by rows; rows
  # fixed, by columns) that have `metric`: the lines of two boards or more.
  | def lines(key; other; metric):
      [$records[] | .[key]] | unique
      | map(. as $v | $records | map(select(.[key] == $v and (metric) != null)) | sort_by(.[other]))
      | map(select(length > 1));
    def direction(metric): [.[] | metric] as $v | [range(1; $v | length) | $v[.] - $v[. - 1]] as $steps
      | if ($steps | all(. > 0)) then "grows" elif ($steps | all(. < 0)) then "falls"
        elif ($steps | all(. >= 0)) then "never falls" elif ($steps | all(. <= 0)) then "never grows"
        else "neither" end;
    # How `metric` (written by `show`) goes along the lines: "grows with
    # every row added for 3, 4 and 5 columns".
    def along(key; other; metric; show):
      {cols: "columns", rows: "rows"} as $name
      | lines(key; other; metric) | group_by(direction(metric))
      | map(.[0] | direction(metric)) as $directions
      | [range(0; length) as $i | .[$i] as $l
         | if $directions[$i] == "neither" then
             $l[] | "neither grows nor falls throughout for \(.[0][key]) \($name[key]) (\(map(metric | show) | join(", ")) for \(first[other]) to \(last[other]) \($name[other]))"
           elif ($directions[$i] | startswith("never")) then
             $l[] | "\($directions[$i]) as \($name[other]) are added for \(.[0][key]) \($name[key]) (\(map(metric | show) | join(", ")) for \(first[other]) to \(last[other]) \($name[other]))"
           else
             "\($directions[$i]) with every \($name[other] | rtrimstr("s")) added for \($l | map(.[0][key] | tostring) | words) \($name[key])"
           end]
      | words;
    def trend(metric; show):
      along("cols"; "rows"; metric; show) + "; it " + along("rows"; "cols"; metric; show);
    lines("cols"; "rows"; .start.plies) as $by_columns
  # Columns whose boards (three or more) all have one winner.
  | ($by_columns | map(select(length >= 3 and (map(.start.winner) | unique | length) == 1))) as $uniform
  # Per number of columns, the runs of four rows or more (each solved) over
  # which the winner changes with every row added.
  | ($by_columns | map(. as $l
      | [range(1; length) | select($l[.].rows == $l[. - 1].rows + 1 and $l[.].start.winner != $l[. - 1].start.winner) | $l[.].rows]
      | runs | map(select(length >= 3) | {cols: $l[0].cols, from: (first - 1), to: last})) | add // []) as $alternating
  | ($records | map({board, d: (.info.longest_game_plies - .start.plies)})) as $margins
  | ($records | map(select(share_of != null) | {board, s: (share_of | .[0] / .[1])})) as $shares
  | ($records | map(select(.stats != null) | {board, r: .})) as $zugzwangs
  | def share_value: share_of | if . == null then null else .[0] / .[1] end;
    def zugzwang_value: if .stats == null then null else .stats.zugzwangs / .stats.positions end;
  "## What the map shows", "",
    "These sentences are worked out by `tools/results.sh` from the \($records | length) boards solved; they say what the numbers are, not why.", "",
    "- White, who moves first, wins on \($white | length | number_word) of the \($records | length) boards (\($white | words)); black wins on the other \($black | length | number_word) (\($black | words)).",
    ($uniform[] | "- All \(length | number_word) boards with \(.[0].cols) columns (\(first.rows) to \(last.rows) rows) are \(.[0].start.winner) wins."),
    (if ($alternating | length) > 0 then
       "- Down a column of the map, the winner changes with every row added: " + ($alternating | map("with \(.cols) columns from \(.from) to \(.to) rows") | words) + "."
     else empty end),
    "- The start's value runs from \($shortest.start.plies) plies (\($shortest.board)) to \($longest.start.plies) (\($longest.board)). It " +
      trend(.start.plies; tostring) + ".",
    ("- The longest game of a board (its longest value, from any position) is at most \($margins | map(.d) | max) plies longer than the start's value; " +
      (($margins | map(select(.d == 0) | .board)) as $equal
       | if ($equal | length) > 0 then "on \($equal | words) the start's is the longest." else "on no board is the start's the longest." end)),
    "- The side to move wins between \($shares | min_by(.s) | "\(.s * 100 | one_decimal) % (\(.board))") and \($shares | max_by(.s) | "\(.s * 100 | one_decimal) % (\(.board))") of all positions. The share " +
      trend(share_value; . * 100 | one_decimal | "\(.) %") + ".",
    (if ($zugzwangs | length) > 0 then
       "- Zugzwangs (the side to move loses, but would win if it could pass) are between \($zugzwangs | min_by(.r | zugzwang_value) | "\(.r | zugzwang_share) (\(.board))") and \($zugzwangs | max_by(.r | zugzwang_value) | "\(.r | zugzwang_share) (\(.board))") of the positions on the \($zugzwangs | length) boards where `pawntb stats` ran" +
       ($records | map(select(.stats == null) | .board) | if length > 0 then " (not yet on \(words))" else "" end) + ". Their share " +
       trend(zugzwang_value; pct2(.; 1)) + "."
     else empty end),
    (if ($pending | length) > 0 then "- Not solved yet: \($pending | words) (below)." else empty end),
    ""
),

# ---- The map, the summary table and the plot. ---------------------------
( "## The map", "",
  "Rows down, columns across; each solved board shows who wins from the start (W: white, the first player; B: black) and in how many plies with best play. Boards not solved are [below](#boards-not-solved).", "",
  ( ($all | map(split("x") | map(tonumber))) as $sizes
    | ([$sizes[][0]] + [$projected[].board | split("x")[0] | tonumber] | unique) as $rows
    | ([$sizes[][1]] + [$projected[].board | split("x")[1] | tonumber] | unique) as $cols
    | "| rows \\ columns | " + ($cols | map(tostring) | join(" | ")) + " |",
      "|---|" + ($cols | map("---:") | join("|")) + "|",
      ($rows[] as $r
       | "| **\($r)** | " + ($cols | map("\($r)x\(.)" as $b
           | record($b) as $rec
           | if $rec != null then "\($rec.start.winner | letter) \($rec.start.plies)"
             elif run($b) != null then "running"
             elif ($pending | index($b)) != null then "not yet run"
             elif projection($b) != null then (if projection($b).indexable == false then "cannot be indexed" else "left out" end)
             else "" end) | join(" | ")) + " |")
  ),
  "",
  "![The start's value in plies against the rows, one line per number of columns](\($plot))", "",
  "| board | K | positions (white to move) | first player (white) | start (plies) | longest game (plies) | side to move wins | zugzwangs |",
  "|---|---:|---:|---|---:|---:|---:|---:|",
  ($all[] as $b
   | record($b) as $rec
   | if $rec != null then
       "| \($b) | \($rec.max_pawns) | \($rec.info.entries | n) | \(if $rec.start.winner == "white" then "wins" else "loses" end) | \($rec.start.plies) | \($rec.info.longest_game_plies) | \($rec | share) | \($rec | zugzwang_share) |"
     else
       "| \($b) | \($b | split("x")[1]) | " + (projection($b) | orblank("about \(.positions | sci)")) + " | " +
         (run($b) | if . == null then "not yet run" else "running: \(.progress) (\(.as_of))\(if .lost then "; lost before: \(.lost)" else "" end)" end) + " | | | | |"
     end),
  "",
  "\"Longest game\" is the table header's longest value over all positions (a win or a loss); \"zugzwangs\" the share of positions (both sides to move) that are zugzwangs, where `pawntb stats` ran.",
  ""
),

# ---- Boards not solved. ---------------------------------------------------
( if ($projected | length) > 0 then
    "## Boards not solved", "",
    ($projected | map(select(.board as $b | $all | index($b) | not))) as $beyond
    | ($beyond | map(select(.indexable != false))) as $indexable
    | "Boards of this page not solved yet: \($pending | words). " +
    (if ($beyond | length) > 0 then
       "The others (\($beyond | map(.board) | words)) are left out: by these projections each would take at least \($indexable | map(.positions / $projections.rate / 86400) | min | . * 10 | round / 10) days on one machine and hold at least \($indexable | map(.unit_with_reads_gib) | min) GiB at once" +
       ($beyond | map(select(.indexable == false) | .board) | if length > 0 then ", or cannot be indexed (\(words))" else "" end) + ". "
     else "" end) +
    "For each, `tools/bench/project_tiers` gives the size of its index, its work units and the most a unit holds with the parts of other tiers it reads (what the generator holds in memory at once, at a byte a position), and projects its time on one machine at the 6×6 run's rate (\($projections.rate / 1e6 | . * 10 | round / 10) million positions a second: that run's positions over its wall time) and its work directory at that run's \($projections.work_bytes_per_position) bytes a position (`tools/results.sh --project`, which runs `\($projections.command)` for each). These are projections, not measurements.", "",
    (if ($running | length) > 0 then
       "Runs not finished, each resumed by running its command again (it picks up its work directory):", "",
       ($running[] | select(record(.board) == null) | "- \(.board): \(.progress), as of \(.as_of).\(if .estimate then " Its plan: \(.estimate.seconds / 360 | round / 10) h on one machine (\(.estimate.rate_source))." else "" end)\(if .lost then " Lost: \(.lost)." else "" end) Resume: `\(.resume)`"), ""
     else empty end),
    "| board | K | positions | tiers | units | a unit with what it reads, at most | one machine | work directory |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
    ($projected[] | select(record(.board) == null)
     | if .indexable == false then "| \(.board) | \(.board | split("x")[1]) | cannot be indexed (more profile pairs than the index allows) | | | | | |"
       else "| \(.board) | \(.board | split("x")[1]) | \(.positions | sci) | \(.tiers | n) | \(.units | n) | \(.unit_with_reads | sci) entries: \(.unit_with_reads_gib) GiB | \(.one_machine) | \(.work_dir_gib) GiB |" end),
    ""
  else empty end
),

# ---- How it is measured, and every board in full. -----------------------
$intro, "",
"| board | K | positions (white to move) | start: winner (plies) | side to move wins | longest win (plies, positions) | generate: wall / CPU (s) | peak RSS (MiB) | work dir peak (MiB) | verify | spot check agreed / skipped | file (bytes) | XXH3-64 |",
"|---|---:|---:|---|---:|---|---:|---:|---:|---|---:|---:|---|",
($records[] | "| \(.board) | \(.max_pawns) | \(.info.entries | n) | \(.start.winner) (\(.start.plies)) | " +
   share + " | " +
   (.stats | orblank("\(.longest_win.plies), \(.longest_win.positions | n)")) + " | " +
   (.generation | orblank("\(.wall_s) / \(.cpu_s)\(if .resumed_from then " (last part)" elif .parts then " (\(.parts) parts)" else "" end)")) + " | " + (.generation | orblank("\(.peak_rss_mib)")) + " | " +
   (.generation | orblank(if has("work_dir_peak_bytes") | not then ""
                          elif .work_dir_peak_bytes == null then "in memory" else .work_dir_peak_bytes | mib | tostring end)) + " | " +
   (.verify | if . == null then "not run" elif .ok then "ok" else "FAILED" end) + " | " +
   "\(.spot_check.agreed | n) / \(.spot_check.skipped)" + (if .spot_check.disagreed > 0 then " (\(.spot_check.disagreed) DISAGREED)" else "" end) +
   " | \(.info.file_size | n) | `\(.info.file_checksum)` |"),
"",
($records[] | "### \(.board), K = \(.max_pawns)", "",
   "Start `\(.start.position)`: **\(.start.winner) wins in \(.start.plies) plies**. Principal variation:", "",
   "```text", (.start.line | join(" ")), "```", "",
   (if .stats != null then
      "Longest win: \(.stats.longest_win.plies) plies, \(.stats.longest_win.positions | n) positions (either side to move), e.g. `\(.stats.longest_win.example)`. " +
      "The side to move wins \(.stats.side_to_move_wins | n) of \(.stats.positions | n) positions (\(pct(.stats.side_to_move_wins; .stats.positions))); zugzwangs: \(.stats.zugzwangs | n) (\(pct2(.stats.zugzwangs; .stats.positions)))."
    else "Longest game (from the header; `pawntb stats` not run): \(.info.longest_game_plies) plies, e.g. `\(.info.longest_game_example)`." +
      (if .info.white_wins != null then " The side to move wins \(.info.white_wins | n) of the \(.info.entries | n) white-to-move positions (\(share)), by the header's win count\(if .verify.ok then ", which verify recounted" else "" end); by symmetry, the same share of both sides to move." else "" end) end),
   (if .verify == null and .stats == null then "", "Neither `pawntb verify` nor `pawntb stats` has been run on this board yet: each takes hours on it."
    elif .stats == null then "", "`pawntb stats` has not been run on this board yet: it takes hours on it."
    else empty end),
   "",
   (if .generation == null then "Generation: not measured."
    else "Generation (`\(.generation.command | sub("^[^ ]*/pawntb[^ ]* "; "pawntb ") | gsub("(?<o>--output |-o |--work-dir )[^ ]*/"; "\(.o)"))`, \(.generated)" +
         (if .generation.load_average != null then ", load average \(.generation.load_average)" else ", load average not recorded" end) +
         "): \(.generation.wall_s) s wall, \(.generation.cpu_s) s CPU\(if .generation.parts then " in \(.generation.parts) parts" else "" end), peak RSS \(.generation.peak_rss_mib) MiB" +
         (if .generation.work_dir_peak_bytes != null then ", work directory at most \(.generation.work_dir_peak_bytes | n) bytes (\(.generation.work_dir_peak_bytes | mib) MiB) of tier files" else "" end) + "." +
         (if .generation.resumed_from then " These are the figures of the run's last part only: it resumed with \(.generation.resumed_from); the earlier parts' times were not kept." else "" end) end) +
   (if .verify != null then " Verify: \(.verify.summary | sub("^.*: "; "")) (\(.verify.wall_s) s wall\(if .verify.resumed then ", over several runs" else "" end))." else " Verify: not run." end) +
   (if .measured != null then " Measured \(.measured) with \(.version)." else "" end) +
   " Spot check: \(.spot_check.agreed | n) of \(.spot_check.samples | n) random positions agree (seed \(.spot_check.seed)), \(.spot_check.skipped) skipped over \(.spot_check.node_budget | n) nodes, \(.spot_check.disagreed) disagree.",
   "",
   ("\(.board)-k\(.max_pawns)" as $name | statistics($name; $documents[0][$name])),
   "")
