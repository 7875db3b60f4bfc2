"""Per-group game state (rolls, position reports, targeted stations) in the state database.

Groups type ``planner roll --group 2 --dice 4`` on their own phones, possibly several at once against one
shared file (:mod:`planner.store.db`). A roll is computed **outside** the write transaction from a
:meth:`GroupStore.snapshot`; :meth:`GroupStore.commit_roll` then only re-checks, under the write lock, that
the group's ``version`` is unchanged (no roll, report or undo came in between) and records. So a process
that is still building a national game day never holds the lock, and two phones never both see "Wohlen AG
not yet targeted". A roll id retried returns the stored answer text byte for byte; the same id with other
inputs is an :class:`InputError`.

The targeted set (RULES.md §3 "Targeted") is derived from the rolls, never stored twice: undoing a roll
un-targets its target. Group names match case- and accent-insensitively (``group_key``).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from planner.errors import DamagedState, PlannerError
from planner.store.db import FILE_VERSION, StatePart, default_state_path
from planner.store.records import (
    KINDS,
    POSITION_COLUMNS,
    ROLL_COLUMNS,
    GroupSnapshot,
    PositionRecord,
    Roll,
    RollRecord,
    StaleGroup,
    day_text,
    group_from_row,
    group_key,
    position_from_row,
    replay,
    roll_from_row,
    utc_now,
)

SCHEMA_VERSION = FILE_VERSION
PART_VERSION = 2
_DDL = """
CREATE TABLE IF NOT EXISTS rolls (
    id          INTEGER PRIMARY KEY,
    game        TEXT    NOT NULL,
    date        TEXT    NOT NULL,              -- game day, YYYY-MM-DD
    grp         TEXT    NOT NULL,              -- group key (group_key of its name)
    seq         INTEGER NOT NULL CHECK (seq >= 1),
    time_s      INTEGER NOT NULL,              -- time of day of the roll, seconds after midnight
    dice        TEXT    NOT NULL,              -- JSON list of ints, one per die
    kind        TEXT    NOT NULL CHECK (kind IN ('target', 'free')),
    target      TEXT,
    free_until  INTEGER,
    position    TEXT,
    created_at  TEXT    NOT NULL,              -- UTC ISO 8601
    roll_id     TEXT    UNIQUE,                -- client id: a retried command is recorded once
    request     TEXT,                          -- canonical inputs (a reused roll id must match them)
    answer      TEXT,                          -- the answer text given (a retry gets it byte for byte)
    plan        TEXT,                          -- JSON itinerary, for the group's day model
    UNIQUE (game, date, grp, seq),
    CHECK (kind = 'free' OR target IS NOT NULL),
    CHECK (kind = 'target' OR free_until IS NOT NULL)
);
CREATE TABLE IF NOT EXISTS positions (
    id          INTEGER PRIMARY KEY,
    game TEXT NOT NULL, date TEXT NOT NULL, grp TEXT NOT NULL,
    time_s      INTEGER NOT NULL,
    station     TEXT    NOT NULL,              -- station id (standing there, or the stop approached)
    trip_id     TEXT,                          -- seated in this trip ...
    stop_offset INTEGER,                       -- ... at/approaching its stop number (0 = first)
    label       TEXT,                          -- what the group typed, for the history
    created_at  TEXT    NOT NULL
);
CREATE TABLE IF NOT EXISTS groups (
    game TEXT NOT NULL, date TEXT NOT NULL, grp TEXT NOT NULL,
    name        TEXT    NOT NULL,              -- the spelling first used
    version     INTEGER NOT NULL,              -- +1 on every change of the group's day
    PRIMARY KEY (game, date, grp)
);
"""
_NEW_ROLL_COLUMNS = ("request TEXT", "answer TEXT", "plan TEXT")


def _migrate(conn: sqlite3.Connection, old: int) -> None:
    """groups part 1 (rolls only, names as typed) -> 2 (answers, positions, groups, folded keys)."""
    if old != 1:  # pragma: no cover - the only older version
        raise PlannerError(f"groups schema {old} has no migration")
    for col in _NEW_ROLL_COLUMNS:
        conn.execute(f"ALTER TABLE rolls ADD COLUMN {col}")
    for stmt in _DDL.split(";"):  # IF NOT EXISTS: only the new tables are created
        if stmt.strip():
            conn.execute(stmt)
    for game, date, grp in conn.execute("SELECT DISTINCT game, date, grp FROM rolls").fetchall():
        conn.execute("UPDATE rolls SET grp = ? WHERE game = ? AND date = ? AND grp = ?",
                     (group_key(grp), game, date, grp))
        conn.execute("INSERT OR IGNORE INTO groups VALUES (?, ?, ?, ?, 1)", (game, date, group_key(grp), grp))


class Transaction:
    """One group's write transaction (from :meth:`GroupStore.transaction`); valid inside the ``with`` only."""

    def __init__(self, store: GroupStore, conn: sqlite3.Connection, game: str, date: str, group: str,
                 name: str | None = None):
        self._store, self._conn = store, conn
        self.game, self.date, self.group = game, date, group
        self._name = name or group
        self._open = True

    def _check(self) -> None:
        if not self._open:
            raise RuntimeError("transaction already finished")

    def targeted(self) -> list[str]:
        """Names targeted so far by this group, in order of first targeting (distinct)."""
        self._check()
        return _targeted(self._conn, self.game, self.date, self.group)

    def history(self) -> list[RollRecord]:
        """This group's rolls so far, by seq."""
        self._check()
        return _history(self._conn, self.game, self.date, self.group)

    def version(self) -> int:
        """The group's version (0 for a group never written)."""
        self._check()
        row = self._conn.execute("SELECT name, version FROM groups WHERE game = ? AND date = ? AND grp = ?",
                                 (self.game, self.date, self.group)).fetchone()
        return 0 if row is None else group_from_row(row)[1]

    def _bump(self) -> None:
        self._conn.execute(
            "INSERT INTO groups VALUES (?, ?, ?, ?, 1) ON CONFLICT (game, date, grp) "
            "DO UPDATE SET version = version + 1", (self.game, self.date, self.group, self._name))

    def find(self, roll_id: str) -> RollRecord | None:
        """The roll recorded under a client ``roll_id`` (any group), or None."""
        self._check()
        row = self._conn.execute(f"SELECT {ROLL_COLUMNS} FROM rolls WHERE roll_id = ?", (roll_id,)).fetchone()
        return roll_from_row(row) if row else None

    def add(self, roll: Roll) -> RollRecord:
        """Record ``roll`` as this group's next roll and return it.

        When ``roll.roll_id`` was already recorded (a retried command), nothing is written and the
        first record is returned; reusing an id for another group or other inputs is an InputError.
        """
        self._check()
        if roll.roll_id is not None:
            old = self.find(roll.roll_id)
            if old is not None:
                return replay(old, self.game, self.date, self.group, roll)
        (seq,) = self._conn.execute(
            "SELECT COALESCE(MAX(seq), 0) + 1 FROM rolls WHERE game = ? AND date = ? AND grp = ?",
            (self.game, self.date, self.group)).fetchone()
        created = utc_now()
        rec = RollRecord(self.game, self.date, self.group, seq, int(roll.time), roll.dice, roll.kind, roll.target,
                         roll.free_until, roll.position, created, roll.roll_id, roll.request, roll.answer, roll.plan)
        self._conn.execute(f"INSERT INTO rolls ({ROLL_COLUMNS}) VALUES ({', '.join('?' * 15)})",
                           (*dataclasses.astuple(rec)[:5], json.dumps(list(roll.dice)),
                            *dataclasses.astuple(rec)[6:]))
        self._bump()
        return rec

    def add_position(self, time: int, station: str, trip_id: str | None = None, stop_offset: int | None = None,
                     label: str | None = None) -> PositionRecord:
        """Record a position report."""
        self._check()
        created = utc_now()
        cur = self._conn.execute(
            "INSERT INTO positions (game, date, grp, time_s, station, trip_id, stop_offset, label, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (self.game, self.date, self.group, int(time), station, trip_id, stop_offset, label, created))
        self._bump()
        return PositionRecord(int(cur.lastrowid or 0), int(time), station, trip_id, stop_offset, label, created)

    def undo_last(self) -> RollRecord | PositionRecord | None:
        """Delete this group's latest entry (a roll or a position report) and return it (None: nothing)."""
        self._check()
        key = (self.game, self.date, self.group)
        row = self._conn.execute(f"SELECT {ROLL_COLUMNS} FROM rolls WHERE game = ? AND date = ? AND grp = ? "
                                 "ORDER BY seq DESC LIMIT 1", key).fetchone()
        prow = self._conn.execute(f"SELECT {POSITION_COLUMNS} FROM positions WHERE game = ? AND date = ? AND grp = ? "
                                  "ORDER BY time_s DESC, id DESC LIMIT 1", key).fetchone()
        roll = roll_from_row(row) if row else None
        pos = position_from_row(prow) if prow else None
        if pos is not None and (roll is None or (pos.time, pos.created_at) >= (roll.time, roll.created_at)):
            self._conn.execute("DELETE FROM positions WHERE id = ?", (pos.id,))
            self._bump()
            return pos
        if roll is None:
            return None
        self._conn.execute("DELETE FROM rolls WHERE game = ? AND date = ? AND grp = ? AND seq = ?", (*key, roll.seq))
        self._bump()
        return roll


class GroupStore(StatePart):
    """The groups' days, one SQLite file shared by all processes (see module docstring).

    Opening is lazy: the file is created (with its folder) on first use. Use as a context manager or
    call :meth:`close`. A store object belongs to one thread; each process opens its own.
    """

    PART, VERSION, DDL = "groups", PART_VERSION, _DDL
    MIGRATE = staticmethod(_migrate)

    def __enter__(self) -> GroupStore:
        return self

    @property
    def _conn(self) -> sqlite3.Connection | None:
        return self.db._conn

    # ---- writes ------------------------------------------------------------------------------------
    @contextmanager
    def transaction(self, game: str, date: dt.date | str, group: int | str) -> Iterator[Transaction]:
        """A write transaction for one group: read, ``tx.add(roll)`` / ``tx.add_position(...)``.

        Holds the database's write lock from entry to exit; commits on normal exit, rolls back on an
        exception. Keep it short: compute before entering (see :meth:`commit_roll`).
        """
        self._connect(create=True)
        key = group_key(group)
        with self.db.write() as conn:
            tx = Transaction(self, conn, str(game), day_text(date), key, str(group).strip())
            try:
                yield tx
            finally:
                tx._open = False

    def record_roll(self, game: str, date: dt.date | str, group: int | str,
                    roll: Roll | Callable[[list[str]], Roll], *, roll_id: str | None = None) -> RollRecord:
        """Record a group's next roll atomically (``roll`` may be a function ``targeted -> Roll`` called
        inside the transaction) and return the record; a known ``roll_id`` returns the earlier record."""
        with self.transaction(game, date, group) as tx:
            rid = roll_id if roll_id is not None else getattr(roll, "roll_id", None)
            if rid is not None and (old := tx.find(rid)) is not None:
                return replay(old, tx.game, tx.date, tx.group, roll if isinstance(roll, Roll) else None)
            r = roll if isinstance(roll, Roll) else roll(tx.targeted())
            if rid is not None and r.roll_id != rid:
                r = dataclasses.replace(r, roll_id=rid)
            return tx.add(r)

    def commit_roll(self, game: str, date: dt.date | str, group: int | str, roll: Roll,
                    expected_version: int) -> RollRecord:
        """Record ``roll``, computed from the snapshot at ``expected_version``; raise :class:`StaleGroup`
        when the group changed since. A roll id recorded before returns the earlier record (same inputs)."""
        with self.transaction(game, date, group) as tx:
            if roll.roll_id is not None and (old := tx.find(roll.roll_id)) is not None:
                return replay(old, tx.game, tx.date, tx.group, roll)
            if tx.version() != expected_version:
                raise StaleGroup(f"group {group} changed while its roll was computed")
            return tx.add(roll)

    def add_position(self, game: str, date: dt.date | str, group: int | str, time: int, station: str,
                     trip_id: str | None = None, stop_offset: int | None = None, label: str | None = None,
                     *, expected_version: int | None = None) -> PositionRecord:
        """Record a position report (checked against ``expected_version`` when given)."""
        with self.transaction(game, date, group) as tx:
            if expected_version is not None and tx.version() != expected_version:
                raise StaleGroup(f"group {group} changed while its position was checked")
            return tx.add_position(time, station, trip_id, stop_offset, label)

    def undo_last(self, game: str, date: dt.date | str, group: int | str) -> RollRecord | PositionRecord | None:
        """Delete the group's latest entry (a roll: its target is no longer targeted); None if none."""
        with self.transaction(game, date, group) as tx:
            return tx.undo_last()

    def reset(self, game: str, date: dt.date | str, group: int | str | None = None) -> int:
        """Delete all rolls and reports of one group (or of every group when None); return how many rolls."""
        with self.transaction(game, date, "all" if group is None else group) as tx:
            where, params = ("game = ? AND date = ?", (tx.game, tx.date)) if group is None else \
                ("game = ? AND date = ? AND grp = ?", (tx.game, tx.date, tx.group))
            n = tx._conn.execute(f"DELETE FROM rolls WHERE {where}", params).rowcount
            tx._conn.execute(f"DELETE FROM positions WHERE {where}", params)
            tx._conn.execute(f"UPDATE groups SET version = version + 1 WHERE {where}", params)
            return n

    # ---- reads -------------------------------------------------------------------------------------
    def _read(self, fn: Callable[[sqlite3.Connection], object]):
        conn = self._connect()
        try:
            return fn(conn)
        except sqlite3.Error as exc:
            raise self.db.fail(exc) from None
        except DamagedState as exc:
            raise exc.at(self.path) from None

    def find_roll(self, roll_id: str) -> RollRecord | None:
        """The roll recorded under a client ``roll_id``, or None."""
        row = self._read(lambda c: c.execute(f"SELECT {ROLL_COLUMNS} FROM rolls WHERE roll_id = ?", (roll_id,)).fetchone())
        return roll_from_row(row) if row else None

    def snapshot(self, game: str, date: dt.date | str, group: int | str) -> GroupSnapshot:
        """The group's rolls, reports and version, read in one transaction (consistent)."""
        key, g, d = group_key(group), str(game), day_text(date)

        def read(conn: sqlite3.Connection) -> GroupSnapshot:
            conn.execute("BEGIN")  # one read snapshot under WAL: never waits for a writer
            try:
                row = conn.execute("SELECT name, version FROM groups WHERE game = ? AND date = ? AND grp = ?",
                                   (g, d, key)).fetchone()
                rolls = _history(conn, g, d, key)
                pos = [position_from_row(r) for r in conn.execute(
                    f"SELECT {POSITION_COLUMNS} FROM positions WHERE game = ? AND date = ? AND grp = ? ORDER BY time_s, id",
                    (g, d, key)).fetchall()]
            finally:
                conn.execute("COMMIT")
            name, version = group_from_row(row) if row else (str(group).strip(), 0)
            return GroupSnapshot(key, name, version, tuple(rolls), tuple(pos))

        return self._read(read)

    def history(self, game: str, date: dt.date | str, group: int | str) -> list[RollRecord]:
        """The group's rolls of the day, by seq."""
        return self._read(lambda c: _history(c, str(game), day_text(date), group_key(group)))

    def targeted(self, game: str, date: dt.date | str, group: int | str) -> list[str]:
        """Names the group was sent to so far (RULES.md §3 "Targeted"), distinct, in order of first roll."""
        return self._read(lambda c: _targeted(c, str(game), day_text(date), group_key(group)))

    def groups(self, game: str, date: dt.date | str) -> list[str]:
        """Keys of the groups with at least one roll or report on the day."""
        q = ("SELECT grp FROM rolls WHERE game = ? AND date = ? UNION "
             "SELECT grp FROM positions WHERE game = ? AND date = ? ORDER BY grp")
        g, d = str(game), day_text(date)
        return [r[0] for r in self._read(lambda c: c.execute(q, (g, d, g, d)).fetchall())]

    def group_names(self, game: str, date: dt.date | str) -> dict[str, str]:
        """Display name of every group key ever written on the day."""
        return self._read(lambda c: {str(grp): group_from_row((name, version))[0] for grp, name, version in c.execute(
            "SELECT grp, name, version FROM groups WHERE game = ? AND date = ?", (str(game), day_text(date)))})


def _history(conn: sqlite3.Connection, game: str, date: str, group: str) -> list[RollRecord]:
    rows = conn.execute(f"SELECT {ROLL_COLUMNS} FROM rolls WHERE game = ? AND date = ? AND grp = ? ORDER BY seq",
                        (game, date, group)).fetchall()
    return [roll_from_row(r) for r in rows]


def _targeted(conn: sqlite3.Connection, game: str, date: str, group: str) -> list[str]:
    rows = conn.execute(
        "SELECT target FROM rolls WHERE game = ? AND date = ? AND grp = ? AND kind = 'target' "
        "GROUP BY target ORDER BY MIN(seq)", (game, date, group)).fetchall()
    return [r[0] for r in rows]


__all__ = ["KINDS", "GroupSnapshot", "GroupStore", "PositionRecord", "Roll", "RollRecord", "SCHEMA_VERSION", "StaleGroup",
           "Transaction", "default_state_path", "group_key"]
