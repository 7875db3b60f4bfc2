"""`planner zugzwang` does not offer the train the group just got off, and says what it left out. On a timetable
written here: the IR70 Luzern 12:09 - Rotkreuz 12:20 - Zug 12:28/12:29 - Zürich HB; at Zug an S2 leaves 12:29 and
an S1 12:40."""

from __future__ import annotations

import json

import pytest

from planner.cli import main
from tests.support.inline_day import day_argv, inline_day, stop_times_txt, stops_txt


@pytest.fixture
def day(tmp_path):
    return day_argv(inline_day(
        tmp_path, stops=stops_txt("Luzern", "Rotkreuz", "Zug", "Baar", "Zürich HB"),
        trips="""
        route_id,service_id,trip_id,trip_headsign
        IR70,SA,ir,Zürich HB
        S2,SA,s2,Baar
        S1,SA,s1,Baar
        """,
        stop_times=stop_times_txt(
            ("ir", [("Luzern", "12:09", "12:09"), ("Rotkreuz", "12:20", "12:20"), ("Zug", "12:28", "12:29"),
                    ("Zürich HB", "12:52", "12:52")]),
            ("s2", [("Zug", "12:29", "12:29"), ("Baar", "12:33", "12:33")]),
            ("s1", [("Zug", "12:40", "12:40"), ("Baar", "12:44", "12:44")]))))


def zz(capsys, day, *argv: str) -> dict:
    assert main(["zugzwang", *day, *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_the_train_just_left_is_not_offered(capsys, day):
    # the IR70 from Luzern arrives at Zug 12:28 and leaves again 12:29 for Zürich HB
    out = zz(capsys, day, "--at", "Zug", "--time", "12:28")
    assert [(d["route"], d["departure"]) for d in out["excluded"]] == [("IR70", "12:29")]
    assert ("IR70", "12:29") not in [(d["route"], d["departure"]) for d in out["departures"]]
    # catchable trains first, then the ones leaving too soon (the S2 at 12:29, one minute after arriving)
    flags = [d["catchable"] for d in out["departures"]]
    assert flags == sorted(flags, reverse=True) and flags[0]
    assert [(d["route"], d["catchable"]) for d in out["departures"]] == [("S1", True), ("S2", False)]


def test_a_named_train_is_excluded_by_name_and_nothing_is_guessed(capsys, day):
    # the group names the train it left by its time at Zug: its arrival (12:28) or its departure (12:29) there
    for ref in ("IR70 12:28 Zürich HB", "IR70 12:29"):
        out = zz(capsys, day, "--at", "Zug", "--time", "12:28", "--trip", ref)
        assert "excluded" not in out
        assert "IR70" not in [d["route"] for d in out["departures"] if d["departure"] == "12:29"]
    # its time at its first stop (Luzern 12:09) is not its time at Zug: no train is guessed
    assert main(["zugzwang", *day, "--at", "Zug", "--time", "12:28", "--trip", "IR70 12:09 Zürich HB"]) == 2
    assert "no IR70 calls at Zug at 12:09" in capsys.readouterr().err
