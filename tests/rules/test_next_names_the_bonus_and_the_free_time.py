"""`next`'s full-hour chances for a group that moves freely are the trains it may board of its own choice: before the
dice start (or the free time's end), the day model's rule that `advise` reads too. Before 12:30 at Zug, the 13:00
chances all board after 12:30, when the group must roll and head for its target. On a timetable written here: an
S1 leaves Zug every hour at :50 and reaches Baar at :00 (a full-hour chance boarded at :50)."""

from __future__ import annotations

import json

import pytest

from planner.cli import main
from tests.support.inline_day import day_argv, inline_day, stop_times_txt, stops_txt


@pytest.fixture
def day(tmp_path):
    hours = range(10, 15)
    return day_argv(inline_day(
        tmp_path, stops=stops_txt("Zug", "Baar"),
        trips="route_id,service_id,trip_id\n" + "".join(f"S1,SA,s{h}\n" for h in hours),
        stop_times=stop_times_txt(*((f"s{h}", [("Zug", f"{h}:50", f"{h}:50"), ("Baar", f"{h + 1}:00", f"{h + 1}:00")])
                                    for h in hours))))


def _js(capsys, day, *argv: str) -> dict:
    rc = main([*argv, *day, "--json"])
    out = capsys.readouterr().out
    assert rc == 0, out
    return json.loads(out)


def test_before_the_dice_next_offers_the_chances_boarded_before_they_start(capsys, day):
    plain = _js(capsys, day, "bonus", "--at", "Zug", "--time", "12:10")
    assert plain["chances"] and all(c["board_time"] > "12:30" for c in plain["chances"])
    _js(capsys, day, "group", "position", "--group", "Rot", "--at", "Zug", "--time", "12:10")
    nxt = _js(capsys, day, "next", "--group", "Rot", "--time", "12:10")
    assert nxt["obligation"]["kind"] == "before_dice" and nxt["bonus"] == []
    _js(capsys, day, "group", "position", "--group", "Blau", "--at", "Zug", "--time", "11:10")
    early = _js(capsys, day, "next", "--group", "Blau", "--time", "11:10")  # the 12:00 chance boards at 11:50
    assert early["bonus"] and all(c["board_time"] <= "12:30" for c in early["bonus"])
    assert [c["board_time"] for c in early["bonus"]] == ["11:50"]
