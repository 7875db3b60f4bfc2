"""Physical rail network and the toll lines / tunnels a train crosses (RULES.md §2 §11-§12, §3).

A crossing is decided on the *physical path* of a train, not only on its stops: an IC that runs
Olten -> Zürich HB without stopping crosses Olten–Aarau and the Heitersberg tunnel. The feed has no
shapes, so the path between two consecutive stops is inferred as the shortest path in the SBB line
network (operating points by km, ``planner.rail`` loads them).

The network
    Nodes are operating points (by BPUIC). One station often has several points (``Olten`` is
    ``Olten``, ``Olten Nord (Abzw)``, ``Olten Ost (Abzw)``, ``Olten Süd``): each point has its own
    name and the name of its station. Edges join consecutive points by km on each line; lines join
    where they share a point. Edge weight is the km difference, corrected where the km is not a
    length (km jumps) and scaled by a *line preference*: freight/yard lines are avoided, project lines
    (not built), dismantled lines and construction galleries are left out, and a few secondary lines
    that are as long as the main line they parallel are slightly penalised (the Läufelfingen line 503
    is exactly as long as the Hauenstein base tunnel route by km; trains that do not stop on it use the
    tunnel). Points of one station that no line joins are linked by their distance.

Crossing semantics
    * Toll line A–B: the path travels the whole stretch between A and B in either direction: it has a
      segment that starts at a point of A and ends at a point of B (or the reverse), with no point of
      A or B inside. A and B need not be stops, other stops may lie between. A segment longer than
      ``DETOUR_FACTOR`` x the shortest A–B distance (+ ``DETOUR_SLACK_KM``) is a detour, not the stretch.
    * Tunnel X–Y: like a toll line between its two ``between`` points, and the segment must also pass
      every ``via`` entry: an operating-point name (``"Hauenstein Süd"``), or ``"line NNN"`` (the
      segment uses an edge of SBB line NNN: the Adler tunnel is line 501 Muttenz Ost–Liestal Nord,
      which has no operating point of its own to name).
    * Fallback on stops: when a ``between`` point is not on the network (the Waldenburgerbahn is not
      an SBB line), the crossing is decided on the trip's stop names: the stop list must contain a stop
      of A and later a stop of B (or B then A) with no stop of A or B between them; other stops may lie
      between (the Waldenburgerbahn has stops between Hölstein and Niederdorf). A stop name matches
      ``Hölstein`` when it is ``Hölstein``, ``Hölstein, Station``/``Bahnhof`` or ``Hölstein BL``.
      Buses do not cross toll lines: ``trip_crossings`` only looks at rail, tram and metro trips.

Leg positions: in a list of stops, leg ``k`` is the ride from stop ``k`` to stop ``k + 1``.
Nothing here does I/O.
"""

from __future__ import annotations

import heapq
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypedDict

import numpy as np
import pandas as pd

from planner.errors import StationNotFound
from planner.game.gamefile import Crossing, Game
from planner.timetable.model import Mode, Timetable
from planner.util.text import fold

# A toll-line segment longer than this factor times the shortest distance between its ends is a detour.
DETOUR_FACTOR = 1.5
DETOUR_SLACK_KM = 2.0
# Freight, yard and service lines: usable (a few stations are joined only through them) but avoided.
FREIGHT_FACTOR = 3.0
# Secondary lines that parallel a main line of the same km length: slightly avoided so that a train
# that does not stop on them takes the main line. 503 = Sissach–Läufelfingen–Olten (the old Hauenstein
# line) is, by km, exactly as long as Sissach–Tecknau–Hauenstein base tunnel–Olten.
SECONDARY_LINES: Mapping[int, float] = {503: 1.25}
# Two points of one station that no line joins are linked when closer than this (km).
STATION_LINK_KM = 3.0
STATION_LINK_FACTOR = 1.5
# km differences that exceed the straight distance this much are km jumps (e.g. line 660 at Zug).
_KM_JUMP_RATIO = 5.0
_KM_JUMP_SLACK = 2.0
_TRACK_PER_STRAIGHT = 1.2  # a track is about this much longer than the straight line

_FREIGHT_TEXT = re.compile(
    r"\b(GB|RB|RBL|SM|Triage|Cargo|Umfahrung|Anschlussgleis|Agl|Tanklager|Seeverlad|Auhafen|"
    r"Schweizerhalle|Smistamento|Depot|Produktion|Unterhalt\w*|Paketpost|Raffinerie|Ballastiere|"
    r"Praille|Punten|Gruppo)\b",
    re.IGNORECASE,
)
_NOT_IN_SERVICE_TEXT = re.compile(r"projekt|projet|\bproj\b|abgebr|stollen|cunicolo|finestra", re.IGNORECASE)
_VIA_LINE = re.compile(r"^\s*(?:line|linie|ligne|linea)\s+(\d+)\s*$", re.IGNORECASE)
_CANTONS = frozenset(
    "ag ai ar be bl bs fr ge gl gr ju lu ne nw ow sg sh so sz tg ti ur vd vs zg zh".split()
)
_STATION_WORDS = frozenset({"station", "bahnhof", "bhf", "bahnhof sbb", "sbb", "gare", "stazione"})
_RAIL_MODES = frozenset({int(Mode.RAIL), int(Mode.TRAM), int(Mode.METRO)})


def line_class(line: int, text: str = "") -> str:
    """Classify an SBB line: ``"main"``, ``"freight"`` (avoided) or ``"none"`` (not in service).

    Lines numbered 5000 and up are construction galleries (5xxx), dismantled lines (7xxx) and
    projects (9xxx: e.g. the Juradurchstich Liestal–Olten, which would otherwise bypass the
    Hauenstein base tunnel); the line text confirms it for the few others.
    """
    if line >= 5000 or _NOT_IN_SERVICE_TEXT.search(text or ""):
        return "none"
    if _FREIGHT_TEXT.search(text or ""):
        return "freight"
    return "main"


def _haversine_km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    p1, p2 = math.radians(lat1), math.radians(lat2)
    h = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2
    return 2 * 6371.0 * math.asin(min(1.0, math.sqrt(h)))


def _strip_tag(name: str) -> str:
    """``"Hauenstein Sud (Spw)"`` -> ``"Hauenstein Sud"``: operating-point type tags are not part of the name."""
    return re.sub(r"\([^)]*\)", " ", name)


class RailNetwork:
    """The SBB line network as a weighted graph of operating points (see module docstring).

    ``points`` has one row per operating point on a line: columns ``uic`` (BPUIC), ``name`` (the
    point's own name), ``line`` (int), ``km`` (float), ``lat``, ``lon``; optional ``station`` (the
    station the point belongs to; defaults to ``name``) and ``line_text`` (used to classify lines).
    """

    def __init__(
        self,
        points: pd.DataFrame,
        *,
        secondary_lines: Mapping[int, float] | None = None,
        freight_factor: float = FREIGHT_FACTOR,
    ):
        """Build the graph from the operating points (see class docstring for the columns)."""
        missing = {"uic", "name", "line", "km", "lat", "lon"} - set(points.columns)
        if missing:
            raise ValueError(f"rail network: missing columns {sorted(missing)}")
        df = points.copy()
        df["uic"] = df["uic"].astype(str).str.strip()
        if "station" not in df.columns:
            df["station"] = df["name"]
        if "line_text" not in df.columns:
            df["line_text"] = ""
        df["line"] = df["line"].astype(int)
        df["km"] = df["km"].astype(float)
        secondary = dict(SECONDARY_LINES if secondary_lines is None else secondary_lines)

        # nodes: first row of each uic gives its names and position
        first = df.drop_duplicates("uic")
        self.uics: list[str] = first["uic"].tolist()
        self._index: dict[str, int] = {u: i for i, u in enumerate(self.uics)}
        self.point_name: list[str] = first["name"].astype(str).tolist()
        self.station_name: list[str] = first["station"].astype(str).tolist()
        self.lat = first["lat"].to_numpy(float)
        self.lon = first["lon"].to_numpy(float)
        n = len(self.uics)
        self._adj: list[dict[int, float]] = [{} for _ in range(n)]
        self._edge_lines: dict[tuple[int, int], set[int]] = {}
        self.lines: dict[int, str] = {}

        # plain arrays: a pandas groupby per line costs more than the whole rest of the build
        order = np.lexsort((df["km"].to_numpy(float), df["line"].to_numpy(int)))
        node_of = df["uic"].map(self._index).to_numpy(int)[order]
        line_of = df["line"].to_numpy(int)[order]
        km_of = df["km"].to_numpy(float)[order]
        text_of = df["line_text"].astype(str).to_numpy()[order]
        cls_of: dict[int, str] = {}
        for k in range(len(order)):
            line = int(line_of[k])
            if line not in cls_of:
                cls_of[line] = line_class(line, str(text_of[k]))
                if cls_of[line] != "none":
                    self.lines[line] = str(text_of[k])
            if k == 0 or line_of[k - 1] != line or cls_of[line] == "none":
                continue
            a, b = int(node_of[k - 1]), int(node_of[k])
            if a == b:
                continue
            cls = cls_of[line]
            factor = freight_factor if cls == "freight" else float(secondary.get(line, 1.0))
            self._add_edge(a, b, self._length(a, b, km_of[k] - km_of[k - 1]) * factor, line)

        # points of one station that no line joins (e.g. Delémont and Delémont Est)
        by_station: dict[str, list[int]] = {}
        for i, s in enumerate(self.station_name):
            by_station.setdefault(s, []).append(i)
        for members in by_station.values():
            for ai, a in enumerate(members):
                for b in members[ai + 1:]:
                    if b in self._adj[a]:
                        continue
                    d = self._straight(a, b)
                    if d <= STATION_LINK_KM:
                        self._add_edge(a, b, max(d, 0.01) * STATION_LINK_FACTOR, 0)

        # folded names, computed once: lookups compare these
        self._station_key = [fold(s) for s in self.station_name]
        self._station_bare = [fold(_strip_tag(s)) for s in self.station_name]
        self._point_key = [fold(s) for s in self.point_name]
        self._point_bare = [fold(_strip_tag(s)) for s in self.point_name]
        self._tree_cache: dict[tuple[int, ...], tuple[list[float], list[int]]] = {}
        # caches filled by the crossing functions below (per network: specs, names, stop patterns)
        self._spec_cache: dict[Crossing, _Spec] = {}
        self._name_cache: dict[str, str | None] = {}
        self._pattern_cache: dict[tuple, tuple[CrossingHit, ...]] = {}

    # ---- construction helpers ------------------------------------------------------------------
    def _straight(self, a: int, b: int) -> float:
        return _haversine_km(self.lat[a], self.lon[a], self.lat[b], self.lon[b])

    def _length(self, a: int, b: int, dkm: float) -> float:
        """Track length between two consecutive points: the km difference unless it cannot be one."""
        straight = self._straight(a, b)
        dkm = abs(dkm)
        if dkm > _KM_JUMP_RATIO * straight + _KM_JUMP_SLACK or dkm == 0.0:
            # km jump (line 660 "jumps" 10 km inside Zug) or no km at all: use the distance
            return max(straight * _TRACK_PER_STRAIGHT, 0.01)
        # a track is never shorter than the straight line between its ends
        return max(dkm, straight, 0.01)

    def _add_edge(self, a: int, b: int, w: float, line: int) -> None:
        if w < self._adj[a].get(b, math.inf):
            self._adj[a][b] = w
            self._adj[b][a] = w
        key = (a, b) if a < b else (b, a)
        if line:
            self._edge_lines.setdefault(key, set()).add(line)

    # ---- lookup ----------------------------------------------------------------------------------
    def __contains__(self, uic: object) -> bool:
        """True when the UIC number (string) is an operating point of the network."""
        return isinstance(uic, str) and uic in self._index

    def __len__(self) -> int:
        """Number of operating points."""
        return len(self.uics)

    def name_of(self, uic: str) -> str:
        """The point's own name (``"Olten Nord (Abzw)"``)."""
        return self.point_name[self._index[uic]]

    def station_of(self, uic: str) -> str:
        """The name of the station the point belongs to (``"Olten"``)."""
        return self.station_name[self._index[uic]]

    def resolve_all(self, name: str) -> frozenset[str]:
        """All points a name means: every point of the station ``name``, or the one point so named.

        Accent-, case- and tag-insensitive (``"Hauenstein Süd"`` finds ``"Hauenstein Sud (Spw)"``,
        ``"Muttenz Ost"`` the point ``"Muttenz Ost (Abzw)"``); a prefix naming one station only is
        accepted. Raises ``StationNotFound`` when nothing, or more than one station, matches.
        """
        key, bare = fold(name), fold(_strip_tag(name))
        n = len(self.uics)
        for match in (
            lambda i: self._station_key[i] == key,
            lambda i: self._station_bare[i] == bare,
            lambda i: self._point_key[i] == key or self._point_bare[i] == bare,
            lambda i: bool(bare) and self._station_key[i].startswith(bare + " "),
        ):
            found = [i for i in range(n) if match(i)]
            if not found:
                continue
            stations = sorted({self.station_name[i] for i in found})
            if len(stations) > 1 and not all(self._point_key[i] in (key, bare) for i in found):
                raise StationNotFound(
                    f"rail network: {name!r} is ambiguous: {', '.join(stations[:8])}", suggestions=stations[:8]
                )
            return frozenset(self.uics[i] for i in found)
        raise StationNotFound(f"rail network: no operating point named {name!r}")

    def resolve(self, name: str) -> str:
        """The main operating point (UIC string) of a station or point name (accent-insensitive).

        For a station with several points, the point named like the query (``Olten`` rather than
        ``Olten Nord (Abzw)``), else the one named like its station; ties by lowest UIC.
        Raises ``StationNotFound``.
        """
        pts = sorted(self.resolve_all(name))
        bare = fold(_strip_tag(name))

        named = [u for u in pts if self._point_bare[self._index[u]] == bare]
        main = [u for u in pts if self._point_bare[self._index[u]] == self._station_bare[self._index[u]]]
        return (named or main or pts)[0]

    # ---- shortest paths --------------------------------------------------------------------------
    def _tree(self, sources: tuple[int, ...]) -> tuple[list[float], list[int]]:
        """Dijkstra from a set of sources over the whole graph (about 1400 points: a few ms); cached."""
        hit = self._tree_cache.get(sources)
        if hit is not None:
            return hit
        n = len(self.uics)
        dist = [math.inf] * n
        prev = [-1] * n
        heap: list[tuple[float, int]] = []
        for s in sources:
            dist[s] = 0.0
            heap.append((0.0, s))
        heapq.heapify(heap)
        while heap:
            d, u = heapq.heappop(heap)
            if d > dist[u]:
                continue
            for v, w in self._adj[u].items():
                nd = d + w
                # ties: keep the first found (deterministic: heap order is by (distance, index))
                if nd < dist[v] - 1e-9:
                    dist[v] = nd
                    prev[v] = u
                    heapq.heappush(heap, (nd, v))
        if len(self._tree_cache) > 1024:
            self._tree_cache.clear()
        self._tree_cache[sources] = (dist, prev)
        return dist, prev

    def _node_path(self, a: int, b: int) -> list[int] | None:
        dist, prev = self._tree((a,))
        if math.isinf(dist[b]):
            return None
        out = [b]
        while out[-1] != a:
            out.append(prev[out[-1]])
        out.reverse()
        return out

    def path(self, uic_a: str, uic_b: str) -> list[str] | None:
        """Shortest physical path (UICs, both ends included); None when either is not on the network."""
        a, b = self._index.get(uic_a), self._index.get(uic_b)
        if a is None or b is None:
            return None
        p = self._node_path(a, b)
        return None if p is None else [self.uics[i] for i in p]

    def distance(self, uics_a: Iterable[str], uics_b: Iterable[str]) -> float:
        """Shortest weighted distance (km, with line preferences) from any of ``uics_a`` to any of ``uics_b``."""
        src = tuple(sorted(self._index[u] for u in uics_a if u in self._index))
        dst = [self._index[u] for u in uics_b if u in self._index]
        if not src or not dst:
            return math.inf
        dist, _ = self._tree(src)
        return min(dist[i] for i in dst)

    def edge_weight(self, uic_a: str, uic_b: str) -> float:
        """Weight of the direct edge between two adjacent points (inf when not adjacent)."""
        return self._adj[self._index[uic_a]].get(self._index[uic_b], math.inf)

    def edge_lines(self, uic_a: str, uic_b: str) -> frozenset[int]:
        """SBB lines that join two adjacent points directly."""
        a, b = self._index[uic_a], self._index[uic_b]
        return frozenset(self._edge_lines.get((a, b) if a < b else (b, a), ()))


# ---- crossings ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class CrossingHit:
    """One toll line or tunnel crossed by a trip.

    ``leg_start``/``leg_end``: the legs (stop pairs) where the crossing starts and ends (leg k = from stop
    k to stop k + 1 of the list given; for ``trip_crossings``: positions within the whole trip).
    ``method``: ``"path"`` (physical path) or ``"stops"`` (decided on stop names, point not on network).
    ``points``: the crossed stretch as UICs (empty for ``"stops"``). ``forward``: travelled from
    ``between[0]`` to ``between[1]``.
    """

    name: str
    kind: str  # "toll_line" | "tunnel"
    between: tuple[str, str]
    leg_start: int
    leg_end: int
    method: str = "path"
    forward: bool = True
    points: tuple[str, ...] = field(default=(), compare=False)

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


def _crossing_kind(game: Game, c: Crossing) -> str:
    if c.kind in ("toll_line", "tunnel"):
        return c.kind
    return "tunnel" if any(c is t for t in game.tunnels) else "toll_line"


def _spec(network: RailNetwork, c: Crossing) -> _Spec:
    cache = network._spec_cache
    hit = cache.get(c)
    if hit is not None:
        return hit
    problems: list[str] = []
    ends: list[frozenset[int]] = []
    for name in c.between:
        try:
            ends.append(frozenset(network._index[u] for u in network.resolve_all(name)))
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
            via_nodes.append(frozenset(network._index[u] for u in network.resolve_all(v)))
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


def _path_hits(network: RailNetwork, spec: _Spec, kind: str, nodes: list[int], legs: list[int],
               weights: list[float]) -> list[CrossingHit]:
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
                used |= network._edge_lines.get((x, y) if x < y else (y, x), set())
            if not all(line in used for line in spec.via_lines):
                continue
        c = spec.crossing
        hits.append(CrossingHit(c.name, kind, (c.between[0], c.between[1]), legs[i], legs[j - 1], "path", fwd,
                                tuple(network.uics[k] for k in seg)))
    return hits


def _stop_hits(spec: _Spec, kind: str, stop_names: Sequence[str] | None) -> list[CrossingHit]:
    if not stop_names:
        return []
    c = spec.crossing
    marks = [1 if _stop_matches(s, c.between[0]) else 2 if _stop_matches(s, c.between[1]) else 0
             for s in stop_names]
    return [CrossingHit(c.name, kind, (c.between[0], c.between[1]), i, j - 1, "stops", fwd)
            for i, j, fwd in _segments(marks)]


def _physical_runs(network: RailNetwork, stop_uics: Sequence[str]) -> list[tuple[list[int], list[int], list[float]]]:
    """Concatenate the paths between consecutive stops into runs (a stop off the network ends a run).

    Returns (nodes, leg of each edge, weight of each edge) per run.
    """
    runs: list[tuple[list[int], list[int], list[float]]] = []
    nodes: list[int] = []
    legs: list[int] = []
    weights: list[float] = []

    def flush() -> None:
        nonlocal nodes, legs, weights
        if len(nodes) > 1:
            runs.append((nodes, legs, weights))
        nodes, legs, weights = [], [], []

    idx = network._index
    for k in range(len(stop_uics) - 1):
        a, b = idx.get(stop_uics[k]), idx.get(stop_uics[k + 1])
        p = network._node_path(a, b) if a is not None and b is not None else None
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
            weights.append(network._adj[x][y])
    flush()
    return runs


def crossings(network: RailNetwork, game: Game, stop_uics: Sequence[str],
              stop_names: Sequence[str] | None = None) -> list[CrossingHit]:
    """Toll lines and tunnels of ``game`` crossed by a train stopping at ``stop_uics`` in this order.

    ``stop_uics``: the trip's consecutive stops as UIC strings (``"8500218"``). ``stop_names`` (same
    length, optional) lets crossings whose points are off the SBB network be decided on the stops.
    Hits are ordered by where they start.
    """
    if stop_names is not None and len(stop_names) != len(stop_uics):
        raise ValueError("stop_names must have one name per stop")
    all_crossings = [*game.toll_lines, *game.tunnels]
    if not all_crossings or len(stop_uics) < 2:
        return []
    runs = _physical_runs(network, stop_uics)
    hits: list[CrossingHit] = []
    for c in all_crossings:
        spec = _spec(network, c)
        kind = _crossing_kind(game, c)
        if spec.method == "path":
            for nodes, legs, weights in runs:
                hits.extend(_path_hits(network, spec, kind, nodes, legs, weights))
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
            c.name, _crossing_kind(game, c), spec.method, (ends[0], ends[1]),
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
        dist, prev = network._tree(current)
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


# ---- fees ---------------------------------------------------------------------------------------


class Fee(TypedDict):
    """What a group owes for one crossing (a plain dict, so it goes into JSON as it is).

    ``amount``: the fee (toll lines; tunnels when the dice sum is known), 0 when unowned, None for a
    tunnel without dice sum; ``multiplier``: the tunnel rate per dice point; ``text``: for display
    (``"500"``, ``"80 x dice"``, ``"200 x 7 = 1400"``, ``"not owned: no fee"``).
    """

    crossing: str
    kind: str
    owner: str | None
    owned_count: int
    amount: int | None
    multiplier: int | None
    text: str


def fee_for(game: Game, crossing: Crossing | CrossingHit | str, owners: Mapping[str, str | None],
            dice_sum: int | None = None) -> Fee:
    """The fee for crossing one toll line or tunnel of ``game`` (RULES.md §2 §11-§12).

    ``owners`` maps crossing names to their owner (group/player id; missing or None = unowned). Toll
    line fee: ``game.toll_fees[n - 1]`` where n = number of toll lines that owner has; tunnel fee:
    ``game.tunnel_multipliers[n - 1] * dice_sum`` (n = tunnels owned, dice_sum = two dice, 2..12);
    without ``dice_sum`` the fee is the multiplier, shown as ``"80 x dice"``. Counts above the table
    use its last entry. Raises KeyError for a name that is no crossing of the game.
    """
    name = crossing if isinstance(crossing, str) else crossing.name
    c = game.crossing(name)
    if c is None:
        raise KeyError(f"{name!r} is not a toll line or tunnel of game {game.name}")
    kind = _crossing_kind(game, c)
    is_tunnel = kind == "tunnel"
    owner = owners.get(name)
    if owner is None:
        return Fee(crossing=name, kind=kind, owner=None, owned_count=0, amount=0, multiplier=None,
                   text="not owned: no fee")
    same_kind = game.tunnels if is_tunnel else game.toll_lines
    count = sum(1 for x in same_kind if owners.get(x.name) == owner)
    table = game.tunnel_multipliers if is_tunnel else game.toll_fees
    if not table:
        return Fee(crossing=name, kind=kind, owner=owner, owned_count=count, amount=0, multiplier=None,
                   text="the game has no fee table")
    rate = int(table[min(count, len(table)) - 1])
    if not is_tunnel:
        return Fee(crossing=name, kind=kind, owner=owner, owned_count=count, amount=rate, multiplier=None,
                   text=str(rate))
    if dice_sum is None:
        return Fee(crossing=name, kind=kind, owner=owner, owned_count=count, amount=None, multiplier=rate,
                   text=f"{rate} x dice")
    if not 2 <= int(dice_sum) <= 12:
        raise ValueError(f"dice_sum must be the sum of two dice (2..12), not {dice_sum}")
    amount = rate * int(dice_sum)
    return Fee(crossing=name, kind=kind, owner=owner, owned_count=count, amount=amount, multiplier=rate,
               text=f"{rate} x {int(dice_sum)} = {amount}")


# ---- timetable helpers --------------------------------------------------------------------------


def _trip_rows(tt: Timetable, trip: int, from_pos: int | None, to_pos: int | None) -> range:
    """Rows of the trip a ride covers. Positions may be stop-time rows (``Leg.board_row``) or
    0-based positions within the trip: a value inside the trip's row range is a row; the two readings
    coincide for trip 0, so this is unambiguous."""
    lo, hi = int(tt.trip_offset[trip]), int(tt.trip_offset[trip + 1])

    def to_row(p: int | None, default: int) -> int:
        if p is None:
            return default
        p = int(p)
        if lo <= p < hi:
            return p
        if 0 <= p < hi - lo:
            return lo + p
        raise IndexError(f"stop {p} is not in trip {tt.trip_id[trip]} (rows {lo}..{hi - 1})")

    a, b = to_row(from_pos, lo), to_row(to_pos, hi - 1)
    if b < a:
        raise IndexError("ride ends before it starts")
    return range(a, b + 1)


def _trip_stops(tt: Timetable, network: RailNetwork, rows: range) -> tuple[list[str], list[str]]:
    uics, names = [], []
    for r in rows:
        s = int(tt.stop_station[tt.st_stop[r]])
        uic, name = tt.station_id[s], tt.station_name[s]
        if uic not in network:
            # a renumbered or differently keyed station: its exact station name still finds it
            uic = _by_exact_station_name(network, name) or uic
        uics.append(uic)
        names.append(name)
    return uics, names


def _by_exact_station_name(network: RailNetwork, name: str) -> str | None:
    cache = network._name_cache
    if name not in cache:
        key = fold(name)
        main = [u for i, u in enumerate(network.uics)
                if network._station_key[i] == key and network._point_key[i] == key]
        cache[name] = main[0] if len(main) == 1 else None
    return cache[name]


def _is_rail_trip(tt: Timetable, trip: int) -> bool:
    return int(tt.route_mode[tt.trip_route[trip]]) in _RAIL_MODES


def trip_crossings(tt: Timetable, network: RailNetwork, game: Game, trip_index: int,
                   from_pos: int | None = None, to_pos: int | None = None) -> list[CrossingHit]:
    """Crossings of a timetable trip, or of the part of it a leg rides (``from_pos``..``to_pos``).

    ``from_pos``/``to_pos`` are stop-time rows (as ``Leg.board_row``/``alight_row``) or positions
    within the trip; the hits' ``leg_start``/``leg_end`` are positions within the whole trip. Buses,
    boats and cable cars cross nothing (toll lines and tunnels are railway).
    """
    if not _is_rail_trip(tt, trip_index) or not (game.toll_lines or game.tunnels):
        return []
    rows = _trip_rows(tt, trip_index, from_pos, to_pos)
    offset = rows.start - int(tt.trip_offset[trip_index])
    uics, names = _trip_stops(tt, network, rows)
    hits = _cached_crossings(network, game, tuple(uics), tuple(names))
    if not offset:
        return list(hits)
    return [CrossingHit(h.name, h.kind, h.between, h.leg_start + offset, h.leg_end + offset, h.method,
                        h.forward, h.points) for h in hits]


def _cached_crossings(network: RailNetwork, game: Game, uics: tuple[str, ...],
                      names: tuple[str, ...]) -> tuple[CrossingHit, ...]:
    # many trips of a day share one stop pattern: decide each pattern once
    cache = network._pattern_cache
    key = (game.digest, game.name, uics, names)
    hit = cache.get(key)
    if hit is None:
        if len(cache) > 50_000:
            cache.clear()
        hit = cache[key] = tuple(crossings(network, game, uics, names))
    return hit


def crossing_trips(tt: Timetable, network: RailNetwork, game: Game) -> dict[str, list[tuple[int, int, int]]]:
    """For every toll line and tunnel: the trips of the day crossing it, as ``(trip, first_row, last_row)``.

    ``first_row`` is the stop-time row of the last stop before the crossing (board there or earlier),
    ``last_row`` the row of the first stop after it (stay on board until there).
    """
    out: dict[str, list[tuple[int, int, int]]] = {c.name: [] for c in (*game.toll_lines, *game.tunnels)}
    if not out:
        return out
    for t in range(tt.n_trips):
        hits = trip_crossings(tt, network, game, t)
        lo = int(tt.trip_offset[t])
        for h in hits:
            out[h.name].append((t, lo + h.leg_start, lo + h.leg_end + 1))
    return out


def route_crossings(tt: Timetable, network: RailNetwork, game: Game) -> dict[str, list[str]]:
    """For the organiser report: which routes (display names) of the day cross each toll line/tunnel.

    Every crossing of the game is a key; an empty list means no train of the day crosses it, which
    usually shows a wrong definition or a game area that misses it.
    """
    names: dict[str, set[str]] = {}
    for name, trips in crossing_trips(tt, network, game).items():
        names[name] = {tt.route_name[int(tt.trip_route[t])] for t, _, _ in trips}
    return {k: sorted(v, key=_route_sort_key) for k, v in names.items()}


def _route_sort_key(name: str) -> tuple[str, int, str]:
    m = re.match(r"^([A-Za-z]*)\s*(\d*)", name)
    prefix, num = (m.group(1), m.group(2)) if m else ("", "")
    return (prefix, int(num) if num else -1, name)

