"""Per-group game state (dice rolls and targeted stations) in an embedded SQLite database.

Groups type ``planner roll --group 2 --dice 4`` on their own phones or laptops, possibly several at
once against one shared file, so every write is one explicit ``BEGIN IMMEDIATE`` transaction: the
targeted set is read, the caller computes the roll's result, and the roll is inserted under the same
write lock. Two processes therefore never both see "Wohlen AG not yet targeted", and never both get
seq 7. WAL mode lets readers (``history``) run while a writer holds the lock; ``busy_timeout`` makes
writers queue instead of failing at once.

The targeted set (RULES.md §3 "Targeted") is derived from the rolls, never stored twice: undoing a
roll un-targets its target.

Every failure a user can hit (locked too long, unwritable path, a file that is not a planner state
database, a database written by a newer planner) is a one-line :class:`~planner.errors.PlannerError`
naming the path.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import operator
import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from planner.errors import InputError, PlannerError

SCHEMA_VERSION = 1
APPLICATION_ID = 0x53424250  # "SBBP": marks the file as ours (PRAGMA application_id)
DEFAULT_TIMEOUT = 10.0  # seconds a writer waits for another process's transaction
KINDS = ("target", "free")

_SCHEMA = """
CREATE TABLE rolls (
    id          INTEGER PRIMARY KEY,
    game        TEXT    NOT NULL,
    date        TEXT    NOT NULL,              -- game day, YYYY-MM-DD
    grp         TEXT    NOT NULL,
    seq         INTEGER NOT NULL CHECK (seq >= 1),
    time_s      INTEGER NOT NULL,              -- time of day of the roll, seconds after midnight
    dice        TEXT    NOT NULL,              -- JSON list of ints, one per die
    kind        TEXT    NOT NULL CHECK (kind IN ('target', 'free')),
    target      TEXT,
    free_until  INTEGER,
    position    TEXT,
    created_at  TEXT    NOT NULL,              -- UTC ISO 8601
    roll_id     TEXT    UNIQUE,                -- client id: a retried command is recorded once
    UNIQUE (game, date, grp, seq),
    CHECK (kind = 'free' OR target IS NOT NULL),
    CHECK (kind = 'target' OR free_until IS NOT NULL)
);
"""


def default_state_path() -> Path:
    """``$PLANNER_STATE``, else ``~/.local/state/sbb-planner/groups.sqlite``."""
    env = os.environ.get("PLANNER_STATE")
    if env:
        return Path(env).expanduser()
    return Path.home() / ".local" / "state" / "sbb-planner" / "groups.sqlite"


@dataclass(frozen=True)
class Roll:
    """A roll as the caller computed it (input of :meth:`GroupStore.record_roll` / :meth:`Transaction.add`).

    ``kind`` is ``"target"`` (with ``target`` the assigned station, toll line or tunnel) or ``"free"``
    (with ``free_until`` the end of the free movement, seconds after midnight).
    """

    time: int
    dice: tuple[int, ...]
    kind: str
    target: str | None = None
    free_until: int | None = None
    position: str | None = None
    roll_id: str | None = None

    def __post_init__(self) -> None:
        # Checked here so a bad roll is an InputError, not a SQLite constraint failure.
        if self.kind not in KINDS:
            raise InputError(f"roll kind {self.kind!r} is not one of {', '.join(KINDS)}")
        if self.kind == "target" and not self.target:
            raise InputError("a roll of kind 'target' needs a target name")
        if self.kind == "free" and self.free_until is None:
            raise InputError("a roll of kind 'free' needs free_until")
        try:
            dice = tuple(operator.index(d) for d in self.dice)  # accepts numpy ints, rejects floats
        except TypeError:
            dice = ()
        if not dice or any(isinstance(d, bool) for d in self.dice):
            raise InputError(f"dice {self.dice!r} must be one or more whole numbers")
        object.__setattr__(self, "dice", dice)
        object.__setattr__(self, "time", operator.index(self.time))


@dataclass(frozen=True)
class RollRecord:
    """A recorded roll (output of the store)."""

    game: str
    date: str
    group: str
    seq: int
    time: int
    dice: tuple[int, ...]
    kind: str
    target: str | None
    free_until: int | None
    position: str | None
    created_at: str
    roll_id: str | None


_COLS = "game, date, grp, seq, time_s, dice, kind, target, free_until, position, created_at, roll_id"


def _record(row: tuple) -> RollRecord:
    game, date, grp, seq, time_s, dice, kind, target, free_until, position, created_at, roll_id = row
    return RollRecord(game, date, grp, int(seq), int(time_s), tuple(int(d) for d in json.loads(dice)), kind,
                      target, None if free_until is None else int(free_until), position, created_at, roll_id)


def _date(date: dt.date | str) -> str:
    if isinstance(date, dt.date):
        return date.isoformat()
    try:
        return dt.date.fromisoformat(str(date)).isoformat()
    except ValueError:
        raise InputError(f"date {date!r} is not YYYY-MM-DD") from None


class Transaction:
    """One group's write transaction (from :meth:`GroupStore.transaction`); valid inside the ``with`` only."""

    def __init__(self, store: GroupStore, conn: sqlite3.Connection, game: str, date: str, group: str):
        self._store, self._conn = store, conn
        self.game, self.date, self.group = game, date, group
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

    def find(self, roll_id: str) -> RollRecord | None:
        """The roll recorded under a client ``roll_id`` (any group), or None."""
        self._check()
        row = self._conn.execute(f"SELECT {_COLS} FROM rolls WHERE roll_id = ?", (roll_id,)).fetchone()
        return _record(row) if row else None

    def add(self, roll: Roll) -> RollRecord:
        """Record ``roll`` as this group's next roll and return it.

        When ``roll.roll_id`` was already recorded (a retried command), nothing is written and the
        first record is returned; reusing an id for another group or other dice is an InputError.
        """
        self._check()
        if roll.roll_id is not None:
            old = self.find(roll.roll_id)
            if old is not None:
                return self._store._replay(old, self.game, self.date, self.group, roll)
        (seq,) = self._conn.execute(
            "SELECT COALESCE(MAX(seq), 0) + 1 FROM rolls WHERE game = ? AND date = ? AND grp = ?",
            (self.game, self.date, self.group)).fetchone()
        created = dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds")
        self._conn.execute(
            f"INSERT INTO rolls ({_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (self.game, self.date, self.group, seq, int(roll.time), json.dumps(list(roll.dice)), roll.kind,
             roll.target, roll.free_until, roll.position, created, roll.roll_id))
        return RollRecord(self.game, self.date, self.group, seq, int(roll.time), roll.dice, roll.kind, roll.target,
                          roll.free_until, roll.position, created, roll.roll_id)

    def undo_last(self) -> RollRecord | None:
        """Delete this group's latest roll and return it (None when the group has no roll)."""
        self._check()
        row = self._conn.execute(
            f"SELECT {_COLS} FROM rolls WHERE game = ? AND date = ? AND grp = ? ORDER BY seq DESC LIMIT 1",
            (self.game, self.date, self.group)).fetchone()
        if row is None:
            return None
        rec = _record(row)
        self._conn.execute("DELETE FROM rolls WHERE game = ? AND date = ? AND grp = ? AND seq = ?",
                           (self.game, self.date, self.group, rec.seq))
        return rec


class GroupStore:
    """The groups' rolls, one SQLite file shared by all processes (see module docstring).

    Opening is lazy: the file is created (with its folder) on first use. Use as a context manager or
    call :meth:`close`. A store object belongs to one thread; each process opens its own.
    """

    def __init__(self, path: str | Path | None = None, *, timeout: float = DEFAULT_TIMEOUT):
        self.path = Path(path).expanduser() if path is not None else default_state_path()
        self.timeout = float(timeout)
        self._conn: sqlite3.Connection | None = None

    # ---- connection and schema ---------------------------------------------------------------------
    def __enter__(self) -> GroupStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection (reopened on next use)."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def _fail(self, exc: BaseException) -> PlannerError:
        """Translate a sqlite3/OS error into a one-line PlannerError naming the file."""
        msg = str(exc).lower()
        if "locked" in msg or "busy" in msg:
            return PlannerError(f"group state {self.path}: locked by another planner process for more than "
                                f"{self.timeout:g} s; try again")
        if "not a database" in msg or "malformed" in msg or "corrupt" in msg:
            return PlannerError(f"group state {self.path}: not a valid SQLite database (corrupt?); "
                                "move it aside to start afresh")
        if "readonly" in msg or "read-only" in msg or "unable to open" in msg or isinstance(exc, OSError):
            return PlannerError(f"group state {self.path}: cannot write there ({exc}); "
                                "set PLANNER_STATE to a writable file")
        return PlannerError(f"group state {self.path}: {exc}")

    def _connect(self) -> sqlite3.Connection:
        if self._conn is not None:
            return self._conn
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # The state is the groups' (and later their tokens'): 0600, whatever the umask. SQLite gives its
            # -wal and -shm files the database file's mode.
            # Only when it is missing: closing any descriptor of the file drops every POSIX lock this process
            # holds on it, so doing this while another thread's connection holds SQLite's locks breaks them
            # ("disk I/O error" in a multi-threaded server).
            if not self.path.exists():
                os.close(os.open(self.path, os.O_CREAT | os.O_RDWR, 0o600))
            # isolation_level=None: no implicit transactions; we issue BEGIN IMMEDIATE ourselves.
            conn = sqlite3.connect(self.path, timeout=self.timeout, isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            raise self._fail(exc) from None
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(self.timeout * 1000)}")
            self._setup(conn)
        except sqlite3.Error as exc:
            conn.close()
            raise self._fail(exc) from None
        except PlannerError:
            conn.close()
            raise
        self._conn = conn
        return conn

    def _setup(self, conn: sqlite3.Connection) -> None:
        # journal_mode is persistent in the file; switching needs a moment of exclusive access, which
        # the busy handler waits for. FULL sync: a committed roll survives a power cut, too.
        if conn.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
            mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0].lower()
            if mode != "wal":
                raise PlannerError(f"group state {self.path}: cannot switch to WAL mode (got {mode}); "
                                   "is it on a network file system?")
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA foreign_keys = ON")
        version, app = self._versions(conn)
        if version == SCHEMA_VERSION and app == APPLICATION_ID:
            return
        conn.execute("BEGIN IMMEDIATE")  # re-check under the write lock: another process may be creating it
        try:
            version, app = self._versions(conn)
            if version == 0 and app == 0:
                tables = conn.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table'").fetchone()[0]
                if tables:
                    raise PlannerError(f"group state {self.path}: a SQLite database of another program; "
                                       "set PLANNER_STATE to another file")
                for stmt in _SCHEMA.split(";"):
                    if stmt.strip():
                        conn.execute(stmt)
                conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            elif app != APPLICATION_ID:
                raise PlannerError(f"group state {self.path}: a SQLite database of another program; "
                                   "set PLANNER_STATE to another file")
            elif version > SCHEMA_VERSION:
                raise PlannerError(f"group state {self.path}: written by a newer planner (schema {version}, "
                                   f"this one knows {SCHEMA_VERSION}); update the planner")
            elif version < SCHEMA_VERSION:  # pragma: no cover - no older schema exists yet
                raise PlannerError(f"group state {self.path}: schema {version} has no migration")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    @staticmethod
    def _versions(conn: sqlite3.Connection) -> tuple[int, int]:
        return (conn.execute("PRAGMA user_version").fetchone()[0],
                conn.execute("PRAGMA application_id").fetchone()[0])

    # ---- writes ------------------------------------------------------------------------------------
    @contextmanager
    def transaction(self, game: str, date: dt.date | str, group: int | str) -> Iterator[Transaction]:
        """A write transaction for one group: read ``tx.targeted()``, compute, ``tx.add(roll)``.

        Holds the database's write lock from entry (``BEGIN IMMEDIATE``) to exit, so the read and the
        insert are atomic against every other process. Commits on normal exit, rolls back on an exception.
        """
        conn = self._connect()
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise self._fail(exc) from None
        tx = Transaction(self, conn, str(game), _date(date), str(group))
        try:
            yield tx
        except BaseException as exc:
            tx._open = False
            try:
                conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass  # the original error matters more
            if isinstance(exc, sqlite3.Error):
                raise self._fail(exc) from None
            raise
        tx._open = False
        try:
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            try:
                conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            raise self._fail(exc) from None

    def record_roll(self, game: str, date: dt.date | str, group: int | str,
                    roll: Roll | Callable[[list[str]], Roll], *, roll_id: str | None = None) -> RollRecord:
        """Record a group's next roll atomically and return the record.

        ``roll`` is either a finished :class:`Roll` or a function ``targeted -> Roll`` called inside
        the transaction with the names targeted so far (so the result accounts for every earlier roll,
        even one recorded a moment ago by another process). ``roll_id`` (or ``roll.roll_id``) makes the
        call idempotent: if that id was recorded before, the earlier record is returned and the function
        is not called.
        """
        with self.transaction(game, date, group) as tx:
            rid = roll_id if roll_id is not None else getattr(roll, "roll_id", None)
            if rid is not None and (old := tx.find(rid)) is not None:
                return self._replay(old, tx.game, tx.date, tx.group, roll if isinstance(roll, Roll) else None)
            r = roll if isinstance(roll, Roll) else roll(tx.targeted())
            if rid is not None and r.roll_id != rid:
                r = dataclasses.replace(r, roll_id=rid)
            return tx.add(r)

    def _replay(self, old: RollRecord, game: str, date: str, group: str, roll: Roll | None) -> RollRecord:
        if (old.game, old.date, old.group) != (game, date, group):
            raise InputError(f"roll id {old.roll_id!r} was already used by group {old.group} "
                             f"of game {old.game} on {old.date}")
        if roll is not None and tuple(roll.dice) != old.dice:
            raise InputError(f"roll id {old.roll_id!r} was already recorded with dice "
                             f"{'-'.join(map(str, old.dice))}, not {'-'.join(map(str, roll.dice))}")
        return old

    def undo_last(self, game: str, date: dt.date | str, group: int | str) -> RollRecord | None:
        """Delete the group's latest roll (its target is no longer targeted); return it, or None if none."""
        with self.transaction(game, date, group) as tx:
            return tx.undo_last()

    def reset(self, game: str, date: dt.date | str, group: int | str | None = None) -> int:
        """Delete all rolls of one group (or of every group when ``group`` is None); return how many."""
        with self.transaction(game, date, "" if group is None else group) as tx:
            if group is None:
                cur = tx._conn.execute("DELETE FROM rolls WHERE game = ? AND date = ?", (tx.game, tx.date))
            else:
                cur = tx._conn.execute("DELETE FROM rolls WHERE game = ? AND date = ? AND grp = ?",
                                       (tx.game, tx.date, tx.group))
            return cur.rowcount

    # ---- reads -------------------------------------------------------------------------------------
    def history(self, game: str, date: dt.date | str, group: int | str) -> list[RollRecord]:
        """The group's rolls of the day, by seq."""
        conn = self._connect()
        try:
            return _history(conn, str(game), _date(date), str(group))
        except sqlite3.Error as exc:
            raise self._fail(exc) from None

    def targeted(self, game: str, date: dt.date | str, group: int | str) -> list[str]:
        """Names the group was sent to so far (RULES.md §3 "Targeted"), distinct, in order of first roll."""
        conn = self._connect()
        try:
            return _targeted(conn, str(game), _date(date), str(group))
        except sqlite3.Error as exc:
            raise self._fail(exc) from None

    def groups(self, game: str, date: dt.date | str) -> list[str]:
        """Groups with at least one roll on the day."""
        conn = self._connect()
        try:
            rows = conn.execute("SELECT DISTINCT grp FROM rolls WHERE game = ? AND date = ? ORDER BY grp",
                                (str(game), _date(date))).fetchall()
        except sqlite3.Error as exc:
            raise self._fail(exc) from None
        return [r[0] for r in rows]


def _history(conn: sqlite3.Connection, game: str, date: str, group: str) -> list[RollRecord]:
    rows = conn.execute(f"SELECT {_COLS} FROM rolls WHERE game = ? AND date = ? AND grp = ? ORDER BY seq",
                        (game, date, group)).fetchall()
    return [_record(r) for r in rows]


def _targeted(conn: sqlite3.Connection, game: str, date: str, group: str) -> list[str]:
    rows = conn.execute(
        "SELECT target FROM rolls WHERE game = ? AND date = ? AND grp = ? AND kind = 'target' "
        "GROUP BY target ORDER BY MIN(seq)", (game, date, group)).fetchall()
    return [r[0] for r in rows]


__all__ = ["GroupStore", "Roll", "RollRecord", "Transaction", "SCHEMA_VERSION", "default_state_path"]
