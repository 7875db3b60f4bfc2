"""Fuzzing (hypothesis, derandomized: the same cases every run) of what was once found unguarded: message templates
of the game file, rows of the state file edited by hand, and deeply nested JSON bodies sent to a real server.

Every outcome is an answer or one clear line (a 4xx with ``{"error"}`` on the web), never exit 3 or a 500."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
import requests
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from planner.cli import main
from planner.errors import GameFileError
from planner.gamefile.game import parse_game
from planner.ledger.messages import late_suffix, note, render
from planner.ledger.money_rules import MAX_MESSAGE, MESSAGE_FIELDS, check_template, ledger_rules
from planner.util.userfiles import parse_toml
from tests.support import ROOT, ZUG
from tests.support.webserver import free_port, serve, web_env, web_game

pytestmark = [pytest.mark.long, pytest.mark.needs_shared]  # one worker runs a module (--dist loadfile); this one early

DAY = ["--feed", str(ZUG), "--date", "2021-09-11"]
FUZZ = settings(derandomize=True, deadline=None, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
GAME_A = (ROOT / "planner" / "games" / "sbb-monopoly.toml").read_text("utf-8")


def _one_line(rc: int, err: str) -> None:
    assert rc in (0, 1, 2), (rc, err)
    if rc == 2:
        lines = [ln for ln in err.splitlines() if ln.strip()]
        assert len(lines) == 1 and lines[0].startswith("planner: error: "), err
    assert "internal error" not in err and "Traceback" not in err, err


# ---- message templates ------------------------------------------------------------------------------

_PIECES = st.sampled_from(["{", "}", "{{", "}}", ":", "!r", "!a", "!x", ".", "[0]", "__class__", ">", "<", "^", "0",
                           "9", "40", "41", "900000000", "d", "s", "x", ",", "%", " ", "K", "é", "\\n",
                           *(f"{{{f}}}" for f in ("group", "time", "name", "amount", "total", "items", "title",
                                                   "minutes", "penalty", "to", "0", "", "oops"))])
TEMPLATES = st.lists(_PIECES, max_size=14).map("".join)
_NOTE = {"owner": "Gelb und Blau", "time": "9.10", "seq": 12345, "what": "GelbK 9.10 Zürich HB",
         "reason": "r" * 200, "changes": "#9 4000 -> 2000, #10 8000 -> 4000"}
NOTES = {k: _NOTE for k in ("diceoff_note", "void", "void_changes")}  # told besides events (planner/ledger/messages.py)
VALUES = {"group": "3", "time": 9 * 3600 + 600, "name": "Zürich HB", "amount": 12000, "total": 5500,
          "items": "HH Aarau H Attiswil", "title": "Chance Geburtstag"}


@FUZZ
@given(kind=st.sampled_from(sorted(MESSAGE_FIELDS)), template=TEMPLATES)
def test_fuzzed_message_templates_are_refused_or_render(kind, template):
    """What the check lets through renders (with the values the ledger passes) and stays short; the game file
    loader refuses the rest naming the key."""
    doc = parse_toml(GAME_A, "game file g.toml")
    doc["ledger"]["messages"] = {**doc["ledger"]["messages"], kind: template}
    game = parse_game(doc, source="g.toml")
    why = check_template(kind, template)
    if why is not None:
        with pytest.raises(GameFileError, match=rf"game file g.toml: key 'ledger.messages.{kind}'"):
            ledger_rules(game)
        return
    rules = ledger_rules(game)
    if kind == "late":
        text = late_suffix(rules, 21, 400, "P")
    elif kind in NOTES:
        text = note(rules, kind, **{f: NOTES[kind][f] for f in MESSAGE_FIELDS[kind]})
    else:
        text = render(rules, kind, group="3", time=VALUES["time"], name=VALUES["name"], amount=VALUES["amount"],
                      total=VALUES["total"], items=VALUES["items"], title=VALUES["title"])
    assert len(text) <= MAX_MESSAGE + 100  # the values here are a little longer than the check's samples


@settings(FUZZ, max_examples=40)  # each example is a whole command
@given(template=TEMPLATES)
def test_fuzzed_income_messages_through_the_cli(template, tmp_path_factory, capsys):
    folder = tmp_path_factory.mktemp("msg")
    game = folder / "game.toml"
    text = GAME_A.replace('income = "{group} Honorar {amount}"', "income = " + _toml_string(template), 1)
    game.write_text(text, "utf-8")
    rc = main(["ledger", "income", "--group", "1", "--time", "11:00", *DAY, "--game", str(game)])
    _one_line(rc, capsys.readouterr().err)


def _toml_string(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


# ---- rows of the state file edited by hand -------------------------------------------------------------

@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> Path:
    """A state file with rolls, a position report and ledger events of two groups (the web part too)."""
    import os

    path = tmp_path_factory.mktemp("fuzzstate") / "groups.sqlite"
    old = os.environ.get("PLANNER_STATE")
    os.environ["PLANNER_STATE"] = str(path)
    try:
        for argv in (["roll", "--group", "1", "--dice", "2", "--at", "Zug", "--time", "12:40"],
                     ["group", "position", "--group", "2", "--at", "Baar", "--time", "13:00"],
                     ["roll", "--group", "2", "--dice", "6", "--time", "13:05"],
                     ["ledger", "buy", "--group", "1", "--station", "Zug", "--time", "10:00"],
                     ["ledger", "pay", "--group", "2", "--station", "Zug", "--time", "10:30"],
                     ["ledger", "income", "--group", "2", "--time", "11:00"]):
            assert main([*argv, *DAY, "--json"]) == 0, argv
    finally:
        if old is None:
            os.environ.pop("PLANNER_STATE")
        else:
            os.environ["PLANNER_STATE"] = old
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path


COLUMNS = {
    "rolls": ["seq", "time_s", "dice", "kind", "target", "free_until", "position", "roll_id", "request", "answer",
              "plan", "grp"],
    "positions": ["time_s", "station", "trip_id", "stop_offset", "label"],
    "groups": ["name", "version"],
    "ledger_events": ["seq", "grp", "kind", "time_s", "event", "amount", "message", "tell", "pending", "transfers"],
}
SQL_VALUES = st.one_of(
    st.sampled_from([None, 0, -1, 1, 2, 7, 36000, 2**62, -2**62, 3.5, float("inf"), "", "noon", "not json", "[1,2",
                     "[]", "[7]", "[1,2,3]", "[true]", "{}", "null", "true", '"x"', "[[[[[[[[", "[" * 5000,
                     '{"rides": 5}', '{"rides": [["x", 5, 2]]}', '{"rides": [["x", 0, 99999]]}',
                     '{"origin": {"station": 5}}', '{"origin": {"station": "8502204", "since": 1, "offset": 10**9}}',
                     '{"kind": "buy", "group": "1", "time": "x"}', '{"kind": "fee", "group": "1", "time": 36000}',
                     '{"kind": "build", "group": "1", "time": 36000, "levels": [["Zug", 99]]}',
                     '{"kind": "parking", "group": "1", "time": 36000, "reason": "nope"}',
                     '{"kind": "card", "group": "2", "time": 36000, "card": "nope"}',
                     '{"kind": "join", "group": "9", "time": 32400}', '[["1", "bank", "x"]]', "target", "free",
                     "Zug", "x" * 10_000, b"\x00\xff", "8502204"]),
    st.integers(min_value=-2**63, max_value=2**63 - 1), st.text(max_size=30))
COMMANDS = [["group", "status", "--group", "1"], ["group", "list"], ["next", "--group", "2", "--time", "14:00"],
            ["ledger", "status"], ["ledger", "feed", "--group", "2"], ["ledger", "end"],
            ["roll", "--group", "1", "--dice", "3", "--time", "16:00"],
            ["ledger", "buy", "--group", "2", "--station", "Baar", "--time", "16:30"],
            ["group", "undo", "--group", "2"]]


@settings(FUZZ, max_examples=60)  # each example runs two or three whole commands
@given(table=st.sampled_from(sorted(COLUMNS)), data=st.data(), which=st.integers(0, 3),
       commands=st.lists(st.sampled_from(range(len(COMMANDS))), min_size=2, max_size=3, unique=True))
def test_fuzzed_state_rows_are_answered_or_one_line(table, data, which, commands, recorded, tmp_path_factory,
                                                    monkeypatch, capsys):
    column = data.draw(st.sampled_from(COLUMNS[table]), label="column")
    value = data.draw(SQL_VALUES, label="value")
    path = tmp_path_factory.mktemp("edited") / "groups.sqlite"
    path.write_bytes(recorded.read_bytes())
    conn = sqlite3.connect(path)
    conn.executescript("DROP TRIGGER ledger_events_no_update; DROP TRIGGER ledger_events_no_delete;")
    try:
        conn.execute(f"UPDATE {table} SET {column} = ? WHERE rowid = (SELECT rowid FROM {table} "  # noqa: S608
                     f"ORDER BY rowid LIMIT 1 OFFSET ?)", (value, which))
        conn.commit()
    except sqlite3.IntegrityError:  # NOT NULL, CHECK, UNIQUE: SQLite itself refuses that edit
        conn.rollback()
    conn.close()
    monkeypatch.setenv("PLANNER_STATE", str(path))
    for i in commands:
        rc = main([*COMMANDS[i], *DAY])
        _one_line(rc, capsys.readouterr().err)


# ---- deeply nested JSON bodies -----------------------------------------------------------------------

@pytest.fixture(scope="module")
def server(tmp_path_factory, session_cache):
    folder = tmp_path_factory.mktemp("fuzzweb")
    env = web_env(folder, cache=session_cache)
    port = free_port()
    game = web_game(env, "Rot,Blau", base=f"http://127.0.0.1:{port}")
    with serve(env, "--rate-limit", "1000", port=port) as srv:
        yield srv.url, game


def _nest(depth: int, opener: str, leaf: str) -> str:
    closer = {"[": "]", '{"a":': "}", '{"dice":': "}", '{"at":': "}"}
    return opener * depth + leaf + closer[opener] * depth


BODIES = st.one_of(
    st.builds(_nest, st.integers(1, 2040), st.sampled_from(["[", '{"a":', '{"dice":', '{"at":']),
              st.sampled_from(["1", '"Zug"', "null", "[]", "{}", ""])),
    st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=8)),
                 lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
                     st.sampled_from(["dice", "at", "time", "trip", "roll_id", "x"]), inner, max_size=3),
                 max_leaves=40).map(lambda v: __import__("json").dumps(v)))


@FUZZ
@given(body=BODIES, endpoint=st.sampled_from(["/rolls", "/position", "/undo"]))
def test_fuzzed_nested_bodies_are_4xx_never_500(body, endpoint, server):
    url, game = server
    data = body.encode()[:4096]
    r = requests.post(f"{url}/api/games/{game['game']}/groups/1{endpoint}", data=data, timeout=120,
                      headers={"Authorization": f"Bearer {game['groups'][0]['token']}",
                               "Content-Type": "application/json"})
    assert r.status_code < 500, (r.status_code, r.text, data[:80])
    if r.status_code >= 400:
        assert isinstance(r.json()["error"], str) and r.json()["error"]
