"""A process that writes one ledger event into each of several state files, for the set-up race
(:func:`tools.stress_state_setup.race`, run by tests/store/test_state_setup_race.py and the stress tool):
``python -m tools.state_writer GROUP FILE...``.

For each file in turn it says ``ready`` on stdout and waits for a line on stdin, so that every process of the race
opens that (fresh) file at the same moment, then records the group's income into it. It exits 0, or prints the
error in one line on stderr and exits 3."""

from __future__ import annotations

import sys

from planner.gamefile.game import load_game
from planner.ledger.model import Event
from planner.ledger.money_rules import ledger_rules
from planner.store.games import GameGroup, GameRecord
from planner.store.state import State

GAME = GameRecord("g@2021-09-11", "g", None, "sbb-monopoly", "2021-09-11", True, ())


def main(group: str, paths: list[str]) -> int:
    """Record ``group``'s 10:00 income into each file of ``paths`` (see module docstring)."""
    rules = ledger_rules(load_game("sbb-monopoly"))
    try:
        for path in paths:
            print("ready", flush=True)
            sys.stdin.readline()
            with State(path) as state:
                state.ledger.record(rules, GAME, GameGroup(group, 0, group), Event("income", group, 10 * 3600))
    except Exception as exc:  # the test shows what failed, in one line
        print(f"{path}: {type(exc).__name__}: {' '.join(str(exc).split())}", file=sys.stderr)
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2:]))
