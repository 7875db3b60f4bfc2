"""The lab report's dice numbers from given rolls: a target is "never the fastest" only when some roll could have
been given it (reachable, and not out of play for having been targeted) and no roll chose it; one no roll could
be given is "never reachable" instead, so the two lists tell different things apart."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

from planner.lab.day import DayResult
from planner.lab.report import dice, verdict


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


def test_the_verdict_says_which_numbers_it_rests_on(sbb_game):
    rolls = [dict(_roll([], [("Wohlen AG", "13:40")], "Wohlen AG"), region=r, arrival=a)
             for r, a in (("E", "13:40"), ("E", "13:50"), ("W", "14:30"))]
    d = dice([DayResult(0, rolls=rolls)], sbb_game, sbb_game.clock.end)
    cap = {"start_z": 2.5, "start_decisive": True,
           "by_region": {"E": {"n": 6, "mean": 30000}, "W": {"n": 6, "mean": 18000}, "C": {"n": 2, "mean": 90000}}}
    v = verdict(d, cap)
    (two,) = [f for f in v["rests_on"] if f.startswith("2:")]
    # 40, 50 and 90 minutes: median 50, p90 90, three rolls, none late
    assert "median travel 50 min, p90 90 min over 3 rolls" in two and "0% not reached" in two
    assert any(f.startswith("5: no roll gave a target (0 rolls)") for f in v["rests_on"])
    (start,) = [f for f in v["rests_on"] if f.startswith("the start region")]
    assert "decides" in start and "30,000 starting in east (n=6)" in start and "18,000 in west (n=6)" in start
    assert "2.5 standard errors" in start and "n=2" not in start  # a region of fewer than 5 groups is not weighed
