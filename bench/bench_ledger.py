"""Latency of the ledger: recording one event into a busy game day, and the cost of pricing itineraries.

1. ``LedgerStore.record`` (replay of the day + check + insert, one transaction) after 0, 300 and 1200
   recorded events (a game day of 6 groups is a few hundred).
2. In process (cached Zug day): ``ledger buy`` with its position check by timetable, ``ledger status``,
   and ``route`` with and without ``--group`` (the fees and the cheapest-of-equally-fast choice).
3. Six fresh ``planner ledger buy`` processes for one station at once: wall time until all have answered.
Run: ``.venv/bin/python -m bench.bench_ledger``.
"""

from __future__ import annotations

import contextlib
import io
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
DAY = ["--feed", str(ZUG), "--date", "2021-09-11", "--json"]


def _store_latency(tmp: Path) -> dict:
    from planner.gamefile.game import load_game
    from planner.ledger.model import Event
    from planner.ledger.money_rules import ledger_rules
    from planner.store.games import GameGroup, GameRecord
    from planner.store.state import State

    rules = ledger_rules(load_game("sbb-monopoly"))
    game = GameRecord("sbb-monopoly@2021-09-11", "bench", None, "sbb-monopoly", "2021-09-11", True, ())
    out = {}
    for n in (0, 300, 1200):
        with State(tmp / f"store-{n}.sqlite") as state:
            store = state.ledger

            def record(e: Event, store=store):
                return store.record(rules, game, GameGroup(e.group, 0, e.group), e)

            for g in range(6):  # six groups, one station each
                record(Event("buy", str(g), 9 * 3600 + 60, target="station", name=f"S{g}", price=1000, letter="S"))

            def fee(i: int, t: int) -> Event:  # group g pays at the next group's station: money circulates
                return Event("fee", str(i % 6), t, target="station", name=f"S{(i + 1) % 6}")

            for i in range(n):
                record(fee(i, 9 * 3600 + 120 + i))
            times = []
            for i in range(20):
                t0 = time.perf_counter()
                record(fee(i, 15 * 3600 + i))
                times.append((time.perf_counter() - t0) * 1000)
        out[f"record after {n} events"] = {"median_ms": round(statistics.median(times), 2),
                                           "max_ms": round(max(times), 2)}
    return out


def _cli_latency() -> dict:
    from planner.cli import main as cli

    def run(argv: list[str]) -> float:
        t0 = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()):
            rc = cli([*argv, *DAY])
        assert rc == 0, argv
        return (time.perf_counter() - t0) * 1000

    run(["route", "--from", "Zug", "--to", "Wohlen AG", "--time", "10:00"])  # warm the cache
    run(["ledger", "buy", "--group", "9", "--station", "Cham", "--time", "09:30"])
    out = {}
    cases = {
        "ledger buy (position check)": lambda i: ["ledger", "buy", "--group", str(100 + i), "--station", "Baar",
                                                  "--time", f"10:{i:02d}"],
        "ledger status": lambda i: ["ledger", "status"],
        "route": lambda i: ["route", "--from", "Zug", "--to", "Wohlen AG", "--time", "10:00"],
        "route --group": lambda i: ["route", "--from", "Zug", "--to", "Wohlen AG", "--time", "10:00", "--group", "1"],
    }
    for name, argv in cases.items():
        times = [run(argv(i)) if name != "ledger buy (position check)" else _refused_ok(cli, argv(i))
                 for i in range(15)]
        out[name] = {"in_process_median_ms": round(statistics.median(times), 1), "max_ms": round(max(times), 1)}
    return out


def _refused_ok(cli, argv: list[str]) -> float:
    """A buy of an owned station: refused after the same work (replay, position check) as a purchase."""
    t0 = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        cli([*argv, *DAY])
    return (time.perf_counter() - t0) * 1000


def _six_processes() -> dict:
    t0 = time.perf_counter()
    procs = [subprocess.Popen([sys.executable, "-m", "planner", "ledger", "buy", "--group", str(g), "--station",
                               "Thalwil", "--time", f"11:{g:02d}", *DAY], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, env=dict(os.environ)) for g in range(1, 7)]
    codes = [p.wait() for p in procs]
    return {"six processes buying one station": {"wall_s": round(time.perf_counter() - t0, 2),
                                                 "accepted": codes.count(0), "refused": codes.count(2)}}


def main() -> dict:
    """Measure and print; returns the results."""
    tmp = Path(tempfile.mkdtemp())
    os.environ["PLANNER_CACHE"] = str(tmp / "cache")
    os.environ["PLANNER_STATE"] = str(tmp / "state.sqlite")
    results = _store_latency(tmp) | _cli_latency() | _six_processes()
    for k, v in results.items():
        print(f"{k:36} " + "  ".join(f"{a} {b}" for a, b in v.items()))
    write_results("ledger", results)
    return results


if __name__ == "__main__":
    main()
