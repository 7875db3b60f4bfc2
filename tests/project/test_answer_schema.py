"""The published answer contract: ``planner schema`` prints the JSON Schema of every answer, generated from the
answer types; ``docs/schema`` holds the same files; answers of the adapters and of the web API (see
tests/conftest.py) on the demo day written inline validate against them, and an answer that breaks its type is
caught. Every command's answer on the real Zug day: tests/project/test_answer_schema_real.py."""

from __future__ import annotations

import json

import jsonschema
import msgspec
import pytest

from planner.cli import main
from planner.commands.schema import schema_text
from planner.service.answers import registry
from planner.service.answers.group_status import UndoAnswer
from tests.support import ROOT
from tests.support import answers as contract
from tests.support.inline_day import day_argv, demo_day

DOCS = ROOT / "docs" / "schema"


def test_the_committed_schemas_are_the_codes(capsys):
    assert sorted(p.stem for p in DOCS.glob("*.json")) == sorted(registry.ANSWERS)
    for name in registry.ANSWERS:
        assert (DOCS / f"{name}.json").read_text("utf-8") == schema_text(name), (
            f"docs/schema/{name}.json differs from the code: run 'planner schema --write docs/schema'")


def test_planner_schema_lists_prints_and_refuses(capsys):
    assert main(["schema"]) == 0
    listed = [line.split()[0] for line in capsys.readouterr().out.splitlines()]
    assert listed == list(registry.ANSWERS)
    assert main(["schema", "roll"]) == 0
    roll = json.loads(capsys.readouterr().out)
    jsonschema.Draft202012Validator.check_schema(roll)
    assert {"rolled_at", "plan_from"} <= set(roll["$defs"]["RollAnswer"]["required"])
    assert "time" not in roll["$defs"]["RollAnswer"]["properties"]  # it meant two things: split
    assert main(["schema", "--all"]) == 0
    assert set(json.loads(capsys.readouterr().out)) == set(registry.ANSWERS)
    assert main(["schema", "rolls"]) == 2
    assert "no answer 'rolls'" in capsys.readouterr().err


def test_an_answer_that_breaks_its_type_is_caught():
    bad = UndoAnswer(group=7, removed=None, removed_position=None)  # type: ignore[arg-type]  # a Struct does not check
    with pytest.raises(AssertionError, match="breaks its schema at group"):
        contract.checked_encode(bad)
    with pytest.raises(AssertionError, match="time. was unexpected"):
        contract.check_json("undo", {"group": "A", "removed": 1, "removed_position": None, "time": "12:00"})
    assert msgspec.json.decode(contract.checked_encode(UndoAnswer(group="A", removed=1, removed_position=None)))


def test_the_suite_validates_what_the_adapters_encode(capsys, tmp_path):
    before = len(contract.checked)
    rc = main(["zugzwang", *day_argv(demo_day(tmp_path)), "--at", "Zug", "--time", "12:40", "--json"])
    assert rc == 0 and json.loads(capsys.readouterr().out)
    assert contract.checked[before:] == ["zugzwang"]


def test_the_web_apis_answers_validate(web_server, tmp_path):
    """The phone's requests on a real server: each answer validates against the schema its route publishes."""
    import requests

    from tests.support.webserver import web_game

    g = web_game(web_server.env, "Rot,Blau", day=day_argv(demo_day(tmp_path)))
    api = f"{web_server.url}/api/games/{g['game']}/groups/1"
    auth = {"Authorization": f"Bearer {g['groups'][0]['token']}"}
    got = {
        "position": requests.post(api + "/position", json={"at": "Zug", "time": "12:35"}, headers=auth),
        "zugzwang": requests.get(api + "/trains", headers=auth),
        "roll": requests.post(api + "/rolls", json={"dice": 2, "time": "12:40", "roll_id": "schema-01"},
                              headers=auth),
        "next": requests.get(api + "/next?time=12:50", headers=auth),
        "group-page": requests.get(api + "?time=12:50", headers=auth),
        "undo": requests.post(api + "/undo", json={}, headers=auth),
        "error": requests.post(api + "/rolls", json={"dice": 9, "time": "12:41"}, headers=auth),
    }
    for name, r in got.items():
        assert r.status_code == (422 if name == "error" else 200), (name, r.text)
        if name != "error":  # the route publishes the answer it gives
            assert contract.answer_of(r.request.method, r.request.path_url.split("?")[0]) == name
        contract.check_json(name, r.json())
    assert got["group-page"].json()["last"]["rolled_at"] == "12:40"
