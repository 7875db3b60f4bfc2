"""Print export for the game day's handout: A4 PDF (area map, rules card, station list) and PNG pages.

Page 1 (A4 landscape) is the area map in the Swiss projection EPSG:2056 (LV95, via pyproj/geopandas):
country, cantons and lakes from the vendored swiss-maps layer, the ring, the day's lines and stations by
category, dice targets with their numbers, toll lines and tunnels, a legend, a scale bar and the source
credit; its labels never overlap (:mod:`planner.maps.labels`). Page 2 (A4 portrait) is the rules card a
player keeps (:mod:`planner.maps.rules_card`). The next pages (A4 portrait) list the buyable stations grouped by initial letter with category and
price, dice targets marked. Text is real text (TrueType fonts embedded), so the PDF is searchable.
"""

from __future__ import annotations

import io
import math
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from matplotlib import rc_context
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle

from planner.gamefile.game import Game
from planner.maps import assets
from planner.maps.labels import Label, place_labels, point_box
from planner.maps.layers import (
    CATEGORY_COLORS,
    CATEGORY_LABELS,
    CATEGORY_ORDER,
    RING_COLOR,
    TOLL_COLOR,
    TUNNEL_COLOR,
    area_label,
    bounds,
    crossing_shapes,
    line_segments,
    missing_targets,
    ring_coords,
    station_points,
)
from planner.maps.rules_card import rules_page
from planner.timetable.model import Timetable
from planner.util.atomic import atomic_write_bytes
from planner.util.text import fold
from planner.util.timefmt import fmt_clock

SOURCE_CREDIT = "Source: opentransportdata.swiss"
A4_LANDSCAPE = (11.69, 8.27)
A4_PORTRAIT = (8.27, 11.69)
ROWS_PER_COLUMN = 54
_SHORT = {"IC": "IC/EC", "fast": "IR/RE", "regional": "regional"}
_LABEL_BOX = {"bbox": {"boxstyle": "round,pad=0.1", "fc": "white", "ec": "none", "alpha": 0.6}}
_RC = {"pdf.fonttype": 42, "ps.fonttype": 42, "font.family": "DejaVu Sans", "font.size": 9}


@dataclass
class HandoutResult:
    """What was written."""

    pdf: Path
    pages: int
    png: list[Path] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


class _LV95:
    """WGS84 -> EPSG:2056 (metres)."""

    def __init__(self):
        from pyproj import Transformer

        self._t = Transformer.from_crs(4326, 2056, always_xy=True)

    def xy(self, lat, lon):
        return self._t.transform(np.asarray(lon, float), np.asarray(lat, float))


def make_handout(tt: Timetable, game: Game, pdf_path: str | Path, *, png_dpi: int | None = 300) -> HandoutResult:
    """Write the handout PDF (and PNG pages beside it, ``<stem>-p<N>.png``, when ``png_dpi``)."""
    pdf_path = Path(pdf_path)
    pdf_path.parent.mkdir(parents=True, exist_ok=True)
    res = HandoutResult(pdf_path, 0)
    with rc_context(_RC):
        figs = [map_page(tt, game, res.warnings), rules_page(tt, game, SOURCE_CREDIT, 2),
                *station_pages(tt, game, first_page=3)]
        # Rendered in memory, then written atomically: a failure leaves no half file (nor a .part) behind.
        buf = io.BytesIO()
        with PdfPages(buf, metadata={"Title": f"{game.title} – handout {tt.date}",
                                     "Subject": SOURCE_CREDIT, "Creator": "sbb-planner"}) as pdf:
            for fig in figs:
                pdf.savefig(fig)
        atomic_write_bytes(pdf_path, buf.getvalue())
        res.pages = len(figs)
        if png_dpi:
            for k, fig in enumerate(figs, 1):
                p = pdf_path.with_name(f"{pdf_path.stem}-p{k}.png")
                buf = io.BytesIO()
                fig.savefig(buf, format="png", dpi=png_dpi, pil_kwargs={"compress_level": 3})  # fast, still small
                atomic_write_bytes(p, buf.getvalue())
                res.png.append(p)
    return res


# ---- page 1: the map ----------------------------------------------------------------------------------

def map_page(tt: Timetable, game: Game, warnings: list[str] | None = None) -> Figure:
    """The area map (A4 landscape) in EPSG:2056."""
    import geopandas as gpd
    from shapely.geometry import box

    warnings = warnings if warnings is not None else []
    proj = _LV95()
    fig = Figure(figsize=A4_LANDSCAPE)
    fig.text(0.03, 0.965, f"{game.title} – game area", fontsize=16, fontweight="bold", va="top")
    fig.text(0.03, 0.925, f"{_weekday(tt.date)} {tt.date} · game hours {fmt_clock(game.clock.start)}–{fmt_clock(game.clock.end)}"
             f" · timetable version {tt.feed_version}", fontsize=10, color="#444444", va="top")
    ax = fig.add_axes((0.03, 0.065, 0.94, 0.835))
    ax.set_facecolor("#e4e4e4")  # abroad
    ax.set_xticks([])
    ax.set_yticks([])

    # extent: the area plus a margin, widened to the axes' aspect so the map fills the frame
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

    # base layer
    base = assets.load_basemap()
    frame = box(x0, y0, x1, y1)
    style = {"country": {"facecolor": "#f6f3ea", "edgecolor": "#777777", "linewidth": 0.8},
             "cantons": {"facecolor": "none", "edgecolor": "#aaaaaa", "linewidth": 0.5, "linestyle": (0, (4, 3))},
             "lakes": {"facecolor": "#a9d3f2", "edgecolor": "#6fa8d6", "linewidth": 0.4}}
    for name in ("country", "cantons", "lakes"):
        gdf = gpd.GeoDataFrame.from_features(base[name]["features"], crs=4326).to_crs(2056)
        gdf = gdf[gdf.intersects(frame)]
        if len(gdf):
            gdf.clip(frame).plot(ax=ax, zorder=1, **style[name])

    # ring
    ring = ring_coords(game)
    if ring:
        rx, ry = proj.xy([p[0] for p in ring], [p[1] for p in ring])
        ax.plot(rx, ry, color=RING_COLOR, lw=1.6, ls=(0, (6, 4)), zorder=2)

    # lines by category (regional below, IC on top)
    lat, lon = tt.station_lat, tt.station_lon
    sx, sy = proj.xy(lat, lon)
    segs = line_segments(tt)
    by_cat: dict[str, list] = defaultdict(list)
    for sg in segs:
        by_cat[sg.category].append(((sx[sg.a], sy[sg.a]), (sx[sg.b], sy[sg.b])))
    from matplotlib.collections import LineCollection

    cats = sorted(by_cat, key=lambda c: CATEGORY_ORDER.index(c) if c in CATEGORY_ORDER else 99)
    for z, cat in enumerate(reversed(cats)):
        ax.add_collection(LineCollection(by_cat[cat], colors=CATEGORY_COLORS.get(cat, "#616161"),
                                         linewidths={"IC": 2.2, "fast": 1.8}.get(cat, 1.3), zorder=3 + z * 0.1,
                                         capstyle="round"))

    # toll lines and tunnels
    shapes, w = crossing_shapes(tt, game)
    warnings.extend(w)
    labels: list[Label] = []
    crossing_labels: list[Label] = []
    for c in shapes:
        cx, cy = proj.xy([p[0] for p in c.coords], [p[1] for p in c.coords])
        if c.kind == "toll_line":
            ax.plot(cx, cy, color="#5a4300", lw=6.5, zorder=4, solid_capstyle="round")
            ax.plot(cx, cy, color=TOLL_COLOR, lw=4.5, zorder=4.1, solid_capstyle="round")
        else:
            ax.plot(cx, cy, color="white", lw=5.5, zorder=4)
            ax.plot(cx, cy, color=TUNNEL_COLOR, lw=3.5, ls=(0, (3, 2)), zorder=4.1)
        k = len(cx) // 2
        crossing_labels.append(Label(c.name, float(cx[k]), float(cy[k]), fontsize=7.5, bold=True, clearance=3.5,
                                     color="#3a2c00" if c.kind == "toll_line" else "#111111",
                                     style={"bbox": {"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none",
                                                     "alpha": 0.75}}))

    # stations and targets
    pts = station_points(tt, game)
    dots: list[tuple[float, float, float]] = []  # x, y, radius (points): markers labels must not cover
    for cat in cats or sorted({p.category for p in pts}):
        sel = [p for p in pts if p.category == cat]
        if not sel:
            continue
        px, py = proj.xy([p.lat for p in sel], [p.lon for p in sel])
        size = {"IC": 34, "fast": 24}.get(cat, 14)
        ax.scatter(px, py, s=size, c=CATEGORY_COLORS.get(cat, "#616161"),
                   edgecolors="white", linewidths=0.6, zorder=5)
        dots += [(float(x), float(y), math.sqrt(size) / 2) for x, y in zip(px, py, strict=True)]
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
    ax.set_xlim(x0, x1)
    ax.set_ylim(y0, y1)
    ax.set_aspect("equal")
    ax.set_xlabel("")  # geopandas labels the projected axes; the scale bar says it all
    ax.set_ylabel("")

    leg = _legend(ax, game, cats)
    bar = _scale_bar(ax, x0, x1, y0, y1)
    north = _north(ax)
    missing = missing_targets(tt, game)
    foot = f"{SOURCE_CREDIT} · {assets.BASEMAP_CREDIT} · projection CH1903+/LV95 (EPSG:2056)"
    credit = ax.text(0.997, 0.004, foot, transform=ax.transAxes, ha="right", va="bottom", fontsize=7.5,
                     color="#333333", zorder=11,
                     bbox={"boxstyle": "square,pad=0.3", "fc": "white", "ec": "none", "alpha": 0.85})
    if missing:
        fig.text(0.03, 0.052, _wrap("Dice targets not served in this timetable: " + ", ".join(missing), 170),
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
        warnings.append("map labels left out for lack of room: " + ", ".join(lab.text for lab in left_out))
    return fig


def _legend(ax: Axes, game: Game, cats: list[str]) -> Artist:
    h = [Line2D([], [], color=RING_COLOR, lw=1.6, ls=(0, (6, 4)), label=area_label(game))]
    h += [Line2D([], [], color=CATEGORY_COLORS.get(c, "#616161"), lw=2.2, marker="o", ms=5, mec="white",
                 label=CATEGORY_LABELS.get(c, c)) for c in cats]
    h.append(Line2D([], [], ls="none", marker="o", ms=11, mfc="#111111", mec="white", label="dice target (number)"))
    if game.toll_lines:
        h.append(Line2D([], [], color=TOLL_COLOR, lw=4.5, label="toll line"))
    if game.tunnels:
        h.append(Line2D([], [], color=TUNNEL_COLOR, lw=3.5, ls=(0, (3, 2)), label="tunnel"))
    h.append(Rectangle((0, 0), 1, 1, fc="#a9d3f2", ec="#6fa8d6", label="lake"))
    leg = ax.legend(handles=h, loc="upper left", fontsize=8, framealpha=0.92, title="Legend", title_fontsize=9)
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
    import textwrap

    return "\n".join(textwrap.wrap(text, width))


def _weekday(date: str) -> str:
    import datetime as dt

    try:
        return dt.date.fromisoformat(date).strftime("%A")
    except ValueError:
        return ""


# ---- pages 2+: the station list -----------------------------------------------------------------------

def station_lines(tt: Timetable, game: Game) -> list[tuple[str, dict | str]]:
    """The list as printed: ``("head", "A – 3 stations, 1 group")`` and ``("row", {...})`` items by letter."""
    pts = station_points(tt, game)
    by_letter: dict[str, list] = defaultdict(list)
    for p in pts:
        by_letter[p.letter].append(p)
    out: list[tuple[str, dict | str]] = []
    size = game.letter_group_size
    for letter in sorted(by_letter):
        rows = sorted(by_letter[letter], key=lambda p: fold(p.name))
        groups = len(rows) // size
        note = f"{groups} group(s)" if groups else f"no group (needs {size})"
        out.append(("head", f"{letter} – {len(rows)} station(s), {note}"))
        for p in rows:
            out.append(("row", {"name": p.name, "category": _SHORT.get(p.category, p.category),
                                "price": p.price, "targets": p.targets}))
    return out


def station_pages(tt: Timetable, game: Game, first_page: int = 2) -> list[Figure]:
    """A4 portrait pages, two columns each, of the station list."""
    items = station_lines(tt, game)
    cols: list[list] = []
    cur: list = []
    letter = ""
    for it in items:
        if it[0] == "head":
            letter = str(it[1]).split(" ")[0]
        # a letter heading never ends a column; a letter cut by the column break is named again
        if len(cur) >= ROWS_PER_COLUMN or (it[0] == "head" and len(cur) >= ROWS_PER_COLUMN - 2):
            cols.append(cur)
            cur = [] if it[0] == "head" else [("head", f"{letter} (continued)")]
        cur.append(it)
    if cur:
        cols.append(cur)
    if not cols:
        cols = [[]]
    pages = [cols[i:i + 2] for i in range(0, len(cols), 2)]
    figs = []
    n_st = sum(1 for it in items if it[0] == "row")
    for k, page in enumerate(pages, 1):
        fig = Figure(figsize=A4_PORTRAIT)
        fig.text(0.06, 0.965, f"{game.title} – stations to buy", fontsize=15, fontweight="bold", va="top")
        fig.text(0.06, 0.937, f"{n_st} stations in the game area on {tt.date}, grouped by initial letter: "
                 f"{game.letter_group_size} of one letter form a building group.\n★ n = dice target n.",
                 fontsize=8.5, color="#444444", va="top", linespacing=1.5)
        for c, col in enumerate(page):
            x = 0.06 + c * 0.46
            fig.text(x, 0.895, "Station", fontsize=8, color="#666666", fontweight="bold")
            fig.text(x + 0.27, 0.895, "Category", fontsize=8, color="#666666", fontweight="bold")
            fig.text(x + 0.42, 0.895, "Price", fontsize=8, color="#666666", fontweight="bold", ha="right")
            y = 0.877
            for kind, val in col:
                if kind == "head":
                    y -= 0.004
                    fig.text(x, y, str(val), fontsize=9.5, fontweight="bold", color="#1f3a5f", va="top")
                else:
                    assert isinstance(val, dict)
                    name = val["name"] + (f"  ★ {'/'.join(map(str, val['targets']))}" if val["targets"] else "")
                    fig.text(x + 0.01, y, name, fontsize=8.5, va="top",
                             fontweight="bold" if val["targets"] else "normal")
                    fig.text(x + 0.27, y, val["category"], fontsize=8, va="top", color="#333333")
                    fig.text(x + 0.42, y, f"{val['price']:,}".replace(",", "'"), fontsize=8.5, va="top", ha="right")
                y -= 0.014
        fig.text(0.94, 0.025, f"{SOURCE_CREDIT} · page {first_page + k - 1}", ha="right", fontsize=7.5, color="#444444")
        figs.append(fig)
    return figs
