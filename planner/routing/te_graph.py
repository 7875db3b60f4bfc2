"""Time-expanded reference graph (networkx) of a game day: slow, simple, and independent of the scan.

Used by the tests (and the benchmark) as the ground truth for earliest arrivals. It reads the same
:class:`TransitNetwork` as the fast engine, so change times (feed transfers, station defaults, the
uniform override, forbidden pairs) and walking links are the same policy, but the search is a plain
Dijkstra over explicit events.

Nodes (all ints, so networkx hashes stay cheap):

* ``dep(r)`` / ``arr(r)`` for every stop-time row ``r`` (departure and arrival event of a trip at a stop);
* waiting-chain nodes: per platform, one node per distinct boardable departure time, in time order;
* one sink per station ("arrived here"), entered from arrival nodes whose stop allows alighting;
* one "here" node per station, entered from its own sink and, after the walk, from the sinks of the stations
  linked to it: a group that walks from a station to a linked one is there when it arrives on foot (docs/rules.md
  §2 variant B). Arrivals are read there (one walk at the end, as the engine's results count them).

Edges (weight = seconds, never negative):

* ride ``dep(r) -> arr(r+1)`` and stay seated ``arr(r) -> dep(r)`` (dwell) along each trip;
* wait: consecutive chain nodes of a platform;
* board: chain node at ``st_dep[r]`` -> ``dep(r)`` when pickup is allowed at ``r``;
* alight/change: ``arr(r)`` -> chain of every platform ``q`` of the same station at ``a + change(p, q)``
  (no edge when the change is forbidden) and -> chains of linked stations' platforms at ``a + walk``,
  only when drop-off is allowed at ``r``.

A query adds a temporary source: for a group standing at a station, edges into every platform's chain
at the start time (and into linked stations' chains after the walk) plus one to the station's sink
("already there"); for a group seated in a train, an edge to the arrival event of its row, from which
the dwell edge rides on and the alighting edges get off at that very stop (boarding edges of its own
train at stops it has passed are left out for that query). Arrival = start + distance to a sink.

The classic bug of a time-expanded model is letting an arriving passenger enter the waiting chain at its
arrival time and so board another train in zero minutes; here arrival nodes never touch a chain directly,
only through change (or walk) edges, and riding on goes only through the dwell edge. An entry at time
``t`` goes to the first chain node at or after ``t`` with the full wait in its weight, which is the same
distance as inserting a node at ``t`` (the chain would only carry it forward) with fewer nodes.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from planner.routing.network import TransitNetwork, last_rows
from planner.routing.query import Origin

_SOURCE = -1  # temporary source node of one query


class TimeExpandedGraph:
    """networkx DiGraph of the day's events built from ``net`` (see module docstring)."""

    def __init__(self, net: TransitNetwork):
        self.net = net
        tt = net.tt
        n = len(tt.st_stop)
        self._n_rows = n
        last = last_rows(tt)
        stop = tt.st_stop.astype(np.int64)
        arr = tt.st_arr.astype(np.int64)
        dep = tt.st_dep.astype(np.int64)

        # waiting chains: distinct boardable departure times per platform
        boardable = np.flatnonzero(tt.st_pickup & ~last)
        order = np.lexsort((dep[boardable], stop[boardable]))
        b_stop, b_time = stop[boardable][order], dep[boardable][order]
        keep = np.ones(len(b_stop), bool)
        keep[1:] = (b_stop[1:] != b_stop[:-1]) | (b_time[1:] != b_time[:-1])
        c_stop, c_time = b_stop[keep], b_time[keep]
        self._chain_base = 2 * n  # chain node k (global index into c_stop/c_time) = base + k
        self._chain_off = np.searchsorted(c_stop, np.arange(tt.n_stops + 1)).astype(np.int64)
        self._chain_time = c_time
        self._sink_base = 2 * n + len(c_time)
        self._here_base = self._sink_base + tt.n_stations

        g = nx.DiGraph()
        g.add_nodes_from(range(self._here_base + tt.n_stations))
        stations = np.arange(tt.n_stations)
        g.add_weighted_edges_from(zip((self._sink_base + stations).tolist(), (self._here_base + stations).tolist(),
                                      [0] * tt.n_stations, strict=True))
        walks: dict[tuple[int, int], int] = {}  # the shortest of duplicate links (the engine's)
        for a, b, w in zip(np.repeat(stations, np.diff(net.link_off)).tolist(), net.link_to.tolist(),
                           net.link_sec.tolist(), strict=True):
            walks[(a, b)] = min(w, walks.get((a, b), w))
        g.add_weighted_edges_from((self._sink_base + a, self._here_base + b, w) for (a, b), w in walks.items()
                                  if a != b)
        rows = np.arange(n, dtype=np.int64)
        nl = rows[~last]
        # ride and dwell
        g.add_weighted_edges_from(zip(nl.tolist(), (n + nl + 1).tolist(), (arr[nl + 1] - dep[nl]).tolist(),
                                      strict=True))
        g.add_weighted_edges_from(zip((n + nl).tolist(), nl.tolist(), (dep[nl] - arr[nl]).tolist(), strict=True))
        # waiting chains
        same = c_stop[1:] == c_stop[:-1]
        k = np.flatnonzero(same)
        g.add_weighted_edges_from(zip((self._chain_base + k).tolist(), (self._chain_base + k + 1).tolist(),
                                      (c_time[k + 1] - c_time[k]).tolist(), strict=True))
        # boarding: chain node at the departure time -> departure node
        kb = np.searchsorted(c_stop * (1 << 32) + c_time, stop[boardable] * (1 << 32) + dep[boardable])
        g.add_weighted_edges_from(zip((self._chain_base + kb).tolist(), boardable.tolist(),
                                      [0] * len(boardable), strict=True))
        # alighting: arrival node -> station sink, -> change edges, -> walking links
        alight = np.flatnonzero(tt.st_dropoff)
        sta_of_stop = tt.stop_station.astype(np.int64)
        g.add_weighted_edges_from(zip((n + alight).tolist(), (self._sink_base + sta_of_stop[stop[alight]]).tolist(),
                                      [0] * len(alight), strict=True))
        off, members = tt.station_stops
        by_stop = self._group_rows(alight, stop[alight], tt.n_stops)
        for s in range(tt.n_stations):
            plats = members[off[s]:off[s + 1]].tolist()
            for p in plats:
                rp = by_stop[p]
                if not len(rp):
                    continue
                for q in plats:
                    ct = net.change_seconds(p, q)
                    if ct < 0:
                        continue  # transfer_type 3: no edge at all
                    self._add_entries(g, n + rp, arr[rp], arr[rp] + ct, q)
                for li in range(int(net.link_off[s]), int(net.link_off[s + 1])):
                    s2, w = int(net.link_to[li]), int(net.link_sec[li])
                    for q in members[off[s2]:off[s2 + 1]].tolist():
                        self._add_entries(g, n + rp, arr[rp], arr[rp] + w, q)
        self.graph = g

    @staticmethod
    def _group_rows(rows: np.ndarray, keys: np.ndarray, n_keys: int) -> list[np.ndarray]:
        order = np.argsort(keys, kind="stable")
        bounds = np.searchsorted(keys[order], np.arange(n_keys + 1))
        srt = rows[order]
        return [srt[bounds[i]:bounds[i + 1]] for i in range(n_keys)]

    def _chain_entry(self, q: int, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Chain node ids at platform ``q`` first at/after times ``t`` (mask of those that exist)."""
        lo, hi = self._chain_off[q], self._chain_off[q + 1]
        k = np.searchsorted(self._chain_time[lo:hi], t, side="left")
        ok = k < hi - lo
        return self._chain_base + lo + k, ok

    def _add_entries(self, g: nx.DiGraph, src: np.ndarray, t0: np.ndarray, t_enter: np.ndarray, q: int) -> None:
        node, ok = self._chain_entry(q, t_enter)
        if not ok.any():
            return
        times = self._chain_time[node[ok] - self._chain_base]
        g.add_weighted_edges_from(zip(src[ok].tolist(), node[ok].tolist(), (times - t0[ok]).tolist(), strict=True))

    # --- queries --------------------------------------------------------------------------------------
    @property
    def n_nodes(self) -> int:
        """Number of nodes (without the temporary source)."""
        return self.graph.number_of_nodes()

    @property
    def n_edges(self) -> int:
        """Number of edges (without the temporary source's)."""
        return self.graph.number_of_edges()

    def _source_edges(self, origin: Origin) -> list[tuple[int, int, int]]:
        net, tt = self.net, self.net.tt
        if origin.in_trip:
            # seated: the arrival event at the origin row is where the group is; from there the dwell
            # edge rides on and the alighting edges (if drop-off is allowed) get off at this very stop
            return [(_SOURCE, self._n_rows + int(origin.row), 0)]
        s, t = int(origin.station), int(origin.time)
        off, members = tt.station_stops
        edges = [(_SOURCE, self._sink_base + s, 0)]  # already there
        start = np.array([t], np.int64)
        for q in members[off[s]:off[s + 1]].tolist():
            node, ok = self._chain_entry(q, start)
            if ok[0]:
                edges.append((_SOURCE, int(node[0]), int(self._chain_time[node[0] - self._chain_base]) - t))
        for li in range(int(net.link_off[s]), int(net.link_off[s + 1])):
            s2 = int(net.link_to[li])
            walk = start + int(net.link_sec[li])
            for q in members[off[s2]:off[s2 + 1]].tolist():
                node, ok = self._chain_entry(q, walk)
                if ok[0]:
                    edges.append((_SOURCE, int(node[0]), int(self._chain_time[node[0] - self._chain_base]) - t))
        return edges

    def _start_time(self, origin: Origin) -> int:
        return int(self.net.tt.st_arr[origin.row]) if origin.in_trip else int(origin.time)

    def _passed_boardings(self, origin: Origin) -> list[tuple[int, int, int]]:
        """Boarding edges of the origin trip at stops it has already passed.

        A seated group cannot board its own train behind itself; with zero-minute hops a time-expanded
        graph would allow it (same instant), so these edges are left out for that query.
        """
        if not origin.in_trip:
            return []
        g, out = self.graph, []
        for r in range(int(self.net.tt.trip_offset[origin.trip]), int(origin.row)):
            for u in list(g.predecessors(r)):
                if u >= self._chain_base:
                    out.append((u, r, g[u][r]["weight"]))
        return out

    def _search(self, origin: Origin, target: int | None) -> dict[int, int] | int | None:
        g = self.graph
        cut = self._passed_boardings(origin)
        g.remove_edges_from([(u, v) for u, v, _ in cut])
        g.add_weighted_edges_from(self._source_edges(origin))
        try:
            if target is None:
                return nx.single_source_dijkstra_path_length(g, _SOURCE, weight="weight")
            try:
                return nx.dijkstra_path_length(g, _SOURCE, self._here_base + int(target), weight="weight")
            except nx.NetworkXNoPath:
                return None
        finally:
            g.remove_node(_SOURCE)
            g.add_weighted_edges_from(cut)

    def earliest_arrivals(self, origin: Origin) -> np.ndarray:
        """Earliest arrival per station (int64 seconds, -1 = unreachable), one Dijkstra over the graph."""
        dist = self._search(origin, None)
        assert isinstance(dist, dict)
        t0 = self._start_time(origin)
        n_st = self.net.tt.n_stations
        out = np.full(n_st, -1, np.int64)
        for s in range(n_st):
            d = dist.get(self._here_base + s)
            if d is not None:
                out[s] = t0 + int(d)
        return out

    def earliest_arrival(self, origin: Origin, target_station: int) -> int | None:
        """Earliest arrival (seconds) at ``target_station`` from ``origin``, or None when unreachable."""
        d = self._search(origin, int(target_station))
        return None if d is None else self._start_time(origin) + int(d)
