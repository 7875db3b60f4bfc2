"""The planner's state database (SQLite, ``$PLANNER_STATE``): opening, schema parts, write transactions.

One file holds every game's state (:mod:`planner.store.tables`: games, groups, their days, the ledger). Each part
registers its tables with :func:`ensure_part` under a name and version; a file of an older planner is migrated once
(:mod:`planner.store.migrate`). Every write is one ``BEGIN IMMEDIATE`` transaction from
:meth:`StateDB.write`; WAL lets readers run while a writer holds the lock; ``busy_timeout`` makes writers
queue instead of failing, and the set-up of a file (many processes may create one at once) is retried with backoff
where SQLite's busy handler does not wait. Every failure a user can hit is a one-line :class:`PlannerError` naming
the path. A file of another program is refused before its journal mode is touched.
"""

from __future__ import annotations

import os
import random
import sqlite3
import stat
import time
import urllib.parse
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from planner import config
from planner.errors import DamagedState, PlannerError
from planner.store.migrate import migrate_to_3
from planner.util.i18n import _

FILE_VERSION = 3  # PRAGMA user_version: 2 = parts by game file and date, 3 = every row names its game
APPLICATION_ID = 0x53424250  # "SBBP": marks the file as ours (PRAGMA application_id)
DEFAULT_TIMEOUT = 10.0  # seconds a writer waits for another process's transaction
MEMORY = ":memory:"

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

    def __init__(self, path: str | Path | None = None, *, timeout: float = DEFAULT_TIMEOUT, read_only: bool = False):
        # ``":memory:"``: a state of this connection only (simulated game days, property tests)
        self.memory = str(path) == MEMORY
        # a command that only reads: the file is opened read-only, and its folder need not be writable
        self.read_only = read_only and not self.memory
        self.path = Path(path).expanduser() if path is not None else default_state_path()
        self.timeout = float(timeout)
        self._conn: sqlite3.Connection | None = None
        self.opened = 0  # connections opened so far: what a cache of this connection's reads is valid for
        self._outer = False  # inside atomic(): writes are savepoints of its transaction

    def mark(self, conn: sqlite3.Connection) -> tuple[int, int] | None:
        """What the database's content is known by on ``conn``, for a cache of its reads: two equal marks mean
        nothing changed in between. Only for a state of this connection alone (``":memory:"``), whose own
        changes are all there are (``total_changes`` counts every row written, even one rolled back later). None
        (not known; a cache checks the rows) for a file, which other processes change unseen here, and inside a
        transaction, whose writes read now may still be rolled back without changing the count."""
        if not self.memory or conn.in_transaction:
            return None
        return (self.opened, conn.total_changes)

    def unchanged(self, conn: sqlite3.Connection, mark: tuple[int, int] | None) -> bool:
        """True when nothing changed on ``conn`` since :meth:`mark` gave ``mark`` (inside a transaction too: a
        write counts at once, and its rollback does not take it back)."""
        return mark is not None and self.memory and (self.opened, conn.total_changes) == mark

    def exists(self) -> bool:
        """True when the state file exists (a read of a missing file creates nothing)."""
        return self.memory or self._conn is not None or self.path.exists()

    def close(self) -> None:
        """Close the connection (reopened on next use)."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def fail(self, exc: BaseException) -> PlannerError:
        """Translate a sqlite3/OS error into a one-line PlannerError naming the file."""
        msg = str(exc).lower()
        if "locked" in msg or "busy" in msg:
            return PlannerError(_("group state {path}: locked by another planner process for more than {seconds} s; "
                                  "try again").format(path=self.path, seconds=f"{self.timeout:g}"))
        if "not a database" in msg or "malformed" in msg or "corrupt" in msg:
            return PlannerError(_("group state {path}: not a valid SQLite database (corrupt?); move it aside to start "
                                  "afresh").format(path=self.path))
        if self.read_only and ("unable to open" in msg or isinstance(exc, OSError)):
            return PlannerError(_("group state {path}: cannot be read ({why})").format(path=self.path, why=exc))
        if "readonly" in msg or "read-only" in msg or "unable to open" in msg or isinstance(exc, OSError):
            return PlannerError(_("group state {path}: cannot write there ({why}); set {env} to a writable "
                                  "file").format(path=self.path, why=exc, env="PLANNER_STATE"))
        return PlannerError(f"group state {self.path}: {exc}")

    def connect(self) -> sqlite3.Connection:
        """The open connection (created with its folder on first use, WAL, file version checked)."""
        if self._conn is not None:
            return self._conn
        if self.memory:
            conn = sqlite3.connect(MEMORY, isolation_level=None)
            conn.execute("PRAGMA foreign_keys = ON")
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            conn.execute(f"PRAGMA user_version = {FILE_VERSION}")
            conn.execute("CREATE TABLE planner_parts (part TEXT PRIMARY KEY, version INTEGER)")
            self._conn = conn
            self.opened += 1
            return conn
        self._refuse_special()
        if self.read_only:
            self._conn = self._connect_read_only()
            self.opened += 1
            return self._conn
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
        self.opened += 1
        return conn

    def _refuse_special(self) -> None:
        """A state path that is a pipe or a device (a FIFO blocks a reader for good, /dev/zero reads as an empty
        database) is refused before SQLite opens it."""
        try:
            mode = os.stat(self.path).st_mode
        except OSError:
            return  # missing (created by a write), or unreadable: SQLite says so
        if not stat.S_ISREG(mode):
            raise PlannerError(_("group state {path}: not a regular file (a folder, pipe or device); set "
                                 "PLANNER_STATE to a file").format(path=self.path))

    def _connect_read_only(self) -> sqlite3.Connection:
        """The file opened for reading only (``mode=ro``): nothing is created or changed, so it reads a state in a
        folder it may not write. SQLite's readers of a WAL file need its ``-shm`` index, which a reader cannot make
        in such a folder; when no ``-wal`` file is there either, everything is in the database file and no writer
        is at work, and the file is read as unchanging (``immutable``) instead."""
        uri = "file:" + urllib.parse.quote(str(self.path.absolute())) + "?mode=ro"
        conn = None
        try:
            conn = sqlite3.connect(uri, uri=True, timeout=self.timeout, isolation_level=None)
            conn.execute(f"PRAGMA busy_timeout = {int(self.timeout * 1000)}")
            try:
                version, app = _versions(conn)
            except sqlite3.OperationalError as exc:
                wal = self.path.with_name(self.path.name + "-wal")
                if "unable to open" not in str(exc).lower() or wal.exists():
                    raise
                conn.close()
                conn = sqlite3.connect(uri + "&immutable=1", uri=True, isolation_level=None)
                version, app = _versions(conn)
            if app != APPLICATION_ID and (app != 0 or version != 0 or _has_tables(conn)):
                raise self._other_program()
            if app == APPLICATION_ID and version > FILE_VERSION:
                raise newer_schema(self.path, version, FILE_VERSION)
            if app == APPLICATION_ID and version < FILE_VERSION:
                raise PlannerError(_("group state {path}: written by an older planner (schema {version}); a command "
                                     "that records (a roll, a ledger event) brings it up to date first").format(
                                         path=self.path, version=version))
        except sqlite3.Error as exc:
            if conn is not None:
                conn.close()
            raise self.fail(exc) from None
        except PlannerError:
            if conn is not None:
                conn.close()
            raise
        return conn

    def _other_program(self) -> PlannerError:
        return PlannerError(_("group state {path}: a SQLite database of another program; set {env} to another "
                              "file").format(path=self.path, env="PLANNER_STATE"))

    def _setup(self, conn: sqlite3.Connection) -> None:
        """WAL, the file version and the planner's own tables, retried with backoff while another process sets
        up the same new file: SQLite's busy handler does not wait for every lock of it (the journal-mode switch,
        a WAL being recovered answer "locked" at once)."""
        self._backoff(lambda: self._setup_once(conn), conn)

    def _setup_once(self, conn: sqlite3.Connection) -> None:
        # Another program's database is refused before anything in it changes (the WAL switch below
        # rewrites its header): ours carries our application_id, a new one is empty. The three reads are one
        # snapshot: apart, they can straddle another process's creation of the file (versions read before its
        # commit, tables after) and take our own new file for another program's.
        conn.execute("BEGIN")
        try:
            version, app = _versions(conn)
            tables = _has_tables(conn)
        finally:
            conn.execute("COMMIT")
        if app != APPLICATION_ID and (app != 0 or version != 0 or tables):
            raise self._other_program()
        # journal_mode is persistent in the file; switching needs a moment of exclusive access, which
        # the busy handler waits for. FULL sync: a committed roll survives a power cut, too.
        if conn.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
            mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0].lower()
            if mode != "wal":
                raise PlannerError(_("group state {path}: cannot switch to WAL mode (got {mode}); is it on a "
                                     "network file system?").format(path=self.path, mode=mode))
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA foreign_keys = ON")
        version, app = _versions(conn)
        if version == FILE_VERSION and app == APPLICATION_ID:
            return
        conn.execute("BEGIN IMMEDIATE")  # re-check under the write lock: another process may be creating it
        try:
            version, app = _versions(conn)
            if version == 0 and app == 0:
                if conn.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table'").fetchone()[0]:
                    raise self._other_program()
            elif app != APPLICATION_ID:
                raise self._other_program()
            elif version > FILE_VERSION:
                raise newer_schema(self.path, version, FILE_VERSION)
            if version < FILE_VERSION:
                conn.execute("CREATE TABLE IF NOT EXISTS planner_parts (part TEXT PRIMARY KEY, version INTEGER)")
                if version in (1, 2):
                    migrate_to_3(conn, sql_statements, default_game=config.default_game(),
                                 default_date=config.default_date(config.default_feed()))
                conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                conn.execute(f"PRAGMA user_version = {FILE_VERSION}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    @contextmanager
    def atomic(self) -> Iterator[sqlite3.Connection]:
        """One write transaction around several writes of the stores (a roll and the card that turned it into a
        6): every :meth:`write` inside it is a savepoint of it, and nothing is committed unless all of them
        are. On an exception everything is rolled back and the stores' kept reads are dropped (they may
        describe rows that were never committed: :attr:`opened` moves on, which every kept read compares)."""
        if self._outer:
            yield self.connect()
            return
        self._outer = True
        try:
            with self.write() as conn:
                yield conn
        except BaseException:
            self.opened += 1
            raise
        finally:
            self._outer = False

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (``BEGIN IMMEDIATE`` .. ``COMMIT``; rolled back on an exception); inside
        :meth:`atomic`, a savepoint of its transaction.

        Hold it only to re-check and record: compute answers before entering it, so another process
        building a game day never keeps the lock.
        """
        conn = self.connect()
        if self._outer and conn.in_transaction:
            yield from self._savepoint(conn)
            return
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

    def _savepoint(self, conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
        """A write inside :meth:`atomic`: its own changes undone on an exception, the rest kept for the outer
        commit."""
        conn.execute("SAVEPOINT planner_write")
        try:
            yield conn
        except BaseException:
            conn.execute("ROLLBACK TO planner_write")
            conn.execute("RELEASE planner_write")
            raise
        conn.execute("RELEASE planner_write")

    def _begin(self, conn: sqlite3.Connection) -> None:
        """``BEGIN IMMEDIATE``, retried with backoff while another process holds the lock, until
        :attr:`timeout` has passed: SQLite's busy handler alone can give up early (a WAL file being
        reset or checkpointed answers "locked" at once)."""
        try:
            self._backoff(lambda: conn.execute("BEGIN IMMEDIATE"), conn)
        except sqlite3.Error as exc:
            raise self.fail(exc) from None

    def _backoff(self, step: Callable[[], object], conn: sqlite3.Connection) -> None:
        """``step()``, again after a growing pause while it fails with "locked" or "busy", until :attr:`timeout`
        has passed (then, and on any other error, that error). A failed step's open transaction is rolled back
        first, so each try starts afresh."""
        deadline = time.monotonic() + self.timeout
        pause = 0.02
        while True:
            try:
                step()
                return
            except sqlite3.Error as exc:
                msg = str(exc).lower()
                if ("locked" not in msg and "busy" not in msg) or time.monotonic() + pause > deadline:
                    raise
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
            time.sleep(pause * random.uniform(0.5, 1.5))  # jitter: waiting processes do not retry in step
            pause = min(pause * 2, 0.5)

    def read_part(self, ready: Callable[..., bool], fn: Callable[[sqlite3.Connection], object],
                  empty: Callable[[], object]):
        """``fn(conn)`` for a store's read (``ready(create=False)`` false: no state file yet, ``empty()`` is the
        answer and nothing is created); SQLite errors and damaged rows as one line naming the file."""
        if not ready(create=False):
            return empty()
        conn = self.connect()
        try:
            return fn(conn)
        except sqlite3.Error as exc:
            raise self.fail(exc) from None
        except DamagedState as exc:
            raise exc.at(self.path) from None

    def read(self, sql: str, params: tuple = ()) -> list[tuple]:
        """Rows of one read query (WAL: never waits for a writer)."""
        conn = self.connect()
        try:
            return conn.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise self.fail(exc) from None


def _has_tables(conn: sqlite3.Connection) -> bool:
    return bool(conn.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table'").fetchone()[0])


def _versions(conn: sqlite3.Connection) -> tuple[int, int]:
    return (conn.execute("PRAGMA user_version").fetchone()[0], conn.execute("PRAGMA application_id").fetchone()[0])


def sql_statements(ddl: str) -> Iterator[str]:
    """The SQL statements of ``ddl``, split at the semicolons that end one (a trigger's body holds more)."""
    buf = ""
    for piece in ddl.split(";"):
        buf += piece + ";"
        if sqlite3.complete_statement(buf):
            if buf.strip(" \t\n;"):
                yield buf
            buf = ""


def newer_schema(path: object, have: int, knows: int, part: str = "") -> PlannerError:
    """The refusal of a state file (or one ``part`` of it) written by a newer planner."""
    return PlannerError(_("group state {path}: written by a newer planner ({part}schema {have}, this one knows "
                          "{knows}); update the planner").format(path=path, part=f"{part} " if part else "",
                                                                   have=have, knows=knows))
