"""`planner next` and `planner roll` price the group's way with the ledger: a stop at a station another group
owns costs its fee (RULES.md §3 "Being at a station"), in the JSON and in words."""

from __future__ import annotations

import json

from planner.cli import main
from tests.support import ZUG

DAY = ["--feed", str(ZUG), "--date", "2021-09-11"]


def run(capsys, *argv: str) -> str:
    rc = main([*argv, *DAY])
    out = capsys.readouterr().out
    assert rc == 0, out
    return out


def test_next_and_roll_carry_the_fees_of_the_way(capsys):
    run(capsys, "ledger", "buy", "--group", "Blau", "--station", "Rotkreuz", "--time", "09:30")
    rolled = json.loads(run(capsys, "roll", "--group", "Rot", "--dice", "2", "--at", "Zug", "--time", "12:40",
                            "--json"))
    assert rolled["target"] == "Wohlen AG"
    changes_at = [leg["to"] for leg in rolled["legs"][:-1]]
    assert changes_at == ["Rotkreuz"]  # the itinerary changes trains at Blau's station
    assert [(f["name"], f["owner"], f["amount"]) for f in rolled["fees"]] == [("Rotkreuz", "Blau", 500)]
    nxt = json.loads(run(capsys, "next", "--group", "rot", "--time", "12:45", "--json"))
    assert nxt["obligation"]["kind"] == "heading" and nxt["itinerary"]["arrival"] == rolled["arrival"]
    assert nxt["fees"] == rolled["fees"] and nxt["fees_total"] == 500
    text = run(capsys, "next", "--group", "Rot", "--time", "12:45")
    assert "fees ahead (500): Rotkreuz 500 to Blau" in text
