"""Interactive maps with Folium that work offline: area, itinerary (route / dice target), reach.

Folium loads Leaflet, jQuery, Bootstrap and Font Awesome from CDNs by default. :class:`OfflineMap` replaces
all of that with the vendored Leaflet only (see :mod:`planner.maps.assets`); everything drawn here uses plain
Leaflet (polylines, circle markers, ``DivIcon`` labels, GeoJSON), so nothing else is needed. The base layer
(country, cantons, lakes) is GeoJSON embedded in the page; web tiles are optional (``tiles=True``, online).

Saving: ``standalone=True`` inlines Leaflet's JS and CSS (images as data URIs) into one HTML file that
works when copied to a phone; otherwise Leaflet is copied once into ``sbb-planner-assets/`` beside the HTML file.
"""

from __future__ import annotations

import html
import shutil
from pathlib import Path

import folium
from branca.element import CssLink, Element, JavascriptLink, MacroElement
from jinja2 import Template

from planner import SOURCE_CREDIT
from planner.errors import PlannerError
from planner.gamefile.game import Game
from planner.maps import assets
from planner.maps.layers import (
    BAND_COLORS,
    CATEGORY_COLORS,
    RING_COLOR,
    TOLL_COLOR,
    TUNNEL_COLOR,
    UNREACHED_COLOR,
    LegShape,
    ReachPoint,
    area_label,
    bounds,
    category_label,
    crossing_shapes,
    missing_targets,
    source_credit,
    station_by_name,
    station_points,
)
from planner.maps.web_declutter import Declutter
from planner.maps.web_layers import (
    add_crossings,
    add_lines,
    add_ring,
    add_station_names,
    add_stations,
    add_targets,
    badge,
    dot,
    esc,
    swatch,
)
from planner.maps.web_layers import tip as text_tip
from planner.timetable.model import Timetable
from planner.util.atomic import atomic_write_text, system_path
from planner.util.i18n import _, format_amount, format_long_date, ngettext

_CSS = """
.pl-badge{display:flex;align-items:center;justify-content:center;border-radius:50%;font:700 12px/1 sans-serif;
 color:#fff;background:#111;border:2px solid #fff;box-shadow:0 0 3px rgba(0,0,0,.6);width:100%;height:100%;
 box-sizing:border-box}
.pl-badge.start{background:#2e7d32}.pl-badge.end{background:#c62828}.pl-badge.change{background:#fff;color:#111;
 border-color:#111}.pl-badge.bonus{background:#f2b600;color:#111;border-radius:4px}
.pl-label{font:600 11px/1.1 sans-serif;color:#111;text-shadow:0 0 3px #fff,0 0 3px #fff;white-space:nowrap;
 display:inline-block}
.pl-legend{position:absolute;z-index:1000;top:10px;right:10px;background:rgba(255,255,255,.94);padding:8px 10px;
 border-radius:6px;box-shadow:0 1px 5px rgba(0,0,0,.4);font:12px/1.35 sans-serif;max-width:320px;
 max-height:70%;overflow:auto}
.pl-legend summary{font-weight:700;font-size:13px;cursor:pointer;margin-bottom:4px}.pl-legend .sw{display:inline-block;width:18px;height:4px;
 vertical-align:middle;margin-right:6px}.pl-legend .dot{display:inline-block;width:10px;height:10px;border-radius:50%;
 vertical-align:middle;margin:0 10px 0 4px;border:1px solid #333}.pl-legend .muted{color:#666}
.pl-legend ol{margin:4px 0;padding-left:18px}
@media (max-width:640px),(max-height:500px){.pl-legend{max-width:calc(100% - 70px);max-height:55%}}
.pl-name{font:11px/1.1 sans-serif;color:#222;text-shadow:0 0 2px #fff,0 0 2px #fff,0 0 3px #fff;
 white-space:nowrap;pointer-events:none}
.pl-name.major{font-weight:600}
.pl-name{display:inline-block}.pl-name.minor{display:none}.pl-zoomed .pl-name.minor{display:inline-block}
"""



class OfflineMap(folium.Map):
    """A ``folium.Map`` that loads only Leaflet, from local files (``link``) or inlined (``inline``)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # instance attributes shadow folium's CDN lists: no jQuery/Bootstrap/Font Awesome, no CDN Leaflet
        self.default_js = []
        self.default_css = []
        self.assets_mode = "link"

    def render(self, **kwargs) -> None:
        """Put Leaflet (linked or inlined) and the planner's CSS into the page header, then render."""
        figure = self.get_root()
        if self.assets_mode == "inline":
            figure.header.add_child(Element(f"<style>{assets.leaflet_css(inline_images=True)}</style>"),
                                    name="leaflet_css")
            figure.header.add_child(Element(f"<script>{assets.leaflet_js()}</script>"), name="leaflet")
            figure.header.add_child(Element(f"<script>{assets.leaflet_icons_js()}</script>"), name="leaflet_icons")
        else:
            figure.header.add_child(CssLink(f"{assets.lib_dir()}/leaflet.css"), name="leaflet_css")
            figure.header.add_child(JavascriptLink(f"{assets.lib_dir()}/leaflet.js"), name="leaflet")
        figure.header.add_child(Element(f"<style>{_CSS}</style>"), name="planner_css")
        super().render(**kwargs)


LEAFLET_PREFIX = '<a href="https://leafletjs.com" title="{title}">Leaflet</a>'  # Leaflet's own, its title ours


class Legend(MacroElement):
    """A fixed legend box (HTML), the source credit in Leaflet's attribution control, and Leaflet's own
    words (its credit's title, the zoom buttons) from the catalog, not Leaflet's English."""

    _template = Template("""
{% macro html(this, kwargs) %}<details class="pl-legend" id="{{this.get_name()}}" open>{{this.body}}</details>
{% endmacro %}
{% macro script(this, kwargs) %}
{{this._parent.get_name()}}.attributionControl.addAttribution({{this.credit|tojson}});
{{this._parent.get_name()}}.attributionControl.setPrefix({{this.prefix|tojson}});
L.control.zoom({zoomInTitle: {{this.zoom_in|tojson}}, zoomOutTitle: {{this.zoom_out|tojson}}}).addTo({{this._parent.get_name()}});
L.control.scale({imperial: false, maxWidth: 160}).addTo({{this._parent.get_name()}});
// on a phone the legend starts folded (its summary line stays), so it does not cover the map
if (window.matchMedia("(max-width: 640px), (max-height: 500px)").matches) {
    document.getElementById({{this.get_name()|tojson}}).open = false;
}
{% endmacro %}
""")

    def __init__(self, body: str, credit: str):
        super().__init__()
        self._name = "Legend"
        self.body = body
        self.credit = credit
        self.prefix = LEAFLET_PREFIX.format(title=esc(_("A JavaScript library for interactive maps")))
        self.zoom_in, self.zoom_out = _("Zoom in"), _("Zoom out")


# ---- building blocks ------------------------------------------------------------------------------

def new_map(game: Game, tt: Timetable | None, *, tiles: bool = False, title: str = "",
            focus: list[tuple[float, float]] | None = None) -> OfflineMap:
    """An empty map fitted to the game area (or to the ``focus`` points), with the offline base layer
    (and web tiles when asked)."""
    assets.require()
    m = OfflineMap(location=None, tiles=None, control_scale=False, zoom_snap=0.25, zoom_control=False)  # Legend's
    if title:
        m.get_root().title = esc(title)  # branca puts it into <title> as it is
    base = assets.load_basemap()
    land = "#f4f1e8" if not tiles else "transparent"
    if tiles:
        folium.TileLayer("OpenStreetMap", name="OpenStreetMap (online)").add_to(m)
    folium.GeoJson(base["country"], name="Switzerland", control=False, interactive=False,
                   style_function=lambda _f: {"fillColor": land, "fillOpacity": 1 if not tiles else 0,
                                              "color": "#7a7a7a", "weight": 1.5}).add_to(m)
    folium.GeoJson(base["cantons"], name="cantons", control=False, interactive=False,
                   style_function=lambda _f: {"fill": False, "color": "#a8a8a8", "weight": 0.8,
                                              "dashArray": "4 3"}).add_to(m)
    folium.GeoJson(base["lakes"], name="lakes", control=False, interactive=False,
                   style_function=lambda _f: {"fillColor": "#a9d3f2", "fillOpacity": 1, "color": "#6fa8d6",
                                              "weight": 0.6}).add_to(m)
    if focus:
        (s, w), (n, e) = (min(p[0] for p in focus), min(p[1] for p in focus)), \
            (max(p[0] for p in focus), max(p[1] for p in focus))
    else:
        (s, w), (n, e) = bounds(game, tt)
    pad_lat, pad_lon = (n - s) * 0.03 + 0.005, (e - w) * 0.03 + 0.005
    # padding: the zoom buttons and the folded legend at the top, the attribution at the bottom
    m.fit_bounds([[s - pad_lat, w - pad_lon], [n + pad_lat, e + pad_lon]], padding_top_left=(8, 48),
                 padding_bottom_right=(8, 36))
    return m


def _credit() -> str:
    return f"{_(SOURCE_CREDIT)} · {_(assets.BASEMAP_CREDIT)}"


# ---- the three maps ---------------------------------------------------------------------------------

def area_map(tt: Timetable, game: Game, *, tiles: bool = False) -> tuple[OfflineMap, list[str]]:
    """The game area: ring, lines and stations by category, dice targets, toll lines, tunnels, legend."""
    title = _("{title}: game area {date}").format(title=game.title, date=format_long_date(tt.date))
    m = new_map(game, tt, tiles=tiles, title=title)
    add_ring(m, game)
    cats = add_lines(m, tt)
    shapes, warnings = crossing_shapes(tt, game)
    add_crossings(m, shapes)
    add_stations(m, tt, game)
    add_station_names(m, tt, game)
    add_targets(m, tt, game)
    body = [f"<summary>{esc(game.title)} – {esc(tt.date)}</summary>", swatch(RING_COLOR, area_label(game), True)]
    body += [swatch(CATEGORY_COLORS.get(c, "#616161"), _("line: {category}").format(category=category_label(c)))
             for c in cats]
    body += [dot(CATEGORY_COLORS.get(c, "#616161"), _("station: {category}").format(category=category_label(c)))
             for c in cats]
    body.append('<div><span class="dot" style="background:#111;width:14px;height:14px"></span>'
                + esc(_("dice target (number)")) + "</div>")
    if game.toll_lines:
        body.append(swatch(TOLL_COLOR, _("toll line")))
    if game.tunnels:
        body.append(swatch(TUNNEL_COLOR, _("tunnel"), True))
    missing = missing_targets(tt, game)
    if missing:
        said = ngettext("{n} dice target not served in this timetable (planner check-area lists it)",
                        "{n} dice targets not served in this timetable (planner check-area lists them)",
                        len(missing)).format(n=format_amount(len(missing)))
        body.append(f'<div class="muted" title="{esc(", ".join(missing))}">{esc(said)}</div>')
    body.append(f'<div class="muted">{esc(source_credit(tt))}</div>')
    Legend("".join(body), f"{source_credit(tt)} · {_(assets.BASEMAP_CREDIT)}").add_to(m)
    Declutter([(p.lat, p.lon, {"IC": 6, "fast": 5}.get(p.category, 4)) for p in station_points(tt, game)]).add_to(m)
    return m, warnings


def journey_map(tt: Timetable, game: Game, legs: list[LegShape], answer: dict, *, title: str,
                tiles: bool = False) -> tuple[OfflineMap, list[str]]:
    """An itinerary: legs coloured per train, start/end, changes, bonus events and crossings marked.

    ``answer`` is the JSON of ``planner route`` / ``planner target`` (its legs carry ``crossings`` and ``bonus``).
    """
    focus = [p for leg in legs for p in leg.coords]
    m = new_map(game, tt, tiles=tiles, title=title, focus=focus or None)
    add_ring(m, game, weight=2)
    add_lines(m, tt, muted=True)
    shapes, warnings = crossing_shapes(tt, game)
    crossed = {c["name"] for leg in answer.get("legs", []) for c in leg.get("crossings", [])}
    drawn = add_crossings(m, shapes, only=crossed)
    for name in sorted(crossed - {c.name for c in drawn}):
        warnings.append(_("crossing {name}: no geometry to draw").format(name=name))
    add_stations(m, tt, game, muted=True)
    for leg in legs:
        tip = f"{leg.number}. {leg.route} {leg.departure} {leg.from_name} → {leg.arrival} {leg.to_name}"
        folium.PolyLine(leg.coords, color="#ffffff", weight=9, opacity=0.9).add_to(m)
        folium.PolyLine(leg.coords, color=leg.color, weight=6, opacity=1, tooltip=text_tip(tip),
                        dash_array="6 6" if leg.is_walk else None).add_to(m)
        for name, lat, lon, t in leg.stops:
            folium.CircleMarker([lat, lon], radius=3, color=leg.color, weight=2, fill=True, fill_color="#ffffff",
                                fill_opacity=1, tooltip=text_tip(f"{name} {t}")).add_to(m)
    # start, changes, end
    if legs:
        first, last = legs[0], legs[-1]
        badge(m, *first.coords[0], "A", "start", _("start {station} {time}").format(station=first.from_name,
                                                                                   time=first.departure))
        for prev, nxt in zip(legs[:-1], legs[1:], strict=True):
            badge(m, *nxt.coords[0], "⇄", "change",
                  _("change at {station}: arrive {arrival}, depart {departure} ({route})").format(
                      station=nxt.from_name, arrival=prev.arrival, departure=nxt.departure, route=nxt.route), 20)
        badge(m, *last.coords[-1], "B", "end", _("arrive {station} {time}").format(station=last.to_name,
                                                                                  time=last.arrival))
    else:
        s = station_by_name(tt, answer.get("from") or "")
        if s is not None:
            badge(m, float(tt.station_lat[s]), float(tt.station_lon[s]), "A", "start",
                  _("at {station}").format(station=tt.station_name[s]))
    bonus = [b for leg in answer.get("legs", []) for b in leg.get("bonus", [])]
    for b in bonus:
        s = station_by_name(tt, b["station"])
        if s is not None:
            badge(m, float(tt.station_lat[s]), float(tt.station_lon[s]), "h", "bonus",
                  _bonus_tip(b), 18)
    # legend: the itinerary as a player reads it
    body = [f"<summary>{esc(title)}</summary>"]
    if answer.get("arrival") is None:
        body.append("<div>" + esc(answer.get("reason") or _("no connection")) + "</div>")
    else:
        changes = int(answer.get("changes") or 0)
        said = (_("dep {departure}, arr {arrival}, no change") if not changes else
                ngettext("dep {departure}, arr {arrival}, {n} change", "dep {departure}, arr {arrival}, {n} changes",
                         changes))
        body.append("<div>" + esc(said.format(
            departure=answer.get("departure"), arrival=answer.get("arrival"), n=changes)) + "</div><ol>")
        for leg, ld in zip(legs, answer.get("legs", []), strict=False):
            extra = ""
            if ld.get("crossings"):
                extra += " · " + ", ".join(c["name"] for c in ld["crossings"])
            if ld.get("bonus"):
                extra += " · " + _("bonus {events}").format(
                    events=", ".join(_event(b["event"], b["time"]) for b in ld["bonus"]))
            body.append(f'<li><span class="sw" style="background:{leg.color}"></span>{esc(leg.route)} '
                        f"{esc(leg.departure)} {esc(leg.from_name)} → {esc(leg.arrival)} {esc(leg.to_name)}"
                        f"{esc(extra)}</li>")
        body.append("</ol>")
    if crossed:
        body.append(swatch(TOLL_COLOR, _("toll line crossed")))
    if bonus:
        body.append('<div><span class="pl-badge bonus" style="display:inline-flex;width:14px;height:14px;'
                    'margin-right:6px">h</span>' + esc(_("full-hour bonus event")) + "</div>")
    for w in answer.get("warnings", []) or []:
        body.append(f'<div class="muted">{esc(w)}</div>')
    body.append(f'<div class="muted">{esc(_(SOURCE_CREDIT))}</div>')
    Legend("".join(body), _credit()).add_to(m)
    return m, warnings


def reach_map(tt: Timetable, game: Game, points: list[ReachPoint], origin_name: str, time: str,
              bands: tuple[int, ...], *, tiles: bool = False) -> OfflineMap:
    """How far a group gets from a position: stations coloured by the band of their earliest arrival."""
    title = _("Reach from {station} at {time}").format(station=origin_name, time=time)
    focus = [(p.lat, p.lon) for p in points if p.band is not None]
    m = new_map(game, tt, tiles=tiles, title=title, focus=focus if len(focus) > 1 else None)
    add_ring(m, game, weight=2)
    add_lines(m, tt, muted=True)
    colors = _band_colors(bands)
    feats = []
    for p in sorted(points, key=lambda p: -(p.band or 10_000)):  # nearest bands drawn last (on top)
        color = colors.get(p.band, UNREACHED_COLOR) if p.band is not None else UNREACHED_COLOR
        label = (_("{station}: +{minutes} min").format(station=p.name, minutes=f"{p.minutes:g}") if p.minutes is not None
                 else _("{station}: not within {limit} min").format(station=p.name, limit=max(bands)))
        feats.append({"type": "Feature", "geometry": {"type": "Point", "coordinates": [p.lon, p.lat]},
                      "properties": {"label": esc(label), "color": color, "r": 6 if p.band is not None else 3}})
    if feats:
        folium.GeoJson({"type": "FeatureCollection", "features": feats}, name="reach", control=False,
                       marker=folium.CircleMarker(radius=5, fill=True),
                       style_function=lambda f: {"color": "#333333", "weight": 1, "fill": True,
                                                 "fillColor": f["properties"]["color"], "fillOpacity": 0.95,
                                                 "radius": f["properties"]["r"]},
                       tooltip=folium.GeoJsonTooltip(fields=["label"], labels=False)).add_to(m)
    o = next((p for p in points if p.name == origin_name), None)
    if o is not None:
        badge(m, o.lat, o.lon, "A", "start", f"{origin_name} {time}")
    counts = {b: sum(1 for p in points if p.band == b) for b in bands}
    body = [f"<summary>{esc(title)}</summary>"]
    lo = 0
    for b in sorted(bands):
        body.append(dot(colors[b], ngettext("{low}–{high} min: {n} station", "{low}–{high} min: {n} stations",
                                            counts[b]).format(low=lo, high=b, n=format_amount(counts[b]))))
        lo = b
    unreached = sum(1 for p in points if p.band is None)
    body.append(dot(UNREACHED_COLOR, _("not within {limit} min: {n}").format(limit=max(bands),
                                                                              n=format_amount(unreached))))
    body.append(f'<div class="muted">{esc(_(SOURCE_CREDIT))}</div>')
    Legend("".join(body), _credit()).add_to(m)
    return m


def _event(event: str, time: str) -> str:
    """A full-hour bonus event in words: "departure 13:00"."""
    if event == "departure":
        return _("departure {time}").format(time=time)
    if event == "arrival":
        return _("arrival {time}").format(time=time)
    return f"{event} {time}"


def _bonus_tip(b: dict) -> str:
    """The tooltip of a full-hour bonus badge: the event, where, when, and the fee."""
    fee = b.get("fee")
    args = {"station": b["station"], "time": b["time"], "fee": format_amount(fee) if fee is not None else ""}
    if b["event"] == "departure":
        return _("full-hour bonus: departure {station} {time} ({fee})").format(**args)
    if b["event"] == "arrival":
        return _("full-hour bonus: arrival {station} {time} ({fee})").format(**args)
    return _("full-hour bonus: {event} {station} {time} ({fee})").format(event=b["event"], **args)


def _band_colors(bands: tuple[int, ...]) -> dict[int, str]:
    if tuple(sorted(bands)) == tuple(sorted(BAND_COLORS)):
        return dict(BAND_COLORS)
    palette = ("#1a9850", "#91cf60", "#fee08b", "#fdae61", "#f46d43", "#d73027")
    bs = sorted(bands)
    return {b: palette[min(len(palette) - 1, round(i * (len(palette) - 1) / max(len(bs) - 1, 1)))]
            for i, b in enumerate(bs)}


# ---- output -----------------------------------------------------------------------------------------

def render(m: OfflineMap, *, standalone: bool) -> str:
    """The map's HTML (Leaflet inlined when ``standalone``)."""
    m.assets_mode = "inline" if standalone else "link"
    return m.get_root().render()


def save(m: OfflineMap, path: str | Path, *, standalone: bool = False) -> Path:
    """Write the map; without ``standalone``, copy Leaflet beside it (:func:`assets.install_leaflet`, once)."""
    p = Path(path)
    if system_path(p.parent):
        raise PlannerError(_("map {path}: refusing to write into a system folder").format(path=p))
    p.parent.mkdir(parents=True, exist_ok=True)
    own = p.parent / assets.ASSETS_DIR
    fresh = not standalone and not own.exists()
    try:
        if not standalone:
            assets.install_leaflet(p.parent)
        atomic_write_text(p, render(m, standalone=standalone))
    except BaseException:
        if fresh:  # the map failed (a full disk): the Leaflet copy made for it goes with it
            shutil.rmtree(own, ignore_errors=True)
        raise
    return p


def iframe_html(m: OfflineMap, height: int = 520) -> str:
    """A notebook-friendly ``<iframe srcdoc>`` of the standalone map (no files, no network)."""
    doc = html.escape(render(m, standalone=True), quote=True)
    return (f'<div class="planner-map"><iframe srcdoc="{doc}" style="width:100%;height:{height}px;'
            'border:1px solid #ccc" sandbox="allow-scripts"></iframe></div>')
