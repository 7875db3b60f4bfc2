"""The ledger's events in the group-state SQLite file (adapter): append-only, one transaction each.

The file, its connection and its write transactions are planner/store/db.py's (WAL, ``busy_timeout``,
``BEGIN IMMEDIATE``), reached through the group store sharing the connection; this module only adds its
own table. Every event is recorded under the write lock: the day's events are read and replayed, the new
event is checked by the rules against that state, and it is inserted in the same transaction (the position
check, which routes, runs before the lock on the same day's events, and again if the day changed). Two
processes buying one station therefore never both see it unowned:
the second is refused with the owner named, or, in the same minute (§7.2), recorded as a pending
dice-off. Triggers make the table append-only.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from planner.errors import DamagedState, InputError, PlannerError
from planner.ledger.apply import Outcome, apply, replay
from planner.ledger.model import Event, LedgerState
from planner.ledger.rules import LedgerRules
from planner.store.db import DEFAULT_TIMEOUT, ensure_part
from planner.store.groups import GroupStore

PART_VERSION = 1  # the ledger's tables in the state file (planner.store.db.ensure_part)
MAX_RECHECK = 4  # position checks repeated when other events came in meanwhile; then one under the lock
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
        self._ready = 0  # the connection generation the ledger's tables were ensured on

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
        conn = self._groups._connect(create=create)  # the group store's file, pragmas and schema checks
        if self._ready != self._groups.db.generation:
            if not create:  # a read: an existing table is read as it is, a missing one is an empty ledger
                return conn if _has_table(conn) else None
            ensure_part(self._groups.db, "ledger", PART_VERSION, _SCHEMA)
            self._ready = self._groups.db.generation
        return conn

    # ---- writes ------------------------------------------------------------------------------------
    def record(self, rules: LedgerRules, date: dt.date | str, event: Event, *, check: Check | None = None,
               event_id: str | None = None) -> tuple[Recorded, ...]:
        """Check and record ``event`` (and the group's joining, on first use) in one transaction.

        ``check(state, events)`` refuses what contradicts what else is known (the group's position). It
        routes, so it runs before the write lock is taken, on the day as read then; under the lock the
        event is recorded only if the day is still the same (else it is checked again, and after
        :data:`MAX_RECHECK` tries under the lock). Returns the rows written, the event last. A repeated
        ``event_id`` writes nothing and returns the first record when it asks the same of the same group on
        the same day; anything else under a used id is refused, naming the first event (a retry must never
        swallow another event).
        """
        conn = self._conn()
        assert conn is not None
        day = _day(date)
        try:
            return self._record(conn, rules, day, event, check, event_id)
        except sqlite3.Error as exc:
            raise self._groups.db.fail(exc) from None
        except DamagedState as exc:
            raise exc.at(self.path) from None

    def _record(self, conn: sqlite3.Connection, rules: LedgerRules, day: str, event: Event, check: Check | None,
                event_id: str | None) -> tuple[Recorded, ...]:
        seen = 0
        for attempt in range(MAX_RECHECK + 1):
            locked_check = attempt == MAX_RECHECK
            if not locked_check:
                if event_id is not None and (old := self._replayed(conn, rules, day, event, event_id)):
                    return old
                seen = self._checked(conn, rules, day, event, check)
            with self._groups.db.write():
                if event_id is not None and (old := self._replayed(conn, rules, day, event, event_id)):
                    return old
                if locked_check:
                    seen = self._checked(conn, rules, day, event, check)
                elif _count(conn, rules.game, day) != seen:
                    continue  # recorded meanwhile by another process: check again on the new day
                return self._insert_event(conn, rules, day, event, event_id)
        raise AssertionError("unreachable")  # the last attempt returns or raises

    def _replayed(self, conn: sqlite3.Connection, rules: LedgerRules, day: str, event: Event,
                  event_id: str) -> tuple[Recorded, ...]:
        old = _by_event_id(conn, event_id)
        return () if old is None else (_same_event(old, rules.game, day, event, event_id),)

    def _checked(self, conn: sqlite3.Connection, rules: LedgerRules, day: str, event: Event,
                 check: Check | None) -> int:
        """Run ``check`` on the day as recorded now (with the group's joining); the number of events seen."""
        events = [r.event for r in _rows(conn, "WHERE game = ? AND date = ?", (rules.game, day))]
        seen = len(events)
        if check is not None:
            state = replay(rules, events)
            if event.group not in state.cash:
                join = apply(rules, state, Event("join", event.group, rules.start))
                state, events = join.state, [*events, join.event]
            check(state, events)
        return seen

    def _insert_event(self, conn: sqlite3.Connection, rules: LedgerRules, day: str, event: Event,
                      event_id: str | None) -> tuple[Recorded, ...]:
        """Apply the rules to ``event`` on the day as recorded and insert it (under the write lock)."""
        events = [r.event for r in _rows(conn, "WHERE game = ? AND date = ?", (rules.game, day))]
        state = replay(rules, events)
        seq = len(events)
        written = []
        if event.group not in state.cash:
            join = apply(rules, state, Event("join", event.group, rules.start))
            seq += 1
            written.append(_insert(conn, rules.game, day, seq, join, None))
            state = join.state
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
        except DamagedState as exc:
            raise exc.at(self.path) from None

    def state(self, rules: LedgerRules, date: dt.date | str) -> LedgerState:
        """The ledger state of the day (a replay of its events)."""
        try:
            return replay(rules, [r.event for r in self.events(rules.game, date)])
        except DamagedState as exc:
            raise exc.at(self.path) from None

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
        except DamagedState as exc:
            raise exc.at(self.path) from None


def _count(conn: sqlite3.Connection, game: str, day: str) -> int:
    return conn.execute("SELECT count(*) FROM ledger_events WHERE game = ? AND date = ?", (game, day)).fetchone()[0]


def _by_event_id(conn: sqlite3.Connection, event_id: str) -> tuple[str, str, Recorded] | None:
    """(game, date, record) of the event recorded under ``event_id`` (ids are unique in the file)."""
    row = conn.execute("SELECT game, date, seq FROM ledger_events WHERE event_id = ?", (event_id,)).fetchone()
    if row is None:
        return None
    game, day, seq = row
    return game, day, _rows(conn, "WHERE game = ? AND date = ? AND seq = ?", (game, day, seq))[0]


def _same_event(old: tuple[str, str, Recorded], game: str, day: str, event: Event, event_id: str) -> Recorded:
    """The first record of a retried ``event_id``, after checking the retry asks exactly the same (the
    report time aside: a retry is sent later)."""
    old_game, old_day, rec = old
    same = (old_game, old_day) == (game, day) and rec.event.group == event.group and \
        dataclasses.replace(rec.event, reported=None) == dataclasses.replace(event, reported=None)
    if not same:
        raise InputError(f"event id {event_id!r} was already used for event #{rec.seq} of group "
                         f"{rec.event.group} ({rec.message!r}, game {old_game} on {old_day}); "
                         "use a new event id for a new event")
    return rec


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
    return [_recorded(row) for row in rows]


def _recorded(row: tuple) -> Recorded:
    """A stored event, every column checked (a hand-edited row is a :class:`DamagedState`)."""
    seq, ev, amount, msg, tell, pending, tr = row
    try:
        event = Event.from_json(_json(ev, "event"))
        transfers = _json(tr, "transfers")
        if not (isinstance(transfers, list) and all(
                isinstance(t, list) and len(t) == 3 and isinstance(t[0], str) and isinstance(t[1], str)
                and isinstance(t[2], int) for t in transfers)):
            raise ValueError("transfers is not a list of [payer, payee, amount]")
        if not (isinstance(seq, int) and isinstance(amount, int) and isinstance(msg, str) and isinstance(tell, str)
                and pending in (0, 1)):
            raise ValueError("seq, amount, message, tell or pending is not of its kind")
    except (TypeError, ValueError, RecursionError) as exc:
        raise DamagedState(f"ledger_events row #{str(seq)[:20]}: {' '.join(str(exc).split())[:120]}") from None
    return Recorded(seq, event, amount, msg, tell, bool(pending), tuple((a, b, c) for a, b, c in transfers))


def _json(text: object, column: str) -> object:
    try:
        return json.loads(text)  # type: ignore[arg-type]
    except (TypeError, ValueError, RecursionError):
        raise ValueError(f"{column} {str(text)[:40]!r} is not JSON") from None


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
