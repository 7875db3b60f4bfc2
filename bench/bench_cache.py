"""Timetable cache benchmark: cold build, warm load of the Zug day, and a national-size day.

Target: a warm load (cache hit) well under 1 s, also for a national-size game day (~300k stop_times).

* Zug day: ``load_or_build`` on the real Zug extract (game sbb-monopoly, 2021-09-11): once cold (ingest +
  save), then warm in this process (feed fingerprint + verified load) and in a fresh process (adds imports).
* National-size day: no national feed ships with the repo, so the whole-feed Zug day (game ``none``) is
  tiled (trips copied under new ids) until it has ``--rows`` stop_times, SYNTHETIC in that sense; it is saved
  and loaded with :func:`planner.gtfs.cache.load`. With ``--feed`` pointing at a real national zip, the first part
  measures the real thing.

Uses a private temporary cache folder (never the user's). Prints a table; writes ``bench/out/cache.json``.

CLI::

    python -m bench.bench_cache
    python -m bench.bench_cache --feed feeds/GTFS_FP2026_20260601.zip --date 2026-06-13 --repeat 3
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "out"
ZUG = Path(os.environ.get("PLANNER_SHARED", ROOT.parent / "shared")) / "data" / "gtfs" / "ch-zug-fp2021.zip"
TARGET_SECONDS = 1.0


def tile(tt, rows: int):
    """A copy of ``tt`` whose trips are repeated (ids ``<id>#c<k>``) until it has at least ``rows`` stop_times."""
    from planner.timetable.model import Timetable

    k = max(1, -(-rows // max(1, len(tt.st_stop))))
    n_st = len(tt.st_stop)
    counts = np.diff(tt.trip_offset)
    offsets = np.zeros(k * tt.n_trips + 1, np.int64)
    np.cumsum(np.tile(counts, k), out=offsets[1:])
    return Timetable(
        date=tt.date, feed_version=tt.feed_version,
        station_id=tt.station_id, station_name=tt.station_name, station_lat=tt.station_lat,
        station_lon=tt.station_lon, station_change=tt.station_change, stop_id=tt.stop_id,
        stop_station=tt.stop_station, stop_platform=tt.stop_platform, route_id=tt.route_id,
        route_name=tt.route_name, route_type=tt.route_type, route_mode=tt.route_mode,
        route_category=tt.route_category, route_agency=tt.route_agency,
        trip_id=[f"{t}#c{c}" for c in range(k) for t in tt.trip_id],
        trip_route=np.tile(tt.trip_route, k), trip_headsign=tt.trip_headsign * k,
        trip_short_name=tt.trip_short_name * k, trip_offset=offsets,
        st_stop=np.tile(tt.st_stop, k), st_arr=np.tile(tt.st_arr, k), st_dep=np.tile(tt.st_dep, k),
        st_pickup=np.tile(tt.st_pickup, k), st_dropoff=np.tile(tt.st_dropoff, k),
        xfer_from=tt.xfer_from, xfer_to=tt.xfer_to, xfer_seconds=tt.xfer_seconds,
        link_from=tt.link_from, link_to=tt.link_to, link_seconds=tt.link_seconds,
        meta={**tt.meta, "synthetic": f"tiled x{k} from {n_st} stop_times"},
    )


def _timed(fn, repeat: int) -> tuple[list[float], object]:
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return times, out


def _summary(times: list[float]) -> dict:
    return {"min_s": round(min(times), 4), "median_s": round(statistics.median(times), 4),
            "max_s": round(max(times), 4), "n": len(times)}


def _child(feed: str, game: str, date: str, key: str | None) -> int:
    """Fresh process: import, then one warm ``load_or_build`` (or ``load(key)``); print timings as JSON."""
    t0 = time.perf_counter()
    from planner.gamefile.game import load_game
    from planner.gtfs import cache

    t1 = time.perf_counter()
    if key:
        tt = cache.load(key)
        status = "hit" if tt is not None else "miss"
    else:
        tt = cache.load_or_build(feed, load_game(game), dt.date.fromisoformat(date), progress=False)
        status = tt.meta["cache"]["status"]
    t2 = time.perf_counter()
    print(json.dumps({"import_s": round(t1 - t0, 4), "load_s": round(t2 - t1, 4), "status": status}))
    return 0


def _fresh(feed: str, game: str, date: str, key: str | None = None) -> dict:
    cmd = [sys.executable, "-m", "bench.bench_cache", "--child", feed, game, date, key or ""]
    t = time.perf_counter()
    res = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t
    return {**json.loads(res.stdout.strip().splitlines()[-1]), "process_wall_s": round(wall, 4)}


def _entry_size(key: str) -> int:
    from planner.gtfs import cache

    return sum(p.stat().st_size for p in (cache.entries_dir() / key).iterdir())


def run(feed: Path, game_name: str, date: dt.date, repeat: int, rows: int) -> dict:
    """Run all measurements (inside a temporary cache folder) and return them."""
    from planner.gamefile.game import load_game
    from planner.gtfs import cache

    game = load_game(game_name)
    res: dict = {"feed": str(feed), "game": game_name, "date": date.isoformat()}
    t = time.perf_counter()
    tt = cache.load_or_build(feed, game, date, progress=False)
    res["cold_build_and_save_s"] = round(time.perf_counter() - t, 3)
    assert tt.meta["cache"]["status"] == "built"
    key = tt.meta["cache"]["key"]
    res["day"] = {"stations": tt.n_stations, "trips": tt.n_trips, "stop_times": int(len(tt.st_stop)),
                  "entry_bytes": _entry_size(key)}
    warm, tt2 = _timed(lambda: cache.load_or_build(feed, game, date, progress=False), repeat)
    assert tt2.meta["cache"]["status"] == "hit"
    res["warm_load_or_build"] = _summary(warm)
    res["warm_load_only"] = _summary(_timed(lambda: cache.load(key), repeat)[0])
    res["fresh_process_load_or_build"] = _fresh(str(feed), game_name, date.isoformat())

    whole = cache.load_or_build(feed, load_game("none"), date, progress=False)
    big = tile(whole, rows)
    big.validate()
    t = time.perf_counter()
    cache.save(big, "bench-national")
    res["national"] = {"stop_times": int(len(big.st_stop)), "trips": big.n_trips,
                       "save_s": round(time.perf_counter() - t, 3), "entry_bytes": _entry_size("bench-national")}
    res["national"]["warm_load_only"] = _summary(_timed(lambda: cache.load("bench-national"), repeat)[0])
    res["national"]["fresh_process_load"] = _fresh(str(feed), game_name, date.isoformat(), "bench-national")
    return res


def main(argv: list[str] | None = None) -> int:
    """CLI entry point."""
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:
        return _child(argv[1], argv[2], argv[3], argv[4] or None)
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--feed", type=Path, default=ZUG)
    ap.add_argument("--game", default="sbb-monopoly")
    ap.add_argument("--date", default="2021-09-11")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--rows", type=int, default=300_000, help="stop_times of the national-size day")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-cache-") as tmp:
        os.environ["PLANNER_CACHE"] = tmp  # children inherit it
        res = run(args.feed, args.game, dt.date.fromisoformat(args.date), args.repeat, args.rows)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "cache.json").write_text(json.dumps(res, indent=1))
    d, n = res["day"], res["national"]
    print(f"feed {res['feed']}  game {res['game']}  date {res['date']}")
    print(f"  day: {d['stations']} stations, {d['trips']} trips, {d['stop_times']} stop_times, "
          f"entry {d['entry_bytes'] / 1e6:.2f} MB")
    print(f"  cold build + save            {res['cold_build_and_save_s']:8.3f} s")
    print(f"  warm load_or_build (in-proc) {res['warm_load_or_build']['median_s']:8.4f} s median "
          f"(min {res['warm_load_or_build']['min_s']:.4f})")
    print(f"  warm load(key) only          {res['warm_load_only']['median_s']:8.4f} s median")
    f = res["fresh_process_load_or_build"]
    print(f"  fresh process: imports {f['import_s']:.3f} s + load_or_build {f['load_s']:.4f} s "
          f"({f['status']}); whole process {f['process_wall_s']:.3f} s")
    print(f"  national-size (SYNTHETIC tiling): {n['stop_times']} stop_times, {n['trips']} trips, "
          f"entry {n['entry_bytes'] / 1e6:.2f} MB, save {n['save_s']:.3f} s")
    print(f"  national warm load(key)      {n['warm_load_only']['median_s']:8.4f} s median "
          f"(min {n['warm_load_only']['min_s']:.4f})")
    fn = n["fresh_process_load"]
    print(f"  national fresh process: imports {fn['import_s']:.3f} s + load {fn['load_s']:.4f} s; "
          f"whole process {fn['process_wall_s']:.3f} s")
    worst = max(res["warm_load_or_build"]["median_s"], n["warm_load_only"]["median_s"], f["load_s"], fn["load_s"])
    print(f"  target: warm load < {TARGET_SECONDS:g} s -> {'OK' if worst < TARGET_SECONDS else 'MISSED'} "
          f"(worst {worst:.4f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
