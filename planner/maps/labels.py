"""Map labels that never overlap (print handout): greedy placement around each point, leader lines when far.

Labels are placed in priority order. Each one tries positions around its anchor (right, left, above, below,
the diagonals), first close to it, then farther out with a thin leader line back to the point; it takes the
first position whose box overlaps no box placed before it and no obstacle (legend, scale bar, markers, other
points). A label with no free position is left out and returned, so the caller can list it elsewhere. Boxes
are measured with the figure's renderer, in display pixels, with a margin for the PDF's font metrics.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.transforms import Bbox

# offsets in points: near positions first, then farther ones (drawn with a leader line)
_DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1))
_RADII = (5.0, 11.0, 18.0, 27.0, 38.0, 52.0)
_LEADER_FROM = 11.0  # labels at least this far from their point get a leader line
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


def _overlaps(box: Bbox, others: list[Bbox]) -> bool:
    return any(box.x0 < o.x1 and o.x0 < box.x1 and box.y0 < o.y1 and o.y0 < box.y1 for o in others)


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
    frame = ax.get_window_extent(renderer)
    px_per_pt = fig.dpi / 72.0
    left_out = []
    for lab in labels:
        w, h = _text_size(fig, renderer, lab)
        ax_px, ay_px = ax.transData.transform((lab.x, lab.y))
        placed = False
        for radius in _RADII:
            r = (radius + lab.clearance) * px_per_pt
            for dx, dy in _DIRECTIONS:
                # the box's edge nearest to the point sits at the offset
                cx = ax_px + dx * r
                cy = ay_px + dy * r
                x0 = cx if dx > 0 else cx - w if dx < 0 else cx - w / 2
                y0 = cy if dy > 0 else cy - h if dy < 0 else cy - h / 2
                mx = _MARGIN_PX + _MARGIN_WIDTH * w
                box = Bbox.from_extents(x0 - mx, y0 - _MARGIN_PX, x0 + w + mx, y0 + h + _MARGIN_PX)
                if box.x0 < frame.x0 or box.x1 > frame.x1 or box.y0 < frame.y0 or box.y1 > frame.y1:
                    continue
                if _overlaps(box, obstacles):
                    continue
                _draw(ax, lab, (x0, y0), w, h, leader=radius >= _LEADER_FROM)
                obstacles.append(box)
                placed = True
                break
            if placed:
                break
        if not placed:
            left_out.append(lab)
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
