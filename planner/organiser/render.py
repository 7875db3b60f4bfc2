"""The area report (:func:`planner.organiser.area_check.check_area`) as text for the terminal and as a self-contained HTML page
for the organisers (every value escaped)."""

from __future__ import annotations

import datetime as dt
import html

from planner.game.prices import category_label
from planner.util.i18n import _, format_amount, format_long_date, language, ngettext
from planner.util.table import format_table


def _yn(v: bool) -> str:
    return _("yes") if v else _("NO")


def _ends(c: dict) -> str:
    """Whether a toll line's or tunnel's end stations are in the feed, naming those that are not (as its problem
    does): ``yes`` or ``NO: Delémont, Laufen``."""
    missing = c.get("missing_ends", [])
    return _("NO: {stations}").format(stations=", ".join(missing)) if missing else _("yes")



def _counts(by: dict) -> str:
    """``{"IC": 3, "fast": 6}`` as the legends name the categories: ``IC / EC 3, IR / RE (fast) 6``."""
    return ", ".join(f"{category_label(k)} {format_amount(v)}" for k, v in by.items())


def render_text(rep: dict) -> str:
    """The report for a terminal."""
    args = {"title": rep["title"], "date": format_long_date(rep["date"]), "feed": rep["feed_version"]}
    lines = [(_("{title} on {date} (feed {feed}): VALID") if rep["valid"]
              else _("{title} on {date} (feed {feed}): INVALID")).format(**args)]
    for p in rep["problems"]:
        lines.append("  " + _("problem: {text}").format(text=p))
    for w in rep["warnings"]:
        lines.append("  " + _("warning: {text}").format(text=w))
    rows = [{**t, "found": _yn(t["found"]), "in_area": _yn(t["in_area"]), "served": _yn(t["served"])}
            for t in rep["targets"]]
    cols = ["number", "name", "found", "in_area", "served", "first", "last", "per_hour"]
    heads = [_("number"), _("name"), _("found"), _("in area"), _("served"), _("first"), _("last"), _("per hour")]
    lines += ["", _("Dice targets"), format_table(rows, cols, heads)]
    for key, title in (("toll_lines", _("Toll lines")), ("tunnels", _("Tunnels"))):
        if rep[key]:
            rows = [{**c, "found": _yn(c["found"]), "ends_in_feed": _ends(c), "in_area": _yn(c["in_area"]),
                     "served": _yn(c["served"]), "routes": ", ".join(c["routes"]) or "-"} for c in rep[key]]
            lines += ["", title, format_table(
                rows, ["name", "found", "ends_in_feed", "in_area", "served", "first", "last", "per_hour", "routes"],
                [_("name"), _("found"), _("ends in feed"), _("in area"), _("served"), _("first"), _("last"),
                 _("per hour"), _("routes")], width=120)]
    st = rep["stations"]
    lines += ["", _("Stations in the area: {n} ({categories}); on the ring: {ring}").format(
        n=format_amount(st["count"]), categories=_counts(st["by_category"]), ring=format_amount(len(st["on_ring"])))]
    lines.append(_("Letters: {letters}").format(
        letters=", ".join(f"{k} {format_amount(v['stations'])}" for k, v in rep["letters"].items())))
    if rep["unreachable"]:
        lines.append(_("Not connected within the game hours: {stations}").format(stations="; ".join(
            ngettext("{station} -> {n} station", "{station} -> {n} stations", u["count"]).format(
                station=u["from"], n=format_amount(u["count"])) for u in rep["unreachable"][:10])))
    lines.append(_(rep["source"]))
    lab = rep.get("lab")
    if lab:
        lines += ["", _("game lab (is the dice table fair, which stations pay): {where}").format(
            where=lab["report"] or lab["command"])]
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
        said = html.escape(_("yes") if v else _("no"))
        return f'<td class="{"yes" if v else "no"}">{said}</td>'
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
    n_problems = len(rep["problems"])
    verdict = (_("The game area is valid.") if rep["valid"] else
               ngettext("The game area is NOT valid: {n} problem.", "The game area is NOT valid: {n} problems.",
                        n_problems).format(n=format_amount(n_problems)))
    hours = {"start": rep["game_hours"]["start"], "end": rep["game_hours"]["end"], "date": format_long_date(rep["date"]),
             "version": str(rep["feed_version"])}
    meta = (_("Game day {date}, game hours {start}–{end}; feed version {version} ({feed}).").format(
                feed=str(rep["feed"]), **hours) if rep.get("feed") else
            _("Game day {date}, game hours {start}–{end}; feed version {version}.").format(**hours))
    parts = [
        f"<!DOCTYPE html><html lang='{e(language())}'><head><meta charset='utf-8'>",
        "<meta name='viewport' content='width=device-width, initial-scale=1'>",
        "<title>" + e(_("Area check: {title} {date}").format(title=rep["title"], date=rep["date"])) + "</title>"
        f"<style>{_CSS}</style></head><body>",
        "<h1>" + e(_("Area check: {title}").format(title=rep["title"])) + "</h1>",
        f"<p class='meta'>{e(meta)}</p>",
        f"<div id='verdict' class='verdict {'valid' if rep['valid'] else 'invalid'}'>{e(verdict)}</div>",
    ]
    if rep["problems"]:
        parts.append("<h2>" + e(_("Problems")) + "</h2><ul class='problems'>"
                     + "".join(f"<li>{e(p)}</li>" for p in rep["problems"]) + "</ul>")
    if rep["warnings"]:
        parts.append("<h2>" + e(_("Warnings")) + "</h2><ul class='warnings'>"
                     + "".join(f"<li>{e(w)}</li>" for w in rep["warnings"]) + "</ul>")
    parts.append("<h2>" + e(_("Dice targets")) + "</h2>" + _table(rep["targets"], [
        ("number", _("No.")), ("name", _("Target")), ("found", _("In feed")), ("in_area", _("In area")),
        ("served", _("Served")), ("first", _("First")), ("last", _("Last")), ("per_hour", _("Trains/h"))]))
    for key, title in (("toll_lines", _("Toll lines")), ("tunnels", _("Tunnels"))):
        if rep[key]:
            rows = [{**c, "ends_in_feed": _ends(c), "method": _method(c.get("method"))} for c in rep[key]]
            parts.append(f"<h2>{e(title)}</h2>" + _table(rows, [
                ("name", _("Name")), ("between", _("Between")), ("found", _("Found")),
                ("ends_in_feed", _("Ends in feed")), ("in_area", _("In area")),
                ("served", _("Crossed")), ("first", _("First")), ("last", _("Last")), ("per_hour", _("Trains/h")),
                ("routes", _("Routes crossing it (whole day)")), ("method", _("Decided on"))]))
    parts += _area_parts(rep) + _holdings_parts(rep)
    parts.append("<footer>" + e(_("{source}. Generated by sbb-planner on {date}.").format(
        source=_(rep["source"]), date=format_long_date(dt.date.today()))) + "</footer></body></html>")
    return "\n".join(parts)


def _area_parts(rep: dict) -> list[str]:
    """The report's area: stations, routes, the ring and connectivity (HTML pieces)."""
    e = html.escape
    parts: list[str] = []
    st = rep["stations"]
    parts.append("<h2>" + e(_("The area")) + "</h2>")
    parts.append("<p>" + e(ngettext("{n} station served in the area on {date}: {categories}.",
                                    "{n} stations served in the area on {date}: {categories}.", st["count"]).format(
        n=format_amount(st["count"]), date=format_long_date(rep["date"]), categories=_counts(st["by_category"]))) + "</p>")
    ria = st["routes_in_area"]
    parts.append("<p>" + e(ngettext("{n} route runs in the area: {routes}.", "{n} routes run in the area: {routes}.",
                                    ria["count"]).format(n=format_amount(ria["count"]),
                                                         routes=", ".join(ria["names"]))) + "</p>")
    parts.append("<p>" + e(_("On the ring ({n}): {stations}.").format(
        n=format_amount(len(st["on_ring"])), stations=", ".join(st["on_ring"]) or "–")) + " "
        + e(_("Ring stations listed in the game file but not served in this feed on the day: {n} of {listed}.").format(
            n=format_amount(len(st["ring_not_served"])), listed=format_amount(st["ring_listed"]))) + "</p>")
    routes = st.get("routes")
    if routes:
        dropped = _counts(routes["dropped_by_mode"]) or _("none")
        parts.append("<p>" + e(_("Routes of the feed dropped by mode: {dropped} (of {n}).").format(
            dropped=dropped, n=format_amount(routes["feed_routes"]))) + "</p>")
        if routes["excluded"]:
            parts.append("<p>" + e(_("Excluded by the game file:")) + "</p>" + _table(routes["excluded"], [
                ("agency", _("Agency")), ("route", _("Route")), ("routes", _("Matching feed routes"))]))
    parts.append("<h2>" + e(_("Connectivity over the game hours")) + "</h2>")
    if rep["unreachable"]:
        parts.append(_table(rep["unreachable"], [("from", _("From")), ("count", _("Cannot reach")),
                                                 ("to", _("Stations"))]))
    else:
        parts.append("<p>" + e(_("Every in-area station reaches every other within the game hours.")) + "</p>")
    return parts


def _holdings_parts(rep: dict) -> list[str]:
    """The report's letter groups, buyable stations and the game lab's link (HTML pieces)."""
    e = html.escape
    parts: list[str] = []
    parts.append("<h2>" + e(_("Letter groups")) + "</h2>")
    lrows = [{"letter": k, **v} for k, v in rep["letters"].items()]
    parts.append(_table(lrows, [("letter", _("Letter")), ("stations", _("Stations")), ("groups", _("Groups")),
                                ("can_form_group", _("Can form a group")), ("names", _("Names"))]))
    parts.append("<h2>" + e(_("Buyable stations")) + "</h2>")
    buyable = [{**r, "category": category_label(str(r.get("category"))),
                **({"price": format_amount(r["price"])} if isinstance(r.get("price"), int | float) else {})}
               for r in rep["stations"]["buyable"]]
    parts.append(_table(buyable, [("name", _("Station")), ("category", _("Category")), ("price", _("Price")),
                                  ("letter", _("Letter")), ("targets", _("Dice target"))]))
    lab = rep.get("lab")
    if lab:
        parts.append("<h2>" + e(_("Game lab")) + "</h2>")
        if lab["report"]:
            parts.append("<p id='lab'>" + e(_("Is the dice table fair from every part of the area, which stations "
                                               "pay back:")) + f" <a href='{e(lab['report'])}'>"
                         + e(_("the game lab's report")) + "</a>.</p>")
        else:
            parts.append("<p id='lab'>" + e(_("Is the dice table fair from every part of the area, which stations "
                                               "pay back? Simulate whole game days:"))
                         + f" <code>{e(lab['command'])}</code></p>")
    return parts


def _method(method: str | None) -> str | None:
    """How a crossing was decided, in words (``path``: on the rail network; ``stops``: on the feed's stops)."""
    return {"path": _("the rail network"), "stops": _("the feed's stops"),
            "invalid": _("nothing (invalid definition)")}.get(method or "", method)
