"""The state database (planner.store): games and their groups, each group's rolls and reports, idempotency,
concurrency, crash safety, clean errors, and the migration of a planner 0.1 file."""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import sqlite3
import time
from pathlib import Path

import pytest

from planner.errors import InputError, PlannerError
from planner.store.db import FILE_VERSION, default_state_path
from planner.store.games import GameGroup, GameRecord
from planner.store.records import Roll, StaleGroup, group_key, implicit_id
from planner.store.state import State

GAME, DATE = "sbb-monopoly", "2021-09-11"
IMPLICIT = GameRecord(implicit_id(GAME, DATE), f"{GAME} {DATE}", None, GAME, DATE, True, ())
CTX = mp.get_context("spawn")  # real, fresh processes (no inherited connections or locks)
BIG = "x" * 20_000  # position text spanning several pages, so a kill can land inside one write
FIXTURE = Path(__file__).parents[1] / "fixtures" / "state_v2" / "planner-0.1.sql"


def _group(name: str | int) -> GameGroup:
    return GameGroup(group_key(name), 0, str(name))


def _target(time_s: int, name: str, position: str = "Zug", **kw) -> Roll:
    return Roll(time=time_s, dice=(2,), kind="target", target=name, position=position, **kw)


def _commit(state: State, group, make, game: GameRecord = IMPLICIT):
    """Record the group's next roll as the use cases do: compute from a snapshot, commit with its version,
    compute again when another writer came in between."""
    g = group if isinstance(group, GameGroup) else _group(group)
    while True:
        snap = state.groups.snapshot(game.id, g)
        roll = make(snap) if callable(make) else make
        try:
            return state.groups.commit_roll(game, g, roll, snap.version)
        except StaleGroup:
            continue


def _targeted(state: State, group) -> list[str]:
    snap = state.groups.snapshot(IMPLICIT.id, _group(group))
    return list(dict.fromkeys(r.target for r in snap.rolls if r.kind == "target"))


def _history(state: State, group) -> list:
    return list(state.groups.snapshot(IMPLICIT.id, _group(group)).rolls)


# ---- child process bodies (module level: the spawn context imports them by name) ---------------------

def _worker(path: str, worker: int, n: int) -> None:
    """Record n rolls; each picks the first name of a shared pool that is not targeted yet."""
    with State(path, timeout=60) as state:
        for i in range(n):
            _commit(state, 1, lambda snap, i=i: Roll(time=12 * 3600 + i, dice=(worker % 6 + 1,), kind="target",
                                                     target=f"T{len(snap.rolls)}", position=f"w{worker}",
                                                     roll_id=f"w{worker}-{i}"))


def _writer_loop(path: str, big: bool) -> None:
    """Write rolls until killed."""
    with State(path, timeout=60) as state:
        i = 0
        while True:
            _commit(state, 1, lambda snap, i=i: Roll(time=i, dice=(i % 6 + 1,), kind="target",
                                                     target=f"T{len(snap.rolls)}", position=BIG if big else "p"))
            i += 1


def _stuck_in_transaction(path: str, inside) -> None:
    """Hold the write lock with an uncommitted roll (the parent kills us meanwhile)."""
    with State(path) as state:
        state.groups.snapshot(IMPLICIT.id, _group(1))  # tables exist
        with state.db.write() as conn:
            conn.execute("INSERT INTO rolls (game_id, grp, seq, time_s, dice, kind, target, created_at) "
                         "VALUES (?, '1', 99, 1, '[3]', 'target', 'Uncommitted', 'now')", (IMPLICIT.id,))
            inside.set()
            time.sleep(120)


# ---- games and groups ---------------------------------------------------------------------------------

def test_default_path_follows_env(tmp_path, monkeypatch):
    monkeypatch.setenv("PLANNER_STATE", str(tmp_path / "s.sqlite"))
    assert default_state_path() == tmp_path / "s.sqlite"
    with State() as state:
        _commit(state, 1, _target(100, "Zug"))
    assert (tmp_path / "s.sqlite").is_file()


def test_a_read_of_a_missing_state_creates_nothing(tmp_path):
    path = tmp_path / "sub" / "groups.sqlite"
    with State(path) as state:
        assert state.games.games() == [] and state.games.get("x") is None
        assert state.groups.snapshot(IMPLICIT.id, _group("Rot")).rolls == ()
    assert not path.parent.exists()


def test_a_created_game_has_its_groups_and_only_they_may_write(tmp_path):
    with State(tmp_path / "g.sqlite") as state:
        new = state.games.create("Samstag", ["Rot", "Blau"], feed=None, game=GAME, date=DATE)
        game = new.game
        assert [(g.number, g.name, g.key) for g in game.groups] == [(1, "Rot", "rot"), (2, "Blau", "blau")]
        assert game.group("ROT") == game.group(1) == game.groups[0] and game.group("Grün") is None
        assert state.games.access(new.group_tokens[1]).group == "blau"
        assert state.games.access(new.organiser_token).group is None
        with pytest.raises(InputError, match="has no group 'Grün'"):
            state.groups.commit_roll(game, _group("Grün"), _target(1, "Zug"), 0)
        rec = state.groups.commit_roll(game, game.groups[0], _target(1, "Zug"), 0)
        assert (rec.game_id, rec.group, rec.seq) == (game.id, "rot", 1)
        # the same name in another game (and in the implicit game) is another group
        assert state.groups.snapshot(IMPLICIT.id, _group("Rot")).rolls == ()
        other = state.games.create("Sonntag", ["Rot"], feed=None, game=GAME, date=DATE).game
        assert state.groups.snapshot(other.id, other.groups[0]).rolls == ()


def test_an_implicit_game_gets_its_groups_with_their_first_entry(tmp_path):
    with State(tmp_path / "g.sqlite") as state:
        _commit(state, "Team Rot", _target(1, "Zug"))
        state.groups.add_position(IMPLICIT, _group("Blau"), 2, 2, "8502204")
        rec = state.games.get(IMPLICIT.id)
        assert rec is not None and rec.implicit and [g.name for g in rec.groups] == ["Team Rot", "Blau"]
        assert state.games.games() == []  # implicit games are not "the games of the state"
        assert state.games.games(implicit=True) == [rec]


def test_history_and_targeted(tmp_path):
    with State(tmp_path / "g.sqlite") as state:
        a = _commit(state, 2, _target(45000, "Wohlen AG"))
        b = _commit(state, 2, Roll(time=46000, dice=(6,), kind="free", free_until=49600, position="in IR 2345"))
        c = _commit(state, 2, _target(50000, "Emmenbrücke"))
        _commit(state, 3, _target(45000, "Sihlbrugg"))  # another group: separate
        hist = _history(state, 2)
        assert hist == [a, b, c] and [r.seq for r in hist] == [1, 2, 3]
        assert hist[1].kind == "free" and hist[1].target is None and hist[1].free_until == 49600
        assert hist[0].dice == (2,) and hist[0].time == 45000 and hist[0].group == "2"
        assert _targeted(state, 2) == ["Wohlen AG", "Emmenbrücke"] and _targeted(state, 3) == ["Sihlbrugg"]
    with State(tmp_path / "g.sqlite") as again:  # a new connection sees the same state
        assert _history(again, 2) == hist


def test_a_commit_against_an_old_version_is_stale(tmp_path):
    with State(tmp_path / "g.sqlite") as state:
        snap = state.groups.snapshot(IMPLICIT.id, _group(1))
        _commit(state, 1, _target(1, "Zug"))
        with pytest.raises(StaleGroup):
            state.groups.commit_roll(IMPLICIT, _group(1), _target(2, "Baar"), snap.version)
        assert [r.target for r in _history(state, 1)] == ["Zug"]


def test_undo_removes_the_latest_entry(tmp_path):
    with State(tmp_path / "g.sqlite") as state:
        g = _group(1)
        assert state.groups.undo_last(IMPLICIT.id, g) is None
        _commit(state, 1, _target(1, "Zug"))
        last = _commit(state, 1, _target(2, "Baar"))
        _commit(state, 2, _target(2, "Cham"))
        assert state.groups.undo_last(IMPLICIT.id, g) == last
        assert _targeted(state, 1) == ["Zug"]  # derived: the undone target is free again
        pos = state.groups.add_position(IMPLICIT, g, 5, 3, "8502204", label="at Zug")
        assert pos.since == 3 and state.groups.undo_last(IMPLICIT.id, g) == pos
        assert _commit(state, 1, _target(6, "Rotkreuz")).seq == 2
        assert _targeted(state, 2) == ["Cham"]  # the other group untouched


def test_roll_id_is_idempotent_and_belongs_to_its_group(tmp_path):
    with State(tmp_path / "g.sqlite") as state:
        first = _commit(state, 1, _target(100, "T0", roll_id="phone-1:42"))
        assert _commit(state, 1, _target(100, "T0", roll_id="phone-1:42")) == first
        assert len(_history(state, 1)) == 1
        with pytest.raises(InputError, match="dice 2"):
            _commit(state, 1, Roll(time=1, dice=(5,), kind="target", target="X", roll_id="phone-1:42"))
        # another group's id space is its own
        other = _commit(state, 2, _target(100, "X", roll_id="phone-1:42"))
        assert (other.group, other.seq) == ("2", 1)


def test_bad_rolls_are_input_errors():
    with pytest.raises(InputError):
        Roll(time=1, dice=(3,), kind="target")
    with pytest.raises(InputError):
        Roll(time=1, dice=(6,), kind="free")
    with pytest.raises(InputError):
        Roll(time=1, dice=(), kind="free", free_until=5)
    with pytest.raises(InputError):
        Roll(time=1, dice=(2.5,), kind="target", target="Zug")
    with pytest.raises(InputError):
        Roll(time=1, dice=(2,), kind="jail", target="Zug")


# ---- concurrency and crash safety ---------------------------------------------------------------------

def test_eight_processes_fifty_rolls_each(tmp_path):
    path = str(tmp_path / "shared.sqlite")
    procs = [CTX.Process(target=_worker, args=(path, w, 50)) for w in range(8)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(180)
    assert [p.exitcode for p in procs] == [0] * 8
    with State(path) as state:
        hist = _history(state, 1)
        assert [r.seq for r in hist] == list(range(1, 401))
        # each roll saw every earlier roll: the pool names were handed out exactly once, in seq order
        assert [r.target for r in hist] == [f"T{i}" for i in range(400)]
        assert sorted(r.roll_id for r in hist) == sorted(f"w{w}-{i}" for w in range(8) for i in range(50))


def _wait_for_rolls(path: str, n: int, proc, deadline: float = 60) -> None:
    end = time.monotonic() + deadline
    with State(path) as state:
        while len(_history(state, 1)) < n:
            assert proc.is_alive(), "writer died on its own"
            assert time.monotonic() < end, "writer too slow"
            time.sleep(0.01)


def _check_intact(path: str, big: bool) -> int:
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    with State(path) as state:
        hist = _history(state, 1)
        for i, r in enumerate(hist):
            assert r.seq == i + 1
            assert r.target == f"T{i}" and r.kind == "target" and r.time == i
            assert r.dice == (i % 6 + 1,) and r.created_at
            assert r.position == (BIG if big else "p")
        n = len(hist)
        assert _commit(state, 1, _target(99999, "after the crash")).seq == n + 1
        return n


@pytest.mark.parametrize("big", [False, True])
def test_survives_kill_during_writes(tmp_path, big):
    path = str(tmp_path / "crash.sqlite")
    proc = CTX.Process(target=_writer_loop, args=(path, big))
    proc.start()
    try:
        _wait_for_rolls(path, 30, proc)
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.join(30)
    assert proc.exitcode == -signal.SIGKILL
    assert _check_intact(path, big) >= 30


def test_survives_kill_inside_open_transaction(tmp_path):
    path = str(tmp_path / "crash.sqlite")
    with State(path) as state:
        _commit(state, 1, _target(1, "Committed"))
    inside = CTX.Event()
    proc = CTX.Process(target=_stuck_in_transaction, args=(path, inside))
    proc.start()
    try:
        assert inside.wait(60)
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.join(30)
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    with State(path, timeout=5) as state:
        assert _targeted(state, 1) == ["Committed"]  # the uncommitted roll is gone
        assert _commit(state, 1, _target(2, "Next")).seq == 2  # and the lock with it


# ---- clean errors -------------------------------------------------------------------------------------

def _one_line_naming(exc: pytest.ExceptionInfo, path: Path) -> str:
    msg = str(exc.value)
    assert "\n" not in msg and str(path) in msg
    return msg


def test_corrupt_file_is_a_clean_error(tmp_path):
    path = tmp_path / "groups.sqlite"
    path.write_bytes(os.urandom(8192))
    with pytest.raises(PlannerError) as exc:
        _history(State(path), 1)
    assert "not a valid SQLite database" in _one_line_naming(exc, path)


def test_truncated_text_file_is_a_clean_error(tmp_path):
    path = tmp_path / "groups.sqlite"
    path.write_text("group 1 rolled 4\n")
    with pytest.raises(PlannerError) as exc:
        _commit(State(path), 1, _target(1, "Zug"))
    _one_line_naming(exc, path)


def test_damaged_database_is_a_clean_error(tmp_path):
    path = tmp_path / "groups.sqlite"
    with State(path) as state:
        for i in range(200):
            _commit(state, 1, _target(i, f"T{i}", position=BIG[:2000]))
        state.db.connect().execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(path.read_bytes())
    data[4096:len(data) - 4096] = os.urandom(len(data) - 8192)  # keep the header page, destroy the rest
    path.write_bytes(bytes(data))
    with pytest.raises(PlannerError) as exc:
        with State(path) as state:
            _history(state, 1)
            _commit(state, 1, _target(1, "Zug"))
    _one_line_naming(exc, path)


def test_other_programs_database_is_refused(tmp_path):
    path = tmp_path / "groups.sqlite"
    with sqlite3.connect(path) as raw:
        raw.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY)")
    with pytest.raises(PlannerError) as exc:
        _history(State(path), 1)
    assert "another program" in _one_line_naming(exc, path)


def test_newer_schema_is_refused(tmp_path):
    path = tmp_path / "groups.sqlite"
    with State(path) as state:
        _commit(state, 1, _target(1, "Zug"))
    with sqlite3.connect(path) as raw:
        raw.execute(f"PRAGMA user_version = {FILE_VERSION + 1}")
    with pytest.raises(PlannerError) as exc:
        _history(State(path), 1)
    assert "newer planner" in _one_line_naming(exc, path)


def test_unwritable_path_is_a_clean_error(tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    path = blocker / "groups.sqlite"
    with pytest.raises(PlannerError) as exc:
        _commit(State(path), 1, _target(1, "Zug"))
    _one_line_naming(exc, path)


def test_locked_beyond_timeout_is_a_clean_error(tmp_path):
    path = tmp_path / "groups.sqlite"
    with State(path) as holder:
        _commit(holder, 1, _target(1, "Zug"))
        with holder.db.write():
            waiter = State(path, timeout=0.2)
            with pytest.raises(PlannerError) as exc:
                _commit(waiter, 2, _target(1, "Baar"))
            assert "locked" in _one_line_naming(exc, path)
            assert _targeted(waiter, 1) == ["Zug"]  # WAL: readers are not blocked by the writer
            waiter.close()
    with State(path) as state:
        assert _history(state, 2) == []


# ---- migration --------------------------------------------------------------------------------------

def test_a_planner_01_state_file_is_migrated_with_every_group_in_its_game(tmp_path):
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as raw:
        raw.executescript(FIXTURE.read_text("utf-8"))
    with State(path) as state:
        web = state.games.get("abcd1234")
        assert web is not None and not web.implicit and [g.name for g in web.groups] == ["Rot", "Gelb"]
        # the phone's "abcd1234:2" is now Gelb of that game, its roll with it
        gelb = state.groups.snapshot("abcd1234", web.group("Gelb"))
        assert [(r.seq, r.kind, r.free_until) for r in gelb.rolls] == [(1, "free", 50400)]
        assert state.games.access("1" * 64) is None  # tokens are looked up by the hash of a token
        cli = state.games.get(IMPLICIT.id)
        assert cli is not None and cli.implicit and [g.name for g in cli.groups] == ["Team Rot", "Blau"]
        rot = state.groups.snapshot(IMPLICIT.id, cli.group("team rot"))
        assert [r.target for r in rot.rolls] == ["Wohlen AG"]
        assert [(p.time, p.since, p.station) for p in rot.positions] == [(45000, 45000, "8502204")]
        tables = {r[0] for r in state.db.connect().execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert not {"web_positions", "web_answers", "web_games"} & tables
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == FILE_VERSION
        assert raw.execute("SELECT count(*) FROM ledger_events WHERE game_id = ?", (IMPLICIT.id,)).fetchone()[0] == 2
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):  # the triggers came along
            raw.execute("DELETE FROM ledger_events")
