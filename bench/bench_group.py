"""The group's day (issue 10): concurrent rolls with a cold day cache, and the service's answer times.

1. 8 fresh ``planner roll`` processes for 8 groups at once while the game day's cache is cold (each may
   ingest the feed and load numba): lock errors, rolls recorded, wall time. The roll is computed outside the
   write transaction, so nobody waits for another's ingest.
2. In process, on one loaded :class:`planner.service.GameDay` (what a server answering many groups pays):
   median and p95 of roll, next, status and position for fresh groups (Zug extract, sbb-monopoly).
Run: ``.venv/bin/python -m bench.bench_group``.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import write_results

ROOT = Path(__file__).resolve().parents[1]
ZUG = ROOT.parent / "shared" / "data" / "gtfs" / "ch-zug-fp2021.zip"
DAY = ["--feed", str(ZUG), "--date", "2021-09-11"]


def cold_concurrent(n: int = 8) -> dict:
    """n processes, n groups, one cold cache."""
    tmp = Path(tempfile.mkdtemp())
    env = dict(os.environ, PLANNER_CACHE=str(tmp / "cache"), PLANNER_STATE=str(tmp / "state.sqlite"))
    cmd = [sys.executable, "-m", "planner", "roll", *DAY, "--dice", "2", "--at", "Zug", "--time", "12:40", "--json"]
    t0 = time.perf_counter()
    procs = [subprocess.Popen([*cmd, "--group", f"G{i}"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for i in range(n)]
    outs = [p.communicate() for p in procs]
    wall = time.perf_counter() - t0
    from planner.store.state import State

    with State(tmp / "state.sqlite") as state:
        game = state.games.get("sbb-monopoly@2021-09-11")
        recorded = sum(len(state.groups.snapshot(game.id, g).rolls) for g in game.groups) if game else 0
    return {"processes": n, "failed": sum(p.returncode != 0 for p in procs),
            "lock_errors": sum("locked" in err for _, err in outs), "rolls_recorded": recorded,
            "wall_s": round(wall, 1)}


def service_latency(rounds: int = 30) -> dict:
    """Milliseconds per use case on a warm game day."""
    from planner.gamefile.game import load_game
    from planner.service import (
        GameDay,
        PlaceRequest,
        Play,
        RollRequest,
        implicit_record,
        next_step,
        roll,
        set_position,
        status,
    )
    from planner.store.state import State
    from planner.util.timefmt import parse_clock as T

    tmp = Path(tempfile.mkdtemp())
    os.environ["PLANNER_CACHE"] = str(tmp / "cache")
    day = GameDay(str(ZUG), load_game("sbb-monopoly"), __import__("datetime").date(2021, 9, 11))
    store = State(tmp / "state.sqlite")
    play = Play(day, implicit_record(store, day, "sbb-monopoly"), store)
    roll(play, RollRequest("warm", 2, T("12:40"), PlaceRequest("Zug")))  # cache, numba, crossing index
    times: dict[str, list[float]] = {"position": [], "roll": [], "next": [], "status": []}
    for i in range(rounds):
        g = f"g{i}"
        for name, fn in (("position", lambda g=g: set_position(play, g, PlaceRequest("Zug"), T("12:35"))),
                         ("roll", lambda g=g: roll(play, RollRequest(g, 2, T("12:40")))),
                         ("next", lambda g=g: next_step(play, g, T("12:45"))),
                         ("status", lambda g=g: status(play, g, T("12:45")))):
            t0 = time.perf_counter()
            fn()
            times[name].append((time.perf_counter() - t0) * 1000)
    store.close()
    return {k: {"median_ms": round(statistics.median(v), 1),
                "p95_ms": round(sorted(v)[int(0.95 * (len(v) - 1))], 1)} for k, v in times.items()}


def main() -> dict:
    """Measure and print; returns the results."""
    res = {"cold_concurrent": cold_concurrent(), "service": service_latency()}
    c = res["cold_concurrent"]
    print(f"8 processes, cold cache: {c['failed']} failed, {c['lock_errors']} lock errors, "
          f"{c['rolls_recorded']} rolls recorded, {c['wall_s']} s wall")
    print(f"{'use case':10} {'median ms':>10} {'p95 ms':>8}")
    for k, v in res["service"].items():
        print(f"{k:10} {v['median_ms']:>10} {v['p95_ms']:>8}")
    write_results("group", res)
    return res


if __name__ == "__main__":
    main()
