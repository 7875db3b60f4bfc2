"""Latency of each game command once the game day is cached (Zug extract, sbb-monopoly, 2021-09-11).

Two numbers per command: the in-process answer time of ``planner.cli.main`` (cache load + query + JSON,
i.e. what a long-running app or the batch mode pays) and the wall time of a fresh ``planner`` process
(adds Python, numpy and numba start-up). Target: in-process under 100 ms.
Run: ``.venv/bin/python -m bench.bench_rules``.
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
COMMANDS = {
    "route": ["route", "--from", "Zug", "--to", "Wohlen AG", "--time", "12:40"],
    "route --within 20": ["route", "--from", "Zug", "--to", "Wohlen AG", "--time", "12:40", "--within", "20"],
    "target": ["target", "--at", "Zug", "--time", "12:40", "--roll", "2"],
    "target (B, 2 dice)": ["target", "--game", "nordwestschweiz", "--at", "Olten", "--time", "12:00", "--roll", "16"],
    # a new group each time: a group heading for its target may not roll again (its day is checked)
    "roll": ["roll", "--group", "bench-{n}", "--dice", "3", "--at", "Zug", "--time", "12:40"],
    "zugzwang": ["zugzwang", "--at", "Wohlen AG", "--time", "13:46"],
    "bonus": ["bonus", "--at", "Zug", "--time", "12:40"],
    "tolls": ["tolls", "--trip", "173.TA.91-70-j21-1.63.H"],
}


def main() -> dict:
    """Measure and print; returns the results."""
    from planner.cli import main as cli

    tmp = tempfile.mkdtemp()
    os.environ["PLANNER_CACHE"] = str(Path(tmp) / "cache")
    os.environ["PLANNER_STATE"] = str(Path(tmp) / "state.sqlite")
    results = {}
    counter = iter(range(10**6))
    for name, template in COMMANDS.items():
        def fresh(template: list[str] = template) -> list[str]:
            n = str(next(counter))
            return [a.replace("{n}", n) for a in template]

        argv = fresh()
        with contextlib.redirect_stdout(io.StringIO()):
            cli([*argv, *DAY])  # warm: builds the cache and compiles/loads numba
        times = []
        for _ in range(15):
            t0 = time.perf_counter()
            argv = fresh()
            with contextlib.redirect_stdout(io.StringIO()):
                rc = cli([*argv, *DAY])
            times.append((time.perf_counter() - t0) * 1000)
            assert rc == 0, name
        argv = fresh()
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "planner", *argv, *DAY], capture_output=True, check=True,
                       env=dict(os.environ))
        proc = (time.perf_counter() - t0) * 1000
        results[name] = {"in_process_median_ms": round(statistics.median(times), 1),
                         "in_process_max_ms": round(max(times), 1), "process_ms": round(proc)}
    print(f"{'command':22} {'median ms':>10} {'max ms':>8} {'fresh process ms':>17}")
    for k, v in results.items():
        print(f"{k:22} {v['in_process_median_ms']:>10} {v['in_process_max_ms']:>8} {v['process_ms']:>17}")
    write_results("rules", results)
    return results


if __name__ == "__main__":
    main()
