"""The state database of a group's day (issue 10): versions, stale commits, positions, folded names,
stored answers, the shared part registry, and the migration of a planner-0.1 file."""

from __future__ import annotations

import sqlite3

import pytest

from planner.errors import InputError, PlannerError
from planner.store.db import StateDB, ensure_part
from planner.store.groups import GroupStore, Roll, StaleGroup, group_key

GAME, DATE = "sbb-monopoly", "2021-09-11"


def _roll(t: int, target: str, **kw) -> Roll:
    return Roll(time=t, dice=(2,), kind="target", target=target, **kw)


def test_commit_checks_the_version_and_keeps_the_answer_text(tmp_path):
    with GroupStore(tmp_path / "s.sqlite") as store:
        snap = store.snapshot(GAME, DATE, "Team Rot")
        assert (snap.version, snap.rolls, snap.name) == (0, (), "Team Rot")
        store.add_position(GAME, DATE, "team rot", 100, "Zug", label="at Zug")  # another phone, meanwhile
        with pytest.raises(StaleGroup):
            store.commit_roll(GAME, DATE, "Team Rot", _roll(110, "Baar", answer='{"a": 1}'), snap.version)
        snap = store.snapshot(GAME, DATE, "TEAM ROT")
        rec = store.commit_roll(GAME, DATE, "Team Rot", _roll(110, "Baar", answer='{"a":  1}', roll_id="x",
                                                              request="r1"), snap.version)
        assert rec.answer == '{"a":  1}' and store.find_roll("x").answer == '{"a":  1}'
        # a retry with the same id and inputs gets the first record even at a newer version
        again = store.commit_roll(GAME, DATE, "Team Rot", _roll(110, "Baar", roll_id="x", request="r1"), 99)
        assert again == rec
        with pytest.raises(InputError, match="other inputs"):
            store.commit_roll(GAME, DATE, "Team Rot", _roll(110, "Baar", roll_id="x", request="r2"), 99)
        assert store.snapshot(GAME, DATE, "team rot").version == 2
        assert store.group_names(GAME, DATE) == {"team rot": "team rot"}  # the spelling first written


def test_undo_removes_the_latest_entry_of_either_kind(tmp_path):
    with GroupStore(tmp_path / "s.sqlite") as store:
        store.record_roll(GAME, DATE, "g", _roll(100, "Baar"))
        store.add_position(GAME, DATE, "g", 200, "Zug", "trip-1", 3, "in S1")
        assert store.undo_last(GAME, DATE, "G").station == "Zug"
        assert store.undo_last(GAME, DATE, "G").target == "Baar"
        assert store.undo_last(GAME, DATE, "G") is None
        assert store.groups(GAME, DATE) == []


def test_group_keys_fold_case_accents_and_spaces():
    assert group_key("Team Röt") == group_key("team  rot") == group_key(" TEAM ROT ") == "team rot"
    with pytest.raises(InputError):
        group_key("  ")


def test_other_parts_share_the_file(tmp_path):
    path = tmp_path / "s.sqlite"
    with GroupStore(path) as store:
        store.record_roll(GAME, DATE, 1, _roll(1, "Zug"))
    db = StateDB(path)
    ensure_part(db, "ledger", 1, "CREATE TABLE ledger (id INTEGER PRIMARY KEY, amount INTEGER)")
    with db.write() as conn:
        conn.execute("INSERT INTO ledger (amount) VALUES (4000)")
    assert db.read("SELECT amount FROM ledger") == [(4000,)]
    ensure_part(db, "ledger", 1, "CREATE TABLE ledger (x)")  # already there: nothing to do
    with pytest.raises(PlannerError, match="newer planner"):
        ensure_part(db, "groups", 1, "")
    db.close()
    with GroupStore(path) as store:
        assert store.targeted(GAME, DATE, 1) == ["Zug"]


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


def test_a_planner_0_1_file_is_migrated(tmp_path):
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as raw:
        raw.executescript(V1)
        raw.execute("INSERT INTO rolls (game, date, grp, seq, time_s, dice, kind, target, created_at) "
                    "VALUES (?, ?, 'Team Rot', 1, 45600, '[2]', 'target', 'Wohlen AG', 'then')", (GAME, DATE))
        raw.execute("PRAGMA application_id = 1396851280")
        raw.execute("PRAGMA user_version = 1")
    with GroupStore(path) as store:
        assert store.targeted(GAME, DATE, "team rot") == ["Wohlen AG"]
        snap = store.snapshot(GAME, DATE, "Team Rot")
        assert snap.name == "Team Rot" and snap.version == 1 and snap.rolls[0].answer is None
        store.record_roll(GAME, DATE, "TEAM ROT", _roll(46000, "Zug"))
        assert [r.seq for r in store.history(GAME, DATE, "team rot")] == [1, 2]
