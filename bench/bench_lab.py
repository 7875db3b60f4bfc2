"""The game lab: how long simulated days take on the Zug day and on the whole board, how the time grows with days
and groups, and what the lab says about the full board.

1. ``planner simulate --groups 6 --days D`` as the organiser runs it (a fresh process, the default process pool on
   this machine's cores, warm timetable cache), for D = 25, 100 and, unless ``--quick``, 1000, on the Zug game day
   and on the SYNTHETIC full variant-A day (:mod:`tools.synth_area`): wall seconds, rolls and ledger events per
   second of wall time. Targets (issue 35): 1,000 days x 6 groups on the full-area day in at most 120 s, on the Zug
   day in at most 60 s.
2. In process, serially on one loaded day: CPU milliseconds per simulated day for 2, 4, 6 and 8 groups (how the
   time grows with groups), and rolls per CPU second, after :data:`WARM_DAYS` days (the steady state of a run).
3. The full board's 1,000-day report (JSON and page under ``bench/out/``, labelled SYNTHETIC): its verdict and what
   it rests on, printed.
Run: ``.venv/bin/python -m bench.bench_lab [--quick]``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from bench import OUT, write_results
from bench.area_day import DATE as AREA_DATE
from bench.area_day import area_feed
from bench.pace import pace_ms

ROOT = Path(__file__).resolve().parents[1]
ZUG = ROOT.parent / "shared" / "data" / "gtfs" / "ch-zug-fp2021.zip"
DATE = "2021-09-11"
WARM_DAYS = 20  # simulated before the serial measurement (a worker of a 1,000-day run plays 500)
TARGET_S = {"zug": 60.0, "area": 120.0}  # 1,000 days x 6 groups


def whole_runs(day: str, feed: Path, date: str, days_list: list[int], groups: int = 6) -> list[dict]:
    """Wall time of whole ``planner simulate`` runs (process pool, all cores); the longest writes its report."""
    out = []
    for days in days_list:
        cmd = [sys.executable, "-m", "planner", "simulate", "--feed", str(feed), "--date", date, "--groups",
               str(groups), "--days", str(days), "--seed", "7", "--json"]
        if days == max(days_list):
            cmd += ["--out", str(OUT / f"lab-{day}.html")]
        pace_before = pace_ms(2)
        t0 = time.perf_counter()
        p = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT,
                           env={**os.environ, "PLANNER_STATE": str(OUT / "lab-state.sqlite")})
        wall = time.perf_counter() - t0
        pace = [pace_before, pace_ms(2)]  # the machine's pace just before and after: a run the machine slowed shows
        if p.returncode:
            raise SystemExit(f"simulate failed: {p.stderr.strip()[:300]}")
        rep = json.loads(p.stdout)
        meta = rep["meta"]
        if days == max(days_list):
            (OUT / f"lab-{day}.json").write_text(p.stdout)
        out.append({"day": day, "days": days, "groups": groups, "workers": os.cpu_count(), "wall_s": round(wall, 1),
                    "s_per_day": round(wall / days, 3), "pace_ms": pace, "rolls": meta["rolls"],
                    "rolls_per_s": round(meta["rolls"] / wall, 1), "ledger_events": meta["ledger_events"],
                    "events_per_s": round(meta["ledger_events"] / wall, 1),
                    "money_conserved": meta["money_conserved"], "errors": meta["errors"],
                    "projected_1000_days_s": round(wall / days * 1000, 0), "verdict": rep["verdict"]})
        print(f"[{day}] simulate {days:5d} days x {groups} groups: {wall:7.1f} s wall, {meta['rolls'] / wall:7.1f} "
              f"rolls/s, {meta['ledger_events'] / wall:7.1f} events/s, machine pace {pace[0]}-{pace[1]} ms",
              flush=True)
    return out


def per_day_cpu(feed: Path, date: str, groups_list: list[int], days: int = 8) -> list[dict]:
    """CPU ms per simulated day, serially on one loaded day, by number of groups."""
    from planner.lab.day import DayConfig
    from planner.lab.run import RunSpec, play_day

    out = []
    for groups in groups_list:
        spec = RunSpec(str(feed), "sbb-monopoly", date, None, DayConfig(groups, "mix", 3))
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
        print(f"  {groups} groups: {cpu / days * 1000:6.0f} ms CPU per day, {rolls / cpu:6.1f} rolls per CPU second,"
              f" {events / days:6.1f} ledger events per day", flush=True)
    return out


def verdicts(runs: list[dict]) -> list[str]:
    """The issue's lab targets, met or missed, with the figures."""
    out = []
    for day, limit in TARGET_S.items():
        full = [r for r in runs if r["day"] == day and r["days"] == 1000]
        if not full:
            out.append(f"MISSED 1000 days x 6 groups on the {day} day in <= {limit:.0f} s: not run (--quick)")
            continue
        w = full[0]["wall_s"]
        out.append(f"{'MET   ' if w <= limit else 'MISSED'} 1000 days x 6 groups on the {day} day in <= {limit:.0f} s "
                   f"on {os.cpu_count()} cores: {w} s ({full[0]['rolls_per_s']} rolls/s; machine pace "
                   f"{full[0]['pace_ms'][0]}-{full[0]['pace_ms'][1]} ms)")
    return out


def main() -> int:
    """Run the three parts and write bench/out/lab.json."""
    quick = "--quick" in sys.argv
    print(f"machine pace: {pace_ms()} ms (bench/pace.py; lower is faster)", flush=True)
    OUT.mkdir(parents=True, exist_ok=True)
    feed, seconds = area_feed()
    print(f"SYNTHETIC full-area day written by tools.synth_area in {seconds} s: {feed}", flush=True)
    days = [25, 100] if quick else [25, 100, 1000]
    runs = whole_runs("zug", ZUG, DATE, days) + whole_runs("area", feed, AREA_DATE, days)
    print("per simulated day, serially (Zug day):", flush=True)
    zug = per_day_cpu(ZUG, DATE, [2, 4, 6] if quick else [2, 4, 6, 8], days=4 if quick else 8)
    print("per simulated day, serially (full-area day):", flush=True)
    area = per_day_cpu(feed, AREA_DATE, [2, 4, 6] if quick else [2, 4, 6, 8], days=4 if quick else 8)
    board = next(r for r in reversed(runs) if r["day"] == "area")
    print(f"\nThe lab on the SYNTHETIC full board ({board['days']} days x 6 groups): the dice table is "
          f"{'fair' if board['verdict']['fair'] else 'not fair'}")
    for line in board["verdict"]["reasons"]:
        print(f"  - {line}")
    print("  what it rests on:")
    for line in board["verdict"]["findings"]:
        print(f"  - {line}")
    for line in verdicts(runs):
        print(line)
    path = write_results("lab", {"machine_cpus": os.cpu_count(), "date": time.strftime("%Y-%m-%d"),
                                 "area_feed_written_s": seconds, "runs": runs, "per_day_zug": zug,
                                 "per_day_area": area, "verdicts": verdicts(runs)})
    print(f"written {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
