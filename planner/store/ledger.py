"""The ledger's events in the group-state SQLite file (adapter): append-only, one transaction each.

The file, its connection and its write transactions are planner/store/db.py's (WAL, ``busy_timeout``,
``BEGIN IMMEDIATE``), reached through the group store sharing the connection; this module only adds its
own table. Every event is recorded under the write
lock: the day's events are read and replayed, the new event is checked against that state, and it is
inserted in the same transaction. Two processes buying one station therefore never both see it unowned:
the second is refused with the owner named, or, in the same minute (§7.2), recorded as a pending
dice-off. Triggers make the table append-only.
"""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from planner.errors import PlannerError
from planner.ledger.apply import Outcome, apply, replay
from planner.ledger.model import Event, LedgerState
from planner.ledger.rules import LedgerRules
from planner.store.db import DEFAULT_TIMEOUT, ensure_part
from planner.store.groups import GroupStore

PART_VERSION = 1  # the ledger's tables in the state file (planner.store.db.ensure_part)
_SCHEMA = """
CREATE TABLE IF NOT EXISTS ledger_events (
    id          INTEGER PRIMARY KEY,
    game        TEXT    NOT NULL,
    date        TEXT    NOT NULL,
    seq         INTEGER NOT NULL CHECK (seq >= 1),
    grp         TEXT    NOT NULL,
    kind        TEXT    NOT NULL,
    time_s      INTEGER NOT NULL,
    event       TEXT    NOT NULL,              -- JSON of planner.ledger.model.Event
    amount      INTEGER NOT NULL,
    message     TEXT    NOT NULL,
    tell        TEXT    NOT NULL,              -- '*' all other groups, a group, '' nobody
    pending     INTEGER NOT NULL DEFAULT 0,    -- a §7.2 dice-off, not (yet) a purchase
    transfers   TEXT    NOT NULL,              -- JSON [[payer, payee, amount], ...]
    created_at  TEXT    NOT NULL,
    event_id    TEXT    UNIQUE,
    UNIQUE (game, date, seq)
);
CREATE TRIGGER IF NOT EXISTS ledger_events_no_update BEFORE UPDATE ON ledger_events
BEGIN SELECT RAISE(ABORT, 'ledger events are append-only'); END;
CREATE TRIGGER IF NOT EXISTS ledger_events_no_delete BEFORE DELETE ON ledger_events
BEGIN SELECT RAISE(ABORT, 'ledger events are append-only'); END;
"""


@dataclass(frozen=True)
class Recorded:
    """One stored event with what it did."""

    seq: int
    event: Event
    amount: int
    message: str
    tell: str
    pending: bool
    transfers: tuple[tuple[str, str, int], ...]

    def to_json(self) -> dict:
        """The feed / CLI shape of a recorded event."""
        return {"seq": self.seq, **self.event.to_json(), "amount": self.amount, "message": self.message,
                "tell": self.tell, "pending": self.pending, "transfers": [list(t) for t in self.transfers]}


Check = Callable[[LedgerState, list[Event]], None]


class LedgerStore:
    """The ledger of every game day in ``$PLANNER_STATE`` (one connection; one object per thread)."""

    def __init__(self, path: str | Path | None = None, *, timeout: float = DEFAULT_TIMEOUT,
                 groups: GroupStore | None = None):
        """The ledger of the state file at ``path``, or (``groups``) on that open group store's connection,
        which stays open when this store closes (a roll reads the fees on the connection it records with)."""
        self._owns = groups is None
        self._groups = GroupStore(path, timeout=timeout) if groups is None else groups
        self.path = self._groups.path
        self._ready = False

    def __enter__(self) -> LedgerStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection (not a shared group store's)."""
        if self._owns:
            self._groups.close()

    @property
    def groups(self) -> GroupStore:
        """The group store sharing this file (rolls and positions)."""
        return self._groups

    def _conn(self, *, create: bool = True) -> sqlite3.Connection | None:
        """The connection; without ``create``, None while the table does not exist yet (reads of an empty
        ledger never take the write lock, so pricing inside a roll's transaction never waits)."""
        conn = self._groups._connect()  # the group store's file, pragmas and schema checks
        if not self._ready:
            if not create:  # a read: an existing table is read as it is, a missing one is an empty ledger
                return conn if _has_table(conn) else None
            ensure_part(self._groups.db, "ledger", PART_VERSION, _SCHEMA)
            self._ready = True
        return conn

    # ---- writes ------------------------------------------------------------------------------------
    def record(self, rules: LedgerRules, date: dt.date | str, event: Event, *, check: Check | None = None,
               event_id: str | None = None) -> tuple[Recorded, ...]:
        """Check and record ``event`` (and the group's joining, on first use) in one transaction.

        ``check(state, events)`` runs under the write lock before the rules, to refuse what contradicts
        what else is known (the group's position). Returns the rows written, the event last. A repeated
        ``event_id`` writes nothing and returns the first record.
        """
        conn = self._conn()
        assert conn is not None
        day = _day(date)
        with self._groups.db.write():
            if event_id is not None:
                old = _rows(conn, "WHERE event_id = ?", (event_id,))
                if old:
                    return tuple(old)
            events = [r.event for r in _rows(conn, "WHERE game = ? AND date = ?", (rules.game, day))]
            state = replay(rules, events)
            seq = len(events)
            written = []
            if event.group not in state.cash:
                join = apply(rules, state, Event("join", event.group, rules.start))
                seq += 1
                written.append(_insert(conn, rules.game, day, seq, join, None))
                state = join.state
                events.append(join.event)
            if check is not None:
                check(state, events)
            out = apply(rules, state, event)
            written.append(_insert(conn, rules.game, day, seq + 1, out, event_id))
        return tuple(written)

    # ---- reads -------------------------------------------------------------------------------------
    def events(self, game: str, date: dt.date | str, since: int = 0) -> list[Recorded]:
        """The day's events after seq ``since``, in order."""
        conn = self._conn(create=False)
        if conn is None:
            return []
        try:
            return _rows(conn, "WHERE game = ? AND date = ? AND seq > ?", (game, _day(date), since))
        except sqlite3.Error as exc:
            raise self._groups.db.fail(exc) from None

    def state(self, rules: LedgerRules, date: dt.date | str) -> LedgerState:
        """The ledger state of the day (a replay of its events)."""
        return replay(rules, [r.event for r in self.events(rules.game, date)])

    def feed(self, game: str, date: dt.date | str, group: str, since: int = 0) -> list[Recorded]:
        """The events ``group`` must be told of (§13) since event ``since``: others' events told to all
        or to it (a fee it was paid); the web app's live feed reads this."""
        conn = self._conn(create=False)
        if conn is None:
            return []
        try:
            return _rows(conn, "WHERE game = ? AND date = ? AND seq > ? AND grp != ? AND "
                                       "(tell = '*' OR tell = ?)", (game, _day(date), since, group, group))
        except sqlite3.Error as exc:
            raise self._groups.db.fail(exc) from None


def _has_table(conn: sqlite3.Connection) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'ledger_events'").fetchone() \
        is not None


def _day(date: dt.date | str) -> str:
    try:
        return date.isoformat() if isinstance(date, dt.date) else dt.date.fromisoformat(str(date)).isoformat()
    except ValueError:
        raise PlannerError(f"date {date!r} is not YYYY-MM-DD") from None


_COLS = "seq, event, amount, message, tell, pending, transfers"


def _rows(conn: sqlite3.Connection, where: str, params: tuple) -> list[Recorded]:
    rows = conn.execute(f"SELECT {_COLS} FROM ledger_events {where} ORDER BY game, date, seq", params).fetchall()
    return [Recorded(int(seq), Event.from_json(json.loads(ev)), int(amount), msg, tell, bool(pending),
                     tuple((a, b, int(c)) for a, b, c in json.loads(tr)))
            for seq, ev, amount, msg, tell, pending, tr in rows]


def _insert(conn: sqlite3.Connection, game: str, day: str, seq: int, out: Outcome, event_id: str | None) -> Recorded:
    transfers = tuple((t.payer, t.payee, t.amount) for t in out.transfers)
    rec = Recorded(seq, out.event, out.amount, out.message, out.tell, out.pending, transfers)
    conn.execute(
        "INSERT INTO ledger_events (game, date, seq, grp, kind, time_s, event, amount, message, tell, pending, "
        "transfers, created_at, event_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (game, day, seq, out.event.group, out.event.kind, out.event.time, json.dumps(out.event.to_json()),
         out.amount, out.message, out.tell, int(out.pending), json.dumps([list(t) for t in transfers]),
         dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds"), event_id))
    return rec
