"""docs/results.md and its plot, docs/img/results-start-plies.svg, from the
boards' JSON records (data/answers/RxC-kK.json), the runs not finished
(data/answers/*.progress.json), the projections (data/answers/projections.json)
and the statistics documents (data/stats/RxC-kK.json). tools/results.py runs it.

Every sentence about the boards is worked out here from the records, so it
stays true as boards are added. Numbers are written as the page always wrote
them (it was written by jq once): every figure is a double, and a double is
written in its shortest form, without ".0" when it is whole.
"""

import decimal
import json
import math
import re

# ---- Numbers and words --------------------------------------------------------


def num(x):
    """A number as text: the shortest digits that read back as the same double
    (0.1, 12261.92), without ".0" when whole (8585), in exponent form for a
    large or small one (1e+17, 1e-05)."""
    f = float(x)
    if f == 0:
        return "-0" if math.copysign(1, f) < 0 else "0"
    if math.isinf(f) or math.isnan(f):
        return "null" if math.isnan(f) else ("1.7976931348623157e+308" if f > 0 else "-1.7976931348623157e+308")
    sign, digits, exponent = decimal.Decimal(repr(f)).normalize().as_tuple()
    d = "".join(map(str, digits))
    point = len(d) + exponent  # the decimal point's place, after `point` digits
    text = "-" if sign else ""
    if point <= -4 or point > len(d) + 15:
        mantissa = d[0] + ("." + d[1:] if len(d) > 1 else "")
        e = point - 1
        return text + mantissa + ("e-%02d" % -e if e < 0 else "e+%02d" % e)
    if point <= 0:
        return text + "0." + "0" * -point + d
    if point >= len(d):
        return text + d + "0" * (point - len(d))
    return text + d[:point] + "." + d[point:]


def text(x):
    """Any value as it reads in a sentence: a string as it is, a number by num."""
    if isinstance(x, str):
        return x
    if x is None:
        return "null"
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, (int, float)):
        return num(x)
    return json.dumps(x, separators=(",", ":"), ensure_ascii=False)


def rnd(x):
    """Rounded half away from zero, as C's round()."""
    return math.floor(x + 0.5) if x >= 0 else -math.floor(-x + 0.5)


def n(x):
    """1234567 -> "1,234,567"."""
    s = text(x)
    size = len(s)
    return "".join(s[i] + ("," if i < size - 1 and (size - i - 1) % 3 == 0 else "") for i in range(size))


def one_decimal(x):
    """66 -> "66.0", 81.04 -> "81.0": one decimal always, so columns read alike."""
    t = rnd(x * 10)
    return "%s.%s" % (num(math.floor(t / 10)), num(math.fmod(t, 10)))


def pct(a, b):
    return one_decimal(a * 100 / b) + " %"


def pct2(a, b):
    """A share in per cent with two significant digits at least: 4.47 %, 0.0066 %."""
    v = a * 100 / b
    d = 2 if v <= 0 else max(2, 1 - math.floor(math.log10(v)))
    scale = math.pow(10, d)
    return num(rnd(v * scale) / scale) + " %"


def pct1(a, b):
    """A share in per cent to one decimal that is never rounded to 0 or 100 % when it is not."""
    t = rnd(a * 1000 / b)
    if a > 0 and t == 0:
        return "< 0.1 %"
    if a < b and t == 1000:
        return "> 99.9 %"
    return one_decimal(t / 10) + " %"


def mib(x):
    """Bytes in MiB, rounded up, as pawntb prints them."""
    return math.ceil(x / 1048576)


def sci(x):
    """2.572e11 -> "2.6e11", 7.045e11 -> "7.0e11"."""
    if x is None or x < 1000:
        return text(x)
    e = math.floor(math.log10(x))
    d = rnd(x / math.pow(10, e) * 10)
    return "%s.%se%s" % (num(math.floor(d / 10)), num(math.fmod(d, 10)), num(e))


def words(items):
    """"a", "a and b", "a, b and c"."""
    items = [text(i) for i in items]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def number_word(k):
    names = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
    return names[k] if 0 <= k < len(names) else text(k)


def truthy(x):
    return x is not None and x is not False


def first_min(items, key):
    """The first item with the least key."""
    best = None
    for item in items:
        if best is None or key(item) < key(best):
            best = item
    return best


def last_max(items, key):
    """The last item with the greatest key."""
    best = None
    for item in items:
        if best is None or not key(item) < key(best):
            best = item
    return best


def runs(values):
    """Consecutive runs of numbers: [3, 4, 5, 7] -> [[3, 4, 5], [7]]."""
    out = []
    for v in values:
        if out and out[-1][-1] == v - 1:
            out[-1].append(v)
        else:
            out.append([v])
    return out


# ---- What a record says -------------------------------------------------------


def share_of(record):
    """The share the side to move wins, as (wins, positions): from stats, else
    the header's win count of the white-to-move entries (the same share;
    verify recounts it)."""
    if record.get("stats") is not None:
        return record["stats"]["side_to_move_wins"], record["stats"]["positions"]
    if record["info"].get("white_wins") is not None:
        return record["info"]["white_wins"], record["info"]["entries"]
    return None


def share(record):
    s = share_of(record)
    return "" if s is None else pct(*s)


def share_value(record):
    s = share_of(record)
    return None if s is None else s[0] / s[1]


def zugzwang_value(record):
    stats = record.get("stats")
    return None if stats is None else stats["zugzwangs"] / stats["positions"]


def zugzwang_share(record):
    stats = record.get("stats")
    return "" if stats is None else pct2(stats["zugzwangs"], stats["positions"])


def letter(winner):
    return "W" if winner == "white" else "B"


def start_plies(record):
    return record["start"]["plies"]


def statistics(name, doc):
    """A board's statistics document (`pawntb stats --json`, docs/stats.md) as
    two tables folded in a <details> block: the positions at each distance to
    the end, and each material's."""
    if doc is None:
        return ["No statistics document (`data/stats/%s.json`): `pawntb stats` has not been run on this board yet." % name]
    lines = [
        "<details><summary>Statistics (<code>data/stats/%s.json</code>): positions by distance to the end, and by material</summary>" % name,
        "",
        "| plies to the end | side to move wins | side to move loses |",
        "|---:|---:|---:|",
    ]
    lines += ["| %s | %s | %s |" % (text(d["plies"]), n(d["wins"]), n(d["losses"])) for d in doc["distances"]]
    lines += [
        "",
        "| white pawns | black pawns | positions | side to move wins | zugzwangs | longest win (plies) | a zugzwang |",
        "|---:|---:|---:|---:|---:|---:|---|",
    ]
    for m in doc["materials"]:
        longest = m.get("longest_win")
        examples = m.get("zugzwang_examples") or []
        lines.append("| %s | %s | %s | %s | %s | %s | %s |" % (
            text(m["white_pawns"]), text(m["black_pawns"]), n(m["positions"]),
            pct1(m["side_to_move_wins"], m["positions"]), n(m["zugzwangs"]),
            "" if longest is None else text(longest["plies"]),
            "" if not examples or examples[0] is None else "`%s`" % text(examples[0])))
    lines += ["", "</details>"]
    return lines


# ---- How a figure goes along the map's lines -----------------------------------

NAMES = {"cols": "columns", "rows": "rows"}


def lines_of(records, key, other, metric):
    """The boards along each line of the map (`key` fixed, by `other`) that
    have `metric`: the lines of two boards or more."""
    out = []
    for v in sorted({r[key] for r in records}):
        line = sorted((r for r in records if r[key] == v and metric(r) is not None), key=lambda r: r[other])
        if len(line) > 1:
            out.append(line)
    return out


def direction(line, metric):
    values = [metric(r) for r in line]
    steps = [values[i] - values[i - 1] for i in range(1, len(values))]
    if all(s > 0 for s in steps):
        return "grows"
    if all(s < 0 for s in steps):
        return "falls"
    if all(s >= 0 for s in steps):
        return "never falls"
    if all(s <= 0 for s in steps):
        return "never grows"
    return "neither"


def along(records, key, other, metric, show):
    """How `metric` (written by `show`) goes along the lines: "grows with
    every row added for 3, 4 and 5 columns"."""
    groups = {}
    for line in lines_of(records, key, other, metric):
        groups.setdefault(direction(line, metric), []).append(line)
    parts = []
    for way in sorted(groups):
        group = groups[way]
        if way == "neither" or way.startswith("never"):
            for line in group:
                figures = ", ".join(show(metric(r)) for r in line)
                head = "neither grows nor falls throughout" if way == "neither" else "%s as %s are added" % (way, NAMES[other])
                parts.append("%s for %s %s (%s for %s to %s %s)" % (
                    head, text(line[0][key]), NAMES[key], figures, text(line[0][other]), text(line[-1][other]), NAMES[other]))
        else:
            parts.append("%s with every %s added for %s %s" % (
                way, NAMES[other].removesuffix("s"), words([line[0][key] for line in group]), NAMES[key]))
    return words(parts)


def trend(records, metric, show):
    return along(records, "cols", "rows", metric, show) + "; it " + along(records, "rows", "cols", metric, show)


# ---- The page -------------------------------------------------------------------


def boards_of(order):
    return order.split()


def what_the_map_shows(records, pending, tool, proofs=()):
    white = [r["board"] for r in records if r["start"]["winner"] == "white"]
    black = [r["board"] for r in records if r["start"]["winner"] == "black"]
    shortest = first_min(records, start_plies)
    longest = last_max(records, start_plies)
    by_columns = lines_of(records, "cols", "rows", start_plies)
    uniform = [l for l in by_columns if len(l) >= 3 and len({r["start"]["winner"] for r in l}) == 1]
    alternating = []
    for l in by_columns:
        changes = [l[i]["rows"] for i in range(1, len(l))
                   if l[i]["rows"] == l[i - 1]["rows"] + 1 and l[i]["start"]["winner"] != l[i - 1]["start"]["winner"]]
        alternating += [{"cols": l[0]["cols"], "from": run[0] - 1, "to": run[-1]} for run in runs(changes) if len(run) >= 3]
    margins = [(r["board"], r["info"]["longest_game_plies"] - r["start"]["plies"]) for r in records]
    shares = [(r["board"], share_value(r)) for r in records if share_of(r) is not None]
    zugzwangs = [r for r in records if r.get("stats") is not None]
    count = len(records)

    out = ["## What the map shows", "",
           "These sentences are worked out by `%s` from the %d boards solved; they say what the numbers are, not why." % (tool, count), "",
           "- White, who moves first, wins on %s of the %d boards (%s); black wins on the other %s (%s)." % (
               number_word(len(white)), count, words(white), number_word(len(black)), words(black))]
    out += ["- All %s boards with %s columns (%s to %s rows) are %s wins." % (
        number_word(len(l)), text(l[0]["cols"]), text(l[0]["rows"]), text(l[-1]["rows"]), l[0]["start"]["winner"]) for l in uniform]
    if alternating:
        out.append("- Down a column of the map, the winner changes with every row added: " + words(
            ["with %s columns from %s to %s rows" % (text(a["cols"]), text(a["from"]), text(a["to"])) for a in alternating]) + ".")
    out.append("- The start's value runs from %s plies (%s) to %s (%s). It " % (
        text(start_plies(shortest)), shortest["board"], text(start_plies(longest)), longest["board"])
        + trend(records, start_plies, text) + ".")
    equal = [b for b, d in margins if d == 0]
    out.append("- The longest game of a board (its longest value, from any position) is at most %s plies longer than the start's value; " % text(max(d for _, d in margins))
               + ("on %s the start's is the longest." % words(equal) if equal else "on no board is the start's the longest."))
    low = first_min(shares, lambda s: s[1])
    high = last_max(shares, lambda s: s[1])
    out.append("- The side to move wins between %s %% (%s) and %s %% (%s) of all positions. The share " % (
        one_decimal(low[1] * 100), low[0], one_decimal(high[1] * 100), high[0])
        + trend(records, share_value, lambda v: one_decimal(v * 100) + " %") + ".")
    if zugzwangs:
        low = first_min(zugzwangs, zugzwang_value)
        high = last_max(zugzwangs, zugzwang_value)
        not_yet = [r["board"] for r in records if r.get("stats") is None]
        out.append("- Zugzwangs (the side to move loses, but would win if it could pass) are between %s (%s) and %s (%s) of the positions on the %d boards where `pawntb stats` ran" % (
            zugzwang_share(low), low["board"], zugzwang_share(high), high["board"], len(zugzwangs))
            + (" (not yet on %s)" % words(not_yet) if not_yet else "") + ". Their share "
            + trend(records, zugzwang_value, lambda v: pct2(v, 1)) + ".")
    if pending:
        out.append("- Not solved yet: %s (below)." % words(pending))
    solved = {r["board"] for r in records}
    proven_boards = [p for p in sorted(proofs, key=lambda p: board_size(p["board"]))
                     if p["board"] not in solved and p["certificate"]["checked"]]
    if proven_boards:
        out.append("- Proven from the start by search, with no table: %s ([below](#boards-beyond-the-tables))." % words(
            ["%s (%s wins)" % (p["board"], p["winner"]) for p in proven_boards]))
    out.append("")
    return out


def board_size(board):
    rows, cols = board.split("x")
    return int(rows), int(cols)


def second_word(first, second):
    """What a second proof says of the first, in the map."""
    if first is not None and second["winner"] != first["winner"]:
        return "SECOND PROOF DISAGREES: %s" % letter(second["winner"])
    return "second proof: %s" % proven(second)


def the_map(records, all_boards, pending, projected, running, plot, proofs=(), seconds=()):
    record = {r["board"]: r for r in records}
    proof = {p["board"]: p for p in proofs}
    second = {}
    for p in seconds:
        second.setdefault(p["board"], []).append(p)
    projection = {}
    for p in projected:
        projection.setdefault(p["board"], p)
    run = {}
    runs_of = {}  # every run of a board: its first proof's and a second's
    for r in running:
        run.setdefault(r["board"], r)
        runs_of.setdefault(r["board"], []).append(r)
    sizes = [board_size(b) for b in all_boards] + [board_size(p["board"]) for p in list(projected) + list(proofs)]
    rows = sorted({s[0] for s in sizes})
    cols = sorted({s[1] for s in sizes})

    def cell(b):
        rec = record.get(b)
        if rec is not None:
            return "%s %s" % (letter(rec["start"]["winner"]), text(rec["start"]["plies"]))
        facts = [] if b not in proof else [proven(proof[b])]
        facts += [second_word(proof.get(b), p) for p in second.get(b, [])]
        for r in runs_of.get(b, []):
            # A proof run whose search has ended names its winner before its certificate is checked.
            searched = re.match(r"searched: (white|black) wins", r.get("progress") or "")
            what = "second proof " if r.get("root_seed") else ""
            queued = (r.get("progress") or "").startswith("queued")
            facts.append("%ssearched: %s; running" % (what, letter(searched.group(1))) if searched
                         else what + ("queued" if queued else "running"))
        if not facts and b in pending:
            facts.append("not yet run")
        elif not facts and b in projection:
            facts.append("cannot be indexed" if projection[b].get("indexable") is False else "left out")
        return "; ".join(facts)

    legend = ("Rows down, columns across; each solved board shows who wins from the start (W: white, the first player; B: black) and in how many plies with best play. Boards not solved are [below](#boards-not-solved).")
    if proofs:
        legend = ("Rows down, columns across. A *solved* board (its table made, every position's value known) shows who wins from the start (W: white, the first player; B: black) and in how many plies with best play. A board marked *proven* has no table, but who wins from its start is proven by a search whose certificate `pawntb check-proof` replays: the winner, and the distance in plies where `solve --dtm` proved it, or its proven bounds ([Boards beyond the tables](#boards-beyond-the-tables)). *searched: W; running*: a proof run's search has named the winner, and its certificate is still being written or checked; *running* and *queued*: a run under way, or waiting for the one before it. Boards not solved are [below](#boards-not-solved).")
    out = ["## The map", "", legend, "",
           "| rows \\ columns | " + " | ".join(map(str, cols)) + " |",
           "|---|" + "|".join("---:" for _ in cols) + "|"]
    out += ["| **%d** | " % r + " | ".join(cell("%dx%d" % (r, c)) for c in cols) + " |" for r in rows]
    out += ["", "![The start's value in plies against the rows, one line per number of columns](%s)" % plot, "",
            "| board | K | positions (white to move) | first player (white) | start (plies) | longest game (plies) | side to move wins | zugzwangs |",
            "|---|---:|---:|---|---:|---:|---:|---:|"]
    for b in all_boards:
        rec = record.get(b)
        if rec is not None:
            out.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
                b, text(rec["max_pawns"]), n(rec["info"]["entries"]),
                "wins" if rec["start"]["winner"] == "white" else "loses", text(rec["start"]["plies"]),
                text(rec["info"]["longest_game_plies"]), share(rec), zugzwang_share(rec)))
        else:
            p = projection.get(b)
            r = run.get(b)
            status = "not yet run" if r is None else "running: %s (%s)%s" % (
                text(r["progress"]), text(r["as_of"]), "; lost before: %s" % text(r["lost"]) if truthy(r.get("lost")) else "")
            if b in proof:
                status = "%s; %s" % (proven(proof[b]), status)
            out.append("| %s | %s | %s | %s | | | | |" % (
                b, b.split("x")[1], "" if p is None else "about " + sci(p.get("positions")), status))
    out += ["",
            "\"Longest game\" is the table header's longest value over all positions (a win or a loss); \"zugzwangs\" the share of positions (both sides to move) that are zugzwangs, where `pawntb stats` ran.",
            ""]
    return out


def boards_not_solved(records, all_boards, pending, projections, running, tool, proofs=()):
    projected = projections["boards"]
    if not projected:
        return []
    solved = {r["board"] for r in records}
    beyond = [p for p in projected if p["board"] not in all_boards]
    indexable = [p for p in beyond if p.get("indexable") is not False]
    rate = projections["rate"]
    sentence = "Boards of this page not solved yet: %s. " % words(pending)
    if beyond:
        days = min(p["positions"] / rate / 86400 for p in indexable)
        sentence += "The others (%s) get no table, only a proof of who wins from the start (below): by these projections each table would take at least %s days on one machine and hold at least %s GiB at once" % (
            words([p["board"] for p in beyond]), num(rnd(days * 10) / 10), text(min(p["unit_with_reads_gib"] for p in indexable)))
        unindexable = [p["board"] for p in beyond if p.get("indexable") is False]
        if unindexable:
            sentence += ", or has more positions than the index can number (%s)" % words(unindexable)
        sentence += ". "
    sentence += ("For each, `tools/bench/project_tiers` gives the size of its index, its work units and the most a unit holds with the parts of other tiers it reads (what the generator holds in memory at once, at a byte a position), and projects its time on one machine at the 6×6 run's rate (%s million positions a second: that run's positions over its wall time) and its work directory at that run's %s bytes a position (`%s --project`, which runs `%s` for each). These are projections, not measurements."
                 % (num(rnd(rate / 1e6 * 10) / 10), text(projections["work_bytes_per_position"]), tool, text(projections["command"])))
    out = ["## Boards not solved", "", sentence, ""]
    if any(p["board"] not in solved for p in proofs):
        out += ["Who wins from the start of some of them is proven by search, with no table: [Boards beyond the tables](#boards-beyond-the-tables).", ""]
    if running:
        out += ["Runs not finished, each resumed by running its command again (it picks up its work directory):", ""]
        for r in running:
            if r["board"] in solved:
                continue
            estimate = r.get("estimate")
            out.append("- %s: %s, as of %s.%s%s Resume: `%s`" % (
                r["board"] + (" (second proof, root seed %s)" % text(r["root_seed"]) if r.get("root_seed") else ""),
                text(r["progress"]), text(r["as_of"]),
                " Its plan: %s h on one machine (%s)." % (num(rnd(estimate["seconds"] / 360) / 10), text(estimate["rate_source"])) if truthy(estimate) else "",
                " Lost: %s." % text(r["lost"]) if truthy(r.get("lost")) else "",
                text(r["resume"])))
        out.append("")
    out += ["| board | K | positions | tiers | units | a unit with what it reads, at most | one machine | work directory |",
            "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for p in projected:
        if p["board"] in solved:
            continue
        k = p["board"].split("x")[1]
        if p.get("indexable") is False:
            out.append("| %s | %s | cannot be indexed (more profile pairs than the index allows) | | | | | |" % (p["board"], k))
        else:
            out.append("| %s | %s | %s | %s | %s | %s entries: %s GiB | %s | %s GiB |" % (
                p["board"], k, sci(p["positions"]), n(p["tiers"]), n(p["units"]), sci(p["unit_with_reads"]),
                text(p["unit_with_reads_gib"]), text(p["one_machine"]), text(p["work_dir_gib"])))
    out.append("")
    return out


def shown_command(command):
    """The command as run, without the directories of the binary and the files."""
    command = re.sub(r"^[^ ]*/pawntb[^ ]* ", "pawntb ", command, count=1)
    return re.sub(r"(--output |-o |--work-dir |--certificate |--resume )[^ ]*/", r"\1", command)


def summary_row(r):
    g = r.get("generation")
    v = r.get("verify")
    s = r.get("stats")
    spot = r["spot_check"]
    if g is None:
        times = peak = work = ""
    else:
        times = "%s / %s%s" % (text(g["wall_s"]), text(g["cpu_s"]), " (last part)" if truthy(g.get("resumed_from"))
                               else " (%s parts)" % text(g["parts"]) if truthy(g.get("parts")) else "")
        peak = text(g["peak_rss_mib"])
        work = ("" if "work_dir_peak_bytes" not in g else "in memory" if g["work_dir_peak_bytes"] is None
                else text(mib(g["work_dir_peak_bytes"])))
    return ("| %s | %s | %s | %s (%s) | " % (r["board"], text(r["max_pawns"]), n(r["info"]["entries"]), r["start"]["winner"], text(r["start"]["plies"]))
            + share(r) + " | "
            + ("" if s is None else "%s, %s" % (text(s["longest_win"]["plies"]), n(s["longest_win"]["positions"]))) + " | "
            + times + " | " + peak + " | " + work + " | "
            + ("not run" if v is None else "ok" if truthy(v.get("ok")) else "FAILED") + " | "
            + "%s / %s" % (n(spot["agreed"]), text(spot["skipped"]))
            + (" (%s DISAGREED)" % text(spot["disagreed"]) if spot["disagreed"] > 0 else "")
            + " | %s | `%s` |" % (n(r["info"]["file_size"]), text(r["info"]["file_checksum"])))


def board_section(r, documents):
    s = r.get("stats")
    v = r.get("verify")
    g = r.get("generation")
    info = r["info"]
    spot = r["spot_check"]
    out = ["### %s, K = %s" % (r["board"], text(r["max_pawns"])), "",
           "Start `%s`: **%s wins in %s plies**. Principal variation:" % (r["start"]["position"], r["start"]["winner"], text(r["start"]["plies"])), "",
           "```text", " ".join(r["start"]["line"]), "```", ""]
    if s is not None:
        lw = s["longest_win"]
        out.append("Longest win: %s plies, %s positions (either side to move), e.g. `%s`. " % (text(lw["plies"]), n(lw["positions"]), text(lw["example"]))
                   + "The side to move wins %s of %s positions (%s); zugzwangs: %s (%s)." % (
                       n(s["side_to_move_wins"]), n(s["positions"]), pct(s["side_to_move_wins"], s["positions"]),
                       n(s["zugzwangs"]), pct2(s["zugzwangs"], s["positions"])))
    else:
        line = "Longest game (from the header; `pawntb stats` not run): %s plies, e.g. `%s`." % (
            text(info["longest_game_plies"]), text(info["longest_game_example"]))
        if info.get("white_wins") is not None:
            line += " The side to move wins %s of the %s white-to-move positions (%s), by the header's win count%s; by symmetry, the same share of both sides to move." % (
                n(info["white_wins"]), n(info["entries"]), share(r),
                ", which verify recounted" if v is not None and truthy(v.get("ok")) else "")
        out.append(line)
    if v is None and s is None:
        out += ["", "Neither `pawntb verify` nor `pawntb stats` has been run on this board yet: each takes hours on it."]
    elif s is None:
        out += ["", "`pawntb stats` has not been run on this board yet: it takes hours on it."]
    out.append("")
    if g is None:
        line = "Generation: not measured."
    else:
        line = ("Generation (`%s`, %s" % (shown_command(g["command"]), text(r["generated"]))
                + (", load average %s" % text(g["load_average"]) if g.get("load_average") is not None else ", load average not recorded")
                + "): %s s wall, %s s CPU%s, peak RSS %s MiB" % (
                    text(g["wall_s"]), text(g["cpu_s"]), " in %s parts" % text(g["parts"]) if truthy(g.get("parts")) else "", text(g["peak_rss_mib"]))
                + (", work directory at most %s bytes (%s MiB) of tier files" % (n(g["work_dir_peak_bytes"]), text(mib(g["work_dir_peak_bytes"])))
                   if g.get("work_dir_peak_bytes") is not None else "")
                + "."
                + (" These are the figures of the run's last part only: it resumed with %s; the earlier parts' times were not kept." % text(g["resumed_from"])
                   if truthy(g.get("resumed_from")) else ""))
    if v is not None:
        line += " Verify: %s (%s s wall%s)." % (re.sub(r"^.*: ", "", text(v["summary"]), count=1), text(v["wall_s"]),
                                                ", over several runs" if truthy(v.get("resumed")) else "")
    else:
        line += " Verify: not run."
    if r.get("measured") is not None:
        line += " Measured %s with %s." % (text(r["measured"]), text(r["version"]))
    line += " Spot check: %s of %s random positions agree (seed %s), %s skipped over %s nodes, %s disagree." % (
        n(spot["agreed"]), n(spot["samples"]), text(spot["seed"]), text(spot["skipped"]), n(spot["node_budget"]), text(spot["disagreed"]))
    out += [line, ""]
    name = "%s-k%s" % (r["board"], text(r["max_pawns"]))
    out += statistics(name, documents.get(name))
    out.append("")
    return out


# ---- Boards proven by search ------------------------------------------------------


def proven(proof):
    """A proof record's word in the map: "proven: W", or that its certificate
    was refused."""
    if proof["certificate"]["checked"]:
        return ("proven: %s %s" % (letter(proof["winner"]), distance(proof))).rstrip()
    if proof["certificate"].get("written") is False:
        return ("searched: %s %s" % (letter(proof["winner"]), distance(proof))).rstrip() + \
            " (certificate too large to check)"
    return "not proven (certificate refused)"


def distance(proof):
    """A proof record's distance: "35" when proven exactly, else the bounds
    proven: "41–47", "≥41" or "≤47" (0 or 1 below, and none above when no
    line was found in time, are no bounds); "" when none."""
    lower, upper = proof.get("plies_lower"), proof.get("plies_upper")
    if lower is None:
        return ""
    if lower == upper:
        return text(lower)
    low = text(lower) if lower > 1 else ""
    high = text(upper) if upper is not None and upper < 128 else ""
    if low and high:
        return "%s–%s" % (low, high)
    return "≥" + low if low else "≤" + high if high else ""


def known(x, show):
    return "not recorded" if x is None else show(x)


def proof_row(p):
    """A proof's row of the table beyond the tables; a second proof is
    named by its root seed."""
    c = p["certificate"]
    if c["checked"]:
        checked = "yes, %s s, peak RSS %s MiB" % (known(c["check_seconds"], text), known(c["check_peak_rss_bytes"], lambda b: n(mib(b))))
    elif c.get("written") is False:
        checked = "no: %s" % text(c["message"])
    else:
        checked = "REFUSED: %s" % text(c["message"])
    size = ("more than %s positions" % n(c["positions"]) if c.get("written") is False
            else "%s bytes, %s positions" % (n(c["bytes"]), n(c["positions"])))
    return "| %s | %s | %s | %s | %s | %s / %s%s | %s | %s | %s | %s | %s | %s | %s |" % (
        proof_name(p), p["winner"], "none: white, to move, loses" if p["best_move"] is None else "`%s`" % text(p["best_move"]),
        distance(p) or "not proven", n(p["nodes"]), text(p["seconds"]), known(p.get("wall_seconds"), text),
        " (resumed)" if truthy(p.get("resumed")) else "",
        known(p["cpu_seconds"], text), known(p["peak_rss_bytes"], lambda b: n(mib(b))), n(mib(p["tt_bytes"])),
        size, checked, text(p["date"]), text(p["commit"]))


def proof_name(p):
    return p["board"] + (", second proof (root seed %s)" % text(p["root_seed"]) if p.get("root_seed") else "")


def boards_beyond_the_tables(records, proofs, beyond, tool, seconds=()):
    """The boards proven by search (data/proofs/RxC.json), their second
    proofs (RxC.seedN.json) and those of `beyond` (boards with no table) not
    proven yet."""
    proof = {p["board"]: p for p in proofs}
    second = {}
    for p in seconds:
        second.setdefault(p["board"], []).append(p)
    solved = {r["board"] for r in records}
    boards = sorted(set(proof) | {b for b in beyond if b not in solved}, key=board_size)
    if not boards:
        return []
    out = ["## Boards beyond the tables", "",
           "A board without a table can still be asked the first question: who wins from the start. "
           "`pawntb solve --no-tables` answers it by a depth-first search with a transposition table ([search.md](search.md)) "
           "that answers no position by a table, and writes its proof as a certificate ([certificate.md](certificate.md)): "
           "each position of the proof with the winner to move, and its winning move. `pawntb check-proof` replays the "
           "certificate with a move generator of its own, trying every reply of the loser; \"checked\" says it held. "
           "A proof gives the winner and a winning first move; `solve --dtm` then proves the distance, the plies to the end "
           "with best play, or within its `--time` the bounds it could (\"41–47\"; \"not proven\": a proof made without it); "
           "the checked certificate's longest line (the winner playing its stored moves, the loser anything) bounds the "
           "distance from above too. "
           "`%s --prove RxC` runs both, "
           "each timed (CPU time and peak RSS of the process), and writes `data/proofs/RxC.json`; the certificate stays in "
           "its work directory, out of the repository, and the command below makes it again. \"Time\" is the search's "
           "wall time as `solve` reports it, then the whole run's, with allocating the transposition table and writing the "
           "certificate, on a 2-core machine shared with other jobs (the load average when the search started is below); "
           "\"table\" the transposition table's size." % tool, "",
           "| board | winner from the start | a winning first move | distance (plies) | nodes | time (s): search / run | CPU (s) | peak RSS (MiB) | table (MiB) | certificate | checked: time, peak RSS | date | commit |",
           "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|---|"]
    for b in boards:
        out.append(proof_row(proof[b]) if b in proof else "| %s | not proven yet | | | | | | | | | | | |" % b)
        out += [proof_row(p) for p in second.get(b, [])]
    out.append("")
    if proofs:
        out += ["Each proof's commands, as run (the certificate's directory left out):", ""]
        for b in boards:
            for p in ([proof[b]] if b in proof else []) + second.get(b, []):
                c = p["certificate"]
                out.append("- %s: `%s`%s%s." % (
                    proof_name(p), known(p["command"], text),
                    ", then `%s`" % text(c["check_command"]) if c.get("check_command") else "",
                    "; load average %s" % text(p["load_average"]) if p.get("load_average") is not None else ""))
        out.append("")
    return out


def page(records, order, opening, intro, plot, projections, running, documents, tool, proofs=(), beyond=""):
    """docs/results.md, as text: `records` in the page's order, `order` every
    board of the page (solved or not, "3x3 3x4 ..."), `opening` and `intro`
    the fixed paragraphs (Markdown), `plot` the plot's path relative to docs/,
    `projections` data/answers/projections.json or None, `running` the
    progress records of the runs not finished, `documents` the statistics
    documents by name ("RxC-kK"), `tool` the script's path in its sentences,
    `proofs` the records of boards proven by search (data/proofs/RxC.json),
    `beyond` the boards with no table to list as not proven when they are not
    ("6x7 5x8 ...")."""
    all_boards = boards_of(order)
    # A second proof of a board (another root order) stands beside its first;
    # one recorded before any first is the board's proof.
    firsts = {p["board"] for p in proofs if not p.get("root_seed")}
    seconds = [p for p in proofs if p.get("root_seed") and p["board"] in firsts]
    proofs = [p for p in proofs if not p.get("root_seed") or p["board"] not in firsts]
    solved = [r["board"] for r in records]
    pending = [b for b in all_boards if b not in solved]
    projections = projections or {"boards": []}
    out = ["# Results: pawn chess solved on %d boards, %s to %s" % (len(records), records[0]["board"], records[-1]["board"]), "",
           opening, ""]
    out += what_the_map_shows(records, pending, tool, proofs)
    out += the_map(records, all_boards, pending, projections["boards"], running, plot, proofs, seconds)
    out += boards_not_solved(records, all_boards, pending, projections, running, tool, proofs)
    out += boards_beyond_the_tables(records, proofs, boards_of(beyond), tool, seconds)
    out += [intro, "",
            "| board | K | positions (white to move) | start: winner (plies) | side to move wins | longest win (plies, positions) | generate: wall / CPU (s) | peak RSS (MiB) | work dir peak (MiB) | verify | spot check agreed / skipped | file (bytes) | XXH3-64 |",
            "|---|---:|---:|---|---:|---|---:|---:|---:|---|---:|---:|---|"]
    out += [summary_row(r) for r in records]
    out.append("")
    for r in records:
        out += board_section(r, documents)
    return "\n".join(out) + "\n"


# ---- The plot -------------------------------------------------------------------

COLOURS = ["#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#a6761d"]


def r1(x):
    return num(rnd(x * 10) / 10)


def attr(name, value):
    return ' %s="%s"' % (name, text(value))


def plot(records):
    """The page's plot, as SVG text: the start's value in plies against the
    rows, one line per number of columns, a filled mark where white (the first
    player) wins and an open one where black wins."""
    points = [{"rows": r["rows"], "cols": r["cols"], "board": r["board"], "winner": r["start"]["winner"],
               "plies": r["start"]["plies"]} for r in records]
    width, height = 640, 420
    left, right, top, bottom = 56, 150, 44, 52
    w, h = width - left - right, height - top - bottom
    x0, x1 = 3, 8
    y0 = 0
    y1 = math.ceil(max(p["plies"] for p in points) / 5) * 5

    def x(v):
        return left + (v - x0) * w / (x1 - x0)

    def y(v):
        return top + h - (v - y0) * h / (y1 - y0)

    columns = sorted({p["cols"] for p in points})

    def colour(c):
        return COLOURS[(c - 3) % len(COLOURS)]

    out = ['<svg xmlns="http://www.w3.org/2000/svg"' + attr("width", width) + attr("height", height)
           + attr("viewBox", "0 0 %d %d" % (width, height)) + ' font-family="DejaVu Sans, Arial, sans-serif" font-size="13">',
           '<rect width="100%" height="100%" fill="white"/>',
           "<text" + attr("x", left) + attr("y", 24) + ' font-size="15">The start\'s value (plies, best play) against the rows</text>']
    for v in range(y0, y1 + 1, 5):
        out.append("<line" + attr("x1", left) + attr("x2", left + w) + attr("y1", r1(y(v))) + attr("y2", r1(y(v))) + ' stroke="#dddddd"/>')
        out.append("<text" + attr("x", left - 8) + attr("y", r1(y(v) + 4)) + ' text-anchor="end">%d</text>' % v)
    for v in range(x0, x1 + 1):
        out.append("<line" + attr("x1", r1(x(v))) + attr("x2", r1(x(v))) + attr("y1", top) + attr("y2", top + h) + ' stroke="#eeeeee"/>')
        out.append("<text" + attr("x", r1(x(v))) + attr("y", top + h + 18) + ' text-anchor="middle">%d</text>' % v)
    out.append("<rect" + attr("x", left) + attr("y", top) + attr("width", w) + attr("height", h) + ' fill="none" stroke="#555555"/>')
    out.append("<text" + attr("x", r1(left + w / 2)) + attr("y", height - 12) + ' text-anchor="middle">rows R (board R×C)</text>')
    out.append("<text" + attr("x", 16) + attr("y", r1(top + h / 2)) + ' text-anchor="middle"'
               + attr("transform", "rotate(-90 16 %s)" % r1(top + h / 2)) + ">plies from the start</text>")
    for c in columns:
        line = sorted((p for p in points if p["cols"] == c), key=lambda p: p["rows"])
        if len(line) > 1:
            out.append('<polyline fill="none"' + attr("stroke", colour(c)) + ' stroke-width="2"'
                       + attr("points", " ".join("%s,%s" % (r1(x(p["rows"])), r1(y(p["plies"]))) for p in line)) + "/>")
        for p in line:
            out.append("<circle" + attr("cx", r1(x(p["rows"]))) + attr("cy", r1(y(p["plies"]))) + ' r="5"'
                       + attr("stroke", colour(c)) + ' stroke-width="2"'
                       + attr("fill", colour(c) if p["winner"] == "white" else "white")
                       + "><title>%s: %s wins in %s plies</title></circle>" % (p["board"], p["winner"], text(p["plies"])))
    for i, c in enumerate(columns):
        ly = top + 10 + i * 22
        out.append("<line" + attr("x1", width - right + 16) + attr("x2", width - right + 40) + attr("y1", ly) + attr("y2", ly)
                   + attr("stroke", colour(c)) + ' stroke-width="2"/>')
        out.append("<text" + attr("x", width - right + 46) + attr("y", ly + 4) + ">C = %d</text>" % c)
    ly = top + 10 + len(columns) * 22 + 12
    out += ["<circle" + attr("cx", width - right + 28) + attr("cy", ly) + ' r="5" stroke="#555555" stroke-width="2" fill="#555555"/>',
            "<text" + attr("x", width - right + 46) + attr("y", ly + 4) + ">white wins</text>",
            "<circle" + attr("cx", width - right + 28) + attr("cy", ly + 22) + ' r="5" stroke="#555555" stroke-width="2" fill="white"/>',
            "<text" + attr("x", width - right + 46) + attr("y", ly + 26) + ">black wins</text>",
            "</svg>"]
    return "\n".join(out) + "\n"
