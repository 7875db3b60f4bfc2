"""SYNTHETIC Swiss-shaped GTFS feed generator for the ingest benchmark.

    *** SYNTHETIC DATA: nothing in the generated feed is a real stop, line or timetable. ***

The feed has the *shape* of the national Swiss feed (opentransportdata.swiss, 2022+ era, RULES.md §4) at
full size so that ``make bench`` can measure ingest at national scale without shipping or downloading it:

* ~30k rows in ``stops.txt``: stations ``Parent85xxxxx`` (location_type 1) with platforms ``85xxxxx:0:N``
  (rail) or ``85xxxxx`` / ``85xxxxx:0:A`` (bus), scattered over Switzerland's bounding box
  (lat 45.8-47.8, lon 5.9-10.5), denser around the big towns, so a realistic share falls into the
  sbb-monopoly area;
* routes with extended route types (102/103/106/109 rail, 700 bus, 900 tram, 1000 boat);
* ~1.2M trips over one timetable year, each (route, variant) with its own service_id (tens of thousands),
  ``calendar.txt`` plus a large ``calendar_dates.txt`` (holidays, construction breaks, and services that
  list every running day explicitly);
* ~18M ``stop_times`` rows (mean ~15 stops per trip), times past 24:00 for late trips;
* ``transfers.txt`` with type-2 rows between the platforms of a station and short walks between stations;
* ``feed_info.txt`` with ``feed_publisher_name`` = ``SYNTHETIC sbb-planner bench``.

Everything is derived from one seed (same parameters -> byte-identical members). Large members are
written streaming: trips are generated in chunks, rendered to CSV by pyarrow and deflated (level 1) by a
writer thread, so memory stays at a few hundred MB whatever the size.

CLI::

    python -m bench.synth_feed --trips 1200000 --out bench/out/synth.zip
    python -m bench.synth_feed --scale 0.01 --out bench/out/synth-small.zip

The zip is reused when it exists with the same parameters (a ``.params.json`` sidecar records them);
``--force`` rebuilds it.
"""

from __future__ import annotations

import argparse
import datetime as dt
import io
import json
import math
import os
import queue
import sys
import threading
import time
import zipfile
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

GENERATOR_VERSION = 2
PUBLISHER = "SYNTHETIC sbb-planner bench"

FEED_START = dt.date(2025, 12, 14)  # FP2026 timetable year
FEED_END = dt.date(2026, 12, 12)
BENCH_DATE = dt.date(2026, 5, 20)  # a Wednesday, no holiday: the default game day of the benchmark

# Swiss public holidays of the period (some cantonal ones left out): weekday services do not run.
HOLIDAYS = [dt.date(2025, 12, 25), dt.date(2025, 12, 26), dt.date(2026, 1, 1), dt.date(2026, 1, 2),
            dt.date(2026, 4, 3), dt.date(2026, 4, 6), dt.date(2026, 5, 14), dt.date(2026, 5, 25),
            dt.date(2026, 8, 1), dt.date(2026, 9, 21)]

# (lat, lon, weight) of towns that attract stops; the rest is spread over the bounding box.
TOWNS = [(47.378, 8.540, 10), (46.210, 6.142, 5), (47.547, 7.590, 5), (46.517, 6.629, 4), (46.949, 7.439, 5),
         (47.500, 8.724, 3), (47.050, 8.310, 3), (47.423, 9.370, 3), (46.005, 8.947, 3), (47.133, 7.243, 2),
         (46.755, 7.630, 2), (46.853, 9.529, 2), (46.803, 7.151, 2), (47.698, 8.633, 1), (46.228, 7.359, 1),
         (46.997, 6.938, 1), (47.352, 7.908, 2), (47.391, 8.051, 2), (47.173, 8.515, 2), (47.476, 8.307, 2)]
LAT_RANGE = (45.8, 47.8)
LON_RANGE = (5.9, 10.5)

_SYL1 = ["Ober", "Unter", "Nieder", "Hinter", "Vorder", "Alt", "Neu", "Gross", "Klein", "Sankt ", "Mont", "Val",
         "Bel", "Mühle", "Brugg", "Zwei", "Lang", "Wald", "Berg", "See"]
_SYL2 = ["wil", "dorf", "ikon", "ingen", "bach", "berg", "egg", "au", "matt", "hausen", "thal", "ried", "rüti",
         "court", "ens", "vaux", "igen", "stetten", "weiler", "büren"]
_STREETS = ["Bahnhof", "Post", "Dorf", "Kirche", "Schulhaus", "Zentrum", "Gemeindehaus", "Kreuz", "Sonne",
            "Mühle", "Friedhof", "Spital", "Industrie", "Gare", "Place", "Linde"]

# mode -> (number of routes at scale 1, share of trips, stops per pattern (lo, hi), speed km/h)
MODES = {
    "rail": (900, 0.14, (4, 28), 75.0),
    "bus": (3800, 0.72, (6, 22), 22.0),
    "tram": (120, 0.12, (10, 24), 16.0),
    "boat": (60, 0.02, (4, 12), 22.0),
}
RAIL_TYPES = [(102, "InterCity", "IC"), (103, "InterRegio", "IR"), (106, "Regio", "R"), (109, "S-Bahn", "S")]


@dataclass(frozen=True)
class Params:
    """Everything the output depends on (recorded next to the zip to decide on reuse)."""

    trips: int = 1_200_000
    scale: float = 1.0
    seed: int = 20260520
    version: int = GENERATOR_VERSION

    @property
    def n_rail_stations(self) -> int:
        """Rail stations (each a parent plus 2-8 platforms)."""
        return max(12, round(1200 * self.scale))

    @property
    def n_bus_stations(self) -> int:
        """Bus/tram/boat stations (each a parent plus one or two stop points)."""
        return max(30, round(10000 * self.scale))

    def n_routes(self, mode: str) -> int:
        """Routes of a mode."""
        return max(2, round(MODES[mode][0] * self.scale))


@dataclass
class Network:
    """Stations, stops and route patterns (small; trips and stop times are streamed from it)."""

    stop_rows: pa.Table  # stops.txt
    st_lat: np.ndarray  # per station
    st_lon: np.ndarray
    st_stops: list[list[int]]  # per station: its stop rows (not the parent)
    stop_id: list[str]
    route_rows: pa.Table  # routes.txt
    route_id: list[str]
    route_mode: list[str]
    pat_off: np.ndarray  # CSR over patterns (pattern = 2*route + direction)
    pat_stop: np.ndarray  # stop row index
    pat_arr: np.ndarray  # seconds after the trip's first departure
    pat_dep: np.ndarray
    pat_head: list[str]  # headsign per pattern


# ---------------------------------------------------------------------------------------------------
# network


def _names(rng: np.random.Generator, n: int) -> list[str]:
    a = rng.integers(0, len(_SYL1), n)
    b = rng.integers(0, len(_SYL2), n)
    out, seen = [], {}
    for i in range(n):
        base = _SYL1[a[i]] + _SYL2[b[i]]
        k = seen.get(base, 0)
        seen[base] = k + 1
        out.append(base if k == 0 else f"{base} {k + 1}")
    return out


def _coords(rng: np.random.Generator, n: int, clustered: float) -> tuple[np.ndarray, np.ndarray]:
    w = np.array([t[2] for t in TOWNS], float)
    town = rng.choice(len(TOWNS), n, p=w / w.sum())
    near = rng.random(n) < clustered
    lat = np.where(near, np.array([t[0] for t in TOWNS])[town] + rng.normal(0, 0.07, n),
                   rng.uniform(*LAT_RANGE, n))
    lon = np.where(near, np.array([t[1] for t in TOWNS])[town] + rng.normal(0, 0.10, n),
                   rng.uniform(*LON_RANGE, n))
    return np.clip(lat, *LAT_RANGE).round(6), np.clip(lon, *LON_RANGE).round(6)


def _knn(lat: np.ndarray, lon: np.ndarray, k: int) -> np.ndarray:
    """Indices of the k nearest other points (brute force in chunks; n is at most ~10k)."""
    x = lon * 76.0
    y = lat * 111.0
    n = len(x)
    k = min(k, n - 1)
    out = np.zeros((n, k), np.int64)
    for a in range(0, n, 1024):
        d = (x[a:a + 1024, None] - x[None, :]) ** 2 + (y[a:a + 1024, None] - y[None, :]) ** 2
        d[np.arange(d.shape[0]), np.arange(a, a + d.shape[0])] = np.inf
        part = np.argpartition(d, k, axis=1)[:, :k]
        order = np.take_along_axis(d, part, 1).argsort(1)
        out[a:a + 1024] = np.take_along_axis(part, order, 1)
    return out


def _walk(rng: np.random.Generator, nbr: np.ndarray, lat: np.ndarray, lon: np.ndarray, start: int,
          length: int) -> list[int]:
    """A line through neighbouring stations heading roughly one way (no station twice)."""
    theta = rng.uniform(0, 2 * math.pi)
    path = [start]
    used = {start}
    cur = start
    for _ in range(length - 1):
        cands = [c for c in nbr[cur] if c not in used]
        if not cands:
            break
        c = np.array(cands)
        dx = (lon[c] - lon[cur]) * 76.0
        dy = (lat[c] - lat[cur]) * 111.0
        score = (dx * math.cos(theta) + dy * math.sin(theta)) / (np.hypot(dx, dy) + 1e-9)
        score += rng.normal(0, 0.3, len(c))
        nxt = int(c[int(np.argmax(score))])
        theta = 0.8 * theta + 0.2 * math.atan2(lat[nxt] - lat[cur], lon[nxt] - lon[cur])
        path.append(nxt)
        used.add(nxt)
        cur = nxt
    return path


def build_network(p: Params) -> Network:
    """Stations, stops, routes and stop patterns with run times (deterministic in ``p.seed``)."""
    rng = np.random.default_rng(p.seed)
    n_rail, n_bus = p.n_rail_stations, p.n_bus_stations
    r_lat, r_lon = _coords(rng, n_rail, 0.55)
    b_lat, b_lon = _coords(rng, n_bus, 0.65)
    st_lat = np.concatenate([r_lat, b_lat])
    st_lon = np.concatenate([r_lon, b_lon])
    n_sta = n_rail + n_bus
    uic = np.concatenate([8530000 + np.arange(n_rail), 8570000 + np.arange(n_bus)])  # no clash with ring ids
    names = _names(rng, n_sta)
    for i in range(n_rail, n_sta):
        if rng.random() < 0.7:
            names[i] = f"{names[i]}, {_STREETS[int(rng.integers(len(_STREETS)))]}"
    cols: dict[str, list] = {c: [] for c in ("stop_id", "stop_name", "stop_lat", "stop_lon", "location_type",
                                             "parent_station", "platform_code")}
    st_stops: list[list[int]] = []

    def add(sid: str, name: str, la: float, lo: float, lt: str, parent: str, plat: str) -> int:
        cols["stop_id"].append(sid)
        cols["stop_name"].append(name)
        cols["stop_lat"].append(f"{la:.6f}")
        cols["stop_lon"].append(f"{lo:.6f}")
        cols["location_type"].append(lt)
        cols["parent_station"].append(parent)
        cols["platform_code"].append(plat)
        return len(cols["stop_id"]) - 1

    stop_rows: list[int] = []  # index into cols of each real (non-parent) stop
    for i in range(n_sta):
        u = int(uic[i])
        parent = f"Parent{u}"
        add(parent, names[i], st_lat[i], st_lon[i], "1", "", "")
        mine = []
        if i < n_rail:
            k = int(rng.integers(2, 9))
            for q in range(1, k + 1):
                jit = rng.normal(0, 0.0003, 2)
                mine.append(add(f"{u}:0:{q}", names[i], st_lat[i] + jit[0], st_lon[i] + jit[1], "", parent, str(q)))
        elif rng.random() < 0.6:
            mine.append(add(str(u), names[i], st_lat[i], st_lon[i], "", parent, ""))
        else:
            for q in "AB":
                jit = rng.normal(0, 0.0002, 2)
                mine.append(add(f"{u}:0:{q}", names[i], st_lat[i] + jit[0], st_lon[i] + jit[1], "", parent, q))
        st_stops.append(mine)
        stop_rows.extend(mine)
    stops_tab = pa.table({c: pa.array(v, pa.string()) for c, v in cols.items()})

    # routes and patterns
    rail_nbr = _knn(r_lat, r_lon, 8)
    bus_nbr = _knn(b_lat, b_lon, 8)
    r_cols: dict[str, list] = {c: [] for c in ("route_id", "agency_id", "route_short_name", "route_long_name",
                                               "route_desc", "route_type")}
    route_mode: list[str] = []
    pat_stop: list[np.ndarray] = []
    pat_arr: list[np.ndarray] = []
    pat_dep: list[np.ndarray] = []
    pat_head: list[str] = []
    for mode, (_, _, (lo, hi), speed) in MODES.items():
        for j in range(p.n_routes(mode)):
            if mode == "rail":
                rtype, desc, abbr = RAIL_TYPES[int(rng.choice(4, p=[0.1, 0.15, 0.35, 0.4]))]
                agency, short, variant = "11", f"{abbr}{1 + j % 99}", j // 99
                base, nbr, lat, lon = 0, rail_nbr, r_lat, r_lon
            else:
                rtype, desc = {"bus": (700, "Bus"), "tram": (900, "Tram"), "boat": (1000, "Schiff")}[mode]
                agency = {"bus": "801", "tram": "3849", "boat": "82"}[mode]
                short, variant = str(1 + j % 250), j // 250
                base, nbr, lat, lon = n_rail, bus_nbr, b_lat, b_lon
            length = int(rng.integers(lo, hi + 1))
            path = _walk(rng, nbr, lat, lon, int(rng.integers(len(lat))), length)
            if len(path) < 2:
                path = [0, 1]
            sta = np.array(path) + base
            dist = np.hypot(np.diff(st_lat[sta]) * 111.0, np.diff(st_lon[sta]) * 76.0) * 1.3
            hop = np.maximum(60, np.round(dist / speed * 3600 / 60) * 60).astype(np.int64)
            dwell = (60 if mode == "rail" else 0) * (rng.random(len(sta)) < 0.5)
            dwell[0] = dwell[-1] = 0
            rid = f"{agency}-{short}-{chr(65 + variant % 26)}{variant // 26 or ''}-j26-1"  # unique per mode
            r_cols["route_id"].append(rid)
            r_cols["agency_id"].append(agency)
            r_cols["route_short_name"].append(short)
            r_cols["route_long_name"].append("")
            r_cols["route_desc"].append(desc)
            r_cols["route_type"].append(str(rtype))
            route_mode.append(mode)
            for d in (0, 1):
                s = sta if d == 0 else sta[::-1]
                h = hop if d == 0 else hop[::-1]
                dw = dwell if d == 0 else dwell[::-1]
                arr = np.zeros(len(s), np.int64)
                dep = np.zeros(len(s), np.int64)
                for q in range(1, len(s)):
                    arr[q] = dep[q - 1] + h[q - 1]
                    dep[q] = arr[q] + dw[q]
                plats = [st_stops[int(x)] for x in s]
                pick = [pl[(d + int(x)) % len(pl)] for pl, x in zip(plats, s, strict=True)]
                pat_stop.append(np.array(pick, np.int64))
                pat_arr.append(arr)
                pat_dep.append(dep)
                pat_head.append(names[int(s[-1])].split(",")[0])
    lens = np.array([len(x) for x in pat_stop], np.int64)
    pat_off = np.zeros(len(lens) + 1, np.int64)
    np.cumsum(lens, out=pat_off[1:])
    routes_tab = pa.table({c: pa.array(v, pa.string()) for c, v in r_cols.items()})
    return Network(stops_tab, st_lat, st_lon, st_stops, cols["stop_id"], routes_tab, r_cols["route_id"],
                   route_mode, pat_off, np.concatenate(pat_stop), np.concatenate(pat_arr), np.concatenate(pat_dep),
                   pat_head)


# ---------------------------------------------------------------------------------------------------
# services and trips


@dataclass
class Plan:
    """Per-route trip layout: trips of route r are (variant, direction, slot) in that order."""

    route_trips: np.ndarray  # trips per route
    periods: np.ndarray  # timetable periods per route (the year split at random dates)
    daytypes: np.ndarray  # 1 (daily) or 3 (Mo-Fr, Sa, Su)
    variants: np.ndarray  # service variants per route (periods x day types)
    slots: np.ndarray  # departures per direction and variant
    first: np.ndarray  # first departure (s)
    headway: np.ndarray  # seconds
    service_base: np.ndarray  # index of the route's first service id
    n_services: int


def plan_trips(p: Params, net: Network) -> Plan:
    """Decide how many trips each route gets so the total is close to ``p.trips``."""
    rng = np.random.default_rng(p.seed + 1)
    modes = np.array(net.route_mode)
    n_r = len(modes)
    periods = rng.choice([1, 2, 3], n_r, p=[0.3, 0.5, 0.2])
    daytypes = np.where(rng.random(n_r) < 0.35, 1, 3)
    variants = periods * daytypes
    want = np.zeros(n_r)
    for mode, (_, share, _, _) in MODES.items():
        sel = np.flatnonzero(modes == mode)
        w = rng.lognormal(0, 0.8, len(sel))
        want[sel] = p.trips * share * w / w.sum()
    slots = np.maximum(1, np.round(want / (2 * variants))).astype(np.int64)
    first = (5 * 3600 + rng.integers(0, 120, n_r) * 60).astype(np.int64)
    last = (22 * 3600 + rng.integers(0, 150, n_r) * 60).astype(np.int64)
    headway = np.maximum(60, ((last - first) // np.maximum(slots, 1)) // 60 * 60)
    route_trips = 2 * variants * slots
    base = np.zeros(n_r, np.int64)
    np.cumsum(variants[:-1], out=base[1:])
    return Plan(route_trips, periods, daytypes, variants, slots, first, headway, base, int(variants.sum()))


def service_ids(n: int) -> list[str]:
    """Swiss-looking service ids ``TA+b0001`` style (base 36, unique)."""
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = []
    for i in range(n):
        s, x = "", i + 1
        for _ in range(4):
            x, r = divmod(x, 36)
            s = digits[r] + s
        out.append(f"TA+b{s}" if x == 0 else f"TA+c{i}")
    return out


def calendars(p: Params, net: Network, plan: Plan) -> tuple[pa.Table, Iterator[pa.Table]]:
    """calendar.txt as a table and calendar_dates.txt as a stream of tables.

    Service ``plan.service_base[r] + variant`` belongs to route ``r``; variant = period * day types + day type.
    "rule" services give a weekly rule in calendar.txt and list the differences (holidays, construction
    breaks) in calendar_dates; "explicit" ones (75%) have an all-zero rule and list every running day.
    """
    rng = np.random.default_rng(p.seed + 2)
    n_days = (FEED_END - FEED_START).days + 1
    days = np.arange(n_days)
    weekday = (FEED_START.weekday() + days) % 7
    holiday = np.zeros(n_days, bool)
    for h in HOLIDAYS:
        if FEED_START <= h <= FEED_END:
            holiday[(h - FEED_START).days] = True
    ymd = [(FEED_START + dt.timedelta(days=int(d))).strftime("%Y%m%d") for d in days]
    sids = service_ids(plan.n_services)
    day_cols = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
    cal: dict[str, list[str]] = {c: [] for c in ("service_id", *day_cols, "start_date", "end_date")}
    masks = {"daily": np.ones(7, bool), "mofr": np.arange(7) < 5, "sa": np.arange(7) == 5, "su": np.arange(7) == 6}
    specs: list[tuple[int, np.ndarray, np.ndarray]] = []  # (service, day indexes, exception types)
    k = 0
    for r in range(len(plan.variants)):
        n_p, n_dt = int(plan.periods[r]), int(plan.daytypes[r])
        cuts = np.sort(rng.choice(np.arange(20, n_days - 20), n_p - 1, replace=False))
        bounds = np.concatenate([[0], cuts, [n_days]]).astype(int)
        for pi in range(n_p):
            for dname in (["mofr", "sa", "su"] if n_dt == 3 else ["daily"]):
                s, e = int(bounds[pi]), int(bounds[pi + 1]) - 1
                inside = (days >= s) & (days <= e)
                rule = masks[dname][weekday] & inside
                act = rule.copy()
                if dname == "mofr":
                    act &= ~holiday
                elif dname == "su":
                    act |= holiday & inside
                if rng.random() < 0.6:  # construction breaks: a few random days off
                    act[rng.integers(s, e + 1, int(rng.integers(1, 25)))] = False
                explicit = rng.random() < 0.75
                cal["service_id"].append(sids[k])
                for i, name in enumerate(day_cols):
                    cal[name].append("1" if not explicit and masks[dname][i] else "0")
                cal["start_date"].append(ymd[s])
                cal["end_date"].append(ymd[e])
                if explicit:
                    d = np.flatnonzero(act)
                    specs.append((k, d, np.ones(len(d), np.int8)))
                else:
                    d = np.flatnonzero(act ^ rule)
                    specs.append((k, d, np.where(act[d], 1, 2).astype(np.int8)))
                k += 1
    assert k == plan.n_services, (k, plan.n_services)
    cal_tab = pa.table({c: pa.array(v, pa.string()) for c, v in cal.items()})
    sids_arr = pa.array(sids, pa.string())
    ymd_arr = pa.array(ymd, pa.string())

    def dates() -> Iterator[pa.Table]:
        buf_s: list[np.ndarray] = []
        buf_d: list[np.ndarray] = []
        buf_t: list[np.ndarray] = []
        size = 0
        for sid, d, t in specs:
            if not len(d):
                continue
            buf_s.append(np.full(len(d), sid, np.int64))
            buf_d.append(d)
            buf_t.append(t)
            size += len(d)
            if size > 500_000:
                yield _cd_table(buf_s, buf_d, buf_t, sids_arr, ymd_arr)
                buf_s, buf_d, buf_t, size = [], [], [], 0
        if size:
            yield _cd_table(buf_s, buf_d, buf_t, sids_arr, ymd_arr)

    return cal_tab, dates()


def _cd_table(s, d, t, sids_arr, ymd_arr) -> pa.Table:
    return pa.table({
        "service_id": sids_arr.take(pa.array(np.concatenate(s))),
        "date": ymd_arr.take(pa.array(np.concatenate(d))),
        "exception_type": pc.cast(pa.array(np.concatenate(t)), pa.string()),
    })


def _time_strings(max_s: int) -> pa.Array:
    """``HH:MM:SS`` for every second 0..max_s (lookup table for fast rendering)."""
    s = np.arange(max_s + 1)
    h, m, sec = s // 3600, (s // 60) % 60, s % 60
    return pa.array([f"{a:02d}:{b:02d}:{c:02d}" for a, b, c in zip(h.tolist(), m.tolist(), sec.tolist(),
                                                                     strict=True)], pa.string())


def trip_chunks(p: Params, net: Network, plan: Plan, chunk: int = 40_000
                ) -> Iterator[tuple[pa.Table, pa.Table]]:
    """Yield (trips.txt rows, stop_times.txt rows) for consecutive chunks of trips."""
    rng = np.random.default_rng(p.seed + 3)
    sids = pa.array(service_ids(plan.n_services), pa.string())
    rids = pa.array(net.route_id, pa.string())
    stop_ids = pa.array(net.stop_id, pa.string())
    heads = pa.array(net.pat_head, pa.string())
    times = _time_strings(48 * 3600 - 1)
    n_routes = len(plan.route_trips)
    off = np.zeros(n_routes + 1, np.int64)
    np.cumsum(plan.route_trips, out=off[1:])
    total = int(off[-1])
    pat_len = np.diff(net.pat_off)
    no_end_flags = rng.random(n_routes) < 0.5  # half the routes: no drop-off at the start / pick-up at the end
    for a in range(0, total, chunk):
        b = min(total, a + chunk)
        tk = np.arange(a, b)
        r = np.searchsorted(off, tk, side="right") - 1
        i = tk - off[r]
        slots = plan.slots[r]
        variant = i // (2 * slots)
        direction = (i // slots) % 2
        slot = i % slots
        pat = 2 * r + direction
        start = plan.first[r] + slot * plan.headway[r] + direction * (plan.headway[r] // 2)
        start = start + rng.integers(-2, 3, len(tk)) * 60 * (net_mode_bus(net, r))
        start = np.clip(start, 4 * 3600, None)
        tid = pc.binary_join_element_wise(
            pc.cast(pa.array(slot + 1), pa.string()), pa.array(["TA"] * len(tk), pa.string()),
            rids.take(pa.array(r)), pc.cast(pa.array(variant + 1), pa.string()),
            pa.array(np.where(direction == 0, "H", "R").tolist(), pa.string()), ".")
        trips = pa.table({
            "route_id": rids.take(pa.array(r)),
            "service_id": sids.take(pa.array(plan.service_base[r] + variant)),
            "trip_id": tid,
            "trip_headsign": heads.take(pa.array(pat)),
            "trip_short_name": pc.cast(pa.array(10000 + (r * 97 + slot * 2 + direction) % 90000), pa.string()),
            "direction_id": pc.cast(pa.array(direction), pa.string()),
            "block_id": pa.array([""] * len(tk), pa.string()),
        })
        lens = pat_len[pat]
        n = int(lens.sum())
        row_trip = np.repeat(np.arange(len(tk)), lens)
        starts = np.zeros(len(tk), np.int64)
        np.cumsum(lens[:-1], out=starts[1:])
        j = np.arange(n) - starts[row_trip]
        flat = net.pat_off[pat][row_trip] + j
        arr = start[row_trip] + net.pat_arr[flat]
        dep = start[row_trip] + net.pat_dep[flat]
        arr = np.minimum(arr, 48 * 3600 - 1)
        dep = np.minimum(dep, 48 * 3600 - 1)
        first = j == 0
        last = j == lens[row_trip] - 1
        flag = no_end_flags[r][row_trip]
        pu = np.where(last & flag, 1, 0)
        do = np.where(first & flag, 1, 0)
        zero_one = pa.array(["0", "1"], pa.string())
        st = pa.table({
            "trip_id": tid.take(pa.array(row_trip)),
            "arrival_time": times.take(pa.array(arr)),
            "departure_time": times.take(pa.array(dep)),
            "stop_id": stop_ids.take(pa.array(net.pat_stop[flat])),
            "stop_sequence": pc.cast(pa.array(j + 1), pa.string()),
            "pickup_type": zero_one.take(pa.array(pu)),
            "drop_off_type": zero_one.take(pa.array(do)),
        })
        yield trips, st


def net_mode_bus(net: Network, r: np.ndarray) -> np.ndarray:
    """1 for road routes (their departures jitter by a few minutes), else 0."""
    road = np.array([m in ("bus", "tram") for m in net.route_mode], np.int64)
    return road[r]


def transfers(p: Params, net: Network) -> pa.Table:
    """Type-2 rows between platforms of a station, and short walks to the nearest other station."""
    rng = np.random.default_rng(p.seed + 4)
    a, b, t, m = [], [], [], []
    for stops in net.st_stops:
        if len(stops) < 2:
            continue
        for x in stops:
            for y in stops:
                if x != y:
                    a.append(net.stop_id[x])
                    b.append(net.stop_id[y])
                    t.append("2")
                    m.append(str(int(rng.choice([120, 180, 240, 300, 420]))))
    nbr = _knn(net.st_lat, net.st_lon, 1)[:, 0]
    for s in range(len(net.st_stops)):
        if rng.random() < 0.3:
            x, y = net.st_stops[s][0], net.st_stops[int(nbr[s])][0]
            dist = math.hypot((net.st_lat[s] - net.st_lat[nbr[s]]) * 111.0, (net.st_lon[s] - net.st_lon[nbr[s]]) * 76.0)
            if dist < 1.5:
                for u, v in ((x, y), (y, x)):
                    a.append(net.stop_id[u])
                    b.append(net.stop_id[v])
                    t.append("2")
                    m.append(str(int(60 + dist * 900)))
    return pa.table({"from_stop_id": a, "to_stop_id": b, "transfer_type": t, "min_transfer_time": m})


# ---------------------------------------------------------------------------------------------------
# writing


def _csv(table: pa.Table, header: bool) -> bytes:
    buf = io.BytesIO()
    pacsv.write_csv(table, buf, pacsv.WriteOptions(include_header=header, quoting_style="needed"))
    out = buf.getvalue()
    if header:  # pyarrow quotes header names; the Swiss feed does not
        nl = out.index(b"\n")
        out = out[:nl].replace(b'"', b"") + out[nl:]
    return out


class _Member:
    """A zip member written by a background thread (deflate overlaps with generating the next chunk)."""

    def __init__(self, zf: zipfile.ZipFile, name: str):
        self._fh = zf.open(_info(name), "w", force_zip64=True)
        self._q: queue.Queue[bytes | None] = queue.Queue(maxsize=4)
        self._err: BaseException | None = None
        self._t = threading.Thread(target=self._run, daemon=True)
        self._t.start()
        self.header_written = False

    def _run(self) -> None:
        try:
            while (data := self._q.get()) is not None:
                self._fh.write(data)
        except BaseException as exc:  # re-raised in close()
            self._err = exc
            while self._q.get() is not None:
                pass

    def write_table(self, table: pa.Table) -> None:
        """Append rows (the first call writes the header too)."""
        self._q.put(_csv(table, not self.header_written))
        self.header_written = True

    def close(self) -> None:
        """Flush and close the member."""
        self._q.put(None)
        self._t.join()
        self._fh.close()
        if self._err is not None:
            raise self._err


def _info(name: str) -> zipfile.ZipInfo:
    """Member header with a fixed timestamp (same parameters -> same bytes)."""
    info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    # Python 3.11/3.12 name the level _compresslevel, 3.13+ compress_level
    setattr(info, "compress_level" if hasattr(info, "compress_level") else "_compresslevel", 1)
    return info


def _write_small(zf: zipfile.ZipFile, name: str, table: pa.Table) -> None:
    zf.writestr(_info(name), _csv(table, True))


def params_path(out: Path) -> Path:
    """Sidecar file recording the parameters of ``out``."""
    return out.with_name(out.name + ".params.json")


def is_current(out: Path, p: Params) -> bool:
    """True when ``out`` exists and was generated with parameters ``p``."""
    side = params_path(out)
    if not (out.is_file() and side.is_file()):
        return False
    try:
        return json.loads(side.read_text()).get("params") == asdict(p)
    except (OSError, ValueError):
        return False


def generate(p: Params, out: Path, *, force: bool = False, log=print) -> dict:
    """Write the feed to ``out`` (reused when current); return a summary (sizes, counts, seconds)."""
    out = Path(out)
    if not force and is_current(out, p):
        summary = json.loads(params_path(out).read_text())
        summary["reused"] = True
        return summary
    out.parent.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    net = build_network(p)
    plan = plan_trips(p, net)
    log(f"synth: {len(net.stop_id)} stops, {len(net.route_id)} routes, {int(plan.route_trips.sum())} trips, "
        f"{plan.n_services} services")
    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    counts = {"stops": len(net.stop_id), "routes": len(net.route_id), "services": plan.n_services}
    try:
        with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
            _write_small(zf, "agency.txt", pa.table({
                "agency_id": ["11", "801", "3849", "82"],
                "agency_name": ["SYNTHETIC Bahn", "SYNTHETIC Bus", "SYNTHETIC Tram", "SYNTHETIC Schiff"],
                "agency_url": ["https://example.invalid/"] * 4,
                "agency_timezone": ["Europe/Zurich"] * 4,
                "agency_lang": ["DE"] * 4,
                "agency_phone": [""] * 4,
            }))
            _write_small(zf, "feed_info.txt", pa.table({
                "feed_publisher_name": [PUBLISHER],
                "feed_publisher_url": ["https://example.invalid/synthetic"],
                "feed_lang": ["DE"],
                "feed_start_date": [FEED_START.strftime("%Y%m%d")],
                "feed_end_date": [FEED_END.strftime("%Y%m%d")],
                "feed_version": [f"synthetic-{p.seed}-{p.trips}-{p.scale}-v{p.version}"],
            }))
            _write_small(zf, "stops.txt", net.stop_rows)
            _write_small(zf, "routes.txt", net.route_rows)
            cal, cdates = calendars(p, net, plan)
            _write_small(zf, "calendar.txt", cal)
            m = _Member(zf, "calendar_dates.txt")
            n_cd = 0
            try:
                for tab in cdates:
                    n_cd += tab.num_rows
                    m.write_table(tab)
            finally:
                m.close()
            counts["calendar_dates"] = n_cd
            tx = transfers(p, net)
            counts["transfers"] = tx.num_rows
            _write_small(zf, "transfers.txt", tx)
            # trips.txt and stop_times.txt at once: trips is buffered (small), stop_times streamed
            trip_parts: list[bytes] = []
            st = _Member(zf, "stop_times.txt")
            n_trips = n_st = 0
            try:
                for i, (trips, times) in enumerate(trip_chunks(p, net, plan)):
                    trip_parts.append(_csv(trips, i == 0))
                    st.write_table(times)
                    n_trips += trips.num_rows
                    n_st += times.num_rows
                    if i % 25 == 0:
                        log(f"synth: {n_trips} trips, {n_st} stop_times, {time.perf_counter() - t0:.0f} s")
            finally:
                st.close()
            with zf.open(_info("trips.txt"), "w", force_zip64=True) as fh:
                for part in trip_parts:
                    fh.write(part)
            counts["trips"] = n_trips
            counts["stop_times"] = n_st
        os.replace(tmp, out)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    summary = {"params": asdict(p), "counts": counts, "bytes": out.stat().st_size,
               "seconds": round(time.perf_counter() - t0, 1), "bench_date": BENCH_DATE.isoformat(),
               "synthetic": True}
    params_path(out).write_text(json.dumps(summary, indent=1))
    summary["reused"] = False
    return summary


def main(argv: list[str] | None = None) -> int:
    """CLI entry point (see module docstring)."""
    ap = argparse.ArgumentParser(prog="python -m bench.synth_feed", description="Write a SYNTHETIC Swiss-shaped "
                                 "GTFS zip for benchmarks (not real data).")
    ap.add_argument("--trips", type=int, default=None, help="number of trips (default 1.2M x scale)")
    ap.add_argument("--scale", type=float, default=1.0, help="size factor for stops, routes and (default) trips")
    ap.add_argument("--seed", type=int, default=Params.seed)
    ap.add_argument("--out", type=Path, default=Path("bench/out/synth.zip"))
    ap.add_argument("--force", action="store_true", help="rebuild even when a current zip exists")
    a = ap.parse_args(argv)
    trips = a.trips if a.trips is not None else max(100, round(1_200_000 * a.scale))
    p = Params(trips=trips, scale=a.scale, seed=a.seed)
    s = generate(p, a.out, force=a.force, log=lambda m: print(m, file=sys.stderr))
    print(json.dumps({k: v for k, v in s.items()}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
