"""The lab report as one self-contained HTML page (no script, font or tile from anywhere): the verdict, a map layer
of the stations by fee income over the area's base map, charts (inline SVG) and the tables behind them.

The base map is the vendored swiss-maps layer (:func:`planner.maps.assets.load_basemap`), the lines are the day's
(:func:`planner.maps.layers.line_segments`). The page is a function of the report: equal reports, equal bytes.
"""

from __future__ import annotations

import json
import math
from html import escape

from planner.lab.moves import Board
from planner.maps.assets import load_basemap
from planner.maps.layers import CATEGORY_COLORS, line_segments

MAP_W, MAP_H = 760, 520
CSS = """
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em auto;max-width:1100px;color:#222;padding:0 1em}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:.5em 0;font-size:13px}td,th{border:1px solid #ddd;padding:2px 6px;text-align:right}
td:first-child,th:first-child,td.l{text-align:left}.fair{color:#1a7f37}.unfair{color:#b3261e}
svg{background:#fafafa;border:1px solid #ddd;max-width:100%;height:auto}.note{color:#555;font-size:12px}
"""


def _fmt(v) -> str:
    if v is None:
        return "–"
    if isinstance(v, float):
        return f"{v:.3f}".rstrip("0").rstrip(".") or "0"
    return escape(str(v))


def _table(head: list[str], rows: list[list], cls: str = "") -> str:
    th = "".join(f"<th>{escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{_fmt(c)}</td>" for c in r) + "</tr>" for r in rows)
    return f'<table class="{cls}"><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>'


class _Proj:
    """Equirectangular projection of the stations' box (with a margin) onto the map's pixels."""

    def __init__(self, pts: list[tuple[float, float]]):
        lats = [p[0] for p in pts] or [46.8]
        lons = [p[1] for p in pts] or [8.2]
        pad_la, pad_lo = max(0.05, (max(lats) - min(lats)) * 0.08), max(0.05, (max(lons) - min(lons)) * 0.08)
        self.la0, self.la1 = min(lats) - pad_la, max(lats) + pad_la
        self.lo0, self.lo1 = min(lons) - pad_lo, max(lons) + pad_lo
        k = math.cos(math.radians((self.la0 + self.la1) / 2))
        sx = MAP_W / ((self.lo1 - self.lo0) * k)
        sy = MAP_H / (self.la1 - self.la0)
        self.s, self.k = min(sx, sy), k

    def xy(self, lat: float, lon: float) -> tuple[float, float]:
        """Pixel coordinates of a point."""
        return round((lon - self.lo0) * self.k * self.s, 1), round((self.la1 - lat) * self.s, 1)


def _path(proj: _Proj, rings) -> str:
    out = []
    for ring in rings:
        pts = [proj.xy(lat, lon) for lon, lat in ring]
        out.append("M" + "L".join(f"{x},{y}" for x, y in pts) + "Z")
    return "".join(out)


def _polys(geom: dict) -> list:
    if geom["type"] == "Polygon":
        return [geom["coordinates"]]
    if geom["type"] == "MultiPolygon":
        return list(geom["coordinates"])
    return []


def station_map(rep: dict, board: Board) -> str:
    """The map layer: base map, the day's lines, each station a circle by fee income per day (red: pays back)."""
    st = [s for s in rep["stations"] if s["lat"] == s["lat"] and s["lon"] == s["lon"]]
    proj = _Proj([(s["lat"], s["lon"]) for s in st])
    parts = [f'<svg id="lab-map" viewBox="0 0 {MAP_W} {MAP_H}" width="{MAP_W}" height="{MAP_H}" '
             'xmlns="http://www.w3.org/2000/svg" role="img" aria-label="stations by fee income">']
    try:
        base = load_basemap()
    except Exception:  # noqa: BLE001 - no vendored base map: the stations are still drawn
        base = {}
    for layer, fill, stroke in (("cantons", "#f1efe9", "#c9c4b8"), ("lakes", "#cfe3f3", "#9cc3e0")):
        for f in base.get(layer, {}).get("features", []):
            d = "".join(_path(proj, poly) for poly in _polys(f["geometry"]))
            if d:
                parts.append(f'<path class="base-{layer}" d="{d}" fill="{fill}" stroke="{stroke}" stroke-width="0.6"/>')
    tt = board.day.timetable
    for seg in line_segments(tt):
        x1, y1 = proj.xy(float(tt.station_lat[seg.a]), float(tt.station_lon[seg.a]))
        x2, y2 = proj.xy(float(tt.station_lat[seg.b]), float(tt.station_lon[seg.b]))
        parts.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{CATEGORY_COLORS.get(seg.category, "#999")}"'
                     ' stroke-width="1.2" stroke-opacity="0.55"/>')
    top = max((s["fee_income_per_day"] for s in st), default=0) or 1
    for s in sorted(st, key=lambda s: (-s["fee_income_per_day"], s["name"])):
        x, y = proj.xy(s["lat"], s["lon"])
        r = round(2.5 + 12 * math.sqrt(s["fee_income_per_day"] / top), 1)
        color = "#c62828" if s["pays_back"] else "#1565c0"
        tip = (f"{s['name']}: #{s['rank']}, {s['stops_per_day']} stops/day, fees {s['fee_income_per_day']}/day, "
               f"price {s['price']}, payback {s['payback_minutes'] or '–'} min")
        parts.append(f'<circle class="station" cx="{x}" cy="{y}" r="{r}" fill="{color}" fill-opacity="0.6" '
                     f'stroke="#333" stroke-width="0.5"><title>{escape(tip)}</title></circle>')
    for s in st[:10]:
        x, y = proj.xy(s["lat"], s["lon"])
        parts.append(f'<text x="{x + 6}" y="{y - 6}" font-size="11">{escape(s["name"])}</text>')
    parts.append("</svg>")
    return "".join(parts)


def bars(cid: str, items: list[tuple[str, float]], unit: str, color: str = "#1565c0") -> str:
    """A horizontal bar chart (SVG)."""
    h = 18 * len(items) + 10
    top = max((v for _, v in items), default=0) or 1
    parts = [f'<svg id="{cid}" class="chart" viewBox="0 0 620 {h}" width="620" height="{h}" '
             'xmlns="http://www.w3.org/2000/svg">']
    for i, (label, v) in enumerate(items):
        y = 5 + 18 * i
        w = round(380 * v / top, 1)
        parts.append(f'<text x="170" y="{y + 12}" font-size="11" text-anchor="end">{escape(label)}</text>'
                     f'<rect class="bar" x="175" y="{y}" width="{w}" height="14" fill="{color}"/>'
                     f'<text x="{180 + w}" y="{y + 12}" font-size="11">{_fmt(v)} {escape(unit)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def render_html(rep: dict, board: Board) -> str:
    """The report page (see module docstring)."""
    m, v, d, c = rep["meta"], rep["verdict"], rep["dice"], rep["capital"]
    verdict = (f'<p class="{"fair" if v["fair"] else "unfair"}"><b>The dice table is '
               f'{"fair" if v["fair"] else "not fair"}</b>' + ("." if v["fair"] else ":") + "</p>")
    reasons = "".join(f"<li>{escape(r)}</li>" for r in v["reasons"])
    st = rep["stations"]
    st_rows = [[s["rank"], s["name"], s["category"], s["region"], s["price"], s["fee"], s["stops_per_day"],
                s["groups_per_day"], s["fee_income_per_day"], s["payback_minutes"], "yes" if s["pays_back"] else "no"]
               for s in st]
    dice_rows, region_rows = [], []
    for n, x in d["numbers"].items():
        t = x["travel"]
        dice_rows.append([n, x["rolls"], t["median"], t["p90"], t["unreached"], x["as_free"],
                          ", ".join(f"{k} {cnt}" for k, cnt in x["targets"].items()) or "–"])
        for reg, r in x["by_region"].items():
            region_rows.append([n, reg, r["n"], r["median"], r["p90"], r["unreached"]])
    hour_rows = [[n, h, r["n"], r["median"], r["p90"], r["unreached"]]
                 for n, x in d["numbers"].items() for h, r in x["by_hour"].items()]
    cap = [[k, x["n"], x["mean"], x["median"], x["wins"]] for k, x in c["by_strategy"].items()]
    reg = [[k, x["n"], x["mean"], x["median"], x["wins"]] for k, x in c["by_region"].items()]
    body = [
        f"<h1>Game lab: {escape(m['title'])}, {escape(m['date'])}</h1>",
        f'<p class="note">{m["days"]} simulated days of {m["groups"]} groups ({escape(", ".join(m["strategies"]))}), '
        f'seed {m["seed"]}, {escape(m["start"])}–{escape(m["end"])}, dice from {escape(m["dice_from"])}: '
        f'{m["rolls"]} rolls, {m["ledger_events"]} ledger events; money conserved in every day: '
        f'{"yes" if m["money_conserved"] else "no"}. Same seed, same page.</p>',
        "<h2>Verdict on the dice table</h2>", verdict, f"<ul id='reasons'>{reasons}</ul>",
        f'<p class="note">Thresholds: a number is unfair when more than {v["thresholds"]["unreached"]:.0%} of its '
        f'targets are not reached before the end, or its median travel time differs by more than '
        f'{v["thresholds"]["spread_minutes"]} minutes between parts of the area.</p>',
        "<h2>Stations: where groups stop, what a station pays back</h2>",
        '<p class="note">Circle size: fee income per day if one group owned the station (the other groups\' stops '
        'times the unbuilt fee); red: pays back its price before the end. Hover for the numbers.</p>',
        station_map(rep, board),
        bars("chart-income", [(s["name"], s["fee_income_per_day"]) for s in st[:15]], "per day"),
        _table(["#", "station", "class", "region", "price", "fee", "stops/day", "groups/day", "fees/day",
                "payback min", "pays back"], st_rows, "stations"),
        "<h2>Dice numbers: how long to the target</h2>",
        bars("chart-dice", [(f"{n}: median", x["travel"]["median"] or 0) for n, x in d["numbers"].items()], "min",
             "#e07000"),
        _table(["number", "rolls", "median min", "p90 min", "unreached", "as free", "targets chosen"], dice_rows),
        f"<p>Never the fastest: {escape(', '.join(d['never_fastest']) or 'none')}. "
        f"Never reachable: {escape(', '.join(d['never_available']) or 'none')}.</p>",
        "<h3>By part of the area</h3>",
        _table(["number", "region", "rolls", "median min", "p90 min", "unreached"], region_rows),
        "<h3>By hour of the roll</h3>",
        _table(["number", "hour", "rolls", "median min", "p90 min", "unreached"], hour_rows),
        "<h2>Final capital: strategy and start</h2>",
        bars("chart-capital", [(k, x["mean"]) for k, x in c["by_strategy"].items()], "", "#2e7d32"),
        _table(["strategy", "groups", "mean", "median", "wins"], cap),
        _table(["start region", "groups", "mean", "median", "wins"], reg),
        f"<p>Is the start decisive? <b>{'yes' if c['start_decisive'] else 'no'}</b> (best and worst start region "
        f"apart by z = {_fmt(c['start_z'])} standard errors; decisive from 2).</p>",
        '<script type="application/json" id="lab-data">'
        + json.dumps(rep, ensure_ascii=False, sort_keys=True).replace("</", "<\\/") + "</script>",
    ]
    return ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>Game lab: {escape(m['title'])} {escape(m['date'])}</title><style>{CSS}</style></head><body>"
            + "\n".join(body) + "</body></html>\n")
