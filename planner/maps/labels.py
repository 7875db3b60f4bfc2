"""Map labels that never overlap (print handout): greedy placement around each point, leader lines when far.

Labels are placed in priority order, each at the first free position around its anchor
(:func:`planner.maps.placement.find_spot`: close first, then farther out with a thin leader line back to the
point) whose box overlaps no box placed before it and no obstacle (legend, scale bar, markers, other points). A
label with no free position is left out and returned, so the caller can list it elsewhere. Boxes are measured
with the figure's renderer, in display pixels, with a margin for the PDF's font metrics.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.transforms import Bbox

from planner.maps.placement import find_spot

# the PDF's word boxes are a little larger than the extent the Agg renderer measures (font metrics vs hinting)
_MARGIN_PX = 1.5
_MARGIN_WIDTH = 0.03  # of the text's width


@dataclass
class Label:
    """A label to place: text at a point (data coordinates), its style, and how close it must stay."""

    text: str
    x: float
    y: float
    fontsize: float = 6.5
    bold: bool = False
    color: str = "#222222"
    clearance: float = 3.0  # radius (points) of the marker at the anchor: the text starts beyond it
    style: dict = field(default_factory=dict)
    rank: int = 0  # for the caller's ordering (e.g. IC stations before fast-train stations)


def _text_size(fig: Figure, renderer, label: Label) -> tuple[float, float]:
    t = fig.text(0, 0, label.text, fontsize=label.fontsize, fontweight="bold" if label.bold else "normal")
    ext = t.get_window_extent(renderer)
    t.remove()
    return ext.width, ext.height


def point_box(ax: Axes, x: float, y: float, radius_pt: float) -> Bbox:
    """The display box of a round marker of ``radius_pt`` points at data ``(x, y)`` (an obstacle)."""
    px, py = ax.transData.transform((x, y))
    r = radius_pt * ax.figure.dpi / 72.0
    return Bbox.from_extents(px - r, py - r, px + r, py + r)


def place_labels(ax: Axes, labels: list[Label], obstacles: list[Bbox]) -> list[Label]:
    """Draw ``labels`` (in the order given: most important first) where they overlap nothing; returns the
    labels that found no free position (not drawn). ``obstacles`` are display boxes to keep clear; the
    boxes of the placed labels are appended to it."""
    fig = ax.figure
    renderer = fig.canvas.get_renderer()
    frame = tuple(ax.get_window_extent(renderer).extents)
    taken = [tuple(b.extents) for b in obstacles]
    left_out = []
    for lab in labels:
        w, h = _text_size(fig, renderer, lab)
        ax_px, ay_px = ax.transData.transform((lab.x, lab.y))
        spot = find_spot(ax_px, ay_px, (w, h), clearance=lab.clearance, scale=fig.dpi / 72.0,
                         margin=(_MARGIN_PX + _MARGIN_WIDTH * w, _MARGIN_PX), frame=frame, taken=taken)
        if spot is None:
            left_out.append(lab)
            continue
        _draw(ax, lab, (spot.x0, spot.y0), w, h, leader=spot.leader)
        obstacles.append(Bbox.from_extents(*taken[-1]))
    return left_out


def _draw(ax: Axes, lab: Label, corner_px: tuple[float, float], w: float, h: float, *, leader: bool) -> None:
    # the text is drawn at its box's lower-left corner (display -> data coordinates)
    inv = ax.transData.inverted()
    tx, ty = inv.transform(corner_px)
    kwargs = {"fontsize": lab.fontsize, "fontweight": "bold" if lab.bold else "normal", "color": lab.color,
              "ha": "left", "va": "bottom", "zorder": 8, **lab.style}
    if leader:
        # the leader line ends at the box's nearest point
        bx = min(max(ax.transData.transform((lab.x, lab.y))[0], corner_px[0]), corner_px[0] + w)
        by = min(max(ax.transData.transform((lab.x, lab.y))[1], corner_px[1]), corner_px[1] + h)
        ex, ey = inv.transform((bx, by))
        ax.plot([lab.x, ex], [lab.y, ey], color="#555555", lw=0.5, zorder=7.5)
    ax.text(tx, ty, lab.text, **kwargs)
