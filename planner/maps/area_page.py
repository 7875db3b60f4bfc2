"""Page 1 of the handout: the game area on the vendored base map in CH1903+/LV95, with the day's lines by
category, the ring, toll lines and tunnels, stations and dice-target badges, and labels placed last."""

from __future__ import annotations

import math
import textwrap
from collections import defaultdict

import geopandas as gpd
import numpy as np
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import LineCollection
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle
from pyproj import Transformer
from shapely.geometry import box

from planner.gamefile.game import Game
from planner.maps import assets
from planner.maps.labels import Label, place_labels, point_box
from planner.maps.layers import (
    CATEGORY_COLORS,
    CATEGORY_ORDER,
    RING_COLOR,
    TOLL_COLOR,
    TUNNEL_COLOR,
    area_label,
    bounds,
    category_label,
    crossing_shapes,
    line_segments,
    missing_targets,
    ring_coords,
    source_credit,
    station_points,
)
from planner.maps.track import tracks
from planner.timetable.model import Timetable
from planner.util.i18n import _, format_long_date
from planner.util.timefmt import fmt_clock

A4_LANDSCAPE = (11.69, 8.27)
_LABEL_BOX = {"bbox": {"boxstyle": "round,pad=0.1", "fc": "white", "ec": "none", "alpha": 0.6}}


class _LV95:
    """WGS84 -> EPSG:2056 (metres)."""

    def __init__(self) -> None:
        self._t = Transformer.from_crs(4326, 2056, always_xy=True)

    def xy(self, lat, lon):
        return self._t.transform(np.asarray(lon, float), np.asarray(lat, float))


def map_page(tt: Timetable, game: Game, warnings: list[str] | None = None) -> Figure:
    """The area map (A4 landscape) in EPSG:2056."""
    warnings = warnings if warnings is not None else []
    proj = _LV95()
    fig = Figure(figsize=A4_LANDSCAPE)
    fig.text(0.03, 0.965, _("{title} – game area").format(title=game.title), fontsize=16, fontweight="bold", va="top")
    fig.text(0.03, 0.925, _("{date} · game hours {start}–{end} · timetable version {version}").format(
        date=format_long_date(tt.date), start=fmt_clock(game.clock.start), end=fmt_clock(game.clock.end), version=tt.feed_version),
        fontsize=10, color="#444444", va="top")
    ax = fig.add_axes((0.03, 0.065, 0.94, 0.835))
    ax.set_facecolor("#e4e4e4")  # abroad
    ax.set_xticks([])
    ax.set_yticks([])
    x0, x1, y0, y1 = _extent(fig, tt, game, proj)
    _base_layer(ax, box(x0, y0, x1, y1))
    ring = ring_coords(game)
    if ring:
        rx, ry = proj.xy([p[0] for p in ring], [p[1] for p in ring])
        ax.plot(rx, ry, color=RING_COLOR, lw=1.6, ls=(0, (6, 4)), zorder=2)
    cats = _lines(ax, tt, proj)
    crossing_labels = _crossings(ax, tt, game, proj, warnings)
    dots, labels, station_labels = _stations(ax, tt, game, proj, cats)
    ax.set_xlim(x0, x1)
    ax.set_ylim(y0, y1)
    ax.set_aspect("equal")
    ax.set_xlabel("")  # geopandas labels the projected axes; the scale bar says it all
    ax.set_ylabel("")
    leg = _legend(ax, game, cats)
    bar = _scale_bar(ax, x0, x1, y0, y1)
    north = _north(ax)
    missing = missing_targets(tt, game)
    foot = _("{source} · {basemap} · projection CH1903+/LV95 (EPSG:2056)").format(source=source_credit(tt),
                                                                                  basemap=_(assets.BASEMAP_CREDIT))
    credit = ax.text(0.997, 0.004, foot, transform=ax.transAxes, ha="right", va="bottom", fontsize=7.5,
                     color="#333333", zorder=11,
                     bbox={"boxstyle": "square,pad=0.3", "fc": "white", "ec": "none", "alpha": 0.85})
    if missing:
        fig.text(0.03, 0.052, _wrap(_("Dice targets not served in this timetable: {targets}").format(targets=", ".join(missing)),
                       170),
                 ha="left", fontsize=7, color="#8e0000", va="top")
    # labels last, once the axes are final: targets, then toll lines and tunnels, then IC / fast stations
    FigureCanvasAgg(fig)
    ax.apply_aspect()
    renderer = fig.canvas.get_renderer()
    obstacles = [a.get_window_extent(renderer) for a in (leg, bar, north, credit)]
    obstacles += [point_box(ax, x, y, r) for x, y, r in dots]
    station_labels.sort(key=lambda lab: (lab.rank, lab.text))
    left_out = place_labels(ax, [*labels, *crossing_labels, *station_labels], obstacles)
    if left_out:
        warnings.append(_("map labels left out for lack of room: {labels}").format(
            labels=", ".join(lab.text for lab in left_out)))
    return fig


def _extent(fig: Figure, tt: Timetable, game: Game, proj: _LV95) -> tuple[float, float, float, float]:
    """The area plus a margin, widened to the axes' aspect so the map fills the frame (x0, x1, y0, y1)."""
    (s, w), (n, e) = bounds(game, tt)
    xs, ys = proj.xy([s, n, s, n], [w, w, e, e])
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    mx, my = (x1 - x0) * 0.05 + 2000, (y1 - y0) * 0.05 + 2000
    x0, x1, y0, y1 = x0 - mx, x1 + mx, y0 - my, y1 + my
    bw, bh = fig.get_size_inches() * np.array([0.94, 0.835])
    want = bw / bh
    if (x1 - x0) / (y1 - y0) < want:
        grow = (want * (y1 - y0) - (x1 - x0)) / 2
        x0, x1 = x0 - grow, x1 + grow
    else:
        grow = ((x1 - x0) / want - (y1 - y0)) / 2
        y0, y1 = y0 - grow, y1 + grow
    return x0, x1, y0, y1


def _base_layer(ax: Axes, frame) -> None:
    """Country, cantons and lakes of the vendored base map, clipped to ``frame``."""
    base = assets.load_basemap()
    style = {"country": {"facecolor": "#f6f3ea", "edgecolor": "#777777", "linewidth": 0.8},
             "cantons": {"facecolor": "none", "edgecolor": "#aaaaaa", "linewidth": 0.5, "linestyle": (0, (4, 3))},
             "lakes": {"facecolor": "#a9d3f2", "edgecolor": "#6fa8d6", "linewidth": 0.4}}
    for name in ("country", "cantons", "lakes"):
        gdf = gpd.GeoDataFrame.from_features(base[name]["features"], crs=4326).to_crs(2056)
        gdf = gdf[gdf.intersects(frame)]
        if len(gdf):
            gdf.clip(frame).plot(ax=ax, zorder=1, **style[name])


def _lines(ax: Axes, tt: Timetable, proj: _LV95) -> list[str]:
    """The day's lines by category (regional below, IC on top); returns the categories drawn, IC first."""
    by_cat: dict[str, list] = defaultdict(list)
    segments = line_segments(tt)
    for sg, pts in zip(segments, tracks(tt, segments), strict=True):  # rail on the physical lines
        xs, ys = proj.xy(np.array([p[0] for p in pts]), np.array([p[1] for p in pts]))
        by_cat[sg.category].append(list(zip(xs, ys, strict=True)))
    cats = sorted(by_cat, key=lambda c: CATEGORY_ORDER.index(c) if c in CATEGORY_ORDER else 99)
    for z, cat in enumerate(reversed(cats)):
        ax.add_collection(LineCollection(by_cat[cat], colors=CATEGORY_COLORS.get(cat, "#616161"),
                                         linewidths={"IC": 2.2, "fast": 1.8}.get(cat, 1.3), zorder=3 + z * 0.1,
                                         capstyle="round"))
    return cats


def _crossings(ax: Axes, tt: Timetable, game: Game, proj: _LV95, warnings: list[str]) -> list[Label]:
    """Toll lines and tunnels on their physical path; returns their labels (placed later)."""
    shapes, w = crossing_shapes(tt, game)
    warnings.extend(w)
    out: list[Label] = []
    for c in shapes:
        cx, cy = proj.xy([p[0] for p in c.coords], [p[1] for p in c.coords])
        if c.kind == "toll_line":
            ax.plot(cx, cy, color="#5a4300", lw=6.5, zorder=4, solid_capstyle="round")
            ax.plot(cx, cy, color=TOLL_COLOR, lw=4.5, zorder=4.1, solid_capstyle="round")
        else:
            ax.plot(cx, cy, color="white", lw=5.5, zorder=4)
            ax.plot(cx, cy, color=TUNNEL_COLOR, lw=3.5, ls=(0, (3, 2)), zorder=4.1)
        k = len(cx) // 2
        out.append(Label(c.name, float(cx[k]), float(cy[k]), fontsize=7.5, bold=True, clearance=3.5,
                         color="#3a2c00" if c.kind == "toll_line" else "#111111",
                         style={"bbox": {"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none", "alpha": 0.75}}))
    return out


def _stations(ax: Axes, tt: Timetable, game: Game, proj: _LV95,
              cats: list[str]) -> tuple[list[tuple[float, float, float]], list[Label], list[Label]]:
    """Station dots by category and dice-target badges; returns the markers labels must not cover
    (x, y, radius in points), the targets' labels and the IC / fast stations' labels."""
    pts = station_points(tt, game)
    dots: list[tuple[float, float, float]] = []
    for cat in cats or sorted({p.category for p in pts}):
        sel = [p for p in pts if p.category == cat]
        if not sel:
            continue
        px, py = proj.xy([p.lat for p in sel], [p.lon for p in sel])
        size = {"IC": 34, "fast": 24}.get(cat, 14)
        ax.scatter(px, py, s=size, c=CATEGORY_COLORS.get(cat, "#616161"),
                   edgecolors="white", linewidths=0.6, zorder=5)
        dots += [(float(x), float(y), math.sqrt(size) / 2) for x, y in zip(px, py, strict=True)]
    labels: list[Label] = []
    station_labels: list[Label] = []
    for p in pts:
        px, py = proj.xy(p.lat, p.lon)
        if p.targets:
            label = "/".join(map(str, p.targets))
            size = {1: 190, 2: 250}.get(len(label), 320)  # the number fits in its badge
            ax.scatter([px], [py], s=size, c="#111111", edgecolors="white", linewidths=1.2, zorder=6)
            ax.text(px, py, label, color="white", fontsize=7.5, fontweight="bold", ha="center", va="center",
                    zorder=6.1)
            dots.append((float(px), float(py), math.sqrt(size) / 2))
            labels.append(Label(p.name, float(px), float(py), fontsize=7.5, bold=True, clearance=math.sqrt(size) / 2,
                                style=_LABEL_BOX))
        elif p.category in ("IC", "fast"):
            station_labels.append(Label(p.name, float(px), float(py), clearance=3.0, style=_LABEL_BOX,
                                        rank=0 if p.category == "IC" else 1))
    return dots, labels, station_labels


def _legend(ax: Axes, game: Game, cats: list[str]) -> Artist:
    h = [Line2D([], [], color=RING_COLOR, lw=1.6, ls=(0, (6, 4)), label=area_label(game))]
    h += [Line2D([], [], color=CATEGORY_COLORS.get(c, "#616161"), lw=2.2, marker="o", ms=5, mec="white",
                 label=category_label(c)) for c in cats]
    h.append(Line2D([], [], ls="none", marker="o", ms=11, mfc="#111111", mec="white", label=_("dice target (number)")))
    if game.toll_lines:
        h.append(Line2D([], [], color=TOLL_COLOR, lw=4.5, label=_("toll line")))
    if game.tunnels:
        h.append(Line2D([], [], color=TUNNEL_COLOR, lw=3.5, ls=(0, (3, 2)), label=_("tunnel")))
    h.append(Rectangle((0, 0), 1, 1, fc="#a9d3f2", ec="#6fa8d6", label=_("lake")))
    leg = ax.legend(handles=h, loc="upper left", fontsize=8, framealpha=0.92, title=_("Legend"), title_fontsize=9)
    leg.set_zorder(10)
    return leg


def _nice(length: float) -> float:
    e = 10 ** math.floor(math.log10(length))
    for f in (5, 2, 1):
        if f * e <= length:
            return f * e
    return e


def _scale_bar(ax: Axes, x0: float, x1: float, y0: float, y1: float) -> Artist:
    """A black/white bar of a round length in km at the lower left (EPSG:2056 is in metres)."""
    total = _nice((x1 - x0) * 0.18)
    seg = total / 4
    bx, by = x0 + (x1 - x0) * 0.03, y0 + (y1 - y0) * 0.04
    hgt = (y1 - y0) * 0.008
    back = ax.add_patch(Rectangle((bx - seg * 0.15, by - hgt * 2.2), total + seg * 0.3, hgt * 6.2, fc="white",
                                  ec="none", alpha=0.85, zorder=9))
    for k in range(4):
        ax.add_patch(Rectangle((bx + k * seg, by), seg, hgt, fc="black" if k % 2 == 0 else "white", ec="black",
                               lw=0.6, zorder=10))
    for k in (0, 2, 4):
        d = k * seg / 1000
        ax.text(bx + k * seg, by + hgt * 1.6, f"{d:g}" + (" km" if k == 4 else ""), ha="center", va="bottom",
                fontsize=7, zorder=10)
    return back


def _north(ax: Axes) -> Artist:
    return ax.annotate("N", xy=(0.975, 0.96), xytext=(0.975, 0.885), xycoords="axes fraction", ha="center",
                va="center", fontsize=10, fontweight="bold", zorder=10,
                arrowprops={"arrowstyle": "-|>", "color": "black", "lw": 1.2})


def _wrap(text: str, width: int) -> str:
    return "\n".join(textwrap.wrap(text, width))

