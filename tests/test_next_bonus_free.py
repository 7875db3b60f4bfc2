"""`next`'s full-hour chances for a group that moves freely are the trains it may board of its own choice: before the
dice start (or the free time's end), the day model's rule that `advise` reads too. Before 12:30 at Zug, the 13:00
chances all board after 12:30, when the group must roll and head for its target."""

from __future__ import annotations

import json

from planner.cli import main
from tests.support import DAY


def _js(capsys, *argv: str) -> dict:
    rc = main([*argv, *DAY, "--json"])
    out = capsys.readouterr().out
    assert rc == 0, out
    return json.loads(out)


def test_before_the_dice_next_offers_the_chances_boarded_before_they_start(capsys):
    plain = _js(capsys, "bonus", "--at", "Zug", "--time", "12:10")
    assert plain["chances"] and all(c["board_time"] > "12:30" for c in plain["chances"])
    _js(capsys, "group", "position", "--group", "Rot", "--at", "Zug", "--time", "12:10")
    nxt = _js(capsys, "next", "--group", "Rot", "--time", "12:10")
    assert nxt["obligation"]["kind"] == "before_dice" and nxt["bonus"] == []
    _js(capsys, "group", "position", "--group", "Blau", "--at", "Zug", "--time", "11:10")
    early = _js(capsys, "next", "--group", "Blau", "--time", "11:10")  # the 12:00 chances board before 12:30
    assert early["bonus"] and all(c["board_time"] <= "12:30" for c in early["bonus"])
