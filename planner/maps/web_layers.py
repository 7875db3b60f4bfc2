"""What the web maps draw, as Leaflet layers (via Folium): ring, lines, stations and their names, dice
targets, toll lines and tunnels, badges, legend swatches. The facts come from :mod:`planner.maps.layers`;
:mod:`planner.maps.web` composes them into the area, itinerary and reach maps.
"""

from __future__ import annotations

import html

import folium
from branca.element import MacroElement
from folium.template import Template as FoliumTemplate
from jinja2 import Template

from planner.gamefile.game import Game
from planner.maps.layers import (
    CATEGORY_COLORS,
    CATEGORY_ORDER,
    RING_COLOR,
    TOLL_COLOR,
    TUNNEL_COLOR,
    CrossingShape,
    category_label,
    line_segments,
    ring_coords,
    station_points,
    target_points,
)
from planner.maps.track import tracks
from planner.maps.web_declutter import label_attrs
from planner.timetable.model import Timetable
from planner.util.i18n import _, format_amount

# station names of regional stations appear from this zoom on (IC and fast-train stations always)
NAMES_ZOOM = 11


def esc(s: object) -> str:
    """HTML-escaped text."""
    return html.escape(str(s))


class TextTooltip(folium.Tooltip):
    """A Leaflet tooltip of plain text: its content is a DOM text node, never parsed as HTML (folium's own
    puts the text into an HTML template literal, so a name holding markup or ``${...}`` would run)."""

    _template = FoliumTemplate("""
{% macro script(this, kwargs) %}
{{ this._parent.get_name() }}.bindTooltip(document.createTextNode({{ this.text|tojson }}),
    {{ this.options|tojavascript }});
{% endmacro %}
""")


def tip(text: object) -> TextTooltip:
    """A text tooltip (see :class:`TextTooltip`)."""
    return TextTooltip(str(text))


class ZoomNames(MacroElement):
    """Marks the map container ``pl-zoomed`` from zoom ``NAMES_ZOOM`` on (CSS then shows every station name)."""

    _template = Template("""
{% macro script(this, kwargs) %}
(function (map) {
    function mark() { map.getContainer().classList.toggle("pl-zoomed", map.getZoom() >= {{this.zoom}}); }
    map.on("zoomend", mark);
    mark();
})({{this._parent.get_name()}});
{% endmacro %}
""")

    def __init__(self, zoom: float):
        super().__init__()
        self._name = "ZoomNames"
        self.zoom = zoom


def add_ring(m: folium.Map, game: Game, weight: float = 3) -> None:
    """The area outline (the ring through its stations, or the polygon)."""
    pts = ring_coords(game)
    if pts:
        folium.PolyLine(pts, color=RING_COLOR, weight=weight, opacity=0.8, dash_array="8 6",
                        tooltip=tip(_("game area: {title}").format(title=game.title))).add_to(m)


def add_lines(m: folium.Map, tt: Timetable, *, muted: bool = False) -> list[str]:
    """The day's lines along the trips' stop sequences (rail on the physical lines where known), one polyline
    layer per category; returns categories."""
    by_cat: dict[str, list[list[tuple[float, float]]]] = {}
    segments = line_segments(tt)
    for seg, pts in zip(segments, tracks(tt, segments), strict=True):  # rail on the physical lines
        by_cat.setdefault(seg.category, []).append(pts)
    cats = sorted(by_cat, key=lambda c: -CATEGORY_ORDER.index(c) if c in CATEGORY_ORDER else 0)
    for cat in cats:  # regional first, IC last (on top)
        color = "#b0b0b0" if muted else CATEGORY_COLORS.get(cat, "#616161")
        weight = {"IC": 4, "fast": 3.5}.get(cat, 2.5) if not muted else 2
        folium.PolyLine(by_cat[cat], color=color, weight=weight, opacity=0.9,
                        tooltip=None if muted else tip(category_label(cat))).add_to(m)
    return sorted(by_cat, key=lambda c: CATEGORY_ORDER.index(c) if c in CATEGORY_ORDER else 99)


def add_stations(m: folium.Map, tt: Timetable, game: Game, *, muted: bool = False) -> list[str]:
    """Stations as circle markers coloured by category, with name/category/price tooltips."""
    pts = station_points(tt, game)
    feats = [{"type": "Feature", "geometry": {"type": "Point", "coordinates": [p.lon, p.lat]},
              # GeoJsonTooltip puts property values into innerHTML: the texts go in escaped
              "properties": {"name": esc(p.name), "category": esc(category_label(p.category)),
                             "cat": p.category, "price": esc(format_amount(p.price)), "letter": p.letter,
                             "ring": esc(_("on the ring")) if p.on_ring else ""}} for p in pts]
    if not feats:
        return []

    def style(f: dict) -> dict:
        cat = f["properties"]["cat"]
        color = "#8a8a8a" if muted else CATEGORY_COLORS.get(cat, "#616161")
        return {"color": "#ffffff" if not muted else "#8a8a8a", "weight": 1, "fill": True, "fillColor": color,
                "fillOpacity": 0.95, "radius": 3 if muted else {"IC": 6, "fast": 5}.get(cat, 4)}

    folium.GeoJson({"type": "FeatureCollection", "features": feats}, name="stations", control=False,
                   marker=folium.CircleMarker(radius=4, fill=True), style_function=style,
                   tooltip=folium.GeoJsonTooltip(fields=["name", "category", "price", "ring"],
                                                 aliases=["", "", esc(_("price")), ""], labels=True)).add_to(m)
    return sorted({p.category for p in pts}, key=lambda c: CATEGORY_ORDER.index(c) if c in CATEGORY_ORDER else 99)


def add_station_names(m: folium.Map, tt: Timetable, game: Game) -> int:
    """Station names beside the markers: IC and fast-train stations always, the others once zoomed in
    (``NAMES_ZOOM``); dice targets are named by :func:`add_targets`. Returns how many names."""
    targets = {t.index for t in target_points(tt, game)}
    n = 0
    for p in station_points(tt, game):
        if p.index in targets:
            continue
        cls = "major" if p.category in ("IC", "fast") else "minor"
        folium.Marker([p.lat, p.lon], icon=folium.DivIcon(
            html=f'<div class="pl-name {cls}" {label_attrs((-7, 6), 7, cls)}>{esc(p.name)}</div>',
            icon_size=(150, 13), icon_anchor=(-7, 6),
            class_name="pl-icon"), interactive=False).add_to(m)
        n += 1
    ZoomNames(NAMES_ZOOM).add_to(m)
    return n


def badge(m: folium.Map, lat: float, lon: float, text: str, cls: str, tooltip: str, size: int = 22) -> None:
    """A round label (dice number, start/end, change) as a Leaflet ``DivIcon`` marker."""
    folium.Marker([lat, lon], tooltip=tip(tooltip), icon=folium.DivIcon(
        html=f'<div class="pl-badge {cls}">{esc(text)}</div>', icon_size=(size, size),
        icon_anchor=(size // 2, size // 2), class_name="pl-icon")).add_to(m)


def add_targets(m: folium.Map, tt: Timetable, game: Game) -> int:
    """Dice targets with their numbers; returns how many are drawn."""
    by_station: dict[int, list] = {}
    for t in target_points(tt, game):
        by_station.setdefault(t.index, []).append(t)
    for ts in by_station.values():
        nums = "/".join(str(t.number) for t in ts)
        badge(m, ts[0].lat, ts[0].lon, nums, "target", _("dice target {numbers}: {station}").format(numbers=nums, station=ts[0].name),
              size=22 if len(nums) <= 2 else 30)
        folium.Marker([ts[0].lat, ts[0].lon], icon=folium.DivIcon(
            html=f'<div class="pl-label" {label_attrs((-14, 7), 12, "target")}>{esc(ts[0].name)}</div>',
            icon_size=(140, 14), icon_anchor=(-14, 7),
            class_name="pl-icon")).add_to(m)
    return len(by_station)


def add_crossings(m: folium.Map, shapes: list[CrossingShape], only: set[str] | None = None) -> list[CrossingShape]:
    """Toll lines (gold) and tunnels (black, dashed) as thick polylines; returns those drawn."""
    drawn = []
    for c in shapes:
        if only is not None and c.name not in only:
            continue
        straight = c.method == "straight"
        if c.kind == "toll_line":
            label = (_("toll line {name} (straight line: physical path unknown)") if straight
                     else _("toll line {name}"))
        else:
            label = _("tunnel {name} (straight line: physical path unknown)") if straight else _("tunnel {name}")
        label = label.format(name=c.name)
        if c.kind == "toll_line":
            folium.PolyLine(c.coords, color="#5a4300", weight=11, opacity=0.9).add_to(m)
            folium.PolyLine(c.coords, color=TOLL_COLOR, weight=7, opacity=1, tooltip=tip(label)).add_to(m)
        else:
            folium.PolyLine(c.coords, color="#ffffff", weight=10, opacity=0.9).add_to(m)
            folium.PolyLine(c.coords, color=TUNNEL_COLOR, weight=6, opacity=1, dash_array="10 6",
                            tooltip=tip(label)).add_to(m)
        mid = c.coords[len(c.coords) // 2]
        attrs = label_attrs((-8, 16), 6, "crossing")
        folium.Marker(mid, icon=folium.DivIcon(html=f'<div class="pl-label" {attrs}>{esc(c.name)}</div>',
                                               icon_size=(160, 14), icon_anchor=(-8, 16),
                                               class_name="pl-icon")).add_to(m)
        drawn.append(c)
    return drawn


def swatch(color: str, label: str, dashed: bool = False) -> str:
    """A legend line: a coloured bar (dashed for the ring and tunnels) and its label."""
    style = f"background:{color}" if not dashed else f"border-top:4px dashed {color};height:0"
    return f'<div><span class="sw" style="{style}"></span>{esc(label)}</div>'


def dot(color: str, label: str) -> str:
    """A legend line: a coloured dot and its label."""
    return f'<div><span class="dot" style="background:{color}"></span>{esc(label)}</div>'
