"""The state database's parts and keys: stored answers kept byte for byte, folded group names, parts with tables
(and triggers) of their own, and the migration of the first planner's file (rolls only)."""

from __future__ import annotations

import sqlite3

import pytest

from planner.errors import InputError, PlannerError
from planner.store.db import StateDB
from planner.store.games import GameGroup, GameRecord
from planner.store.parts import ensure_part
from planner.store.records import Roll, StaleGroup, group_key, implicit_id
from planner.store.state import State

GAME, DATE = "sbb-monopoly", "2021-09-11"
DAY = GameRecord(implicit_id(GAME, DATE), "day", None, GAME, DATE, True, ())


def _roll(t: int, target: str, **kw) -> Roll:
    return Roll(time=t, dice=(2,), kind="target", target=target, **kw)


def test_a_commit_checks_the_version_and_keeps_the_answer_text(tmp_path):
    rot = GameGroup(group_key("Team Rot"), 0, "Team Rot")
    with State(tmp_path / "s.sqlite") as state:
        snap = state.groups.snapshot(DAY.id, rot)
        state.groups.add_position(DAY, rot, 100, 100, "Zug", label="at Zug")  # another phone, meanwhile
        with pytest.raises(StaleGroup):
            state.groups.commit_roll(DAY, rot, _roll(110, "Baar", answer='{"a": 1}'), snap.version)
        snap = state.groups.snapshot(DAY.id, rot)
        rec = state.groups.commit_roll(DAY, rot, _roll(110, "Baar", answer='{"a":  1}', roll_id="x", request="r1"),
                                       snap.version)
        assert rec.answer == '{"a":  1}' and state.groups.find_roll(DAY.id, rot, "x").answer == '{"a":  1}'
        again = state.groups.commit_roll(DAY, rot, _roll(110, "Baar", roll_id="x", request="r1"), 99)
        assert again == rec  # a retry: the first record, whatever the version
        with pytest.raises(InputError, match="other inputs"):
            state.groups.commit_roll(DAY, rot, _roll(110, "Baar", roll_id="x", request="r2"), 99)
        assert state.groups.snapshot(DAY.id, rot).version == 2
        assert [g.name for g in state.games.get(DAY.id).groups] == ["Team Rot"]  # the spelling first written


def test_group_keys_fold_case_accents_and_spaces():
    assert group_key("Team Röt") == group_key("team  rot") == group_key(" TEAM ROT ") == "team rot"
    with pytest.raises(InputError):
        group_key("  ")


def test_other_parts_share_the_file(tmp_path):
    path = tmp_path / "s.sqlite"
    with State(path) as state:
        state.groups.commit_roll(DAY, GameGroup("1", 0, "1"), _roll(1, "Zug"), 0)
    db = StateDB(path)
    ensure_part(db, "notes", 1, "CREATE TABLE notes (id INTEGER PRIMARY KEY, amount INTEGER)")
    with db.write() as conn:
        conn.execute("INSERT INTO notes (amount) VALUES (4000)")
    assert db.read("SELECT amount FROM notes") == [(4000,)]
    ensure_part(db, "notes", 1, "CREATE TABLE notes (x)")  # already there: nothing to do
    with pytest.raises(PlannerError, match="newer planner"):
        ensure_part(db, "game", 0, "")
    db.close()
    with State(path) as state:
        assert [r.target for r in state.groups.snapshot(DAY.id, GameGroup("1", 0, "1")).rolls] == ["Zug"]


def test_a_part_may_have_triggers(tmp_path):
    # a trigger's body holds a ';' of its own: the DDL is split where a statement ends, not at every ';'
    db = StateDB(tmp_path / "s.sqlite")
    ensure_part(db, "notes", 1, "CREATE TABLE notes (x);\n"
                "CREATE TRIGGER notes_keep BEFORE DELETE ON notes BEGIN SELECT RAISE(ABORT, 'kept'); END;\n")
    with db.write() as conn:
        conn.execute("INSERT INTO notes VALUES (1)")
    with pytest.raises(PlannerError, match="kept"), db.write() as conn:  # the trigger exists and fires
        conn.execute("DELETE FROM notes")
    assert db.read("SELECT x FROM notes") == [(1,)]
    db.close()


V1 = """
CREATE TABLE rolls (
    id INTEGER PRIMARY KEY, game TEXT NOT NULL, date TEXT NOT NULL, grp TEXT NOT NULL,
    seq INTEGER NOT NULL CHECK (seq >= 1), time_s INTEGER NOT NULL, dice TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('target', 'free')), target TEXT, free_until INTEGER, position TEXT,
    created_at TEXT NOT NULL, roll_id TEXT UNIQUE, UNIQUE (game, date, grp, seq));
"""


def test_a_file_of_the_first_planner_is_migrated(tmp_path):
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as raw:
        raw.executescript(V1)
        raw.execute("INSERT INTO rolls (game, date, grp, seq, time_s, dice, kind, target, created_at) "
                    "VALUES (?, ?, 'Team Rot', 1, 45600, '[2]', 'target', 'Wohlen AG', 'then')", (GAME, DATE))
        raw.execute("PRAGMA application_id = 1396851280")
        raw.execute("PRAGMA user_version = 1")
    with State(path) as state:
        game = state.games.get(DAY.id)
        rot = game.group("team rot")
        snap = state.groups.snapshot(DAY.id, rot)
        assert rot.name == "Team Rot" and snap.version == 1 and snap.rolls[0].answer is None
        assert [r.target for r in snap.rolls] == ["Wohlen AG"]
        state.groups.commit_roll(game, rot, _roll(46000, "Zug"), snap.version)
        assert [r.seq for r in state.groups.snapshot(DAY.id, rot).rolls] == [1, 2]
