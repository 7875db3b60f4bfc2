"""The area report (:func:`planner.organiser.area_check.check_area`) as text for the terminal and as a self-contained HTML page
for the organisers (every value escaped)."""

from __future__ import annotations

import datetime as dt
import html

from planner.util.table import format_table


def _yn(v: bool) -> str:
    return "yes" if v else "NO"


def _ends(c: dict) -> str:
    """Whether a toll line's or tunnel's end stations are in the feed, naming those that are not (as its problem
    does): ``yes`` or ``NO: Delémont, Laufen``."""
    missing = c.get("missing_ends", [])
    return "NO: " + ", ".join(missing) if missing else "yes"


def render_text(rep: dict) -> str:
    """The report for a terminal."""
    lines = [f"{rep['title']} on {rep['date']} (feed {rep['feed_version']}): "
             f"{'VALID' if rep['valid'] else 'INVALID'}"]
    for p in rep["problems"]:
        lines.append(f"  problem: {p}")
    for w in rep["warnings"]:
        lines.append(f"  warning: {w}")
    rows = [{**t, "found": _yn(t["found"]), "in_area": _yn(t["in_area"]), "served": _yn(t["served"])}
            for t in rep["targets"]]
    lines += ["", "Dice targets", format_table(rows, ["number", "name", "found", "in_area", "served", "first", "last",
                                                      "per_hour"])]
    for key, title in (("toll_lines", "Toll lines"), ("tunnels", "Tunnels")):
        if rep[key]:
            rows = [{**c, "found": _yn(c["found"]), "ends_in_feed": _ends(c), "in_area": _yn(c["in_area"]),
                     "served": _yn(c["served"]), "routes": ", ".join(c["routes"]) or "-"} for c in rep[key]]
            lines += ["", title, format_table(rows, ["name", "found", "ends_in_feed", "in_area", "served", "first",
                                                     "last", "per_hour", "routes"], width=120)]
    st = rep["stations"]
    lines += ["", f"Stations in the area: {st['count']} ("
              + ", ".join(f"{k} {v}" for k, v in st["by_category"].items()) + f"); on the ring: {len(st['on_ring'])}"]
    lines.append("Letters: " + ", ".join(f"{k} {v['stations']}" for k, v in rep["letters"].items()))
    if rep["unreachable"]:
        lines.append("Not connected within the game hours: "
                     + "; ".join(f"{u['from']} -> {u['count']} station(s)" for u in rep["unreachable"][:10]))
    lines.append(rep["source"])
    lab = rep.get("lab")
    if lab:
        lines += ["", f"game lab (is the dice table fair, which stations pay): {lab['report'] or lab['command']}"]
    return "\n".join(lines)


_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:1.5em auto;max-width:70em;
padding:0 1em;color:#222;line-height:1.4}
h1{font-size:1.5em;margin-bottom:.2em} h2{font-size:1.15em;margin-top:1.6em;border-bottom:1px solid #ccc}
.verdict{padding:.8em 1em;border-radius:6px;font-size:1.2em;font-weight:600;margin:1em 0}
.valid{background:#e3f4e1;border:2px solid #2e7d32;color:#1b5e20}
.invalid{background:#fde8e7;border:2px solid #c62828;color:#8e0000}
table{border-collapse:collapse;margin:.5em 0;font-size:.92em} th,td{border:1px solid #ccc;padding:.25em .6em;
text-align:left;vertical-align:top} th{background:#f2f2f2} td.no{background:#fde8e7;color:#8e0000;font-weight:600}
td.yes{color:#1b5e20} td.num{text-align:right} ul.problems li{color:#8e0000} ul.warnings li{color:#7a5800}
.meta{color:#555} footer{margin-top:2em;color:#555;font-size:.9em;border-top:1px solid #ccc;padding-top:.5em}
"""


def _td(v, cls: str = "") -> str:
    if isinstance(v, bool):
        return f'<td class="{"yes" if v else "no"}">{"yes" if v else "no"}</td>'
    if v is None:
        v = "–"
    if isinstance(v, list):
        v = ", ".join(map(str, v)) or "–"
    c = f' class="{cls}"' if cls else (' class="num"' if isinstance(v, int | float) else "")
    return f"<td{c}>{html.escape(str(v))}</td>"


def _table(rows: list[dict], cols: list[tuple[str, str]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for _k, h in cols)
    body = "".join("<tr>" + "".join(_td(r.get(k)) for k, _h in cols) + "</tr>" for r in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def render_html(rep: dict) -> str:
    """A self-contained, readable HTML page of the report (no external resources)."""
    e = html.escape
    verdict = ("The game area is valid." if rep["valid"] else
               f"The game area is NOT valid: {len(rep['problems'])} problem(s).")
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        "<meta name='viewport' content='width=device-width, initial-scale=1'>",
        f"<title>Area check: {e(rep['title'])} {e(rep['date'])}</title><style>{_CSS}</style></head><body>",
        f"<h1>Area check: {e(rep['title'])}</h1>",
        f"<p class='meta'>Game day {e(rep['date'])}, game hours {e(rep['game_hours']['start'])}–"
        f"{e(rep['game_hours']['end'])}; feed version {e(str(rep['feed_version']))}"
        f"{' (' + e(str(rep['feed'])) + ')' if rep.get('feed') else ''}.</p>",
        f"<div id='verdict' class='verdict {'valid' if rep['valid'] else 'invalid'}'>{e(verdict)}</div>",
    ]
    if rep["problems"]:
        parts.append("<h2>Problems</h2><ul class='problems'>"
                     + "".join(f"<li>{e(p)}</li>" for p in rep["problems"]) + "</ul>")
    if rep["warnings"]:
        parts.append("<h2>Warnings</h2><ul class='warnings'>"
                     + "".join(f"<li>{e(w)}</li>" for w in rep["warnings"]) + "</ul>")
    parts.append("<h2>Dice targets</h2>" + _table(rep["targets"], [
        ("number", "No."), ("name", "Target"), ("found", "In feed"), ("in_area", "In area"), ("served", "Served"),
        ("first", "First"), ("last", "Last"), ("per_hour", "Trains/h")]))
    for key, title in (("toll_lines", "Toll lines"), ("tunnels", "Tunnels")):
        if rep[key]:
            rows = [{**c, "ends_in_feed": _ends(c)} for c in rep[key]]
            parts.append(f"<h2>{title}</h2>" + _table(rows, [
                ("name", "Name"), ("between", "Between"), ("found", "Found"), ("ends_in_feed", "Ends in feed"),
                ("in_area", "In area"),
                ("served", "Crossed"), ("first", "First"), ("last", "Last"), ("per_hour", "Trains/h"),
                ("routes", "Routes crossing it (whole day)"), ("method", "Decided on")]))
    st = rep["stations"]
    parts.append("<h2>The area</h2>")
    parts.append(f"<p>{st['count']} stations served in the area on {e(rep['date'])}: "
                 + ", ".join(f"{e(k)} {v}" for k, v in st["by_category"].items()) + ".</p>")
    ria = st["routes_in_area"]
    parts.append(f"<p>{ria['count']} routes run in the area: {e(', '.join(ria['names']))}.</p>")
    parts.append(f"<p>On the ring ({len(st['on_ring'])}): {e(', '.join(st['on_ring'])) or '–'}. "
                 f"Ring stations listed in the game file but not served in this feed on the day: "
                 f"{len(st['ring_not_served'])} of {st['ring_listed']}.</p>")
    routes = st.get("routes")
    if routes:
        dropped = ", ".join(f"{k} {v}" for k, v in routes["dropped_by_mode"].items()) or "none"
        parts.append(f"<p>Routes of the feed dropped by mode: {e(dropped)} (of {routes['feed_routes']}).</p>")
        if routes["excluded"]:
            parts.append("<p>Excluded by the game file:</p>" + _table(routes["excluded"], [
                ("agency", "Agency"), ("route", "Route"), ("routes", "Matching feed routes")]))
    parts.append("<h2>Connectivity over the game hours</h2>")
    if rep["unreachable"]:
        parts.append(_table(rep["unreachable"], [("from", "From"), ("count", "Cannot reach"), ("to", "Stations")]))
    else:
        parts.append("<p>Every in-area station reaches every other within the game hours.</p>")
    parts.append("<h2>Letter groups</h2>")
    lrows = [{"letter": k, **v} for k, v in rep["letters"].items()]
    parts.append(_table(lrows, [("letter", "Letter"), ("stations", "Stations"), ("groups", "Groups"),
                                ("can_form_group", "Can form a group"), ("names", "Names")]))
    parts.append("<h2>Buyable stations</h2>")
    parts.append(_table(st["buyable"], [("name", "Station"), ("category", "Category"), ("price", "Price"),
                                        ("letter", "Letter"), ("targets", "Dice target")]))
    lab = rep.get("lab")
    if lab:
        parts.append("<h2>Game lab</h2>")
        if lab["report"]:
            parts.append(f"<p id='lab'>Is the dice table fair from every part of the area, which stations pay back: "
                         f"<a href='{e(lab['report'])}'>the game lab's report</a>.</p>")
        else:
            parts.append("<p id='lab'>Is the dice table fair from every part of the area, which stations pay back? "
                         f"Simulate whole game days: <code>{e(lab['command'])}</code></p>")
    parts.append(f"<footer>{e(rep['source'])}. Generated by sbb-planner on "
                 f"{dt.date.today().isoformat()}.</footer></body></html>")
    return "\n".join(parts)
