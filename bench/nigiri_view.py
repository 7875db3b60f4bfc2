"""Our game day as GTFS that nigiri (MOTIS's routing core) reads exactly as our engine routes it, for a like-for-like
comparison in :mod:`bench.bench_onetoone`.

``planner export`` writes the day's change rules the way the Swiss feed does (a station's change time as station ->
platform rows, platform pairs, ``transfer_type`` 3 for a forbidden change). nigiri reads those differently from us:
a parent's time does not reach its platforms (they take the loader's default 2 minutes), the platforms of one parent
(and stops of one name) get generated walks between them, ``transfer_type`` 3 is ignored, and every footpath is
made symmetric, closed transitively and raised to the change time of both its ends. So the same file is two
different days. This writes the day in the form nigiri's loader turns into exactly our rules:

* one stop per platform, without a parent, named uniquely (no generated walks between them);
* ``transfers.txt``: each platform's own change time (from = to), every allowed change between two platforms of a
  station, and every walking link as a walk from each platform of one station to each of the other;
* loaded with ``link_stop_distance = 0`` and ``adjust_footpaths = False`` (no walks from coordinates).

:func:`nigiri_changes` computes the change times nigiri will derive from those rows (its footpath closure, as in
its ``build_footpaths.cc``) and :func:`unrepresentable` lists where they differ from ours: a change rule nigiri's
model cannot hold (an asymmetric or forbidden change inside a group of connected platforms, a change faster by
two hops, chained walks). On such a day the comparison is not like for like, and the benchmark says so.
"""

from __future__ import annotations

import heapq
from pathlib import Path

import numpy as np
import pandas as pd

from planner.gtfs.export import to_feed
from planner.routing.network import TransitNetwork

INF = 1 << 30


def our_changes(net: TransitNetwork) -> dict[tuple[int, int], int]:
    """Our change rules as (from stop, to stop) -> seconds, for every pair of platforms of a station that may change
    (the diagonal: staying on one platform) and every walk from a platform of one station to one of another."""
    tt = net.tt
    off, members = tt.station_stops
    out: dict[tuple[int, int], int] = {}
    for s in range(tt.n_stations):
        ps = members[off[s]:off[s + 1]].tolist()
        for p in ps:
            for q in ps:
                ct = net.change_seconds(p, q)
                if ct >= 0:
                    out[(p, q)] = ct
        for li in range(int(net.link_off[s]), int(net.link_off[s + 1])):
            s2, w = int(net.link_to[li]), int(net.link_sec[li])
            for p in ps:
                for r in members[off[s2]:off[s2 + 1]].tolist():
                    out[(p, r)] = min(w, out.get((p, r), INF))
    return out


def nigiri_changes(rows: dict[tuple[int, int], int], n_stops: int) -> dict[tuple[int, int], int]:
    """What nigiri's loader makes of transfer rows (from, to) -> seconds (whole minutes): a stop's own change time
    is its (p, p) row (else 2 min); a footpath between two stops is the shortest path over the rows made symmetric,
    each edge at least the change time of both its ends, the result raised to them as well."""
    own = np.full(n_stops, 120, np.int64)
    edges: dict[int, dict[int, int]] = {}
    for (p, q), sec in rows.items():
        if p == q:
            own[p] = sec
    for (p, q), sec in rows.items():
        if p != q:
            w = max(sec, own[p], own[q])
            for a, b in ((p, q), (q, p)):
                if w < edges.setdefault(a, {}).get(b, INF):
                    edges[a][b] = w
    out = {(p, p): int(own[p]) for p in range(n_stops)}
    for src in edges:
        dist = {src: 0}
        heap = [(0, src)]
        while heap:
            d, u = heapq.heappop(heap)
            if d > dist[u]:
                continue
            for v, w in edges[u].items():
                if d + w < dist.get(v, INF):
                    dist[v] = d + w
                    heapq.heappush(heap, (d + w, v))
        for v, d in dist.items():
            if v != src:
                out[(src, v)] = int(max(d, own[src], own[v]))
    return out


def unrepresentable(net: TransitNetwork) -> list[str]:
    """Where nigiri's change times on the written day differ from ours (empty: the two engines see one day)."""
    ours = our_changes(net)
    theirs = nigiri_changes(ours, net.tt.n_stops)
    bad = []
    sid = net.tt.stop_id
    for key in sorted(ours.keys() | theirs.keys()):
        a, b = ours.get(key), theirs.get(key)
        if a != b:
            bad.append(f"{sid[key[0]]} -> {sid[key[1]]}: ours {a}, nigiri {b}")
    bad += [f"{sid[p]} -> {sid[q]}: {s} s is no whole minute" for (p, q), s in ours.items() if s % 60]
    return bad


def write_nigiri_view(net: TransitNetwork, folder: Path) -> Path:
    """Write the day as a GTFS folder in nigiri's form (module docstring); returns the folder."""
    tt = net.tt
    feed = to_feed(tt)
    feed.stops = pd.DataFrame({
        "stop_id": tt.stop_id,
        "stop_name": [f"{tt.station_name[s]} [{sid}]" for s, sid in zip(tt.stop_station, tt.stop_id, strict=True)],
        "stop_lat": tt.station_lat[tt.stop_station], "stop_lon": tt.station_lon[tt.stop_station],
        "location_type": 0, "parent_station": "", "platform_code": tt.stop_platform})
    rows = our_changes(net)
    feed.transfers = pd.DataFrame({
        "from_stop_id": [tt.stop_id[p] for p, _ in rows], "to_stop_id": [tt.stop_id[q] for _, q in rows],
        "transfer_type": 2, "min_transfer_time": list(rows.values())})
    folder.mkdir(parents=True, exist_ok=True)
    feed.to_file(folder)
    return folder


def platforms(net: TransitNetwork, station: int) -> list[str]:
    """The stop ids of a station's platforms (nigiri's locations of it in the view)."""
    off, members = net.tt.station_stops
    return [net.tt.stop_id[p] for p in members[off[station]:off[station + 1]].tolist()]
