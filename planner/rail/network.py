"""The SBB physical line network as a weighted graph of operating points (pure: no I/O).

Nodes are operating points (by BPUIC). One station often has several points (``Olten`` is ``Olten``,
``Olten Nord (Abzw)``, ``Olten Ost (Abzw)``, ``Olten Süd``): each point has its own name and the name of
its station. Edges join consecutive points by km on each line; lines join where they share a point. Edge
weight is the km difference, corrected where the km is not a length (km jumps) and scaled by a *line
preference*: freight/yard lines are avoided, project lines (not built), dismantled lines and construction
galleries are left out, and a few secondary lines that are as long as the main line they parallel are
slightly penalised (the Läufelfingen line 503 is exactly as long as the Hauenstein base tunnel route by km;
trains that do not stop on it use the tunnel). Points of one station that no line joins are linked by their
distance. ``planner.rail.loader`` reads the CSV this is built from.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping

import networkx as nx
import numpy as np
import pandas as pd

from planner.errors import StationNotFound
from planner.util.i18n import _
from planner.util.text import fold

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


def haversine_km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Great-circle distance in km between two WGS84 points."""
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
        self.node_of: dict[str, int] = {u: i for i, u in enumerate(self.uics)}
        self.point_name: list[str] = first["name"].astype(str).tolist()
        self.station_name: list[str] = first["station"].astype(str).tolist()
        self.lat = first["lat"].to_numpy(float)
        self.lon = first["lon"].to_numpy(float)
        n = len(self.uics)
        self.adj: list[dict[int, float]] = [{} for _ in range(n)]
        self.edge_line_sets: dict[tuple[int, int], set[int]] = {}
        self.edge_km: dict[tuple[int, int], float] = {}  # the track length of each edge kept (no line preference)
        self.lines: dict[int, str] = {}

        # plain arrays: a pandas groupby per line costs more than the whole rest of the build
        order = np.lexsort((df["km"].to_numpy(float), df["line"].to_numpy(int)))
        node_of = df["uic"].map(self.node_of).to_numpy(int)[order]
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
            length = self._length(a, b, km_of[k] - km_of[k - 1])
            self._add_edge(a, b, length * factor, line, length)

        self._link_station_points()

        # folded names, computed once: lookups compare these
        self._station_key = [fold(s) for s in self.station_name]
        self._station_bare = [fold(_strip_tag(s)) for s in self.station_name]
        self._point_key = [fold(s) for s in self.point_name]
        self._point_bare = [fold(_strip_tag(s)) for s in self.point_name]
        self.graph = _graph(self.adj)  # the same edges, for networkx's shortest paths
        self._tree_cache: dict[tuple[int, ...], tuple[list[float], list[int]]] = {}
        # memo tables the crossing functions fill (per network): crossing specs, stop patterns
        self.spec_cache: dict = {}
        self.pattern_cache: dict = {}
        self._name_cache: dict[str, str | None] = {}

    # ---- construction helpers ------------------------------------------------------------------
    def _link_station_points(self) -> None:
        """Join the points of one station that no line joins (e.g. Delémont and Delémont Est)."""
        by_station: dict[str, list[int]] = {}
        for i, s in enumerate(self.station_name):
            by_station.setdefault(s, []).append(i)
        for members in by_station.values():
            for ai, a in enumerate(members):
                for b in members[ai + 1:]:
                    if b in self.adj[a]:
                        continue
                    d = self._straight(a, b)
                    if d <= STATION_LINK_KM:
                        self._add_edge(a, b, max(d, 0.01) * STATION_LINK_FACTOR, 0, max(d, 0.01))

    def _straight(self, a: int, b: int) -> float:
        return haversine_km(self.lat[a], self.lon[a], self.lat[b], self.lon[b])

    def _length(self, a: int, b: int, dkm: float) -> float:
        """Track length between two consecutive points: the km difference unless it cannot be one."""
        straight = self._straight(a, b)
        dkm = abs(dkm)
        if dkm > _KM_JUMP_RATIO * straight + _KM_JUMP_SLACK or dkm == 0.0:
            # km jump (line 660 "jumps" 10 km inside Zug) or no km at all: use the distance
            return max(straight * _TRACK_PER_STRAIGHT, 0.01)
        # a track is never shorter than the straight line between its ends
        return max(dkm, straight, 0.01)

    def _add_edge(self, a: int, b: int, w: float, line: int, km: float) -> None:
        key = (a, b) if a < b else (b, a)
        if w < self.adj[a].get(b, math.inf):
            self.adj[a][b] = w
            self.adj[b][a] = w
            self.edge_km[key] = km
        if line:
            self.edge_line_sets.setdefault(key, set()).add(line)

    # ---- lookup ----------------------------------------------------------------------------------
    def __contains__(self, uic: object) -> bool:
        """True when the UIC number (string) is an operating point of the network."""
        return isinstance(uic, str) and uic in self.node_of

    def __len__(self) -> int:
        """Number of operating points."""
        return len(self.uics)

    def station_of(self, uic: str) -> str:
        """The name of the station the point belongs to (``"Olten"``)."""
        return self.station_name[self.node_of[uic]]

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
                raise StationNotFound(_("rail network: {name} is ambiguous: {names}").format(
                    name=repr(name), names=", ".join(stations[:8])), suggestions=stations[:8])
            return frozenset(self.uics[i] for i in found)
        raise StationNotFound(_("rail network: no operating point named {name}").format(name=repr(name)))

    def station_point(self, name: str) -> str | None:
        """The one point named exactly like its station ``name`` (folded), else None (cached).

        For timetable stations whose UIC is not on the network (renumbered or keyed differently).
        """
        if name not in self._name_cache:
            key = fold(name)
            main = [u for i, u in enumerate(self.uics) if self._station_key[i] == key and self._point_key[i] == key]
            self._name_cache[name] = main[0] if len(main) == 1 else None
        return self._name_cache[name]

    def resolve(self, name: str) -> str:
        """The main operating point (UIC string) of a station or point name (accent-insensitive).

        For a station with several points, the point named like the query (``Olten`` rather than
        ``Olten Nord (Abzw)``), else the one named like its station; ties by lowest UIC.
        Raises ``StationNotFound``.
        """
        pts = sorted(self.resolve_all(name))
        bare = fold(_strip_tag(name))

        named = [u for u in pts if self._point_bare[self.node_of[u]] == bare]
        main = [u for u in pts if self._point_bare[self.node_of[u]] == self._station_bare[self.node_of[u]]]
        return (named or main or pts)[0]

    # ---- shortest paths --------------------------------------------------------------------------
    def tree(self, sources: tuple[int, ...]) -> tuple[list[float], list[int]]:
        """Shortest distances and predecessors (-1: a source or unreached) from a set of sources over the
        whole graph (networkx's Dijkstra; about 1400 points: a few ms); cached. On equal lengths the path
        found first is kept."""
        hit = self._tree_cache.get(sources)
        if hit is not None:
            return hit
        if len(sources) == 1:
            pred, found = nx.dijkstra_predecessor_and_distance(self.graph, sources[0])
            first = {v: p[0] for v, p in pred.items() if p}
        else:
            found, paths = nx.multi_source_dijkstra(self.graph, set(sources))
            first = {v: p[-2] for v, p in paths.items() if len(p) > 1}
        dist = [math.inf] * len(self.uics)
        prev = [-1] * len(self.uics)
        for v, d in found.items():
            dist[v] = d
        for v, u in first.items():
            prev[v] = u
        if len(self._tree_cache) > 1024:
            self._tree_cache.clear()
        self._tree_cache[sources] = (dist, prev)
        return dist, prev

    def node_path(self, a: int, b: int) -> list[int] | None:
        """Shortest physical path between two node indexes (both included); None when not connected."""
        dist, prev = self.tree((a,))
        if math.isinf(dist[b]):
            return None
        out = [b]
        while out[-1] != a:
            out.append(prev[out[-1]])
        out.reverse()
        return out

    def path(self, uic_a: str, uic_b: str) -> list[str] | None:
        """Shortest physical path (UICs, both ends included); None when either is not on the network."""
        a, b = self.node_of.get(uic_a), self.node_of.get(uic_b)
        if a is None or b is None:
            return None
        p = self.node_path(a, b)
        return None if p is None else [self.uics[i] for i in p]

    def distance(self, uics_a: Iterable[str], uics_b: Iterable[str]) -> float:
        """Shortest weighted distance (km, with line preferences) from any of ``uics_a`` to any of ``uics_b``."""
        src = tuple(sorted(self.node_of[u] for u in uics_a if u in self.node_of))
        dst = [self.node_of[u] for u in uics_b if u in self.node_of]
        if not src or not dst:
            return math.inf
        dist, _ = self.tree(src)
        return min(dist[i] for i in dst)

    def track_km(self, a: int, b: int) -> float:
        """Track length in km of the edge between two adjacent points (node indices), without line preferences:
        what a train's run time goes by."""
        return self.edge_km[(a, b) if a < b else (b, a)]

    def edge_lines(self, a: int, b: int) -> set[int]:
        """SBB lines that join two adjacent points (node indices) directly: the caller's to read, not change."""
        return self.edge_line_sets.get((a, b) if a < b else (b, a), _NO_LINES)


_NO_LINES: set[int] = set()


def _graph(adj: list[dict[int, float]]) -> nx.Graph:
    """The weighted undirected graph of an adjacency list (every edge is in it both ways)."""
    g = nx.Graph()
    g.add_nodes_from(range(len(adj)))
    g.add_weighted_edges_from((a, b, w) for a, nbrs in enumerate(adj) for b, w in nbrs.items())
    return g
