"""The published answer contract: ``planner schema`` prints the JSON Schema of every answer, generated from the
answer types; ``docs/schema`` holds the same files; real answers of real commands on the Zug day (and of the web
API, see tests/conftest.py) validate against them, and an answer that breaks its type is caught."""

from __future__ import annotations

import json

import jsonschema
import msgspec
import pytest

from planner.cli import main
from planner.commands.schema import schema_text
from planner.service.answers import registry
from planner.service.answers.group_status import UndoAnswer
from tests.support import DAY, ROOT
from tests.support import answers as contract

DOCS = ROOT / "docs" / "schema"


def run_json(capsys, *argv: str):
    rc = main([*argv, *DAY, "--json"])
    cap = capsys.readouterr()
    assert rc == 0, cap.err
    return json.loads(cap.out)


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


def test_an_answer_that_breaks_its_type_is_caught():
    bad = UndoAnswer(group=7, removed=None, removed_position=None)  # type: ignore[arg-type]  # a Struct does not check
    with pytest.raises(AssertionError, match="breaks its schema at group"):
        contract.checked_encode(bad)
    with pytest.raises(AssertionError, match="time. was unexpected"):
        contract.check_json("undo", {"group": "A", "removed": 1, "removed_position": None, "time": "12:00"})
    assert msgspec.json.decode(contract.checked_encode(UndoAnswer(group="A", removed=1, removed_position=None)))


def test_the_suite_validates_what_the_adapters_encode(capsys):
    before = len(contract.checked)
    run_json(capsys, "zugzwang", "--at", "Zug", "--time", "12:40")
    assert contract.checked[before:] == ["zugzwang"]


def test_the_web_apis_answers_validate(web_server):
    """The phone's requests on a real server: each answer validates against the schema its route publishes."""
    import requests

    from tests.support.webserver import web_game

    g = web_game(web_server.env, "Rot,Blau")
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
