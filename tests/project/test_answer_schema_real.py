"""Real answers of every command that answers with a published type, on a game day, validate against the published
JSON Schemas (the contract itself: tests/project/test_answer_schema.py). The day is the real-time demo's, written
here (tests/support/inline_day.py: S1 Baar :01 - Zug :06 - Rotkreuz :19, S26 Rotkreuz :23 - Wohlen AG :50, IR70
Zug :29 - Rotkreuz :37 - Luzern :50, S9), its toll line Luzern–Rotkreuz decided on Zug's piece of the line data."""

from __future__ import annotations

import json

import pytest

from planner.cli import main
from tests.support import answers as contract
from tests.support.inline_day import day_argv, demo_day, write_lines


@pytest.fixture
def day(tmp_path, monkeypatch) -> list[str]:
    monkeypatch.setenv("PLANNER_RAIL_CSV", str(write_lines(tmp_path / "lines")))
    return day_argv(demo_day(tmp_path))


def test_real_answers_of_every_command_validate(capsys, tmp_path, day):
    """One group's day through every command that answers with a published type."""

    def run_json(*argv: str):
        rc = main([*argv, *day, "--json"])
        cap = capsys.readouterr()
        assert rc == 0, cap.err
        return json.loads(cap.out)

    got = {
        "roll": run_json("roll", "--group", "A", "--dice", "2", "--at", "Zug", "--time", "12:40"),
        "next": run_json("next", "--group", "A", "--time", "12:50"),
        "status": run_json("group", "status", "--group", "A", "--time", "12:50"),
        "position": run_json("group", "position", "--group", "B", "--at", "Baar", "--time", "12:21"),
        "groups": run_json("group", "list", "--time", "12:50"),
        "undo": run_json("group", "undo", "--group", "B"),
        "route": run_json("route", "--from", "Zug", "--to", "Luzern", "--time", "12:40", "--within", "10"),
        "target": run_json("target", "--at", "Zug", "--time", "12:40", "--roll", "6"),
        "zugzwang": run_json("zugzwang", "--at", "Zug", "--time", "12:40"),
        "bonus": run_json("bonus", "--group", "A", "--time", "12:50"),
        "tolls": run_json("tolls", "--trip", "IR70 12:29 Luzern"),
        "advise": run_json("advise", "--group", "A", "--time", "12:50"),
    }
    legs = tmp_path / "legs.csv"  # the S26 13:53 is 34 minutes after getting off at Rotkreuz: a violation
    legs.write_text("from,to,departure,arrival\nZug,Rotkreuz,13:06,13:19\nRotkreuz,Wohlen AG,13:53,14:20\n")
    rc = main(["zugzwang", *day, "--check", str(legs), "--json"])
    got["zugzwang-check"] = json.loads(capsys.readouterr().out)
    assert rc == 1 and got["zugzwang-check"]["violations"]
    for name, data in got.items():
        contract.check_json(name, data)
    assert got["roll"]["rolled_at"] == got["roll"]["plan_from"] == "12:40"
    assert (got["roll"]["target"], got["roll"]["arrival"]) == ("Wohlen AG", "13:50")
    assert got["next"]["obligation"]["text"]["key"] == "obligation.heading"
    assert got["target"]["kind"] == "free" and got["tolls"]["crossings"]
