"""The lab report as one self-contained HTML page (no script, font or tile from anywhere): how the days were
played, the verdict, a map layer of the stations by fee income over the area's base map, charts (inline SVG,
:mod:`planner.lab.charts`) and the tables behind them.

Money is shown in whole francs, as the report holds it. The page is a function of the report: equal reports,
equal bytes.
"""

from __future__ import annotations

import json
from html import escape

from planner.game.prices import category_label
from planner.lab.charts import bars, station_map
from planner.lab.findings import region_name
from planner.lab.moves import Board
from planner.lab.report import routing_note
from planner.util.i18n import _, format_amount, format_long_date, language

CSS = """
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em auto;max-width:1100px;color:#222;padding:0 1em}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:.5em 0;font-size:13px}td,th{border:1px solid #ddd;padding:2px 6px;text-align:right}
td:first-child,th:first-child,td.l{text-align:left}.fair{color:#1a7f37}.unfair{color:#b3261e}
svg{background:#fafafa;border:1px solid #ddd;max-width:100%;height:auto}.note{color:#555;font-size:12px}
table.payback td:nth-child(2),table.payback td:nth-child(3){text-align:left}
#findings li{margin-bottom:.6em}#findings p{margin:.1em 0}.action{font-weight:600}
details{margin-top:2em}summary{cursor:pointer;font-size:1.1em;font-weight:600}
.mode{padding:.4em .7em;border-left:4px solid #999;background:#f4f4f4}.mode.warn{border-color:#b3261e;background:#fdecea}
"""


FRONT_STATIONS = 8  # the payback ranking's best, up front


def _fmt(v) -> str:
    if v is None:
        return "–"
    if isinstance(v, float):
        return f"{v:.3f}".rstrip("0").rstrip(".") or "0"
    return escape(str(v))


def money(v) -> str:
    """An amount in whole francs (rounded), "–" for none."""
    return "–" if v is None else format_amount(int(round(v)))


def _table(head: list[str], rows: list[list], cls: str = "") -> str:
    th = "".join(f"<th>{escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{_fmt(c)}</td>" for c in r) + "</tr>" for r in rows)
    return f'<table class="{cls}"><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>'


def _tag(tag: str, text: str) -> str:
    """``text`` (escaped) as one element: ``<h2>…</h2>``."""
    return f"<{tag}>{escape(text)}</{tag}>"


def _header(m: dict) -> list[str]:
    """Title, how the days were played (said loudly when not by the game's rules), what the page rests on."""
    warn = " warn" if m.get("plain_routing") or m.get("realtime") else ""
    return [
        _tag("h1", _("Game lab: {title}, {date}").format(title=m["title"], date=format_long_date(m["date"]))),
        f'<p id="lab-mode" class="mode{warn}">{escape(routing_note(m))}</p>',
        '<p class="note">' + escape(_(
            "Feed {feed}: {days} simulated days of {groups} groups ({strategies}), seed {seed}, {start}–{end}, dice "
            "from {dice_from}: {rolls} rolls, {events} ledger events; money conserved in every day: {conserved}. "
            "Same seed, same page.").format(
            feed=m.get("feed_version", ""), days=m["days"], groups=m["groups"], strategies=", ".join(m["strategies"]),
            seed=m["seed"], start=m["start"], end=m["end"], dice_from=m["dice_from"], rolls=m["rolls"],
            events=m["ledger_events"], conserved=_("yes") if m["money_conserved"] else _("no"))) + "</p>"]


def _verdict(v: dict) -> list[str]:
    """The one screen: whether the dice table is fair, and at most five findings, each its evidence and what to
    do."""
    fair = ('<p id="verdict" class="fair"><b>' + escape(_("The dice table is fair.")) + "</b></p>" if v["fair"] else
            '<p id="verdict" class="unfair"><b>' + escape(_("The dice table is not fair.")) + "</b></p>")
    items = "".join(f'<li data-key="{escape(f["key"])}"><p class="evidence">{escape(f["evidence"])}</p>'
                    f'<p class="action">{escape(f["action"])}</p></li>' for f in v["findings"])
    body = (f'<ol id="findings">{items}</ol>' if items else
            '<p id="findings">' + escape(_("Nothing to change: every finding is within its threshold.")) + "</p>")
    return [_tag("h2", _("What to change")), fair, body]


def _verdict_details(v: dict) -> list[str]:
    """Every reason and every number the verdict rests on, with its thresholds."""
    reasons = "".join(f"<li>{escape(r)}</li>" for r in v["reasons"])
    rests = "".join(f"<li>{escape(r)}</li>" for r in v.get("rests_on", []))
    return [
        _tag("h2", _("Verdict on the dice table")), f"<ul id='reasons'>{reasons}</ul>",
        _tag("p", _("What the verdict rests on:")) + f"<ul id='rests-on'>{rests}</ul>",
        '<p class="note">' + escape(_(
            "Thresholds: a number is unfair when more than {share} of its targets are not reached before the end, "
            "or its median travel time differs by more than {minutes} minutes between parts of the area.").format(
            share=f'{v["thresholds"]["unreached"]:.0%}', minutes=v["thresholds"]["spread_minutes"])) + "</p>"]


def _front(rep: dict) -> list[str]:
    """The payback ranking's best stations and the start regions, up front."""
    top = [[s["rank"], s["name"], category_label(s["category"]), money(s["price"]), s["stops_per_day"],
            money(s["fee_income_per_day"]), s["payback_minutes"]] for s in rep["stations"][:FRONT_STATIONS]]
    c = rep["capital"]
    reg = [[region_name(k), x["n"], money(x["mean"]), f'{x["wins"]:.0%}'] for k, x in c["by_region"].items()]
    return [
        _tag("h2", _("Stations that pay back best")),
        _table(["#", _("station"), _("class"), _("price"), _("stops/day"), _("fees/day"), _("payback min")], top,
               "payback"),
        _tag("h2", _("Start regions")),
        _table([_("start region"), _("groups"), _("mean"), _("wins")], reg, "start-regions"),
        _tag("p", _start(c))]


def _start(c: dict) -> str:
    if c["start_z"] is None:
        return _("Is the start decisive? Too few groups per start region to tell.")
    return (_("Is the start decisive? yes (best and worst start region apart by z = {z} standard errors; decisive "
              "from 2).") if c["start_decisive"] else
            _("Is the start decisive? no (best and worst start region apart by z = {z} standard errors; decisive "
              "from 2).")).format(z=_fmt(c["start_z"]))


def _stations(rep: dict, board: Board) -> list[str]:
    """The map, the fee income chart and the station table."""
    st = rep["stations"]
    rows = [[s["rank"], s["name"], s["category"], s["region"], money(s["price"]), money(s["fee"]), s["stops_per_day"],
             s["groups_per_day"], money(s["fee_income_per_day"]), s["payback_minutes"], _("yes") if s["pays_back"] else _("no")]
            for s in st]
    return [
        _tag("h2", _("Stations: where groups stop, what a station pays back")),
        '<p class="note">' + escape(_(
            "Circle size: fee income per day if one group owned the station (the other groups' stops times the "
            "unbuilt fee), in francs; red: pays back its price before the end. The best stations by fee income "
            "against price are named; hover for the numbers.")) + "</p>",
        station_map(rep, board, money),
        bars("chart-income", [(s["name"], s["fee_income_per_day"]) for s in st[:15]], _("per day"), fmt=money),
        _table(["#", _("station"), _("class"), _("region"), _("price"), _("fee"), _("stops/day"), _("groups/day"),
                _("fees/day"), _("payback min"), _("pays back")], rows, "stations")]


def _never(d: dict) -> str:
    """The targets never chosen: those some roll could have been given but another was always faster, and those
    no roll could be given (the two lists never share a target)."""
    fastest, available = d["never_fastest"], d["never_available"]
    if not fastest and not available:
        return '<p id="never">' + escape(_("Every target of the dice table was the fastest, and so chosen, at least "
                                           "once.")) + "</p>"
    return ('<p id="never">' + escape(_(
        "Never the fastest (reachable and not yet targeted in some roll, but another target of the number was always "
        "faster): {names}.").format(names=", ".join(fastest) or _("none"))) + "<br>" + escape(_(
        "Never reachable (no roll could be given them: not in the feed's area, or not reachable from where groups "
        "rolled): {names}.").format(names=", ".join(available) or _("none"))) + "</p>")


def _dice(d: dict) -> list[str]:
    """The dice chart, the per-number table, the never-chosen targets, the tables by region and hour."""
    dice_rows, region_rows = [], []
    for n, x in d["numbers"].items():
        t = x["travel"]
        dice_rows.append([n, x["rolls"], t["median"], t["p90"], t["unreached"], x["as_free"],
                          ", ".join(f"{k} {cnt}" for k, cnt in x["targets"].items()) or "–"])
        for reg, r in x["by_region"].items():
            region_rows.append([n, reg, r["n"], r["median"], r["p90"], r["unreached"]])
    hour_rows = [[n, h, r["n"], r["median"], r["p90"], r["unreached"]]
                 for n, x in d["numbers"].items() for h, r in x["by_hour"].items()]
    return [
        _tag("h2", _("Dice numbers: how long to the target")),
        bars("chart-dice", [(_("{number}: median").format(number=n), x["travel"]["median"])
                            for n, x in d["numbers"].items()], _("min"), "#e07000", fmt=_fmt,
             empty=_("– no target reached")),
        _table([_("number"), _("rolls"), _("median min"), _("p90 min"), _("unreached"), _("as free"),
                _("targets chosen")], dice_rows),
        _never(d),
        _tag("h3", _("By part of the area")),
        _table([_("number"), _("region"), _("rolls"), _("median min"), _("p90 min"), _("unreached")], region_rows),
        _tag("h3", _("By hour of the roll")),
        _table([_("number"), _("hour"), _("rolls"), _("median min"), _("p90 min"), _("unreached")], hour_rows)]


def _capital(c: dict) -> list[str]:
    """Final capital by strategy, by start region, and by both (is the start decisive?)."""
    cap = [[k, x["n"], money(x["mean"]), money(x["median"]), x["wins"]] for k, x in c["by_strategy"].items()]
    reg = [[region_name(k), x["n"], money(x["mean"]), money(x["median"]), x["wins"]] for k, x in c["by_region"].items()]
    cross = c["by_region_strategy"]
    strategies = sorted({s for row in cross.values() for s in row})
    both = [[region_name(r), *(money(row.get(s)) for s in strategies)] for r, row in cross.items()]
    return [
        _tag("h2", _("Final capital: strategy and start")),
        bars("chart-capital", [(k, x["mean"]) for k, x in c["by_strategy"].items()], "", "#2e7d32", fmt=money),
        _table([_("strategy"), _("groups"), _("mean"), _("median"), _("wins")], cap),
        _table([_("start region"), _("groups"), _("mean"), _("median"), _("wins")], reg),
        _tag("h3", _("Mean final capital by start region and strategy")),
        '<p class="note">' + escape(_(
            'Each cell: the mean of the groups of that strategy that started in that region ("–": none did). A start '
            'that decides shows as a row better or worse than the others in every column.')) + "</p>",
        _table([_("start region"), *strategies], both, "region-strategy"),
        _tag("p", _start(c))]


def render_html(rep: dict, board: Board) -> str:
    """The report page (see module docstring): one screen of what to change, the rest folded."""
    m = rep["meta"]
    more = [*_verdict_details(rep["verdict"]), *_stations(rep, board), *_dice(rep["dice"]), *_capital(rep["capital"])]
    body = [*_header(m), *_verdict(rep["verdict"]), *_front(rep),
            '<details id="details"><summary>' + escape(_("All numbers: map, charts and tables")) + "</summary>",
            *more, "</details>",
            '<script type="application/json" id="lab-data">'
            + json.dumps(rep, ensure_ascii=False, sort_keys=True).replace("</", "<\\/") + "</script>"]
    title = escape(_("Game lab: {title}, {date}").format(title=m["title"], date=m["date"]))
    return (f"<!doctype html><html lang=\"{language()}\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{title}</title><style>{CSS}</style></head><body>"
            + "\n".join(body) + "</body></html>\n")
