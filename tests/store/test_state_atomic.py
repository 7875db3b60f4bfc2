"""Several writes as one transaction (``StateDB.atomic``): a roll and the card that turned it into a 6 are both
recorded or neither (issue 41), on a file and in memory; the stores' kept reads never show what was rolled back."""

from __future__ import annotations

import pytest

from planner.gamefile.game import load_game
from planner.ledger.model import Event
from planner.ledger.money_rules import ledger_rules
from planner.store.games import GameGroup, GameRecord
from planner.store.records import Roll, group_key, implicit_id
from planner.store.state import State

GAME, DATE = "sbb-monopoly", "2021-09-11"
IMPLICIT = GameRecord(implicit_id(GAME, DATE), f"{GAME} {DATE}", None, GAME, DATE, True, ())
RULES = ledger_rules(load_game(GAME))
ROT = GameGroup(group_key("Rot"), 0, "Rot")


class Stopped(Exception):
    """The process stopped between two writes."""


def _roll(state: State, t: int) -> None:
    snap = state.groups.snapshot(IMPLICIT.id, ROT)
    state.groups.commit_roll(IMPLICIT, ROT, Roll(time=t, dice=(6,), kind="target", target="Baar", position="Zug"), snap.version)


@pytest.mark.parametrize("where", ["file", "memory"])
def test_writes_inside_one_atomic_are_kept_together_or_not_at_all(tmp_path, where):
    state = State(tmp_path / "state.sqlite" if where == "file" else ":memory:")
    _roll(state, 9 * 3600)  # the reads of this connection are kept from here on
    assert len(state.ledger.events(RULES, IMPLICIT.id)) == 0
    with pytest.raises(Stopped), state.db.atomic():
        _roll(state, 10 * 3600)
        state.ledger.record(RULES, IMPLICIT, ROT, Event("income", "Rot", 10 * 3600))
        raise Stopped
    assert len(state.groups.snapshot(IMPLICIT.id, ROT).rolls) == 1 and state.ledger.events(RULES, IMPLICIT.id) == []
    with state.db.atomic():
        _roll(state, 10 * 3600)
        state.ledger.record(RULES, IMPLICIT, ROT, Event("income", "Rot", 10 * 3600))
    assert len(state.groups.snapshot(IMPLICIT.id, ROT).rolls) == 2
    assert [r.event.kind for r in state.ledger.events(RULES, IMPLICIT.id)] == ["join", "income"]
    if where == "file":  # another connection reads what was committed
        with State(tmp_path / "state.sqlite") as other:
            assert len(other.groups.snapshot(IMPLICIT.id, ROT).rolls) == 2
    state.close()


def test_a_refused_write_inside_an_atomic_undoes_only_itself_until_the_whole_is_given_up(tmp_path):
    state = State(tmp_path / "state.sqlite")
    with state.db.atomic():
        _roll(state, 9 * 3600)
        with pytest.raises(Exception, match="already"):
            state.ledger.record(RULES, IMPLICIT, ROT, Event("join", "Rot", RULES.start))
    assert len(state.groups.snapshot(IMPLICIT.id, ROT).rolls) == 1
    state.close()
