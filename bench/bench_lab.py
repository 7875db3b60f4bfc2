"""The game lab (issue 21): how long simulated days take, and how the time grows with days and groups.

1. ``planner simulate --groups 6 --days D`` as the organiser runs it (a fresh process, the default process pool on
   this machine's cores, warm timetable cache), for D = 25, 100 and, unless ``--quick``, 1000: wall seconds, rolls
   and ledger events per second of wall time, and the projection of the issue's target (1,000 days in 60 s).
2. In process, serially on one loaded day: CPU milliseconds per simulated day for 2, 4, 6 and 8 groups (how the
   time grows with groups), and rolls per CPU second, after :data:`WARM_DAYS` days (the steady state of a run).
Run: ``.venv/bin/python -m bench.bench_lab [--quick]``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from bench import write_results
from bench.pace import pace_ms

ROOT = Path(__file__).resolve().parents[1]
ZUG = ROOT.parent / "shared" / "data" / "gtfs" / "ch-zug-fp2021.zip"
DATE = "2021-09-11"
WARM_DAYS = 20  # simulated before the serial measurement (a worker of a 1,000-day run plays 500)


def whole_runs(days_list: list[int], groups: int = 6) -> list[dict]:
    """Wall time of whole ``planner simulate`` runs (process pool, all cores)."""
    out = []
    for days in days_list:
        cmd = [sys.executable, "-m", "planner", "simulate", "--feed", str(ZUG), "--date", DATE, "--groups",
               str(groups), "--days", str(days), "--seed", "7", "--json"]
        t0 = time.perf_counter()
        p = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
        wall = time.perf_counter() - t0
        if p.returncode:
            raise SystemExit(f"simulate failed: {p.stderr.strip()[:300]}")
        meta = json.loads(p.stdout)["meta"]
        out.append({"days": days, "groups": groups, "workers": os.cpu_count(), "wall_s": round(wall, 1),
                    "s_per_day": round(wall / days, 3), "rolls": meta["rolls"],
                    "rolls_per_s": round(meta["rolls"] / wall, 1), "ledger_events": meta["ledger_events"],
                    "events_per_s": round(meta["ledger_events"] / wall, 1),
                    "money_conserved": meta["money_conserved"], "errors": meta["errors"],
                    "projected_1000_days_s": round(wall / days * 1000, 0)})
        print(f"simulate {days:5d} days x {groups} groups: {wall:7.1f} s wall, {meta['rolls'] / wall:7.1f} rolls/s,"
              f" {meta['ledger_events'] / wall:7.1f} events/s (1000 days would take ~{wall / days * 1000:.0f} s)",
              flush=True)
    return out


def per_day_cpu(groups_list: list[int], days: int = 8) -> list[dict]:
    """CPU ms per simulated day, serially on one loaded day, by number of groups."""
    from planner.lab.day import DayConfig
    from planner.lab.run import RunSpec, play_day

    out = []
    for groups in groups_list:
        spec = RunSpec(str(ZUG), "sbb-monopoly", DATE, None, DayConfig(groups, "mix", 3))
        # the first days pay numba's first use and fill what the day remembers (earliest arrivals, onward
        # journeys, deadlines), as the first days of a long run do: measured is the steady state after them
        for w in range(WARM_DAYS):
            play_day(spec, 10_000 + w)
        t0 = time.process_time()
        rolls = events = 0
        for i in range(days):
            r = play_day(spec, i)
            rolls += len(r.rolls)
            events += r.events
        cpu = time.process_time() - t0
        out.append({"groups": groups, "days": days, "cpu_ms_per_day": round(cpu / days * 1000, 1),
                    "rolls_per_cpu_s": round(rolls / cpu, 1), "events_per_day": round(events / days, 1)})
        print(f"{groups} groups: {cpu / days * 1000:6.0f} ms CPU per day, {rolls / cpu:6.1f} rolls per CPU second,"
              f" {events / days:6.1f} ledger events per day", flush=True)
    return out


def main() -> int:
    """Run both parts and write bench/out/lab.json."""
    quick = "--quick" in sys.argv
    print(f"machine pace: {pace_ms()} ms (bench/pace.py; lower is faster)", flush=True)
    runs = whole_runs([25, 100] if quick else [25, 100, 1000])
    scale = per_day_cpu([2, 4, 6] if quick else [2, 4, 6, 8], days=4 if quick else 8)
    path = write_results("lab", {"machine_cpus": os.cpu_count(), "date": time.strftime("%Y-%m-%d"),
                                 "runs": runs, "per_day": scale})
    print(f"written {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
