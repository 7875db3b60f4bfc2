"""Real answers of every command that answers with a published type, on the real Zug day, validate against the
published JSON Schemas (the contract itself: tests/project/test_answer_schema.py)."""

from __future__ import annotations

import json

import pytest

from planner.cli import main
from tests.support import DAY
from tests.support import answers as contract

pytestmark = pytest.mark.needs_shared  # reads ../shared (tests/project/test_suite_without_shared.py)


def run_json(capsys, *argv: str):
    rc = main([*argv, *DAY, "--json"])
    cap = capsys.readouterr()
    assert rc == 0, cap.err
    return json.loads(cap.out)


def test_real_answers_of_every_command_validate(capsys, tmp_path):
    """One group's day on the Zug extract through every command that answers with a published type."""
    got = {
        "roll": run_json(capsys, "roll", "--group", "A", "--dice", "2", "--at", "Zug", "--time", "12:40"),
        "next": run_json(capsys, "next", "--group", "A", "--time", "12:50"),
        "status": run_json(capsys, "group", "status", "--group", "A", "--time", "12:50"),
        "position": run_json(capsys, "group", "position", "--group", "B", "--at", "Baar", "--time", "12:21"),
        "groups": run_json(capsys, "group", "list", "--time", "12:50"),
        "undo": run_json(capsys, "group", "undo", "--group", "B"),
        "route": run_json(capsys, "route", "--from", "Zug", "--to", "Luzern", "--time", "12:40", "--within", "10"),
        "target": run_json(capsys, "target", "--at", "Zug", "--time", "12:40", "--roll", "6"),
        "zugzwang": run_json(capsys, "zugzwang", "--at", "Zug", "--time", "12:40"),
        "bonus": run_json(capsys, "bonus", "--group", "A", "--time", "12:50"),
        "tolls": run_json(capsys, "tolls", "--trip", "IR75 12:35 Zürich HB"),
        "advise": run_json(capsys, "advise", "--group", "A", "--time", "12:50"),
    }
    legs = tmp_path / "legs.csv"
    legs.write_text("from,to,departure,arrival\nZug,Rotkreuz,12:52,13:07\nRotkreuz,Wohlen AG,13:50,14:13\n")
    rc = main(["zugzwang", *DAY, "--check", str(legs), "--json"])
    got["zugzwang-check"] = json.loads(capsys.readouterr().out)
    assert rc == 1 and got["zugzwang-check"]["violations"]
    for name, data in got.items():
        contract.check_json(name, data)
    assert got["roll"]["rolled_at"] == got["roll"]["plan_from"] == "12:40"
    assert got["next"]["obligation"]["text"]["key"] == "obligation.heading"
    assert got["target"]["kind"] == "free" and got["tolls"]["crossings"]
