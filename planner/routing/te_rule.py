"""Reference graph (networkx) for routing under the change-window rule (variant A §4.2): slow and explicit.

It shares nothing with :mod:`planner.routing.rule_scan` but the change-time policy of the
:class:`TransitNetwork` (``change_seconds``, walking links) and the timetable rows. Where the plain
time-expanded graph (:mod:`planner.routing.te_graph`) lets every arrival enter a per-platform waiting chain
(right without the rule: waiting is free and unbounded), here each arrival event gets its own wait arcs,
capped by the window, plus the forced next train:

* ``dep(r)``: departure event of stop-time row ``r`` (every row but a trip's last); ``arr(r)``: its arrival
  event; one sink per station, and one "here" node per station entered from its sink and, after the walk,
  from the sinks of the stations linked to it (arriving on foot, docs/rules.md §2 variant B; where arrivals are read);
* ride ``dep(r) -> arr(r+1)``, stay seated ``arr(r) -> dep(r)``;
* get off ``arr(r) -> sink(station)`` and, per arrival event at platform ``p`` at ``a``, a wait arc to
  ``dep(r')`` for every departure it may take: pickup at ``r'``, at platform ``q`` of the same station with
  ``a + change(p, q) <= d <= a + W`` (``change`` not forbidden) or at a linked station with
  ``a + walk <= d <= a + W``; when there is none, to every departure it could catch in the first minute after
  the window that has one (the forced next train).

On predicted times (``net.plan`` is not ``net.tt``, docs/rules.md §3 "Real time") the window holds a departure by
its *timetable* time and it is caught by its *predicted* one: every departure planned after ``a`` minus the
day's largest delay is looked at.

Weights are lexicographic (seconds, boardings) encoded as ``seconds * 1024 + boardings``: Dijkstra then
yields the earliest legal arrival and, at it, the fewest trips, which is what the engine's tie-break needs.
Dijkstra is exact here because the rule only restricts which arc leaves an arrival event, and each event has
its own arcs: no label is shared between events, so no FIFO assumption is made.
"""

from __future__ import annotations

import bisect

import networkx as nx
import numpy as np

from planner.routing.network import TransitNetwork, last_rows
from planner.routing.query import Origin

SCALE = 1024  # weight = seconds * SCALE + boardings (fewer than SCALE trips in any itinerary)
_SOURCE = -1


class RuleGraph:
    """networkx DiGraph of the day's events under a change window of ``window`` seconds."""

    def __init__(self, net: TransitNetwork, window: int):
        self.net, self.window = net, int(window)
        tt = net.tt
        n = len(tt.st_stop)
        self._n = n
        last = last_rows(tt)
        self._sink = 2 * n
        g = nx.DiGraph()
        self._here = 2 * n + tt.n_stations
        g.add_nodes_from(range(2 * n + 2 * tt.n_stations))
        for s in range(tt.n_stations):
            g.add_edge(self._sink + s, self._here + s, weight=0)
            for li in range(int(net.link_off[s]), int(net.link_off[s + 1])):
                t2, w = self._here + int(net.link_to[li]), int(net.link_sec[li]) * SCALE
                if w < g.get_edge_data(self._sink + s, t2, {"weight": w + 1})["weight"]:
                    g.add_edge(self._sink + s, t2, weight=w)
        for r in np.flatnonzero(~last).tolist():
            g.add_edge(r, n + r + 1, weight=(int(tt.st_arr[r + 1]) - int(tt.st_dep[r])) * SCALE)
            g.add_edge(n + r, r, weight=(int(tt.st_dep[r]) - int(tt.st_arr[r])) * SCALE)
        # boardable departures per station: (timetable time, row) sorted by it
        rows = np.flatnonzero(tt.st_pickup & ~last)
        sta = tt.stop_station[tt.st_stop[rows]]
        self._real = net.plan is not tt
        # on predicted times: the most any train leaves after its timetable time (earlier ones are gone by then)
        self._late = int(max(0, (tt.st_dep.astype(np.int64) - net.plan.st_dep).max())) if self._real and n else 0
        self._deps: list[list[tuple[int, int]]] = [[] for _ in range(tt.n_stations)]
        for r, s in zip(rows.tolist(), sta.tolist(), strict=True):
            self._deps[s].append((int(net.plan.st_dep[r]), r))
        for lst in self._deps:
            lst.sort()
        for r in np.flatnonzero(tt.st_dropoff).tolist():
            p, a = int(tt.st_stop[r]), int(tt.st_arr[r])
            s = int(tt.stop_station[p])
            g.add_edge(n + r, self._sink + s, weight=0)
            for r2, d in self.boardable(s, p, a, a, a + self.window):
                if r2 != r:  # re-boarding the same train here is staying seated (the dwell arc, no boarding)
                    g.add_edge(n + r, r2, weight=(d - a) * SCALE + 1)
        self.graph = g

    def boardable(self, s: int, p: int, a: int, t_min: int, w_end: int) -> list[tuple[int, int]]:
        """``(row, departure)`` an event at platform ``p`` of station ``s`` at ``a`` may take (``p = -1``:
        a standing origin, no change time, nothing before ``t_min``), window ending at ``w_end``."""
        net, tt = self.net, self.net.tt
        cands: list[tuple[int, int]] = []  # (departure, row) it could catch, up to the window's end + 1 train

        def collect(deps: list[tuple[int, int]], ready) -> None:
            after = None  # minute of the first catchable departure after the window
            # (on predicted times a train planned before ``a`` may still be caught, up to the latest train's delay)
            for d, r in deps[bisect.bisect_left(deps, (max(t_min, a) - self._late, -1)):]:
                if d > w_end and after is not None and d // 60 > after:
                    break
                real = int(tt.st_dep[r])
                if real >= t_min and ready(real, r):
                    cands.append((d, r))
                    if d > w_end and after is None:
                        after = d // 60

        collect(self._deps[s], lambda d, r: (ct := 0 if p < 0 else net.change_seconds(p, int(tt.st_stop[r]))) >= 0
                and d >= a + ct)
        for li in range(int(net.link_off[s]), int(net.link_off[s + 1])):
            w = int(net.link_sec[li])
            collect(self._deps[int(net.link_to[li])], lambda d, r, w=w: d >= a + w)
        # returned with the predicted departure (the wait arc's length)
        inside = [(r, int(tt.st_dep[r])) for d, r in cands if d <= w_end]
        if inside or not cands:
            return inside
        first = min(d for d, _ in cands)
        return [(r, int(tt.st_dep[r])) for d, r in cands if d // 60 == first // 60]

    def _source_edges(self, origin: Origin) -> list[tuple[int, int, int]]:
        if origin.in_trip:
            return [(_SOURCE, self._n + int(origin.row), 1)]  # seated: one trip already
        s, t = int(origin.station), int(origin.time)
        out = [(_SOURCE, self._sink + s, 0)]
        w_end = max(t, origin.got_off + self.window)
        out += [(_SOURCE, r, (d - t) * SCALE + 1) for r, d in self.boardable(s, -1, t, t, w_end)]
        return out

    def best(self, origin: Origin, target: int) -> tuple[int, int] | None:
        """``(earliest legal arrival, trips)`` at station ``target`` from ``origin``, or None."""
        g, tt = self.graph, self.net.tt
        start = int(tt.st_arr[origin.row]) if origin.in_trip else int(origin.time)
        cut = []
        if origin.in_trip:  # its own train at stops it has passed is not boardable for this query
            for r in range(int(tt.trip_offset[origin.trip]), int(origin.row)):
                cut += [(u, r, g[u][r]["weight"]) for u in list(g.predecessors(r))]
            g.remove_edges_from([(u, v) for u, v, _ in cut])
        g.add_weighted_edges_from(self._source_edges(origin))
        try:
            d = nx.dijkstra_path_length(g, _SOURCE, self._here + int(target), weight="weight")
        except nx.NetworkXNoPath:
            return None
        finally:
            g.remove_node(_SOURCE)
            g.add_weighted_edges_from(cut)
        return start + int(d) // SCALE, int(d) % SCALE
