"""One-to-one latency: our plain ``best_journey``, our rule-aware one (29-minute rule), the dice answer, and
MOTIS's routing core nigiri (``pynigiri``, the ``bench`` extra) side by side on the same queries.

Datasets:

* ``zug-sbb``: the real Zug extract (FP2021), Saturday 2021-09-11, game sbb-monopoly (the game day);
* ``zug-none``: the same day, game ``none`` (the whole extract, all modes);
* ``synthetic``: a SYNTHETIC game-area day (:mod:`bench.synth_timetable`; nothing in it is real): ours only.

Per dataset, 300 random one-to-one queries (a station with departures, another station, a whole minute
06:00-22:00), every engine with a **uniform 2-minute change time**. nigiri loads our own pruned day as GTFS,
written by ``planner export`` (for the synthetic day: the same exporter in process) **without transfers.txt**,
so both engines see the same trips and the same change rule; its earliest arrival is compared with ours on
every query (``mismatch``: the minutes differ). Timings are in process, warm (numba compiled / cached,
nigiri timetable loaded), best of 3 runs per query (the machine is shared), median and p95.

``rule``: ``best_journey`` from a group standing there since the query time under the 29-minute rule
(sbb-monopoly's window); ``dice``: ``planner.game.dice.decide`` for a random roll 1-5 at 12:30-17:00 under
the rule (all candidates, the itinerary, the bonus tie-break), on the synthetic day with a made-up dice table
of 20 synthetic stations.

Without pynigiri installed the nigiri columns say "skipped" (``pip install -e '.[bench]'``).

CLI::

    python -m bench.bench_onetoone                  # all datasets, 300 queries
    python -m bench.bench_onetoone --queries 50 --datasets zug-sbb
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import datetime as dt
import json
import os
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path
from zoneinfo import ZoneInfo

import numpy as np

from bench.bench_routing import OUT, ROOT, ZUG, ZUG_DATE

DATASETS = ["zug-sbb", "zug-none", "synthetic"]
GAMES = {"zug-sbb": "sbb-monopoly", "zug-none": "none"}
CHANGE = 120  # uniform change time (seconds) for every engine
REPEAT = 3
T_LO, T_HI = 6 * 3600, 22 * 3600
TARGETS = {"rule_median_ms": {"zug-sbb": 1.0, "synthetic": 5.0}, "dice_median_ms": 5.0, "rule_over_plain": 1.5}


CPU = {}  # per engine and dataset: thread CPU times (what the engine costs without the machine's other load)


def _best_of(fn, repeat: int = REPEAT, cpu: list | None = None) -> tuple[float, object]:
    best, best_cpu, out = float("inf"), float("inf"), None
    for _ in range(repeat):
        c0, t0 = time.thread_time(), time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
        best_cpu = min(best_cpu, time.thread_time() - c0)
    if cpu is not None:
        cpu.append(best_cpu)
    return best, out


def _stats(xs: list[float]) -> dict | None:
    if not xs:
        return None
    a = np.asarray(xs, float) * 1e3
    return {"n": len(xs), "median_ms": round(float(np.median(a)), 3), "p95_ms": round(float(np.percentile(a, 95)), 3)}


def load(name: str):
    """Timetable, game and label of a dataset."""
    from planner.gamefile.game import load_game
    from planner.gamefile.rules import DiceTarget

    if name == "synthetic":
        from bench.synth_timetable import SynthParams, synth_timetable

        tt = synth_timetable(SynthParams())
        rng = np.random.default_rng(5)
        names = [tt.station_name[int(s)] for s in rng.choice(tt.n_stations, 20, replace=False)]
        sbb = load_game("sbb-monopoly")
        game = dataclasses.replace(sbb, dice=dataclasses.replace(sbb.dice, targets=tuple(
            DiceTarget(n + 1, tuple(names[4 * n:4 * n + 4])) for n in range(5))))
        return tt, game, "SYNTHETIC game-area day (bench.synth_timetable, seed 1; made-up dice table)"
    from planner.gtfs.ingest import build_timetable
    from planner.gtfs.source import FeedSource

    game = load_game(GAMES[name])
    return (build_timetable(FeedSource(ZUG), game, ZUG_DATE, progress=False), game,
            f"Zug extract FP2021, {ZUG_DATE}, game {GAMES[name]}")


def export_gtfs(name: str, tt, folder: Path) -> Path:
    """Our pruned day as a GTFS folder without transfers.txt (``planner export`` for the real days)."""
    z = folder / f"{name}.zip"
    if name in GAMES:
        subprocess.run([sys.executable, "-m", "planner", "export", "--feed", str(ZUG), "--date", ZUG_DATE.isoformat(),
                        "--game", GAMES[name], "--out", str(z)], check=True, cwd=ROOT, capture_output=True)
    else:
        from planner.gtfs.export import write_feed

        write_feed(tt, z)
    out = folder / name
    with zipfile.ZipFile(z) as zf:
        for member in zf.namelist():
            if member != "transfers.txt":
                zf.extract(member, out)
    return out


class Nigiri:
    """pynigiri on an exported day: one-to-one earliest arrival with a uniform change time."""

    def __init__(self, folder: Path, date: dt.date):
        import pynigiri as ng

        self.ng = ng
        cfg = ng.LoaderConfig()
        cfg.link_stop_distance = 0  # no walks between nearby stops: our game days allow none either
        with _quiet():
            self.tt = ng.load_timetable([ng.TimetableSource("bench", str(folder), cfg)], date.isoformat(),
                                        (date + dt.timedelta(days=2)).isoformat())
        midnight = dt.datetime.combine(date, dt.time(12), ZoneInfo("Europe/Zurich")) - dt.timedelta(hours=12)
        self.base_min = int(midnight.timestamp()) // 60  # service-day "midnight" (noon - 12 h) in Unix minutes
        self.version = getattr(ng, "__version__", "?")

    def location(self, station_id: str):
        """nigiri location of our station (exported as ``Parent<id>``)."""
        return self.tt.find_location(f"Parent{station_id}")

    def query(self, a, b, t_sec: int):
        ng = self.ng
        q = ng.Query()
        q.start = [ng.Offset(a, 0, 0)]
        q.destination = [ng.Offset(b, 0, 0)]
        q.start_match_mode = ng.LocationMatchMode.EQUIVALENT
        q.dest_match_mode = ng.LocationMatchMode.EQUIVALENT
        ts = q.transfer_time_settings
        ts.default = False
        ts.min_transfer_time = dt.timedelta(seconds=CHANGE)
        ts.factor = 0.0  # every change exactly CHANGE: max(min_transfer_time, factor * location's time)
        q.transfer_time_settings = ts
        q.start_time = self.base_min + t_sec // 60
        return q

    def earliest(self, q) -> int | None:
        """Earliest arrival (seconds of the service day) of one query, or None."""
        js = self.ng.route(self.tt, q)
        if not js:
            return None
        return (min(int(j.arrival_time()) for j in js) - self.base_min) * 60


@contextlib.contextmanager
def _quiet():
    """nigiri logs every loader step on stderr (fd 2): silence it while loading."""
    fd = os.dup(2)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
            yield
    finally:
        os.dup2(fd, 2)
        os.close(fd)


def bench_dataset(name: str, n: int, seed: int, tmp: Path) -> dict:
    """Measure one dataset (see the module docstring)."""
    from planner.game.dice import decide
    from planner.routing import TransitNetwork, best_journey, station_origin

    tt, game, label = load(name)
    net = TransitNetwork(tt, min_transfer=CHANGE)
    window = (game.window.minutes if game.window else 29) * 60
    rng = np.random.default_rng(seed)
    deps = net.station_departures
    starts = [s for s in range(tt.n_stations) if np.any((deps[s] >= T_LO) & (deps[s] < T_HI))]
    queries = []
    while len(queries) < n:
        a, b = int(rng.choice(starts)), int(rng.integers(tt.n_stations))
        if a != b:
            queries.append((a, b, int(rng.integers(T_LO // 60, T_HI // 60)) * 60))
    best_journey(net, station_origin(*queries[0][::2]), queries[0][1])  # warm-up (numba cache load)
    best_journey(net, station_origin(queries[0][0], queries[0][2], window=window), queries[0][1])

    plain_t, rule_t, plain_arr, plain_cpu, rule_cpu, dice_cpu = [], [], [], [], [], []
    for a, b, t in queries:
        dt_p, j = _best_of(lambda a=a, b=b, t=t: best_journey(net, station_origin(a, t), b), cpu=plain_cpu)
        plain_t.append(dt_p)
        plain_arr.append(None if j is None else j.arrival(tt))
        dt_r, _ = _best_of(lambda a=a, b=b, t=t: best_journey(net, station_origin(a, t, window=window), b),
                           cpu=rule_cpu)
        rule_t.append(dt_r)

    if not game.dice.targets:  # game "none": the sbb-monopoly dice table (its Zug targets are in the extract)
        from planner.gamefile.game import load_game

        game = dataclasses.replace(game, dice=load_game("sbb-monopoly").dice)
    dice_t = []
    dice_start = 12 * 3600 + 1800
    for a, _b, _t in queries[: max(n // 3, 1)]:
        t = int(rng.integers(dice_start, 17 * 3600))
        roll = int(rng.integers(1, 6))
        o = station_origin(a, t, window=window)
        d, _ = _best_of(lambda o=o, roll=roll: decide(net, game, o, roll, []), cpu=dice_cpu)
        dice_t.append(d)

    nig: dict = {"status": "skipped: pynigiri is not installed (pip install -e '.[bench]')"}
    try:
        import pynigiri  # noqa: F401
    except ImportError:
        pass
    else:
        nig = bench_nigiri(name, tt, net, queries, plain_arr, tmp)
    plain, rule = _stats(plain_t), _stats(rule_t)
    out = {"dataset": name, "label": label, "synthetic": name == "synthetic", "stations": tt.n_stations,
           "trips": tt.n_trips, "connections": tt.n_connections, "queries": n, "change_seconds": CHANGE,
           "plain_best_journey": plain, "rule_best_journey": rule, "dice_answer": _stats(dice_t),
           "cpu": {"plain_best_journey": _stats(plain_cpu), "rule_best_journey": _stats(rule_cpu),
                   "dice_answer": _stats(dice_cpu)},
           "rule_over_plain": round(rule["median_ms"] / plain["median_ms"], 2), "nigiri": nig}
    if isinstance(nig.get("median_ms"), float):
        out["nigiri_over_plain"] = round(nig["median_ms"] / plain["median_ms"], 2)
        out["nigiri_over_plain_cpu"] = round(nig["cpu_median_ms"] / out["cpu"]["plain_best_journey"]["median_ms"], 2)
    return out


def bench_nigiri(name: str, tt, net, queries, plain_arr, tmp: Path) -> dict:
    """nigiri on the exported day, same queries; mismatches against our plain earliest arrivals."""
    try:
        t0 = time.perf_counter()
        folder = export_gtfs(name, tt, tmp)
        t_export = time.perf_counter() - t0
        t0 = time.perf_counter()
        ng = Nigiri(folder, dt.date.fromisoformat(tt.date))
        t_load = time.perf_counter() - t0
    except Exception as exc:  # a peer that cannot load our export is a result to report, not a crash
        return {"status": f"failed: {type(exc).__name__}: {exc}"}
    times, cpu, mism, missing = [], [], 0, 0
    for (a, b, t), ours in zip(queries, plain_arr, strict=True):
        la, lb = ng.location(tt.station_id[a]), ng.location(tt.station_id[b])
        if la is None or lb is None:
            missing += 1
            continue
        q = ng.query(la, lb, t)
        ng.earliest(q)  # warm
        d, theirs = _best_of(lambda q=q: ng.earliest(q), cpu=cpu)
        times.append(d)
        mism += int(theirs != (None if ours is None else ours // 60 * 60))
    st = _stats(times) or {}
    return {"status": "ok", "version": ng.version, "export_s": round(t_export, 2), "load_s": round(t_load, 2),
            **st, "cpu_median_ms": (_stats(cpu) or {}).get("median_ms"), "mismatches": mism, "unmapped": missing}


def _table(rows: list[dict]) -> str:
    """Wall-clock median/p95 and, in brackets, the thread-CPU median (the machine is shared)."""
    def ms(wall: dict | None, cpu_ms: float | None) -> str:
        return "-" if not wall else f"{wall['median_ms']:.3f}/{wall['p95_ms']:.2f} ({cpu_ms:.3f})"

    head = (f"{'dataset':<10} {'conns':>7} | {'plain best_journey':>22} | {'rule-aware':>22} {'rule/plain':>10} | "
            f"{'dice answer':>22} | {'nigiri':>22} {'nigiri/plain':>13} {'mism':>4}")
    lines = [head, "-" * len(head)]
    for r in rows:
        ng, cpu = r["nigiri"], r["cpu"]
        if ng.get("status") == "ok" and "median_ms" in ng:
            ratio = f"{r['nigiri_over_plain']:.2f} ({r['nigiri_over_plain_cpu']:.2f})"
            ng_s = f"{ms(ng, ng['cpu_median_ms']):>22} {ratio:>13} {ng['mismatches']:>4}"
        else:
            ng_s = ng.get("status", "")[:60]
        plain = ms(r["plain_best_journey"], cpu["plain_best_journey"]["median_ms"])
        rule = ms(r["rule_best_journey"], cpu["rule_best_journey"]["median_ms"])
        dice = ms(r["dice_answer"], cpu["dice_answer"]["median_ms"])
        lines.append(f"{r['dataset']:<10} {r['connections']:>7} | {plain:>22} | {rule:>22} {r['rule_over_plain']:>10.2f} | "
                     f"{dice:>22} | {ng_s}")
    lines.append("ms: wall median/p95 (thread-CPU median). nigiri/plain > 1: our plain query is faster than nigiri; "
                 "rule/plain: what the 29-minute rule costs.")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run, print the ratio table, write ``bench/out/onetoone.json``."""
    ap = argparse.ArgumentParser(prog="python -m bench.bench_onetoone", description=__doc__.splitlines()[0])
    ap.add_argument("--datasets", default=",".join(DATASETS))
    ap.add_argument("--queries", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", type=Path, default=OUT / "onetoone.json")
    a = ap.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in [x.strip() for x in a.datasets.split(",") if x.strip()]:
            print(f"[{name}] {a.queries} one-to-one queries ...", flush=True)
            rows.append(bench_dataset(name, a.queries, a.seed, Path(tmp)))
    result = {"when": dt.datetime.now().isoformat(timespec="seconds"), "loadavg": [round(x, 2) for x in os.getloadavg()],
              "targets": TARGETS, "datasets": rows}
    print()
    print(_table(rows))
    print(f"load average {result['loadavg']}")
    a.json.parent.mkdir(parents=True, exist_ok=True)
    a.json.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {a.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
