"""Faults of the state file: a reused ledger event id, another program's database, read-only commands,
rows edited by hand, the write lock. Real SQLite files, the real CLI on a Zug day (the real-time demo's, written in
tests/support/inline_day.py)."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from planner.cli import main
from planner.gamefile.game import load_game
from planner.ledger.model import Event
from planner.ledger.money_rules import ledger_rules
from planner.store.games import GameGroup, GameRecord
from planner.store.records import implicit_id
from planner.store.state import State
from tests.support import assert_one_line_error
from tests.support.inline_day import day_argv, demo_day

DAY: list[str] = []  # the real-time demo's day (tests/support/inline_day.py), written by the fixture below


@pytest.fixture(scope="module", autouse=True)
def _demo_day(tmp_path_factory, session_cache):
    with pytest.MonkeyPatch.context() as mp:  # (module fixtures come before the tests' own cache)
        mp.setenv("PLANNER_CACHE", str(session_cache))
        DAY[:] = day_argv(demo_day(tmp_path_factory.mktemp("demo-day")))
    yield
    DAY.clear()
A = ledger_rules(load_game("sbb-monopoly"))
GAME = GameRecord(implicit_id("sbb-monopoly", "2021-09-11"), "day", None, "sbb-monopoly", "2021-09-11", True, ())
ONE, TWO = GameGroup("1", 0, "1"), GameGroup("2", 0, "2")


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main([*argv, *DAY])
    cap = capsys.readouterr()
    return rc, cap.out, cap.err


def test_a_ledger_event_id_of_one_group_never_swallows_another_groups_event(capsys):
    """The payment of group 2 under group 1's event id is recorded (it was swallowed: exit 0, group 1's message);
    the same group's other event under the id is refused naming the first; a true retry is the first record."""
    rc, out, _ = cli(capsys, "ledger", "buy", "--group", "1", "--station", "Zug", "--time", "10:00",
                     "--reported", "10:00", "--event-id", "ev-1")
    assert rc == 0 and out.startswith("1K 10.00 Zug")
    rc, out, _ = cli(capsys, "ledger", "pay", "--group", "2", "--station", "Zug", "--time", "10:30",
                     "--event-id", "ev-1", "--json")
    assert rc == 0 and json.loads(out)["transfers"] == [["2", "1", json.loads(out)["amount"]]]
    rc, _, err = cli(capsys, "ledger", "buy", "--group", "1", "--station", "Baar", "--time", "10:40",
                     "--event-id", "ev-1")
    assert_one_line_error(rc, err, "event id 'ev-1'", "event #2 of group 1", "1K 10.00 Zug")
    rc, out, _ = cli(capsys, "ledger", "buy", "--group", "1", "--station", "Zug", "--time", "10:00",
                     "--reported", "10:00", "--event-id", "ev-1", "--json")
    assert rc == 0 and json.loads(out)["seq"] == 2
    with State() as state:
        kinds = [(r.event.kind, r.event.group) for r in state.ledger.events(A, GAME.id)]
    assert kinds == [("join", "1"), ("buy", "1"), ("join", "2"), ("fee", "2")]


def _foreign(path: Path) -> str:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (x TEXT)")
    conn.execute("INSERT INTO notes VALUES ('mine')")
    conn.commit()
    conn.close()
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("argv", [["group", "list"], ["ledger", "buy", "--group", "1", "--station", "Zug",
                                                      "--time", "10:00"],
                                  ["roll", "--group", "1", "--dice", "2", "--at", "Zug", "--time", "12:40"]])
def test_another_programs_sqlite_file_is_refused_before_any_byte_changes(argv, tmp_path, monkeypatch, capsys):
    path = tmp_path / "other.db"
    before = _foreign(path)
    monkeypatch.setenv("PLANNER_STATE", str(path))
    rc, _, err = cli(capsys, *argv)
    assert_one_line_error(rc, err, "another program")
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before  # still in its own journal mode
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.db"]  # no -wal, no -shm


@pytest.mark.parametrize("argv", [["ledger", "status"], ["roll", "--group", "1", "--dice", "2", "--at", "Zug",
                                                        "--time", "12:40"]], ids=["a read", "a write"])
@pytest.mark.parametrize("kind", ["FIFO", "/dev/zero", "folder"])
def test_a_state_path_that_is_a_pipe_or_device_is_refused_not_read(kind, argv, tmp_path):
    """In a fresh process with a deadline: a reader opening a FIFO waits for a writer for good."""
    path = {"FIFO": tmp_path / "state.fifo", "/dev/zero": Path("/dev/zero"), "folder": tmp_path}[kind]
    if kind == "FIFO":
        os.mkfifo(path)
    p = subprocess.run([sys.executable, "-m", "planner", *argv, *DAY], capture_output=True, text=True, timeout=120,
                       env={**os.environ, "PLANNER_STATE": str(path)})
    assert_one_line_error(p.returncode, p.stderr, str(path), "not a regular file")


READ_ONLY = {
    "group list": ["group", "list"],
    "group status": ["group", "status", "--group", "1"],
    "next": ["next", "--group", "1", "--time", "13:00"],
    "ledger status": ["ledger", "status"],
    "ledger end": ["ledger", "end"],
    "ledger feed": ["ledger", "feed", "--group", "1"],
    "route --group": ["route", "--from", "Zug", "--to", "Luzern", "--time", "10:00", "--group", "1"],
    "bonus --group": ["bonus", "--at", "Zug", "--time", "10:00", "--group", "1"],
}


@pytest.mark.parametrize("name", list(READ_ONLY))
def test_read_only_commands_create_no_state_file_or_folder(name, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PLANNER_STATE", str(tmp_path / "state" / "sub" / "groups.sqlite"))
    rc, _, err = cli(capsys, *READ_ONLY[name])
    assert rc == 0, err
    assert list(tmp_path.iterdir()) == []


# ---- rows edited by hand ------------------------------------------------------------------------------

EDITS = {
    "rolls.dice not JSON": "UPDATE rolls SET dice = 'not json'",
    "rolls.dice [9]": "UPDATE rolls SET dice = '[9]'",
    "rolls.time_s 'noon'": "UPDATE rolls SET time_s = 'noon'",
    "rolls.plan a bad ride": "UPDATE rolls SET plan = '{\"rides\": [[1, 2]]}'",
    "rolls.answer not JSON": "UPDATE rolls SET answer = '{'",
    "groups.version 'x'": "UPDATE groups SET version = 'x'",
    "ledger_events.event '[1,2'": "DROP TRIGGER ledger_events_no_update; UPDATE ledger_events SET event = '[1,2'",
    "ledger_events.event unknown field": "DROP TRIGGER ledger_events_no_update; "
                                         "UPDATE ledger_events SET event = '{\"kind\": \"buy\", \"x\": 1}'",
    "ledger_events.transfers 7": "DROP TRIGGER ledger_events_no_update; UPDATE ledger_events SET transfers = '7'",
    "ledger_events: a fee nobody owes": "DROP TRIGGER ledger_events_no_update; UPDATE ledger_events SET event = "
                                        "'{\"kind\": \"fee\", \"group\": \"1\", \"time\": 36000, "
                                        "\"target\": \"station\", \"name\": \"Zug\"}' WHERE kind = 'buy'",
}
COMMANDS = {
    "group status": ["group", "status", "--group", "1"],
    "next": ["next", "--group", "1", "--time", "14:00"],
    "roll": ["roll", "--group", "1", "--dice", "3", "--time", "16:00"],
    "ledger status": ["ledger", "status"],
    "ledger feed": ["ledger", "feed", "--group", "2"],
    "ledger buy": ["ledger", "buy", "--group", "2", "--station", "Baar", "--time", "16:30"],
}


@pytest.fixture(scope="module")
def recorded_day(tmp_path_factory, _demo_day) -> Path:
    """A state file with a roll of group 1 and its purchase of Zug."""
    path = tmp_path_factory.mktemp("day") / "groups.sqlite"
    env = {"PLANNER_STATE": str(path)}
    old = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        assert main(["roll", "--group", "1", "--dice", "2", "--at", "Zug", "--time", "12:40", *DAY, "--json"]) == 0
        assert main(["ledger", "buy", "--group", "1", "--station", "Zug", "--time", "10:00", *DAY]) == 0
    finally:
        for k, v in old.items():
            os.environ.pop(k) if v is None else os.environ.__setitem__(k, v)
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize("edit", list(EDITS))
def test_state_rows_edited_by_hand_are_one_line_errors(edit, command, recorded_day, tmp_path, monkeypatch,
                                                       capsys):
    path = tmp_path / "groups.sqlite"
    path.write_bytes(recorded_day.read_bytes())
    conn = sqlite3.connect(path)
    conn.executescript(EDITS[edit])
    conn.commit()
    conn.close()
    monkeypatch.setenv("PLANNER_STATE", str(path))
    rc, _, err = cli(capsys, *COMMANDS[command])
    touched = edit.split(".")[0].split(":")[0]
    reads_it = {"rolls": ("group", "next", "roll"), "groups": ("group", "next", "roll"),
                "ledger_events": ("ledger", "roll")}[touched]
    if command.startswith(reads_it):
        assert_one_line_error(rc, err, f"group state {path}", "edited by hand")
    else:
        assert rc in (0, 2) and "Traceback" not in err and "internal error" not in err, err


# ---- the write lock ---------------------------------------------------------------------------------

def test_the_ledger_checks_positions_outside_the_write_lock(tmp_path):
    """The position check routes (numba, a timetable): while it runs, other processes may still write."""
    path = tmp_path / "groups.sqlite"
    seen = []

    def check(state, events):
        other = sqlite3.connect(path, timeout=0, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")  # fails at once ("database is locked") while the lock is held
            other.execute("ROLLBACK")
            seen.append("free")
        except sqlite3.OperationalError as exc:
            seen.append(str(exc))
        finally:
            other.close()

    with State(path) as state:
        state.ledger.record(A, GAME, ONE, Event("buy", "1", 36000, target="station", name="Zug", price=4000,
                                                letter="Z"), check=check)
        assert [r.event.kind for r in state.ledger.events(A, GAME.id)] == ["join", "buy"]
    assert seen == ["free"]


def test_an_event_recorded_while_the_check_ran_is_checked_again(tmp_path):
    """Another process records between the check and the lock: the event is checked again on the new day."""
    path = tmp_path / "groups.sqlite"
    calls = []

    def check(state, events):
        calls.append(len(events))
        if len(calls) == 1:  # meanwhile group 2 buys Zug
            with State(path) as other:
                other.ledger.record(A, GAME, TWO, Event("buy", "2", 36000, target="station", name="Zug",
                                                        price=4000, letter="Z"))

    with State(path) as state:
        state.ledger.record(A, GAME, ONE, Event("income", "1", 36000))
        with pytest.raises(Exception, match="belongs to group 2"):
            state.ledger.record(A, GAME, ONE, Event("buy", "1", 36060, target="station", name="Zug", price=4000,
                                                    letter="Z"), check=check)
    assert calls == [2, 4]  # checked on the day as it was, then again with group 2's joining and purchase


def test_a_writer_waits_for_a_lock_held_longer_than_sqlites_busy_handler(tmp_path):
    """``BEGIN IMMEDIATE`` is retried with backoff until the store's own timeout, whatever SQLite's busy
    handler does (here it is switched off, as when a WAL reset answers "locked" at once)."""
    from planner.store.db import StateDB

    path = tmp_path / "groups.sqlite"
    db = StateDB(path, timeout=30)
    db.connect().execute("PRAGMA busy_timeout = 0")
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    released = threading.Event()

    def release():
        released.wait()
        holder.execute("COMMIT")

    t = threading.Thread(target=release)
    t.start()
    threading.Timer(0.3, released.set).start()
    with db.write() as conn:
        # the lock came only after the holder let go (SQLite alone would have answered "locked" at once)
        assert released.is_set()
        conn.execute("CREATE TABLE IF NOT EXISTS t (x)")
        conn.execute("INSERT INTO t VALUES (1)")
    t.join()
    assert holder.execute("SELECT x FROM t").fetchall() == [(1,)]  # committed, seen by the other connection
    holder.close()
    db.close()
