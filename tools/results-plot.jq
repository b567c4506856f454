# The results page's plot (docs/img/results-start-plies.svg): the start's value
# in plies against the rows, one line per number of columns, a filled mark
# where white (the first player) wins and an open one where black wins.
# Input: the boards' JSON records (data/answers/RxC-kK.json) as one array
# (jq -s); output: the SVG text. tools/results.sh runs it.
def r1: . * 10 | round / 10 | tostring;
def colours: ["#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#a6761d"];
def attr(name; value): " \(name)=\"\(value)\"";

(map({rows, cols, board, winner: .start.winner, plies: .start.plies})) as $points
| 640 as $width | 420 as $height
| {left: 56, right: 150, top: 44, bottom: 52} as $m
| ($width - $m.left - $m.right) as $w | ($height - $m.top - $m.bottom) as $h
| 3 as $x0 | 8 as $x1
| 0 as $y0 | (([$points[].plies] | max) / 5 | ceil * 5) as $y1
| def x: $m.left + (. - $x0) * $w / ($x1 - $x0);
  def y: $m.top + $h - (. - $y0) * $h / ($y1 - $y0);
  ([$points[].cols] | unique) as $columns
| def colour(c): colours[(c - 3) % (colours | length)];
  [
    "<svg xmlns=\"http://www.w3.org/2000/svg\"" + attr("width"; $width) + attr("height"; $height)
      + attr("viewBox"; "0 0 \($width) \($height)")
      + " font-family=\"DejaVu Sans, Arial, sans-serif\" font-size=\"13\">",
    "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>",
    "<text" + attr("x"; $m.left) + attr("y"; 24) + " font-size=\"15\">The start's value (plies, best play) against the rows</text>",
    # Grid lines and ticks.
    ([range($y0; $y1 + 1; 5)] | map(
      "<line" + attr("x1"; $m.left) + attr("x2"; $m.left + $w) + attr("y1"; y | r1) + attr("y2"; y | r1)
        + " stroke=\"#dddddd\"/>",
      "<text" + attr("x"; $m.left - 8) + attr("y"; (y + 4) | r1) + " text-anchor=\"end\">\(.)</text>") | .[]),
    ([range($x0; $x1 + 1)] | map(
      "<line" + attr("x1"; x | r1) + attr("x2"; x | r1) + attr("y1"; $m.top) + attr("y2"; $m.top + $h)
        + " stroke=\"#eeeeee\"/>",
      "<text" + attr("x"; x | r1) + attr("y"; $m.top + $h + 18) + " text-anchor=\"middle\">\(.)</text>") | .[]),
    "<rect" + attr("x"; $m.left) + attr("y"; $m.top) + attr("width"; $w) + attr("height"; $h)
      + " fill=\"none\" stroke=\"#555555\"/>",
    "<text" + attr("x"; ($m.left + $w / 2) | r1) + attr("y"; $height - 12)
      + " text-anchor=\"middle\">rows R (board R×C)</text>",
    "<text" + attr("x"; 16) + attr("y"; ($m.top + $h / 2) | r1) + " text-anchor=\"middle\""
      + attr("transform"; "rotate(-90 16 \(($m.top + $h / 2) | r1))") + ">plies from the start</text>",
    # One line per number of columns, its boards by rows.
    ($columns[] as $c
      | ($points | map(select(.cols == $c)) | sort_by(.rows)) as $line
      | (if ($line | length) > 1 then
           "<polyline fill=\"none\"" + attr("stroke"; colour($c)) + " stroke-width=\"2\""
             + attr("points"; $line | map("\(.rows | x | r1),\(.plies | y | r1)") | join(" ")) + "/>"
         else empty end),
        ($line[] | "<circle" + attr("cx"; .rows | x | r1) + attr("cy"; .plies | y | r1) + " r=\"5\""
           + attr("stroke"; colour($c)) + " stroke-width=\"2\""
           + attr("fill"; if .winner == "white" then colour($c) else "white" end)
           + "><title>\(.board): \(.winner) wins in \(.plies) plies</title></circle>")),
    # The legend.
    ($columns | to_entries[] | ($m.top + 10 + .key * 22) as $ly
      | "<line" + attr("x1"; $width - $m.right + 16) + attr("x2"; $width - $m.right + 40)
          + attr("y1"; $ly) + attr("y2"; $ly) + attr("stroke"; colour(.value)) + " stroke-width=\"2\"/>",
        "<text" + attr("x"; $width - $m.right + 46) + attr("y"; $ly + 4) + ">C = \(.value)</text>"),
    (($m.top + 10 + ($columns | length) * 22 + 12) as $ly
      | "<circle" + attr("cx"; $width - $m.right + 28) + attr("cy"; $ly) + " r=\"5\" stroke=\"#555555\" stroke-width=\"2\" fill=\"#555555\"/>",
        "<text" + attr("x"; $width - $m.right + 46) + attr("y"; $ly + 4) + ">white wins</text>",
        "<circle" + attr("cx"; $width - $m.right + 28) + attr("cy"; $ly + 22) + " r=\"5\" stroke=\"#555555\" stroke-width=\"2\" fill=\"white\"/>",
        "<text" + attr("x"; $width - $m.right + 46) + attr("y"; $ly + 26) + ">black wins</text>"),
    "</svg>"
  ]
| join("\n")
