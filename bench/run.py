"""``make bench``: every benchmark in turn; each prints its table and writes JSON under bench/out/.

Order: routing (Zug day + synthetic game-area day), one-to-one against nigiri (skipped columns when
pynigiri, the ``bench`` extra, is missing), game commands, the group's day, the ledger, cache reload, maps, the
phone app under load (bench_web, 2 minutes; `python -m bench.bench_web --quick` for 20 s), the bytes of a phone
idling one game hour (bench_idle), then the ingest of a
SYNTHETIC national-size feed (generated once into bench/out/, several minutes the first time).
Set BENCH_SKIP=ingest (comma-separated names) to leave some out. The machine's pace (:mod:`bench.pace`) is printed at
the start and the end, and every JSON carries the pace read when it was written; at the end the targets of issue 35
(one-to-one against nigiri, the dice answer, the lab at the whole board's size) as MET or MISSED with their figures.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import time

from bench import OUT
from bench.pace import pace_ms

BENCHES = ["routing", "onetoone", "rules", "realtime", "group", "ledger", "lab", "cache", "maps", "web", "idle", "ingest"]


def main() -> int:
    """Run the benchmarks as separate processes (a crash or memory peak of one does not skew another)."""
    skip = {s.strip() for s in os.environ.get("BENCH_SKIP", "").split(",") if s.strip()}
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, machine pace {pace_ms()} ms (bench/pace.py)", flush=True)
    failed = []
    for name in BENCHES:
        if name in skip:
            continue
        mod = f"bench.bench_{name}"
        try:
            importlib.util.find_spec(mod)
        except ModuleNotFoundError:
            continue
        print(f"\n=== {mod} ===", flush=True)
        t0 = time.perf_counter()
        rc = subprocess.call([sys.executable, "-m", mod])
        print(f"=== {mod}: exit {rc}, {time.perf_counter() - t0:.0f} s ===", flush=True)
        if rc:
            failed.append(mod)
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, machine pace {pace_ms()} ms", flush=True)
    targets = [line for name in ("onetoone", "lab") if (OUT / f"{name}.json").is_file()
               for line in json.loads((OUT / f"{name}.json").read_text()).get("verdicts", [])]
    if targets:
        print("\nissue 35's targets (bench/RESULTS.md):")
        for line in targets:
            print(f"  {line}")
    if failed:
        print("failed: " + ", ".join(failed))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
