"""The ledger's events in the state database (part ``ledger``, :mod:`planner.store.schema`): append-only, one
transaction each.

Every event is recorded under the write lock: the game's events are read and replayed, the new event is checked by
the rules against that state, and it is inserted in the same transaction (the position check, which routes, runs
before the lock on the same events and the group's day, and again when either changed). Two processes buying one
station therefore never both see it unowned: the second is refused with the owner named, or, in the same minute
(§7.2), recorded as a pending dice-off. Triggers make the table append-only; a mistake is corrected by a void
(:mod:`planner.ledger.corrections`). An event id belongs to its group: a retry with the same inputs returns the
first record, the same id with other inputs is refused naming the first event, and so is a retry of an event
voided since (naming the void).
"""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass

from planner.errors import DamagedState, InputError
from planner.ledger.apply import Outcome, apply
from planner.ledger.corrections import VOID, Entry, check_void, replay_outcomes, standing
from planner.ledger.model import Event, LedgerState
from planner.ledger.rules import LedgerRules
from planner.store.db import StateDB
from planner.store.games import GameGroup, GameRecord
from planner.store.groups import group_version, join_group
from planner.store.records import group_key
from planner.util.timefmt import fmt_clock


@dataclass(frozen=True)
class Recorded:
    """One stored event with what it did (``amount`` as it stands now: later voids recompute it)."""

    seq: int
    event: Event
    amount: int
    message: str
    tell: str
    pending: bool
    transfers: tuple[tuple[str, str, int], ...]
    voided: bool = False

    def to_json(self) -> dict:
        """The feed / CLI shape of a recorded event."""
        return {"seq": self.seq, **self.event.to_json(), "amount": self.amount, "message": self.message,
                "tell": self.tell, "pending": self.pending, "transfers": [list(t) for t in self.transfers],
                "voided": self.voided}


Check = Callable[[LedgerState, list[Event]], None]


MAX_RECHECK = 4  # position checks repeated when other events came in meanwhile; then one under the lock


@dataclass
class _Replayed:
    """A game's log as read and replayed, valid while the log ends with the row ``key`` = (row id, seq) on the
    connection ``opened`` (the log is append-only, so that row names everything before it)."""

    key: tuple[int, int]
    opened: int
    rules: LedgerRules
    rows: list[Recorded]
    entries: list[Entry]  # the log as the replay reads it
    standing: list[Event]  # the events that count (neither voids nor voided)
    state: LedgerState
    outcomes: dict[int, Outcome]
    mark: tuple[int, int] | None = None  # the database's mark when the key was last seen true (StateDB.mark)

    def extended(self, key: tuple[int, int], written: list[Recorded], outcomes: list[Outcome],
                 mark: tuple[int, int] | None) -> _Replayed:
        """This replay with ``written`` appended (plain events, never voids: they count as they are), ``mark``
        the database's mark right after their commit."""
        new = [Entry(r.seq, r.event) for r in written]
        return _Replayed(key, self.opened, self.rules, [*self.rows, *written], [*self.entries, *new],
                         [*self.standing, *(e.event for e in new)], outcomes[-1].state,
                         self.outcomes | {r.seq: o for r, o in zip(written, outcomes, strict=True)}, mark)


class LedgerStore:
    """The ledger of every game on one state database connection (see module docstring).

    Each game's replayed log is kept (:class:`_Replayed`) and used again while the game's last row is the same:
    a read then costs one indexed look-up instead of a replay of the day (a simulated day records hundreds of
    events). :meth:`state` returns a copy; a write extends the kept replay after its commit.
    """

    def __init__(self, db: StateDB, ready):
        self.db = db
        self._ready = ready
        self._replays: dict[str, _Replayed] = {}

    def _replayed(self, conn: sqlite3.Connection, rules: LedgerRules, game_id: str) -> _Replayed:
        """The game's log replayed, from the kept replay when the log has not changed since (the database's
        mark unchanged: no statement at all; else its last row the same)."""
        kept = self._replays.get(game_id)
        if kept is not None and kept.rules is rules and self.db.unchanged(conn, kept.mark):
            return kept
        mark = self.db.mark(conn)
        key = _last_row(conn, game_id)
        if kept is not None and kept.key == key and kept.opened == self.db.opened and kept.rules is rules:
            if mark is not None:
                kept.mark = mark
            return kept
        rows = _rows(conn, "WHERE game_id = ?", (game_id,))
        entries = [Entry(r.seq, r.event) for r in rows]
        state, outcomes = replay_outcomes(rules, entries)
        rep = _Replayed(key, self.db.opened, rules, rows, entries, [e.event for e in standing(entries)], state,
                        outcomes, mark)
        self._replays[game_id] = rep
        return rep

    # ---- writes ------------------------------------------------------------------------------------
    def record(self, rules: LedgerRules, game: GameRecord, group: GameGroup, event: Event, *,
               check: Check | None = None, event_id: str | None = None) -> tuple[Recorded, ...]:
        """Check and record ``event`` of ``group`` (and the group's joining, on first use) in one transaction.

        ``check(state, events)`` refuses what contradicts what else is known (the group's position). It routes,
        so it runs before the write lock is taken, on the game's events and the group's day as read then; under
        the lock the event is recorded only if no other event came in and the group's day did not change (a
        roll, position or undo of another phone) meanwhile, else it is checked again (after
        :data:`MAX_RECHECK` tries, and for a known event id, under the lock). Returns the rows written, the event
        last. A repeated ``event_id`` of the group with the same inputs writes nothing and returns the first
        record; with other inputs, or when that record was voided since, it is refused.
        """
        self._ready()
        # What the event is, without when it was reported: a phone's retry comes later, and is the same event
        # (kept with an event id only: nothing else compares it)
        request = None if event_id is None else json.dumps(
            {k: v for k, v in event.to_json().items() if k != "reported"}, sort_keys=True, ensure_ascii=False)
        try:
            for attempt in range(MAX_RECHECK + 1):
                locked = check is None or attempt == MAX_RECHECK or (
                    event_id is not None and self._id_known(game.id, event_id))
                try:
                    seen = None if locked else self._checked(rules, game.id, group, event, check)
                except InputError:
                    if event_id is not None and self._id_known(game.id, event_id):
                        continue  # its first try was recorded meanwhile (a check may refuse just that): replay it
                    raise
                with self.db.write() as conn:
                    rep = self._replayed(conn, rules, game.id)
                    if seen is not None and not self.db.unchanged(conn, seen[2]) and (
                            rep.key[1], group_version(conn, game.id, group.key)) != seen[:2]:
                        continue  # an event or the group's day came in meanwhile: check again on the new day
                    written, outcomes, last = self._insert_event(conn, rules, game, group, event, rep,
                                                                 check if locked else None, event_id, request)
                if outcomes:  # committed: the kept replay goes on with what was written
                    self._replays[game.id] = rep.extended(last, list(written), outcomes, self.db.mark(conn))
                return written
        except DamagedState as exc:
            raise exc.at(self.db.path) from None
        raise AssertionError("unreachable")  # the last attempt returns or raises

    def _id_known(self, game_id: str, event_id: str) -> bool:
        try:
            return _id_known(self.db.connect(), game_id, event_id)
        except sqlite3.Error as exc:
            raise self.db.fail(exc) from None

    def _checked(self, rules: LedgerRules, game_id: str, group: GameGroup, event: Event,
                 check: Check) -> tuple[int, int, tuple[int, int] | None]:
        """Run ``check`` on the game's events and the group's day as recorded now (no lock): (the number of the
        last event seen, the group's day version read before the check, the database's mark then; a change
        after that read counts as a change, so what the check saw is never newer than what is compared under
        the lock)."""
        try:
            conn = self.db.connect()
            mark = self.db.mark(conn)
            # with a mark, an unchanged mark under the lock says all (and a changed one means: check again), so
            # the group's version is not read (-1 matches no version)
            day = -1 if mark is not None else group_version(conn, game_id, group.key)
            rep = self._replayed(conn, rules, game_id)
        except sqlite3.Error as exc:
            raise self.db.fail(exc) from None
        state = rep.state
        if event.group not in state.cash:
            state = apply(rules, state, Event("join", event.group, rules.start)).state
        check(state, list(rep.standing))
        return rep.key[1], day, mark

    def _insert_event(self, conn: sqlite3.Connection, rules: LedgerRules, game: GameRecord, group: GameGroup,
                      event: Event, rep: _Replayed, check: Check | None, event_id: str | None,
                      request: str | None) -> tuple[tuple[Recorded, ...], list[Outcome], tuple[int, int]]:
        """Under the write lock: replay the event id's first record (no outcomes: nothing written), or check
        (``check`` given) and insert. Returns the rows, what each did and the log's last row (row id, seq)."""
        game_id = game.id
        key = join_group(conn, game, group)
        if event_id is not None:
            old = _rows(conn, "WHERE game_id = ? AND grp = ? AND event_id = ?", (game_id, key, event_id))
            if old:
                first = _request(conn, game_id, old[-1].seq)
                if first is not None and first != request:
                    raise InputError(f"event id {event_id!r} was already used for event #{old[-1].seq} of "
                                     f"group {group.name} ({old[-1].message}); use a new id for a new event")
                _refuse_voided(rep, event_id, old[-1])
                return tuple(old), [], rep.key
        state = rep.state
        seq = rep.key[1]
        written, outcomes = [], []
        if event.group not in state.cash:
            join = apply(rules, state, Event("join", event.group, rules.start))
            seq += 1
            written.append(_insert(conn, game_id, key, seq, join, None, None)[0])
            outcomes.append(join)
            state = join.state
        if check is not None:
            check(state, list(rep.standing))
        out = apply(rules, state, event)
        rec, row_id = _insert(conn, game_id, key, seq + 1, out, event_id, request)
        written.append(rec)
        outcomes.append(out)
        return tuple(written), outcomes, (row_id, seq + 1)  # the highest seq: the log's last row

    def void(self, rules: LedgerRules, game_id: str, seq: int, reason: str, time: int,
             message: Callable[[Event, list[tuple[int, int, int]]], str]) -> Recorded:
        """Void event ``seq`` (it stays in the log, marked), recording why; ``message(voided, changes)`` words the
        correction every group is told of. Refused when a later event needs it."""
        self._ready()
        with self.db.write() as conn:
            entries = _entries(conn, game_id)
            changes = check_void(rules, entries, seq)
            target = next(e for e in entries if e.seq == seq)
            ev = Event(VOID, target.event.group, time, reason=reason, voids=seq)
            out = Outcome(event=ev, state=LedgerState(), message=message(target.event, changes), tell="*")
            key = group_key(target.event.group)
            return _insert(conn, game_id, key, entries[-1].seq + 1, out, None, None)[0]

    # ---- reads -------------------------------------------------------------------------------------
    def events(self, rules: LedgerRules, game_id: str, since: int = 0) -> list[Recorded]:
        """The game's events after number ``since``, in order, voided ones marked, amounts as they stand."""
        def read(conn: sqlite3.Connection) -> list[Recorded]:
            rep = self._replayed(conn, rules, game_id)
            rows, outcomes = rep.rows, rep.outcomes
            gone = {r.event.voids for r in rows if r.event.kind == VOID}
            out = []
            for r in rows:
                if r.seq <= since:
                    continue
                o = outcomes.get(r.seq)
                amount = o.amount if o is not None else r.amount
                out.append(Recorded(r.seq, r.event, amount, r.message, r.tell, r.pending, r.transfers,
                                    r.seq in gone))
            return out

        return self._read(read, list)

    def state(self, rules: LedgerRules, game_id: str) -> LedgerState:
        """The ledger state of the game (a replay of its standing events): the caller's own copy."""
        return self._read(lambda c: self._replayed(c, rules, game_id).state.clone(), LedgerState)

    def view(self, rules: LedgerRules, game_id: str) -> LedgerState:
        """The ledger state of the game, shared with the kept replay: for reading only (no copy made)."""
        return self._read(lambda c: self._replayed(c, rules, game_id).state, LedgerState)

    def feed(self, rules: LedgerRules, game_id: str, group: str, since: int = 0) -> list[Recorded]:
        """The events ``group`` (its name) must be told of (§13) since number ``since``: others' events told to
        all or to it (a fee it was paid), and corrections."""
        return [r for r in self.events(rules, game_id, since)
                if r.event.group != group and (r.tell == "*" or r.tell == group)
                or r.event.kind == VOID]

    def _read(self, fn: Callable[[sqlite3.Connection], object], empty: Callable[[], object]):
        return self.db.read_part(self._ready, fn, empty)  # no state file (yet): ``empty()``, nothing created


_COLS = "seq, event, amount, message, tell, pending, transfers"


def _rows(conn: sqlite3.Connection, where: str, params: tuple) -> list[Recorded]:
    rows = conn.execute(f"SELECT {_COLS} FROM ledger_events {where} ORDER BY seq", params).fetchall()
    return [_recorded(row) for row in rows]


def _recorded(row: tuple) -> Recorded:
    """A stored event, every column checked (a row edited by hand is a :class:`DamagedState`, not a traceback)."""
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
    except (TypeError, ValueError) as exc:
        raise DamagedState(f"ledger event #{str(seq)[:20]} is damaged: {' '.join(str(exc).split())[:120]}") from None
    return Recorded(seq, event, amount, msg, tell, bool(pending), tuple((a, b, c) for a, b, c in transfers))


def _json(text: object, column: str) -> object:
    try:
        return json.loads(text)  # type: ignore[arg-type]
    except (TypeError, ValueError, RecursionError):
        raise ValueError(f"{column} {str(text)[:40]!r} is not JSON") from None


def _id_known(conn: sqlite3.Connection, game_id: str, event_id: str) -> bool:
    return conn.execute("SELECT 1 FROM ledger_events WHERE game_id = ? AND event_id = ? LIMIT 1",
                        (game_id, event_id)).fetchone() is not None


def _last_row(conn: sqlite3.Connection, game_id: str) -> tuple[int, int]:
    """(row id, seq) of the game's last event, (0, 0) for none: with an append-only log, its whole content."""
    row = conn.execute("SELECT id, seq FROM ledger_events WHERE game_id = ? ORDER BY seq DESC LIMIT 1",
                       (game_id,)).fetchone()
    if row is None:
        return (0, 0)
    if not (isinstance(row[0], int) and isinstance(row[1], int)):  # a row edited by hand
        raise DamagedState(f"ledger event #{str(row[1])[:20]} is damaged: seq is not a whole number")
    return (row[0], row[1])


def _refuse_voided(rep: _Replayed, event_id: str, first: Recorded) -> None:
    """A retry of an event that was voided since is refused, naming the void: returning the voided row would
    say "recorded" of an event that does not count (a new one needs a new id)."""
    void = next((r for r in rep.rows if r.event.kind == VOID and r.event.voids == first.seq), None)
    if void is not None:
        reason = " ".join(str(void.event.reason).split())[:200]
        raise InputError(f"event id {event_id!r} was event #{first.seq} ({first.message}), voided at "
                         f"{fmt_clock(void.event.time)} ({reason}): record it again with a new id")


def _entries(conn: sqlite3.Connection, game_id: str) -> list[Entry]:
    return [Entry(r.seq, r.event) for r in _rows(conn, "WHERE game_id = ?", (game_id,))]


def _request(conn: sqlite3.Connection, game_id: str, seq: int) -> str | None:
    row = conn.execute("SELECT request FROM ledger_events WHERE game_id = ? AND seq = ?", (game_id, seq)).fetchone()
    return row[0] if row else None


def _insert(conn: sqlite3.Connection, game_id: str, key: str, seq: int, out: Outcome, event_id: str | None,
            request: str | None) -> tuple[Recorded, int]:
    """Insert one event row; returns it as recorded and its row id."""
    transfers = tuple((t.payer, t.payee, t.amount) for t in out.transfers)
    rec = Recorded(seq, out.event, out.amount, out.message, out.tell, out.pending, transfers)
    cur = conn.execute(
        "INSERT INTO ledger_events (game_id, seq, grp, kind, time_s, event, amount, message, tell, pending, "
        "transfers, created_at, event_id, request) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (game_id, seq, key, out.event.kind, out.event.time, json.dumps(out.event.to_json()), out.amount, out.message,
         out.tell, int(out.pending), json.dumps([list(t) for t in transfers]),
         dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds"), event_id, request))
    return rec, int(cur.lastrowid or 0)
