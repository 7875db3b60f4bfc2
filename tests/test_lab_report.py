"""The lab report's dice numbers from given rolls: a target is "never the fastest" only when some roll could have
been given it (reachable, and not out of play for having been targeted) and no roll chose it; one no roll could
be given is "never reachable" instead, so the two lists tell different things apart."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

from planner.lab.day import DayResult
from planner.lab.report import dice


def _roll(targeted: list[str], candidates: list[tuple[str, str | None]], target: str | None) -> dict:
    return {"roll": 2, "kind": "target" if target else "free", "target": target, "time": "13:00",
            "arrival": "13:40" if target else None, "region": "E", "targeted": targeted,
            "candidates": [list(c) for c in candidates]}


# number 2 of sbb-monopoly: Wohlen AG, Zürich Oerlikon, Herzogenbuchsee, Konolfingen
ROLLS = [
    # Zürich Oerlikon is reachable but Wohlen AG is faster; the others cannot be reached
    _roll([], [("Wohlen AG", "13:40"), ("Zürich Oerlikon", "13:55"), ("Herzogenbuchsee", None),
               ("Konolfingen", None)], "Wohlen AG"),
    # Herzogenbuchsee is reachable, and the fastest, but was targeted before: out of play (variant A §4.6)
    _roll(["Herzogenbuchsee"], [("Herzogenbuchsee", "13:20"), ("Wohlen AG", "13:40"), ("Zürich Oerlikon", "13:55"),
                                ("Konolfingen", None)], "Wohlen AG"),
]


def test_never_fastest_is_reachable_but_never_chosen_and_never_available_the_rest(sbb_game):
    d = dice([DayResult(0, rolls=ROLLS)], sbb_game, sbb_game.clock.end)
    assert d["never_fastest"] == ["Zürich Oerlikon"]
    assert {"Herzogenbuchsee", "Konolfingen", "Sissach"} <= set(d["never_available"])
    assert not {"Wohlen AG", "Zürich Oerlikon"} & set(d["never_available"])
    assert d["numbers"]["2"]["targets"] == {"Wohlen AG": 2}


def test_a_targeted_target_stays_available_where_the_game_does_not_skip_it(sbb_game):
    game = SimpleNamespace(dice=dataclasses.replace(sbb_game.dice, skip_targeted=False))
    d = dice([DayResult(0, rolls=ROLLS)], game, sbb_game.clock.end)
    assert d["never_fastest"] == ["Herzogenbuchsee", "Zürich Oerlikon"]
    assert "Herzogenbuchsee" not in d["never_available"] and "Konolfingen" in d["never_available"]
