"""Where a map label goes (pure geometry, no drawing library): the positions tried around a point, in order, and
the first one whose box overlaps nothing taken before it.

Each label tries positions around its anchor (right, left, then along the other axis, then the diagonals), first
close to it, then farther out (a caller draws a leader line back to the point from :data:`LEADER_FROM` on). Boxes
are ``(x0, y0, x1, y1)`` in one pixel space of the caller's choosing (the handout's display pixels with y up,
an SVG's with y down): :mod:`planner.maps.labels` places the handout's labels with it, the game lab's page
(:mod:`planner.lab.render`) its map's.
"""

from __future__ import annotations

from dataclasses import dataclass

Box = tuple[float, float, float, float]  # x0, y0, x1, y1

# offsets (in the caller's units, times its scale): near positions first, then farther ones
DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1))
RADII = (5.0, 11.0, 18.0, 27.0, 38.0, 52.0)
LEADER_FROM = 11.0  # labels at least this far from their point get a leader line


@dataclass(frozen=True)
class Spot:
    """A free position for a label: its text box's corner with the smaller coordinates, and whether it lies far
    enough from its point to want a leader line."""

    x0: float
    y0: float
    leader: bool


def overlaps(box: Box, others: list[Box]) -> bool:
    """True when ``box`` overlaps any of ``others``."""
    return any(box[0] < o[2] and o[0] < box[2] and box[1] < o[3] and o[1] < box[3] for o in others)


def inside(box: Box, frame: Box) -> bool:
    """True when ``box`` lies within ``frame``."""
    return frame[0] <= box[0] and box[2] <= frame[2] and frame[1] <= box[1] and box[3] <= frame[3]


def find_spot(x: float, y: float, size: tuple[float, float], *, clearance: float, scale: float,
              margin: tuple[float, float], frame: Box, taken: list[Box]) -> Spot | None:
    """The first free position for a text box of ``size`` (w, h) around the point ``(x, y)``: the box's nearest
    edge ``(radius + clearance) * scale`` away from the point, within ``frame``, its box grown by ``margin``
    (mx, my) overlapping nothing in ``taken``, to which that box is appended. None: no free position."""
    w, h = size
    mx, my = margin
    for radius in RADII:
        r = (radius + clearance) * scale
        for dx, dy in DIRECTIONS:
            cx, cy = x + dx * r, y + dy * r
            x0 = cx if dx > 0 else cx - w if dx < 0 else cx - w / 2
            y0 = cy if dy > 0 else cy - h if dy < 0 else cy - h / 2
            box = (x0 - mx, y0 - my, x0 + w + mx, y0 + h + my)
            if not inside(box, frame) or overlaps(box, taken):
                continue
            taken.append(box)
            return Spot(x0, y0, radius >= LEADER_FROM)
    return None
