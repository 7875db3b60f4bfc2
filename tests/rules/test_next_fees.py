"""`planner next` and `planner roll` price the group's way with the ledger: a stop at a station another group
owns costs its fee (RULES.md §3 "Being at a station"), in the JSON and in words. On a timetable written here:
from Zug the only way to Wohlen AG (a 2's target) changes trains at Rotkreuz, a fast-train station (an IR stops
there in the game hours: price 2000, so its fee without houses is 2000 x 0.25 = 500)."""

from __future__ import annotations

import json

import pytest

from planner.cli import main
from tests.support.inline_day import day_argv, inline_day, stop_times_txt, stops_txt


@pytest.fixture
def day(tmp_path):
    return day_argv(inline_day(
        tmp_path, stops=stops_txt("Zug", "Cham", "Rotkreuz", "Wohlen AG"),
        trips="""
        route_id,service_id,trip_id
        IR70,SA,ir
        S1,SA,s1
        S2,SA,s2
        """,
        stop_times=stop_times_txt(
            ("ir", [("Rotkreuz", "10:00", "10:00"), ("Zug", "10:12", "10:12")]),
            ("s1", [("Zug", "12:44", "12:44"), ("Cham", "12:48", "12:48"), ("Rotkreuz", "12:55", "12:55")]),
            ("s2", [("Rotkreuz", "13:03", "13:03"), ("Wohlen AG", "13:30", "13:30")]))))


def run(capsys, day, *argv: str) -> str:
    rc = main([*argv, *day])
    out = capsys.readouterr().out
    assert rc == 0, out
    return out


def test_next_and_roll_carry_the_fees_of_the_way(capsys, day):
    run(capsys, day, "ledger", "buy", "--group", "Blau", "--station", "Rotkreuz", "--time", "09:30")
    rolled = json.loads(run(capsys, day, "roll", "--group", "Rot", "--dice", "2", "--at", "Zug", "--time", "12:40",
                            "--json"))
    assert rolled["target"] == "Wohlen AG" and rolled["arrival"] == "13:30"
    changes_at = [leg["to"] for leg in rolled["legs"][:-1]]
    assert changes_at == ["Rotkreuz"]  # the itinerary changes trains at Blau's station
    assert [(f["name"], f["owner"], f["amount"]) for f in rolled["fees"]] == [("Rotkreuz", "Blau", 500)]
    nxt = json.loads(run(capsys, day, "next", "--group", "rot", "--time", "12:45", "--json"))
    assert nxt["obligation"]["kind"] == "heading" and nxt["itinerary"]["arrival"] == rolled["arrival"]
    assert nxt["fees"] == rolled["fees"] and nxt["fees_total"] == 500
    text = run(capsys, day, "next", "--group", "Rot", "--time", "12:45")
    assert "fees ahead (500): Rotkreuz 500 to Blau" in text
