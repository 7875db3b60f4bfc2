"""SYNTHETIC game-day :class:`~planner.timetable.model.Timetable` for the routing benchmark.

    *** SYNTHETIC DATA: no station, line or time in it is real. ***

Built directly as arrays (no GTFS, no ingest), seeded, so the benchmark measures the router alone on
a day of realistic size for a game area (the sbb-monopoly area of the national feed is of this order):

* ~1500 stations on a jittered grid (about 3 km apart), named ``Synth <row>-<col>``;
* ~130 lines, each a wandering path across the grid: regional lines stop everywhere (2-4 min hops),
  fast lines stop every few grid nodes (5-9 min hops); 30-50 stops;
* both directions, every 15, 20, 30 or 60 minutes from about 06:00 until 24:00 (last trips run past
  midnight), so ~10k trips and ~350k connections;
* platforms per station from the number of line directions serving it (1-8), a feed-like default
  change time on some stations (else 2 min), longer changes between far platforms of big stations and on some a
  separate part (type 3 both ways), a few walking links between neighbours, and rare pickup / drop-off
  restrictions; the change rules are ones nigiri's model holds too (:mod:`bench.nigiri_view`), so that the
  one-to-one benchmark compares the two engines on one day.

CLI (prints the sizes)::

    python -m bench.synth_timetable --seed 1
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

import numpy as np

from planner.timetable.model import NO_CHANGE, Mode, Timetable

DAY_START = 6 * 3600
DAY_END = 24 * 3600


@dataclass(frozen=True)
class SynthParams:
    """Knobs of the generator (defaults: ~1500 stations, ~10k trips, ~350k connections)."""

    seed: int = 1
    grid: int = 39  # grid x grid stations
    lines: int = 130
    min_stops: int = 30
    max_stops: int = 50
    fast_share: float = 0.2
    headways: tuple[int, ...] = (15, 20, 30, 60)  # minutes
    headway_weights: tuple[float, ...] = (0.15, 0.2, 0.4, 0.25)
    links: int = 60


def _line_path(rng: np.random.Generator, g: int, n_nodes: int) -> list[int]:
    """A self-avoiding, mostly straight walk over the grid (station indexes)."""
    r, c = int(rng.integers(g)), int(rng.integers(g))
    dr, dc = [(0, 1), (1, 0), (0, -1), (-1, 0)][int(rng.integers(4))]
    path, seen = [r * g + c], {r * g + c}
    while len(path) < n_nodes:
        if rng.random() < 0.25:  # turn now and then: grid-ish, not straight lines only
            dr, dc = [(dc, dr), (-dc, -dr)][int(rng.integers(2))]
        options = [(dr, dc), (dc, dr), (-dc, -dr)]
        for ddr, ddc in options:
            nr, nc = r + ddr, c + ddc
            if 0 <= nr < g and 0 <= nc < g and nr * g + nc not in seen:
                r, c, dr, dc = nr, nc, ddr, ddc
                break
        else:
            break  # boxed in: a shorter line
        path.append(r * g + c)
        seen.add(r * g + c)
    return path


def synth_timetable(p: SynthParams | None = None) -> Timetable:
    """Generate the SYNTHETIC timetable (deterministic for given parameters)."""
    p = p or SynthParams()
    rng = np.random.default_rng(p.seed)
    g = p.grid
    n_st = g * g
    # --- lines: paths, stop patterns, headways, hop times
    lines = []
    for li in range(p.lines):
        fast = rng.random() < p.fast_share
        n_stops = int(rng.integers(p.min_stops, p.max_stops + 1))
        every = int(rng.integers(3, 6)) if fast else 1
        path = _line_path(rng, g, (n_stops - 1) * every + 1)
        stops = path[::every]
        if len(stops) < 2:
            continue
        hop_min = rng.integers(5, 10, len(stops) - 1) if fast else rng.integers(2, 5, len(stops) - 1)
        dwell = rng.choice([0, 0, 1, 2] if fast else [0, 0, 0, 1], len(stops))
        dwell[0] = dwell[-1] = 0
        h = int(rng.choice(p.headways, p=np.array(p.headway_weights) / sum(p.headway_weights)))
        lines.append((f"{'IR' if fast else 'S'}{li + 1}", fast, stops, hop_min, dwell, h))
    # --- platforms: one per line direction at a station, at most 8
    serving: dict[int, list[tuple[int, int]]] = {}
    for li, (_, _, stops, *_rest) in enumerate(lines):
        for s in stops:
            serving.setdefault(s, []).extend([(li, 0), (li, 1)])
    stop_station: list[int] = []
    stop_platform: list[str] = []
    plat_of: dict[tuple[int, int, int], int] = {}
    for s in range(n_st):
        dirs = serving.get(s, [(-1, 0)])
        n_pl = min(8, len(dirs))
        base = len(stop_station)
        for k in range(n_pl):
            stop_station.append(s)
            stop_platform.append(str(k + 1))
        for k, (li, d) in enumerate(dirs):
            plat_of[(s, li, d)] = base + k % n_pl
    # --- trips
    trip_rows: list[np.ndarray] = []
    trip_id, trip_route, headsign = [], [], []
    for li, (name, _fast, stops, hop_min, dwell, h) in enumerate(lines):
        for d in (0, 1):
            st = stops if d == 0 else stops[::-1]
            hops = hop_min if d == 0 else hop_min[::-1]
            dw = dwell if d == 0 else dwell[::-1]
            rel_arr = np.concatenate([[0], np.cumsum(hops + dw[:-1])]) * 60
            rel_dep = rel_arr + dw * 60
            first = DAY_START + int(rng.integers(0, h)) * 60
            plats = np.array([plat_of[(s, li, d)] for s in st], np.int32)
            for k, t0 in enumerate(range(first, DAY_END, h * 60)):
                trip_rows.append(np.stack([plats, t0 + rel_arr, t0 + rel_dep]).astype(np.int32))
                trip_id.append(f"synth.{name}.{d}.{k}")
                trip_route.append(li)
                headsign.append(f"Synth {st[-1] // g}-{st[-1] % g}")
    counts = np.array([r.shape[1] for r in trip_rows], np.int64)
    off = np.zeros(len(trip_rows) + 1, np.int64)
    np.cumsum(counts, out=off[1:])
    allr = np.concatenate(trip_rows, axis=1)
    n_rows = allr.shape[1]
    pickup = rng.random(n_rows) > 0.005
    dropoff = rng.random(n_rows) > 0.005
    # --- change times: station defaults; on big stations far platforms (longer, both ways) or a separate part
    # (no change to the rest, both ways); in a form nigiri's model holds too (bench.nigiri_view): symmetric, at
    # least each platform's own change time and at most two of them, forbidden only between unconnected parts
    station_change = rng.choice(np.array([-1, -1, 120, 180, 240, 300], np.int32), n_st).astype(np.int32)
    base = np.where(station_change >= 0, station_change, 120)
    stop_station_a = np.array(stop_station, np.int32)
    xf, xt, xs = [], [], []
    sta_stops: dict[int, list[int]] = {}
    for i, s in enumerate(stop_station):
        sta_stops.setdefault(s, []).append(i)
    split: set[int] = set()
    for s, members in sta_stops.items():
        if len(members) < 4:
            continue
        if rng.random() < 0.04:  # a separate part of the station (its last one or two platforms)
            split.add(s)
            part = members[-int(rng.integers(1, 3)):]
            for a in part:
                for b in members[:len(members) - len(part)]:
                    xf += [a, b]
                    xt += [b, a]
                    xs += [NO_CHANGE, NO_CHANGE]
            continue
        for _ in range(len(members) // 2):  # far platforms: a longer change, both ways
            a, b = rng.choice(members, 2, replace=False)
            v = int(min(2 * base[s], base[s] + rng.choice([60, 120, 180])))
            xf += [int(a), int(b)]
            xt += [int(b), int(a)]
            xs += [v, v]
    # --- walking links between neighbouring stations (both ways): each station in one link at most, none at a
    # station with a separate part, and no shorter than either station's own change time
    lf, lt, ls = [], [], []
    linked: set[int] = set()
    for _ in range(p.links):
        s = int(rng.integers(n_st))
        r, c = divmod(s, g)
        s2 = r * g + min(g - 1, c + 1)
        w = int(rng.choice([180, 300, 420]))
        if s2 == s or {s, s2} & (linked | split):
            continue
        linked |= {s, s2}
        w = int(max(w, base[s], base[s2]))
        lf += [s, s2]
        lt += [s2, s]
        ls += [w, w]
    jitter = rng.normal(0, 0.004, (2, n_st))
    rr, cc = np.divmod(np.arange(n_st), g)
    n_routes = len(lines)
    tt = Timetable(
        date="2026-05-20", feed_version="SYNTHETIC",
        station_id=[f"99{s:05d}" for s in range(n_st)], station_name=[f"Synth {s // g}-{s % g}" for s in range(n_st)],
        station_lat=46.8 + rr * 0.027 + jitter[0], station_lon=7.3 + cc * 0.04 + jitter[1],
        station_change=station_change,
        stop_id=[f"99{s:05d}:0:{pl}" for s, pl in zip(stop_station, stop_platform, strict=True)],
        stop_station=stop_station_a, stop_platform=stop_platform,
        route_id=[f"synth-{ln[0]}" for ln in lines], route_name=[ln[0] for ln in lines],
        route_type=np.array([103 if ln[1] else 106 for ln in lines], np.int32),
        route_mode=np.full(n_routes, int(Mode.RAIL), np.int8),
        route_category=["fast" if ln[1] else "regional" for ln in lines], route_agency=["SYNTH"] * n_routes,
        trip_id=trip_id, trip_route=np.array(trip_route, np.int32), trip_headsign=headsign,
        trip_short_name=[""] * len(trip_id), trip_offset=off,
        st_stop=allr[0].copy(), st_arr=allr[1].copy(), st_dep=allr[2].copy(), st_pickup=pickup, st_dropoff=dropoff,
        xfer_from=np.array(xf, np.int32), xfer_to=np.array(xt, np.int32), xfer_seconds=np.array(xs, np.int32),
        link_from=np.array(lf, np.int32), link_to=np.array(lt, np.int32), link_seconds=np.array(ls, np.int32),
        meta={"synthetic": True, "generator": "bench.synth_timetable", "params": repr(p)},
    )
    tt.validate()
    return tt


def main(argv: list[str] | None = None) -> int:
    """Print the sizes of the generated timetable."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    tt = synth_timetable(SynthParams(seed=a.seed))
    print(f"SYNTHETIC: {tt.n_stations} stations, {tt.n_stops} stops, {tt.n_trips} trips, "
          f"{tt.n_connections} connections")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
