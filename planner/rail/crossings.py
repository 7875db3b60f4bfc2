"""The toll lines and tunnels a train crosses, decided on its physical path (docs/rules.md §2 §11-§12, §3).

A crossing is decided on the *physical path* of a train, not only on its stops: an IC that runs
Olten -> Zürich HB without stopping crosses Olten–Aarau and the Heitersberg tunnel. The feed has no
shapes, so the path between two consecutive stops is inferred as the shortest path in the SBB line
network (:class:`planner.rail.network.RailNetwork`).

* Toll line A–B: the path travels the whole stretch between A and B in either direction: it has a
  segment that starts at a point of A and ends at a point of B (or the reverse), with no point of
  A or B inside. A and B need not be stops, other stops may lie between. A segment longer than
  ``DETOUR_FACTOR`` x the shortest A–B distance (+ ``DETOUR_SLACK_KM``) is a detour, not the stretch.
* Tunnel X–Y: like a toll line between its two ``between`` points, and the segment must also pass
  every ``via`` entry: an operating-point name (``"Hauenstein Süd"``), or ``"line NNN"`` (the
  segment uses an edge of SBB line NNN: the Adler tunnel is line 501 Muttenz Ost–Liestal Nord,
  which has no operating point of its own to name).
* On stops (the one stop-based rule): when a ``between`` point is not on the network (the
  Waldenburgerbahn is not an SBB line), or when there is no network at all (its data file is
  missing), the crossing is decided on the trip's stop names: the stop list must contain a stop of A
  and later a stop of B (or B then A) with no stop of A or B between them; other stops may lie between
  (the Waldenburgerbahn has stops between Hölstein and Niederdorf). A stop name matches ``Hölstein``
  when it is ``Hölstein``, ``Hölstein, Station``/``Bahnhof`` or ``Hölstein BL``.

Leg positions: in a list of stops, leg ``k`` is the ride from stop ``k`` to stop ``k + 1``.
Where the train has passed a crossing (variant B's toll-line and tunnel targets are reached there, docs/rules.md §2):
the end of the crossed stretch, as the share of its leg's track km from the stop before it (``end_share``; 1.0
for a crossing decided on the stops, whose end is a stop); the time follows from the stops' times around it.
Nothing here does I/O.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from planner.errors import StationNotFound
from planner.gamefile.game import Crossing, Game
from planner.util.text import fold

if TYPE_CHECKING:  # a type only: the network's module imports pandas and networkx (300 ms of a roll's start)
    from planner.rail.network import RailNetwork

# A toll-line segment longer than this factor times the shortest distance between its ends is a detour.
DETOUR_FACTOR = 1.5
DETOUR_SLACK_KM = 2.0
_VIA_LINE = re.compile(r"^\s*(?:line|linie|ligne|linea)\s+(\d+)\s*$", re.IGNORECASE)
_CANTONS = frozenset(
    "ag ai ar be bl bs fr ge gl gr ju lu ne nw ow sg sh so sz tg ti ur vd vs zg zh".split()
)
_STATION_WORDS = frozenset({"station", "bahnhof", "bhf", "bahnhof sbb", "sbb", "gare", "stazione"})


@dataclass(frozen=True)
class CrossingHit:
    """One toll line or tunnel crossed by a trip.

    ``leg_start``/``leg_end``: the legs (stop pairs) where the crossing starts and ends (leg k = from stop
    k to stop k + 1 of the list given; for ``trip_crossings``: positions within the whole trip).
    ``method``: ``"path"`` (physical path) or ``"stops"`` (decided on stop names: a point off the network, or
    no network at all).
    ``points``: the crossed stretch as UICs (empty for ``"stops"``). ``forward``: travelled from
    ``between[0]`` to ``between[1]``. ``end_share``: how far along leg ``leg_end`` (by track km, 0..1] the
    train has passed the crossing's end.
    """

    name: str
    kind: str  # "toll_line" | "tunnel"
    between: tuple[str, str]
    leg_start: int
    leg_end: int
    method: str = "path"
    forward: bool = True
    points: tuple[str, ...] = field(default=(), compare=False)
    end_share: float = field(default=1.0, compare=False)

    @property
    def start(self) -> int:
        """Position of the last stop before the crossing (board here or earlier to pay it)."""
        return self.leg_start

    @property
    def end(self) -> int:
        """Position of the first stop after the crossing (ride at least to here)."""
        return self.leg_end + 1


@dataclass(frozen=True)
class CrossingCheck:
    """How the network understands one crossing definition (for the organisers' check)."""

    name: str
    kind: str
    method: str  # "path" | "stops" | "invalid"
    ends: tuple[tuple[str, ...], tuple[str, ...]]  # resolved UICs of each end (empty: not on network)
    via_points: tuple[tuple[str, ...], ...]
    via_lines: tuple[int, ...]
    stretch: tuple[str, ...]  # shortest stretch through the via entries (UICs), empty if none
    length_km: float
    problems: tuple[str, ...]


@dataclass(frozen=True)
class _Spec:
    crossing: Crossing
    method: str  # "path" | "stops" | "invalid"
    ends: tuple[frozenset[int], frozenset[int]] = (frozenset(), frozenset())
    via_nodes: tuple[frozenset[int], ...] = ()
    via_lines: tuple[int, ...] = ()
    max_len: float = math.inf
    problems: tuple[str, ...] = ()


def crossing_kind(game: Game, c: Crossing) -> str:
    """``"toll_line"`` or ``"tunnel"``: the crossing's own kind, else by the game list it is in."""
    if c.kind in ("toll_line", "tunnel"):
        return c.kind
    return "tunnel" if any(c is t for t in game.tunnels) else "toll_line"


def _spec(network: RailNetwork, c: Crossing) -> _Spec:
    cache = network.spec_cache
    hit = cache.get(c)
    if hit is not None:
        return hit
    problems: list[str] = []
    ends: list[frozenset[int]] = []
    for name in c.between:
        try:
            ends.append(frozenset(network.node_of[u] for u in network.resolve_all(name)))
        except StationNotFound as exc:
            problems.append(str(exc))
            ends.append(frozenset())
    via_nodes: list[frozenset[int]] = []
    via_lines: list[int] = []
    for v in c.via:
        m = _VIA_LINE.match(v)
        if m:
            line = int(m.group(1))
            if line not in network.lines:
                problems.append(f"via {v!r}: no such line in service on the network")
            via_lines.append(line)
            continue
        try:
            via_nodes.append(frozenset(network.node_of[u] for u in network.resolve_all(v)))
        except StationNotFound as exc:
            problems.append(f"via: {exc}")
    if len(c.between) != 2:
        spec = _Spec(c, "invalid", problems=(*problems, "between must name two points"))
    elif ends[0] and ends[0] == ends[1]:
        spec = _Spec(c, "invalid", problems=(*problems, "both ends name the same station"))
    elif all(ends) and len(via_nodes) + len(via_lines) == len(c.via) and not any(
        "no such line" in p for p in problems
    ):
        d = network.distance([network.uics[i] for i in ends[0]], [network.uics[i] for i in ends[1]])
        if math.isinf(d):
            spec = _Spec(c, "invalid", problems=(*problems, "the two ends are not connected"))
        else:
            spec = _Spec(c, "path", (ends[0], ends[1]), tuple(via_nodes), tuple(via_lines),
                         d * DETOUR_FACTOR + DETOUR_SLACK_KM, tuple(problems))
    elif not all(ends) and not c.via:
        # an end is off the SBB network (e.g. the Waldenburgerbahn): decide on the stops
        spec = _Spec(c, "stops", problems=tuple(problems))
    else:
        spec = _Spec(c, "invalid", problems=tuple(problems))
    cache[c] = spec
    return spec


def _stop_matches(stop_name: str, name: str) -> bool:
    """``"Hölstein, Station"``, ``"Hölstein"`` and ``"Niederdorf BL"`` match ``"Hölstein"``/``"Niederdorf"``."""
    fs, fn = fold(stop_name), fold(name)
    if fs == fn:
        return True
    if fs.startswith(fn + " "):
        rest = fs[len(fn) + 1:]
        return rest in _STATION_WORDS or rest in _CANTONS
    return False


def _segments(marks: Sequence[int]) -> list[tuple[int, int, bool]]:
    """Minimal segments in a sequence marked 1 (end A), 2 (end B) or 0: (start, end, forward A->B)."""
    out = []
    last_i, last_m = -1, 0
    for i, m in enumerate(marks):
        if not m:
            continue
        if last_m and m != last_m:
            out.append((last_i, i, last_m == 1))
        last_i, last_m = i, m
    return out


def _end_share(legs: list[int], km: list[float], j: int) -> float:
    """Share of the track km of the leg holding edge ``j - 1`` that lies before node ``j`` (its stop before
    the leg is at share 0, the stop after it at 1)."""
    leg = legs[j - 1]
    lo = j - 1
    while lo > 0 and legs[lo - 1] == leg:
        lo -= 1
    hi = j
    while hi < len(legs) and legs[hi] == leg:
        hi += 1
    total = sum(km[lo:hi])
    return 1.0 if total <= 0 else min(1.0, sum(km[lo:j]) / total)


def _path_hits(network: RailNetwork, spec: _Spec, kind: str, nodes: list[int], legs: list[int],
               weights: list[float], km: list[float]) -> list[CrossingHit]:
    a_set, b_set = spec.ends
    marks = [1 if n in a_set else 2 if n in b_set else 0 for n in nodes]
    hits = []
    cum = np.concatenate([[0.0], np.cumsum(weights)]) if weights else np.zeros(1)
    for i, j, fwd in _segments(marks):
        if j == i or cum[j] - cum[i] > spec.max_len + 1e-9:
            continue
        seg = nodes[i:j + 1]
        seg_set = set(seg)
        if not all(seg_set & v for v in spec.via_nodes):
            continue
        if spec.via_lines:
            used: set[int] = set()
            for x, y in zip(seg[:-1], seg[1:], strict=True):
                used |= network.edge_lines(x, y)
            if not all(line in used for line in spec.via_lines):
                continue
        c = spec.crossing
        hits.append(CrossingHit(c.name, kind, (c.between[0], c.between[1]), legs[i], legs[j - 1], "path", fwd,
                                tuple(network.uics[k] for k in seg), _end_share(legs, km, j)))
    return hits


def _stop_hits(spec: _Spec, kind: str, stop_names: Sequence[str] | None) -> list[CrossingHit]:
    if not stop_names:
        return []
    c = spec.crossing
    marks = [1 if _stop_matches(s, c.between[0]) else 2 if _stop_matches(s, c.between[1]) else 0
             for s in stop_names]
    return [CrossingHit(c.name, kind, (c.between[0], c.between[1]), i, j - 1, "stops", fwd)
            for i, j, fwd in _segments(marks)]


Run = tuple[list[int], list[int], list[float], list[float]]


def _physical_runs(network: RailNetwork, stop_uics: Sequence[str]) -> list[Run]:
    """Concatenate the paths between consecutive stops into runs (a stop off the network ends a run).

    Returns (nodes, leg of each edge, weight of each edge, track km of each edge) per run.
    """
    runs: list[Run] = []
    nodes: list[int] = []
    legs: list[int] = []
    weights: list[float] = []
    km: list[float] = []

    def flush() -> None:
        nonlocal nodes, legs, weights, km
        if len(nodes) > 1:
            runs.append((nodes, legs, weights, km))
        nodes, legs, weights, km = [], [], [], []

    idx = network.node_of
    for k in range(len(stop_uics) - 1):
        a, b = idx.get(stop_uics[k]), idx.get(stop_uics[k + 1])
        p = network.node_path(a, b) if a is not None and b is not None else None
        if p is None:
            # no physical path for this leg (a stop off the SBB network): never bridge it, a guess
            # across private lines could invent a crossing (Wohlen–Bremgarten–Dietikon is not Heitersberg)
            flush()
            continue
        if not nodes:
            nodes = [p[0]]
        for x, y in zip(p[:-1], p[1:], strict=True):
            nodes.append(y)
            legs.append(k)
            weights.append(network.adj[x][y])
            km.append(network.track_km(x, y))
    flush()
    return runs


def crossings(network: RailNetwork | None, game: Game, stop_uics: Sequence[str],
              stop_names: Sequence[str] | None = None) -> list[CrossingHit]:
    """Toll lines and tunnels of ``game`` crossed by a train stopping at ``stop_uics`` in this order.

    ``stop_uics``: the trip's consecutive stops as UIC strings (``"8500218"``). ``stop_names`` (same
    length, optional) lets crossings whose points are off the SBB network be decided on the stops.
    Without a network (``None``: its data is missing) every crossing is decided on the stops, which
    misses trains that pass A or B without stopping. Hits are ordered by where they start.
    """
    if stop_names is not None and len(stop_names) != len(stop_uics):
        raise ValueError("stop_names must have one name per stop")
    all_crossings = [*game.toll_lines, *game.tunnels]
    if not all_crossings or len(stop_uics) < 2:
        return []
    runs = _physical_runs(network, stop_uics) if network is not None else []
    hits: list[CrossingHit] = []
    for c in all_crossings:
        spec = _spec(network, c) if network is not None else _Spec(c, "stops")
        kind = crossing_kind(game, c)
        if spec.method == "path" and network is not None:
            for nodes, legs, weights, km in runs:
                hits.extend(_path_hits(network, spec, kind, nodes, legs, weights, km))
        elif spec.method == "stops":
            hits.extend(_stop_hits(spec, kind, stop_names))
    hits.sort(key=lambda h: (h.leg_start, h.leg_end, h.name))
    return hits


def check_crossings(network: RailNetwork, game: Game) -> list[CrossingCheck]:
    """How each toll line and tunnel of the game resolves on the network (organisers' check)."""
    out = []
    for c in (*game.toll_lines, *game.tunnels):
        spec = _spec(network, c)
        ends = tuple(tuple(sorted(network.uics[i] for i in e)) for e in spec.ends)
        stretch: tuple[str, ...] = ()
        length = math.inf
        if spec.method == "path":
            stretch, length = _stretch(network, spec)
        out.append(CrossingCheck(
            c.name, crossing_kind(game, c), spec.method, (ends[0], ends[1]),
            tuple(tuple(sorted(network.uics[i] for i in v)) for v in spec.via_nodes), spec.via_lines,
            stretch, length, spec.problems,
        ))
    return out


def _stretch(network: RailNetwork, spec: _Spec) -> tuple[tuple[str, ...], float]:
    """Shortest path from end A through the via points to end B (for maps and the check)."""
    a_set, b_set = spec.ends
    waypoints = [a_set, *spec.via_nodes, b_set]
    nodes: list[int] = []
    total = 0.0
    current = tuple(sorted(a_set))
    for target in waypoints[1:]:
        dist, prev = network.tree(current)
        best = min(target, key=lambda i: (dist[i], i))
        if math.isinf(dist[best]):
            return (), math.inf
        piece = [best]
        while prev[piece[-1]] != -1:
            piece.append(prev[piece[-1]])
        piece.reverse()
        total += dist[best]
        nodes.extend(piece if not nodes else piece[1:])
        current = (best,)
    return tuple(network.uics[i] for i in nodes), total
