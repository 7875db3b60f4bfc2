"""A dice answer remembered on the day's network (planner/service/rules.py ``decide_at``) is the answer worked
out afresh, and every caller gets lists of its own: a roll's answer changed by one use case (the cheapest way,
a warning added) never reaches the next group rolling there."""

from __future__ import annotations

import dataclasses

from planner.game.day import Position
from planner.service.positions import origin_of
from planner.service.rules import _decide_at, decide_at
from planner.util.timefmt import parse_clock as T


def test_a_remembered_answer_equals_a_fresh_one_and_is_the_callers_own(zug_day):
    origin = origin_of(zug_day, Position(zug_day.station("Zug"), T("12:05")), T("12:05"))
    for dice in range(1, 7):
        first = decide_at(zug_day, origin, dice, ["Baar"], asked=T("12:05"))
        fresh = _decide_at(zug_day, origin, dice, ["Baar"], T("12:05"))
        assert dataclasses.asdict(first) == dataclasses.asdict(fresh)
        first.warnings.append("changed by a caller")
        first.candidates.append({"name": "nowhere"})
        for c in first.candidates:
            c["arrival"] = "99:99"
        again = decide_at(zug_day, origin, dice, ["Baar"], asked=T("12:05"))
        assert dataclasses.asdict(again) == dataclasses.asdict(fresh)


def test_the_targets_had_and_the_time_asked_are_part_of_the_question(zug_day):
    origin = origin_of(zug_day, Position(zug_day.station("Zug"), T("12:05")), T("12:05"))
    dice, plain = next((d, a) for d in range(1, 7) if (a := decide_at(zug_day, origin, d, [], asked=T("12:05"))).target)
    had = decide_at(zug_day, origin, dice, [plain.target], asked=T("12:05"))
    assert had.target != plain.target
    assert dataclasses.asdict(had) == dataclasses.asdict(
        _decide_at(zug_day, origin, dice, [plain.target], T("12:05")))
    later = decide_at(zug_day, origin, 6, [], asked=T("12:20"))
    assert dataclasses.asdict(later) == dataclasses.asdict(_decide_at(zug_day, origin, 6, [], T("12:20")))
