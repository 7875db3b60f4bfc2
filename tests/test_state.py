"""Group state (planner.store.groups): rolls, targeted set, undo, idempotency, concurrency and crash safety."""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import sqlite3
import time
from pathlib import Path

import pytest

from planner.errors import InputError, PlannerError
from planner.store.groups import SCHEMA_VERSION, GroupStore, Roll, default_state_path

GAME, DATE = "sbb-monopoly", "2021-09-11"
CTX = mp.get_context("spawn")  # real, fresh processes (no inherited connections or locks)
BIG = "x" * 20_000  # position text spanning several pages, so a kill can land inside one write


def _target(time_s: int, name: str, position: str = "Zug", **kw) -> Roll:
    return Roll(time=time_s, dice=(2,), kind="target", target=name, position=position, **kw)


# ---- child process bodies (module level: the spawn context imports them by name) ---------------------

def _worker(path: str, worker: int, n: int) -> None:
    """Record n rolls; each picks the first name of a shared pool that is not targeted yet."""
    with GroupStore(path, timeout=60) as store:
        for i in range(n):
            def pick(targeted: list[str], i: int = i) -> Roll:
                return Roll(time=12 * 3600 + i, dice=(worker % 6 + 1,), kind="target", target=f"T{len(targeted)}",
                            position=f"w{worker}", roll_id=f"w{worker}-{i}")

            store.record_roll(GAME, DATE, 1, pick)


def _writer_loop(path: str, big: bool) -> None:
    """Write rolls until killed."""
    with GroupStore(path, timeout=60) as store:
        i = 0
        while True:
            store.record_roll(GAME, DATE, 1, lambda t, i=i: Roll(time=i, dice=(i % 6 + 1,), kind="target",
                                                             target=f"T{len(t)}", position=BIG if big else "p"))
            i += 1


def _stuck_in_transaction(path: str, inside) -> None:
    """Add a roll and wait, never committing (the parent kills us while the write lock is held)."""
    with GroupStore(path) as store, store.transaction(GAME, DATE, 1) as tx:
        tx.add(Roll(time=1, dice=(3,), kind="target", target="Uncommitted", position=BIG))
        inside.set()
        time.sleep(120)


# ---- basics -------------------------------------------------------------------------------------------

def test_default_path_follows_env(tmp_path, monkeypatch):
    monkeypatch.setenv("PLANNER_STATE", str(tmp_path / "s.sqlite"))
    assert default_state_path() == tmp_path / "s.sqlite"
    with GroupStore() as store:
        store.record_roll(GAME, DATE, 1, _target(100, "Zug"))
    assert (tmp_path / "s.sqlite").is_file()


def test_history_and_targeted(tmp_path):
    with GroupStore(tmp_path / "g.sqlite") as store:
        assert store.history(GAME, DATE, 2) == []
        a = store.record_roll(GAME, DATE, 2, _target(45000, "Wohlen AG"))
        b = store.record_roll(GAME, DATE, 2, Roll(time=46000, dice=(6,), kind="free", free_until=49600,
                                                   position="in IR 2345 to Zug"))
        c = store.record_roll(GAME, DATE, 2, _target(50000, "Emmenbrücke"))
        store.record_roll(GAME, DATE, 3, _target(45000, "Sihlbrugg"))  # another group: separate
        store.record_roll("nordwestschweiz", DATE, 2, _target(45000, "Laufen"))  # another game: separate
        hist = store.history(GAME, DATE, 2)
        assert [r.seq for r in hist] == [1, 2, 3]
        assert hist == [a, b, c]
        assert hist[1].kind == "free" and hist[1].target is None and hist[1].free_until == 49600
        assert hist[0].dice == (2,) and hist[0].time == 45000 and hist[0].group == "2" and hist[0].date == DATE
        assert store.targeted(GAME, DATE, 2) == ["Wohlen AG", "Emmenbrücke"]
        assert store.targeted(GAME, DATE, 3) == ["Sihlbrugg"]
        assert store.groups(GAME, DATE) == ["2", "3"]
    # a new process (here: a new connection) sees the same state
    with GroupStore(tmp_path / "g.sqlite") as again:
        assert again.history(GAME, DATE, 2) == hist


def test_two_dice_and_transaction_api(tmp_path):
    with GroupStore(tmp_path / "g.sqlite") as store:
        with store.transaction(GAME, DATE, "Rot") as tx:
            assert tx.targeted() == []
            rec = tx.add(Roll(time=41400, dice=(2, 1), kind="target", target="Bretzwil, Dorf"))
            assert tx.targeted() == ["Bretzwil, Dorf"]  # visible inside the transaction
        assert rec.dice == (2, 1)
        assert store.history(GAME, DATE, "Rot") == [rec]


def test_exception_in_transaction_rolls_back(tmp_path):
    with GroupStore(tmp_path / "g.sqlite") as store:
        with pytest.raises(ZeroDivisionError), store.transaction(GAME, DATE, 1) as tx:
            tx.add(_target(1, "Zug"))
            raise ZeroDivisionError
        assert store.history(GAME, DATE, 1) == []
        store.record_roll(GAME, DATE, 1, _target(2, "Baar"))  # the lock was released
        assert [r.seq for r in store.history(GAME, DATE, 1)] == [1]


def test_targeted_is_distinct_and_ordered(tmp_path):
    with GroupStore(tmp_path / "g.sqlite") as store:
        for i, name in enumerate(["Zug", "Baar", "Zug", "Cham"]):
            store.record_roll(GAME, DATE, 1, _target(i, name))
        assert store.targeted(GAME, DATE, 1) == ["Zug", "Baar", "Cham"]


def test_undo_and_reset(tmp_path):
    with GroupStore(tmp_path / "g.sqlite") as store:
        assert store.undo_last(GAME, DATE, 1) is None
        store.record_roll(GAME, DATE, 1, _target(1, "Zug"))
        last = store.record_roll(GAME, DATE, 1, _target(2, "Baar"))
        store.record_roll(GAME, DATE, 2, _target(2, "Cham"))
        assert store.undo_last(GAME, DATE, 1) == last
        assert store.targeted(GAME, DATE, 1) == ["Zug"]  # derived: undone target is free again
        again = store.record_roll(GAME, DATE, 1, _target(3, "Rotkreuz"))
        assert again.seq == 2
        assert store.reset(GAME, DATE, 1) == 2
        assert store.history(GAME, DATE, 1) == []
        assert store.targeted(GAME, DATE, 2) == ["Cham"]  # other group untouched
        assert store.reset(GAME, DATE) == 1
        assert store.groups(GAME, DATE) == []


def test_roll_id_is_idempotent(tmp_path):
    calls = []

    def compute(targeted: list[str]) -> Roll:
        calls.append(list(targeted))
        return _target(100, f"T{len(targeted)}")

    with GroupStore(tmp_path / "g.sqlite") as store:
        first = store.record_roll(GAME, DATE, 1, compute, roll_id="phone-1:42")
        retry = store.record_roll(GAME, DATE, 1, compute, roll_id="phone-1:42")
        assert retry == first and len(calls) == 1
        same = store.record_roll(GAME, DATE, 1, _target(100, "T0", roll_id="phone-1:42"))
        assert same == first
        assert len(store.history(GAME, DATE, 1)) == 1
        with store.transaction(GAME, DATE, 1) as tx:
            assert tx.add(_target(100, "T0", roll_id="phone-1:42")) == first
        with pytest.raises(InputError, match="already used by group 1"):
            store.record_roll(GAME, DATE, 2, _target(100, "X", roll_id="phone-1:42"))
        with pytest.raises(InputError, match="dice 2"):
            store.record_roll(GAME, DATE, 1, Roll(time=1, dice=(5,), kind="target", target="X",
                                                  roll_id="phone-1:42"))
        second = store.record_roll(GAME, DATE, 1, compute, roll_id="phone-1:43")
        assert second.seq == 2 and second.target == "T1"


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
    with GroupStore(path) as store:
        hist = store.history(GAME, DATE, 1)
        assert len(hist) == 400
        assert [r.seq for r in hist] == list(range(1, 401))
        # each roll saw every earlier roll: the pool names were handed out exactly once, in seq order
        assert [r.target for r in hist] == [f"T{i}" for i in range(400)]
        assert len(store.targeted(GAME, DATE, 1)) == 400
        assert sorted(r.roll_id for r in hist) == sorted(f"w{w}-{i}" for w in range(8) for i in range(50))


def _wait_for_rolls(path: str, n: int, proc, deadline: float = 60) -> None:
    end = time.monotonic() + deadline
    with GroupStore(path) as store:
        while len(store.history(GAME, DATE, 1)) < n:
            assert proc.is_alive(), "writer died on its own"
            assert time.monotonic() < end, "writer too slow"
            time.sleep(0.01)


def _check_intact(path: str, big: bool) -> int:
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    with GroupStore(path) as store:
        hist = store.history(GAME, DATE, 1)
        for i, r in enumerate(hist):
            assert r.seq == i + 1
            assert r.target == f"T{i}" and r.kind == "target" and r.time == i
            assert r.dice == (i % 6 + 1,) and r.created_at
            assert r.position == (BIG if big else "p")
        n = len(hist)
        rec = store.record_roll(GAME, DATE, 1, _target(99999, "after the crash"))
        assert rec.seq == n + 1
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
    with GroupStore(path) as store:
        store.record_roll(GAME, DATE, 1, _target(1, "Committed"))
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
    with GroupStore(path, timeout=5) as store:
        assert store.targeted(GAME, DATE, 1) == ["Committed"]  # the uncommitted roll is gone
        assert store.record_roll(GAME, DATE, 1, _target(2, "Next")).seq == 2  # and the lock with it


# ---- clean errors -------------------------------------------------------------------------------------

def _one_line_naming(exc: pytest.ExceptionInfo, path: Path) -> str:
    msg = str(exc.value)
    assert "\n" not in msg and str(path) in msg
    return msg


def test_corrupt_file_is_a_clean_error(tmp_path):
    path = tmp_path / "groups.sqlite"
    path.write_bytes(os.urandom(8192))
    with pytest.raises(PlannerError) as exc:
        GroupStore(path).history(GAME, DATE, 1)
    assert "not a valid SQLite database" in _one_line_naming(exc, path)


def test_truncated_text_file_is_a_clean_error(tmp_path):
    path = tmp_path / "groups.sqlite"
    path.write_text("group 1 rolled 4\n")
    with pytest.raises(PlannerError) as exc:
        GroupStore(path).record_roll(GAME, DATE, 1, _target(1, "Zug"))
    _one_line_naming(exc, path)


def test_damaged_database_is_a_clean_error(tmp_path):
    path = tmp_path / "groups.sqlite"
    with GroupStore(path) as store:
        for i in range(200):
            store.record_roll(GAME, DATE, 1, _target(i, f"T{i}", position=BIG[:2000]))
        store._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(path.read_bytes())
    data[4096:len(data) - 4096] = os.urandom(len(data) - 8192)  # keep the header page, destroy the rest
    path.write_bytes(bytes(data))
    with pytest.raises(PlannerError) as exc:
        with GroupStore(path) as store:
            store.history(GAME, DATE, 1)
            store.record_roll(GAME, DATE, 1, _target(1, "Zug"))
    _one_line_naming(exc, path)


def test_other_programs_database_is_refused(tmp_path):
    path = tmp_path / "groups.sqlite"
    with sqlite3.connect(path) as raw:
        raw.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY)")
    with pytest.raises(PlannerError) as exc:
        GroupStore(path).history(GAME, DATE, 1)
    assert "another program" in _one_line_naming(exc, path)


def test_newer_schema_is_refused(tmp_path):
    path = tmp_path / "groups.sqlite"
    with GroupStore(path) as store:
        store.record_roll(GAME, DATE, 1, _target(1, "Zug"))
    with sqlite3.connect(path) as raw:
        raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(PlannerError) as exc:
        GroupStore(path).history(GAME, DATE, 1)
    assert "newer planner" in _one_line_naming(exc, path)


def test_unwritable_path_is_a_clean_error(tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    path = blocker / "groups.sqlite"
    with pytest.raises(PlannerError) as exc:
        GroupStore(path).record_roll(GAME, DATE, 1, _target(1, "Zug"))
    _one_line_naming(exc, path)


def test_locked_beyond_timeout_is_a_clean_error(tmp_path):
    path = tmp_path / "groups.sqlite"
    with GroupStore(path) as holder, holder.transaction(GAME, DATE, 1) as tx:
        tx.add(_target(1, "Zug"))
        waiter = GroupStore(path, timeout=0.2)
        with pytest.raises(PlannerError) as exc:
            waiter.record_roll(GAME, DATE, 2, _target(1, "Baar"))
        assert "locked" in _one_line_naming(exc, path)
        assert waiter.history(GAME, DATE, 1) == []  # WAL: readers are not blocked by the writer
        waiter.close()
    with GroupStore(path) as store:
        assert store.targeted(GAME, DATE, 1) == ["Zug"]
        assert store.history(GAME, DATE, 2) == []
