"""The planner's state database (SQLite, ``$PLANNER_STATE``): opening, schema parts, write transactions.

One file holds every part of the game day's state (the groups' days in :mod:`planner.store.groups`, the ledger in
its own module). Each part registers its tables with :func:`ensure_part` under a name and version, so
modules add tables without knowing each other. Every write is one ``BEGIN IMMEDIATE`` transaction from
:meth:`StateDB.write`; WAL lets readers run while a writer holds the lock; ``busy_timeout`` makes writers
queue instead of failing. Every failure a user can hit is a one-line :class:`PlannerError` naming the path.

Nothing is written before it is needed: a read of a missing file answers from an empty database in memory (a
read-only command creates neither the file nor its folder), and a file of another program is refused before
its journal mode is touched.
"""

from __future__ import annotations

import os
import random
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from planner.errors import DamagedState, PlannerError

FILE_VERSION = 2  # PRAGMA user_version: 1 = rolls only (planner <= 0.1), 2 = parts in planner_parts
APPLICATION_ID = 0x53424250  # "SBBP": marks the file as ours (PRAGMA application_id)
DEFAULT_TIMEOUT = 10.0  # seconds a writer waits for another process's transaction

Migration = Callable[[sqlite3.Connection, int], None]
"""Brings a part from the given version to the current one, inside the write transaction."""


def default_state_path() -> Path:
    """``$PLANNER_STATE``, else ``~/.local/state/sbb-planner/groups.sqlite``."""
    env = os.environ.get("PLANNER_STATE")
    if env:
        return Path(env).expanduser()
    return Path.home() / ".local" / "state" / "sbb-planner" / "groups.sqlite"


class StateDB:
    """One connection to the state file (lazy; one per thread and process)."""

    def __init__(self, path: str | Path | None = None, *, timeout: float = DEFAULT_TIMEOUT):
        self.path = Path(path).expanduser() if path is not None else default_state_path()
        self.timeout = float(timeout)
        self._conn: sqlite3.Connection | None = None
        self._memory = False  # the connection is the empty stand-in of a file that does not exist yet
        self.generation = 0  # +1 per connection opened: parts ensure their tables once per connection

    def close(self) -> None:
        """Close the connection (reopened on next use)."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None
            self._memory = False

    def fail(self, exc: BaseException) -> PlannerError:
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

    def connect(self, *, create: bool = True) -> sqlite3.Connection:
        """The open connection (the file created with its folder on first use, WAL, file version checked).

        Without ``create`` a missing file is not made: reads get an empty database in memory, replaced by
        the file as soon as it exists or something is written."""
        if self._conn is not None:
            if not self._memory or (not create and not self.path.exists()):
                return self._conn
            self.close()  # the stand-in gives way to the real file
        if not create and not self.path.exists():
            return self._open_memory()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # The state holds the groups (and the web app's token hashes): 0600, whatever the umask; SQLite
            # gives its -wal and -shm files the database file's mode. Only when it is missing: closing any
            # descriptor of the file drops every POSIX lock this process holds on it, which breaks another
            # thread's SQLite locks ("disk I/O error" in a multi-threaded server).
            if not self.path.exists():
                os.close(os.open(self.path, os.O_CREAT | os.O_RDWR, 0o600))
            # isolation_level=None: no implicit transactions; writes issue BEGIN IMMEDIATE themselves.
            conn = sqlite3.connect(self.path, timeout=self.timeout, isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            raise self.fail(exc) from None
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(self.timeout * 1000)}")
            self._setup(conn)
        except sqlite3.Error as exc:
            conn.close()
            raise self.fail(exc) from None
        except PlannerError:
            conn.close()
            raise
        self._conn = conn
        self.generation += 1
        return conn

    def in_use(self) -> sqlite3.Connection:
        """The connection open now (the file, or the stand-in of a missing one), else the file's."""
        return self._conn if self._conn is not None else self.connect()

    def _open_memory(self) -> sqlite3.Connection:
        conn = sqlite3.connect(":memory:", isolation_level=None)
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.execute(f"PRAGMA user_version = {FILE_VERSION}")
        conn.execute("CREATE TABLE planner_parts (part TEXT PRIMARY KEY, version INTEGER)")
        self._conn, self._memory = conn, True
        self.generation += 1
        return conn

    def _other_program(self) -> PlannerError:
        return PlannerError(f"group state {self.path}: a SQLite database of another program; "
                            "set PLANNER_STATE to another file")

    def _setup(self, conn: sqlite3.Connection) -> None:
        # Another program's database is refused before anything in it changes (the WAL switch below
        # rewrites its header): ours carries our application_id, a new one is empty.
        version, app = _versions(conn)
        if app != APPLICATION_ID and (app != 0 or version != 0 or _has_tables(conn)):
            raise self._other_program()
        # journal_mode is persistent in the file; switching needs a moment of exclusive access, which
        # the busy handler waits for. FULL sync: a committed roll survives a power cut, too.
        if conn.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
            mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0].lower()
            if mode != "wal":
                raise PlannerError(f"group state {self.path}: cannot switch to WAL mode (got {mode}); "
                                   "is it on a network file system?")
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA foreign_keys = ON")
        version, app = _versions(conn)
        if version == FILE_VERSION and app == APPLICATION_ID:
            return
        conn.execute("BEGIN IMMEDIATE")  # re-check under the write lock: another process may be creating it
        try:
            version, app = _versions(conn)
            if version == 0 and app == 0:
                if _has_tables(conn):
                    raise self._other_program()
            elif app != APPLICATION_ID:
                raise self._other_program()
            elif version > FILE_VERSION:
                raise PlannerError(f"group state {self.path}: written by a newer planner (schema {version}, "
                                   f"this one knows {FILE_VERSION}); update the planner")
            if version < FILE_VERSION:
                conn.execute("CREATE TABLE IF NOT EXISTS planner_parts (part TEXT PRIMARY KEY, version INTEGER)")
                if version == 1:  # the rolls table of planner 0.1 is the groups part at version 1
                    conn.execute("INSERT OR REPLACE INTO planner_parts VALUES ('groups', 1)")
                conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                conn.execute(f"PRAGMA user_version = {FILE_VERSION}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    @contextmanager
    def write(self, *, create: bool = True) -> Iterator[sqlite3.Connection]:
        """One write transaction (``BEGIN IMMEDIATE`` .. ``COMMIT``; rolled back on an exception).

        Hold it only to re-check and record: compute answers before entering it, so another process
        building a game day never keeps the lock. ``create=False`` writes on the connection in use (a part's
        tables in the in-memory stand-in of a missing file).
        """
        conn = self.connect() if create else self.in_use()
        self._begin(conn)
        try:
            yield conn
        except BaseException as exc:
            try:
                conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass  # the original error matters more
            if isinstance(exc, sqlite3.Error):
                raise self.fail(exc) from None
            if isinstance(exc, DamagedState):
                raise exc.at(self.path) from None
            raise
        try:
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            try:
                conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            raise self.fail(exc) from None

    def _begin(self, conn: sqlite3.Connection) -> None:
        """``BEGIN IMMEDIATE``, retried with backoff while another process holds the lock, until
        :attr:`timeout` has passed: SQLite's busy handler alone can give up early (a WAL file being
        reset or checkpointed answers "locked" at once)."""
        deadline = time.monotonic() + self.timeout
        pause = 0.02
        while True:
            try:
                conn.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.Error as exc:
                msg = str(exc).lower()
                if ("locked" not in msg and "busy" not in msg) or time.monotonic() + pause > deadline:
                    raise self.fail(exc) from None
            time.sleep(pause * random.uniform(0.5, 1.5))  # jitter: waiting processes do not retry in step
            pause = min(pause * 2, 0.5)

    def read(self, sql: str, params: tuple = ()) -> list[tuple]:
        """Rows of one read query (WAL: never waits for a writer; a missing file reads as empty)."""
        conn = self.connect(create=False)
        try:
            return conn.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise self.fail(exc) from None


def _has_tables(conn: sqlite3.Connection) -> bool:
    return bool(conn.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table'").fetchone()[0])


def _versions(conn: sqlite3.Connection) -> tuple[int, int]:
    return (conn.execute("PRAGMA user_version").fetchone()[0], conn.execute("PRAGMA application_id").fetchone()[0])


def ensure_part(db: StateDB, part: str, version: int, ddl: str, migrate: Migration | None = None) -> None:
    """Create (or migrate) the tables of one part of the state, once per file.

    ``ddl`` is the part's ``CREATE TABLE`` statements at ``version``; ``migrate(conn, old)`` upgrades an
    older file. A file with a newer version of the part is an error (an older planner must not write it).
    """
    conn = db.in_use()  # the file, or the stand-in of a missing one a reader opened

    def current() -> int | None:
        row = conn.execute("SELECT version FROM planner_parts WHERE part = ?", (part,)).fetchone()
        return None if row is None else int(row[0])

    try:
        have = current()
    except sqlite3.Error as exc:
        raise db.fail(exc) from None
    if have == version:
        return
    with db.write(create=False):
        have = current()
        if have is None:
            for stmt in _statements(ddl):
                conn.execute(stmt)
        elif have > version:
            raise PlannerError(f"group state {db.path}: written by a newer planner ({part} schema {have}, "
                               f"this one knows {version}); update the planner")
        elif have < version:
            if migrate is None:
                raise PlannerError(f"group state {db.path}: {part} schema {have} has no migration")
            migrate(conn, have)
        conn.execute("INSERT OR REPLACE INTO planner_parts VALUES (?, ?)", (part, version))


def _statements(ddl: str) -> Iterator[str]:
    """The SQL statements of ``ddl``, split at the semicolons that end one (a trigger's body holds more)."""
    buf = ""
    for piece in ddl.split(";"):
        buf += piece + ";"
        if sqlite3.complete_statement(buf):
            if buf.strip(" \t\n;"):
                yield buf
            buf = ""


class StatePart:
    """One part of the state file with tables of its own (:func:`ensure_part`), on one connection that opens
    lazily (the file is created on first use). Use as a context manager or call :meth:`close`; an object
    belongs to one thread, each process opens its own. Subclasses name the part and its schema."""

    PART: str
    VERSION: int
    DDL: str
    MIGRATE: Migration | None = None

    def __init__(self, path: str | Path | None = None, *, timeout: float = DEFAULT_TIMEOUT):
        self.db = StateDB(path, timeout=timeout)
        self.path, self.timeout = self.db.path, self.db.timeout
        self._ready = 0  # the db.generation this part's tables were ensured on

    def __enter__(self):
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection (reopened on next use)."""
        self.db.close()
        self._ready = 0

    def _connect(self, *, create: bool = False) -> sqlite3.Connection:
        """The connection, with this part's tables created or migrated (once per connection). Reads leave
        ``create`` off: a missing file is then read as empty, not made."""
        conn = self.db.connect(create=create)
        if self._ready != self.db.generation:
            ensure_part(self.db, self.PART, self.VERSION, self.DDL, self.MIGRATE)
            self._ready = self.db.generation
        return conn
