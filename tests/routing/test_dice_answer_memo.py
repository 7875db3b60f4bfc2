"""A dice answer remembered on the day's network (planner/service/read/decisions.py ``decide_at``) is the answer worked
out afresh, and every caller gets lists of its own: a roll's answer changed by one use case (the cheapest way,
a warning added) never reaches the next group rolling there. On a timetable written here: from Zug a 2's two
targets are reachable, Zürich Oerlikon (IR70 via Zürich HB) and Wohlen AG (S1, change at Rotkreuz, S2)."""

from __future__ import annotations

import dataclasses

import pytest

from planner.game.day import Position
from planner.service.read.decisions import _decide_at, decide_at
from planner.service.read.positions import origin_of
from planner.util.timefmt import parse_clock as T
from tests.support.inline_day import inline_day, stop_times_txt, stops_txt


@pytest.fixture
def zug_day(tmp_path):
    return inline_day(
        tmp_path, stops=stops_txt("Zug", "Baar", "Rotkreuz", "Wohlen AG", "Zürich HB", "Zürich Oerlikon"),
        trips="""
        route_id,service_id,trip_id
        S1,SA,s1
        S2,SA,s2
        IR70,SA,ir
        S1,SA,baar
        """,
        stop_times=stop_times_txt(
            ("s1", [("Zug", "12:10", "12:10"), ("Rotkreuz", "12:25", "12:25")]),
            ("s2", [("Rotkreuz", "12:30", "12:30"), ("Wohlen AG", "13:00", "13:00")]),
            ("ir", [("Zug", "12:15", "12:15"), ("Zürich HB", "12:40", "12:42"), ("Zürich Oerlikon", "12:50", "12:50")]),
            ("baar", [("Zug", "12:20", "12:20"), ("Baar", "12:24", "12:24")])))


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
    # a 1's targets are not on this timetable; a 2's fastest is Zürich Oerlikon (12:50), then Wohlen AG (13:00)
    assert (dice, plain.target, had.target) == (2, "Zürich Oerlikon", "Wohlen AG")
    assert dataclasses.asdict(had) == dataclasses.asdict(
        _decide_at(zug_day, origin, dice, [plain.target], T("12:05")))
    later = decide_at(zug_day, origin, 6, [], asked=T("12:20"))
    assert dataclasses.asdict(later) == dataclasses.asdict(_decide_at(zug_day, origin, 6, [], T("12:20")))
