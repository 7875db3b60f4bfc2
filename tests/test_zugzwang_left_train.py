"""`planner zugzwang` does not offer the train the group just got off, and says what it left out."""

from __future__ import annotations

import json

from planner.cli import main
from tests.support import ZUG

DAY = ["--feed", str(ZUG), "--date", "2021-09-11"]


def zz(capsys, *argv: str) -> dict:
    assert main(["zugzwang", *DAY, *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_the_train_just_left_is_not_offered(capsys):
    # the IR70 from Luzern arrives at Zug 12:28 and leaves again 12:29 for Zürich HB
    out = zz(capsys, "--at", "Zug", "--time", "12:28")
    assert [(d["route"], d["departure"]) for d in out["excluded"]] == [("IR70", "12:29")]
    assert ("IR70", "12:29") not in [(d["route"], d["departure"]) for d in out["departures"]]
    # catchable trains first, then the ones leaving too soon
    flags = [d["catchable"] for d in out["departures"]]
    assert flags == sorted(flags, reverse=True) and flags[0]


def test_a_named_train_is_excluded_by_name_and_nothing_is_guessed(capsys):
    # the group names the train it left by its time at Zug: its arrival (12:28) or its departure (12:29) there
    for ref in ("IR70 12:28 Zürich HB", "IR70 12:29"):
        out = zz(capsys, "--at", "Zug", "--time", "12:28", "--trip", ref)
        assert "excluded" not in out
        assert "IR70" not in [d["route"] for d in out["departures"] if d["departure"] == "12:29"]
    # its time at its first stop (Luzern 12:09) is not its time at Zug: no train is guessed
    assert main(["zugzwang", *DAY, "--at", "Zug", "--time", "12:28", "--trip", "IR70 12:09 Zürich HB"]) == 2
    assert "no IR70 calls at Zug at 12:09" in capsys.readouterr().err
