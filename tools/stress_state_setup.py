"""Stress the set-up of a fresh state file: N processes open one new file at once and each records one ledger
event, R rounds; prints each round's failures and the total (outside the suite: it takes minutes).

Usage: ``.venv/bin/python -m tools.stress_state_setup [--procs 16] [--rounds 20]`` (from the repo root). Before the
set-up's reads were one snapshot, 16 x 20 lost a process in 1 to 5 of the 20 rounds ("a SQLite database of another
program"); tests/test_state_setup_race.py is the suite's smaller version.
"""

from __future__ import annotations

import argparse
import sqlite3
import subprocess
import sys
import tempfile
import time
from contextlib import closing
from pathlib import Path

CHILD = r"""
import sys, time
from pathlib import Path
from planner.gamefile.game import load_game
from planner.ledger.model import Event
from planner.ledger.rules import ledger_rules
from planner.store.games import GameGroup, GameRecord
from planner.store.state import State
path, go, g = sys.argv[1], Path(sys.argv[2]), sys.argv[3]
rules = ledger_rules(load_game("sbb-monopoly"))
game = GameRecord("g@2021-09-11", "g", None, "sbb-monopoly", "2021-09-11", True, ())
while not go.exists():  # imported: wait for the others, then all open the fresh file at once
    time.sleep(0.0005)
try:
    with State(path) as s:
        s.ledger.record(rules, game, GameGroup(g, 0, g), Event("income", g, 10 * 3600))
except Exception as exc:
    print(f"{type(exc).__name__}: {' '.join(str(exc).split())}", file=sys.stderr)
    sys.exit(3)
"""


def one_round(procs: int) -> tuple[list[str], int]:
    """(the failed processes' errors, how many groups' events the file holds) of one round."""
    folder = Path(tempfile.mkdtemp(prefix="stress-state-"))
    path, go = folder / "state.sqlite", folder / "go"
    kids = [subprocess.Popen([sys.executable, "-c", CHILD, str(path), str(go), f"g{i}"], stderr=subprocess.PIPE,
                             text=True) for i in range(procs)]
    time.sleep(2.5)  # a stress run, not a test: long enough for every child to have imported the planner
    go.touch()
    results = [(k.wait(timeout=120), k.stderr.read()) for k in kids]
    bad = [err.strip().splitlines()[-1] if err.strip() else f"exit {rc}" for rc, err in results if rc != 0]
    with closing(sqlite3.connect(path)) as conn:
        (n,) = conn.execute("SELECT count(DISTINCT grp) FROM ledger_events").fetchone()
    return bad, n


def main() -> int:
    """Run the rounds; exit 1 if any lost a process."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--procs", type=int, default=16)
    ap.add_argument("--rounds", type=int, default=20)
    a = ap.parse_args()
    failed_rounds = failed = 0
    for r in range(a.rounds):
        bad, n = one_round(a.procs)
        if bad or n != a.procs:
            failed_rounds += 1
            failed += len(bad)
        print(f"round {r + 1}: {len(bad)} failed, {n}/{a.procs} written" + (f"; {bad[0]}" if bad else ""),
              flush=True)
    print(f"total: {failed_rounds}/{a.rounds} rounds lost a process ({failed} of {a.rounds * a.procs} failed)")
    return 1 if failed_rounds else 0


if __name__ == "__main__":
    sys.exit(main())
