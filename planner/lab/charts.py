"""The lab page's pictures as inline SVG (no script, font or tile from anywhere): the map layer of the stations by
fee income over the area's base map, and horizontal bar charts.

Text is laid out on an estimate of its width, and every label carries that width as its ``textLength``: the
browser fits the glyphs to it, so whatever font it has, a value label ends inside its chart and the map's names
(placed by :func:`planner.maps.placement.find_spot`, the handout's greedy placement) do not overlap.
"""

from __future__ import annotations

import math
from html import escape

from planner.lab.moves import Board
from planner.maps.assets import load_basemap
from planner.maps.layers import CATEGORY_COLORS, line_segments
from planner.maps.placement import Box, find_spot
from planner.maps.track import tracks
from planner.util.i18n import _

MAP_W, MAP_H = 760, 520
CHART_W = 620
FONT = 11  # px, every label of the pictures
MAP_LABELS = 12  # stations named on the map: the best by fee income against price (the others: hover)
_NARROW, _WIDE = set("fijlrt.,:;'()[] |-"), set("mwMW")


def text_width(text: str, size: float = FONT) -> float:
    """An estimate of ``text``'s width in px at ``size`` (a sans-serif's proportions, rounded up a little)."""
    em = sum(0.32 if c in _NARROW else 0.92 if c in _WIDE else 0.72 if c.isupper() else 0.6 for c in text)
    return round(em * size + 1, 1)


def _label(x: float, y: float, text: str, *, anchor: str = "start", cls: str = "", width: float | None = None) -> str:
    """An SVG text of the estimated width (``textLength``: the browser fits it), baseline at ``y``."""
    w = min(text_width(text), width) if width else text_width(text)
    c = f' class="{cls}"' if cls else ""
    return (f'<text{c} x="{x}" y="{y}" font-size="{FONT}" text-anchor="{anchor}" textLength="{w}" '
            f'lengthAdjust="spacingAndGlyphs">{escape(text)}</text>')


def bars(cid: str, items: list[tuple[str, float | None]], unit: str, color: str = "#1565c0", *,
         fmt=str, empty: str = "–") -> str:
    """A horizontal bar chart (SVG): a bar and its value (``fmt``, then ``unit``) per item, laid out so that the
    longest value still ends inside the chart; an item without a value (None) gets no bar, only ``empty``."""
    texts = [empty if v is None else f"{fmt(v)} {unit}".strip() for _, v in items]
    left = min(CHART_W // 3, max((text_width(lab) for lab, _ in items), default=0) + 10)
    span = CHART_W - left - 8 - max((text_width(t) for t in texts), default=0)
    h = 18 * len(items) + 10
    top = max((v for _, v in items if v is not None), default=0) or 1
    parts = [f'<svg id="{cid}" class="chart" viewBox="0 0 {CHART_W} {h}" width="{CHART_W}" height="{h}" '
             'xmlns="http://www.w3.org/2000/svg">']
    for i, ((lab, v), text) in enumerate(zip(items, texts, strict=True)):
        y = 5 + 18 * i
        parts.append(_label(left - 5, y + 12, lab, anchor="end", width=left - 7))
        w = round(span * v / top, 1) if v is not None else 0
        if v is not None:
            parts.append(f'<rect class="bar" x="{left}" y="{y}" width="{w}" height="14" fill="{color}"/>')
        parts.append(_label(round(left + w + 5, 1), y + 12, text, cls="value" if v is not None else "none"))
    parts.append("</svg>")
    return "".join(parts)


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


def _base(proj: _Proj) -> list[str]:
    """Cantons and lakes of the vendored base map (none when it is missing: the stations are still drawn)."""
    try:
        base = load_basemap()
    except Exception:  # noqa: BLE001 - no vendored base map: the stations are still drawn
        base = {}
    parts = []
    for layer, fill, stroke in (("cantons", "#f1efe9", "#c9c4b8"), ("lakes", "#cfe3f3", "#9cc3e0")):
        for f in base.get(layer, {}).get("features", []):
            d = "".join(_path(proj, poly) for poly in _polys(f["geometry"]))
            if d:
                parts.append(f'<path class="base-{layer}" d="{d}" fill="{fill}" stroke="{stroke}" stroke-width="0.6"/>')
    return parts


def _radius(s: dict, top: float) -> float:
    return round(2.5 + 12 * math.sqrt(s["fee_income_per_day"] / top), 1)


def _names(st: list[dict], proj: _Proj, top: float) -> list[str]:
    """The names of the best stations (by rank), each where it overlaps no other name and no station it names
    (greedy, leader lines when far); a name with no free place is left out (its circle still has its tooltip)."""
    named = sorted(st, key=lambda s: s["rank"])[:MAP_LABELS]
    spots = [(s, *proj.xy(s["lat"], s["lon"]), _radius(s, top)) for s in named]
    taken: list[Box] = [(x - r, y - r, x + r, y + r) for _, x, y, r in spots]
    parts = []
    for s, x, y, r in spots:
        w, h = text_width(s["name"]), FONT * 1.25
        spot = find_spot(x, y, (w, h), clearance=r, scale=1.0, margin=(2.0, 1.0), frame=(0, 0, MAP_W, MAP_H),
                         taken=taken)
        if spot is None:
            continue
        if spot.leader:
            ex, ey = min(max(x, spot.x0), spot.x0 + w), min(max(y, spot.y0), spot.y0 + h)
            parts.append(f'<line class="leader" x1="{x}" y1="{y}" x2="{round(ex, 1)}" y2="{round(ey, 1)}" '
                         'stroke="#555" stroke-width="0.6"/>')
        parts.append(_label(round(spot.x0, 1), round(spot.y0 + FONT, 1), s["name"], cls="label"))
    return parts


def station_map(rep: dict, board: Board, money=str) -> str:
    """The map layer: base map, the day's lines (on the physical track where known), each station a circle by fee income per day (red: pays back),
    the best stations named."""
    st = [s for s in rep["stations"] if s["lat"] == s["lat"] and s["lon"] == s["lon"]]
    proj = _Proj([(s["lat"], s["lon"]) for s in st])
    label = escape(_("stations by fee income"))
    parts = [f'<svg id="lab-map" viewBox="0 0 {MAP_W} {MAP_H}" width="{MAP_W}" height="{MAP_H}" '
             f'xmlns="http://www.w3.org/2000/svg" role="img" aria-label="{label}">',
             *_base(proj)]
    tt = board.day.timetable
    segments = line_segments(tt)
    for seg, pts in zip(segments, tracks(tt, segments), strict=True):  # rail on the physical lines, as on paper
        d = "M" + "L".join("{},{}".format(*proj.xy(lat, lon)) for lat, lon in pts)
        parts.append(f'<path d="{d}" fill="none" stroke="{CATEGORY_COLORS.get(seg.category, "#999")}"'
                     ' stroke-width="1.2" stroke-opacity="0.55"/>')
    top = max((s["fee_income_per_day"] for s in st), default=0) or 1
    for s in sorted(st, key=lambda s: (-s["fee_income_per_day"], s["name"])):
        x, y = proj.xy(s["lat"], s["lon"])
        color = "#c62828" if s["pays_back"] else "#1565c0"
        payback = "–" if s["payback_minutes"] is None else f"{s['payback_minutes']:.0f}"
        tip = _("{name}: #{rank}, {stops} stops/day, fees {income}/day, price {price}, payback {payback} min").format(
            name=s["name"], rank=s["rank"], stops=s["stops_per_day"], income=money(s["fee_income_per_day"]),
            price=money(s["price"]), payback=payback)
        parts.append(f'<circle class="station" cx="{x}" cy="{y}" r="{_radius(s, top)}" fill="{color}" '
                     f'fill-opacity="0.6" stroke="#333" stroke-width="0.5"><title>{escape(tip)}</title></circle>')
    parts += _names(st, proj, top)
    parts.append("</svg>")
    return "".join(parts)
