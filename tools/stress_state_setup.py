"""Stress the set-up of a fresh state file: N processes open one new file at once and each records one ledger
event, R files one after another; prints each file's losses and the total (outside the suite: it takes minutes).

Usage: ``.venv/bin/python -m tools.stress_state_setup [--procs 16] [--rounds 20]`` (from the repo root). Before the
set-up's reads were one snapshot, 16 x 20 lost a process in 1 to 5 of the 20 rounds ("a SQLite database of another
program"); tests/store/test_state_setup_race.py runs the same race, smaller.
"""

from __future__ import annotations

import argparse
import sqlite3
import subprocess
import sys
import tempfile
from contextlib import closing
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def race(paths: list[str], processes: int) -> tuple[list[tuple[int, str]], dict[str, set[str]]]:
    """``processes`` writers (:mod:`tools.state_writer`, groups ``g0``, ``g1``, ...) open each of ``paths``, fresh
    files, all at the same moment, one file after another. Returns (the failed processes with their one-line
    errors, the groups each file is missing)."""
    procs = [subprocess.Popen([sys.executable, "-m", "tools.state_writer", f"g{n}", *paths], cwd=ROOT,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for n in range(processes)]
    for _path in paths:
        ready = [p for p in procs if p.stdout.readline() == "ready\n"]  # done with the file before, waiting
        for p in ready:  # go: all at once on the next fresh file
            p.stdin.write("go\n")
            p.stdin.flush()
    failed = [(n, p.stderr.read().strip()) for n, p in enumerate(procs) if p.wait(timeout=300) != 0]
    want = {f"g{n}" for n in range(processes)}
    missing = {}
    for path in paths:
        with closing(sqlite3.connect(path)) as conn:
            got = {g for (g,) in conn.execute("SELECT grp FROM ledger_events WHERE kind = 'income'")}
        missing[path] = want - got
    return failed, missing


def main() -> int:
    """Run the race on ``--rounds`` fresh files; exit 1 if any file lost a process's event."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--procs", type=int, default=16)
    ap.add_argument("--rounds", type=int, default=20)
    a = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="stress-state-"))
    paths = [str(folder / f"state-{r}.sqlite") for r in range(a.rounds)]
    failed, missing = race(paths, a.procs)
    for r, path in enumerate(paths):
        print(f"round {r + 1}: {a.procs - len(missing[path])}/{a.procs} written", flush=True)
    for n, err in failed:
        print(f"process g{n}: {err}")
    lost = sum(1 for m in missing.values() if m)
    print(f"total: {lost}/{a.rounds} rounds lost a process ({len(failed)} of {a.procs} processes failed)")
    return 1 if lost or failed else 0


if __name__ == "__main__":
    sys.exit(main())
