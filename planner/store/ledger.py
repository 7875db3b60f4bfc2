"""The ledger's events in the state database (part ``ledger``, :mod:`planner.store.tables`): append-only, one
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

import dataclasses
import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass

from planner.errors import DamagedState, InputError
from planner.ledger.apply import Outcome, Refused, apply, check_in_game
from planner.ledger.corrections import (
    MARKS,
    SENT,
    VOID,
    Entry,
    check_void,
    decided,
    replay_ordered,
    sent_times,
    voided,
)
from planner.ledger.model import Event, LedgerState
from planner.ledger.money_rules import LedgerRules
from planner.ledger.owed import owed
from planner.store.db import StateDB
from planner.store.games import GameGroup, GameRecord
from planner.store.groups import group_version, join_group
from planner.store.ledger_rows import (
    Recorded,
    entries_of,
    game_groups,
    id_known,
    insert,
    last_row,
    refuse_voided,
    request_of,
    rows_where,
)
from planner.store.records import group_key
from planner.util.i18n import _
from planner.util.timefmt import fmt_clock

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
    applied: list[Entry]  # the events that apply, in decision-time order (neither marks, voided nor undone)
    state: LedgerState
    outcomes: dict[int, Outcome]
    last: int  # the latest decision time of the standing events: a later event is appended, an earlier replayed
    mark: tuple[int, int] | None = None  # the database's mark when the key was last seen true (StateDB.mark)
    owed: dict = dataclasses.field(default_factory=dict)  # (group, stops) -> what it owes (LedgerStore.owed)

    def extended(self, key: tuple[int, int], written: list[Recorded], outcomes: list[Outcome],
                 mark: tuple[int, int] | None) -> _Replayed:
        """This replay with ``written`` appended (plain events in decision-time order after every other, never
        marks: they count as they are), ``mark`` the database's mark right after their commit."""
        new = [Entry(r.seq, r.event) for r in written]
        return _Replayed(key, self.opened, self.rules, [*self.rows, *written], [*self.entries, *new],
                         [*self.applied, *new], outcomes[-1].state,
                         self.outcomes | {r.seq: o for r, o in zip(written, outcomes, strict=True)},
                         max(self.last, *(decided(self.rules, e.event) for e in new)), mark)

    @property
    def standing(self) -> list[Event]:
        """The events that apply, in decision-time order."""
        return [e.event for e in self.applied]


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
        key = last_row(conn, game_id)
        if kept is not None and kept.key == key and kept.opened == self.db.opened and kept.rules is rules:
            if mark is not None:
                kept.mark = mark
            return kept
        rows = rows_where(conn, "WHERE game_id = ?", (game_id,))
        entries = [Entry(r.seq, r.event) for r in rows]
        full = replay_ordered(rules, entries)
        rep = _Replayed(key, self.db.opened, rules, rows, entries, full.applied, full.state, full.outcomes,
                        full.last, mark)
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
                if outcomes and last is not None:  # committed and appended: the kept replay goes on
                    self._replays[game.id] = rep.extended(last, list(written), outcomes, self.db.mark(conn))
                elif outcomes:  # an earlier decision: read again (replayed in decision-time order)
                    self._replays.pop(game.id, None)
                return written
        except DamagedState as exc:
            raise exc.at(self.db.path) from None
        raise AssertionError("unreachable")  # the last attempt returns or raises

    def by_event_id(self, game_id: str, group_key: str, event_id: str) -> Recorded | None:
        """The event the group recorded under ``event_id`` (None: none)."""
        def read(conn: sqlite3.Connection) -> Recorded | None:
            rows = rows_where(conn, "WHERE game_id = ? AND grp = ? AND event_id = ?", (game_id, group_key, event_id))
            return rows[-1] if rows else None

        return self._read(read, lambda: None)

    def _id_known(self, game_id: str, event_id: str) -> bool:
        try:
            return id_known(self.db.connect(), game_id, event_id)
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
                      request: str | None) -> tuple[tuple[Recorded, ...], list[Outcome], tuple[int, int] | None]:
        """Under the write lock: replay the event id's first record (no outcomes: nothing written), or check
        (``check`` given) and insert, with the joining of every group of the game not in the ledger yet. Returns
        the rows, what each did and the log's last row (row id, seq) when the event came last in decision-time
        order (None: it was placed before others, which were replayed after it; some may be undone)."""
        game_id = game.id
        key = join_group(conn, game, group)
        if event_id is not None:
            old = rows_where(conn, "WHERE game_id = ? AND grp = ? AND event_id = ?", (game_id, key, event_id))
            if old:
                first = request_of(conn, game_id, old[-1].seq)
                if first is not None and first != request:
                    raise InputError(_("event id {event_id!r} was already used for event #{seq} of group {group} "
                                       "({message}); use a new id for a new event").format(
                        event_id=event_id, seq=old[-1].seq, group=group.name, message=old[-1].message))
                refuse_voided(rep.rows, event_id, old[-1])
                return tuple(old), [], rep.key
        state = rep.state
        seq = rep.key[1]
        written, outcomes = [], []
        names = [event.group] + [n for _k, n in game_groups(conn, game_id) if n != event.group]
        for name in (n for n in names if n not in state.cash):  # docs/rules.md §3b: every group from the start
            join = apply(rules, state, Event("join", name, rules.start), seq=seq + 1)
            seq += 1
            written.append(insert(conn, game_id, group_key(name), seq, join, None, None)[0])
            outcomes.append(join)
            state = join.state
        if check is not None:
            check(state, list(rep.standing))
        if decided(rules, event) >= rep.last and (not written or rep.last <= rules.start):
            out = apply(rules, state, event, seq=seq + 1)
            rec, row_id = insert(conn, game_id, key, seq + 1, out, event_id, request)
            return (*written, rec), [*outcomes, out], (row_id, seq + 1)  # the highest seq: the log's last row
        full = replay_ordered(rules, [*rep.entries, *(Entry(r.seq, r.event) for r in written),
                                      Entry(seq + 1, event)], new=seq + 1)
        out = full.outcomes[seq + 1]
        if out.refusal is not None:
            raise out.refusal
        undoes = tuple(s for s, o in sorted(full.outcomes.items())
                       if o.undone and s in rep.outcomes and not rep.outcomes[s].undone)
        rec, _row = insert(conn, game_id, key, seq + 1, out, event_id, request)
        return (*written, dataclasses.replace(rec, undoes=undoes)), [*outcomes, out], None

    def void(self, rules: LedgerRules, game_id: str, seq: int, reason: str, time: int,
             message: Callable[[Event, list[tuple[int, int, int]]], str]) -> Recorded:
        """Void event ``seq`` (it stays in the log, marked), recording why; ``message(voided, changes)`` words the
        correction every group is told of. Refused when a later event needs it."""
        self._ready()
        with self.db.write() as conn:
            entries = entries_of(conn, game_id)
            changes = check_void(rules, entries, seq)
            target = next(e for e in entries if e.seq == seq)
            ev = Event(VOID, target.event.group, time, reason=reason, voids=seq)
            out = Outcome(event=ev, state=LedgerState(), message=message(target.event, changes), tell="*")
            key = group_key(target.event.group)
            self._replays.pop(game_id, None)
            return insert(conn, game_id, key, entries[-1].seq + 1, out, None, None)[0]

    def mark_sent(self, rules: LedgerRules, game_id: str, group: GameGroup, seq: int, time: int) -> Recorded:
        """Record that the message of event ``seq`` of ``group`` was sent at ``time`` (§13: a message sent more
        than the game's minutes late costs the penalty; a purchase then counts from it). A message marked sent
        (or recorded with its time of sending) keeps the first time: nothing is written again."""
        self._ready()
        check_in_game(rules, time)
        with self.db.write() as conn:
            entries = entries_of(conn, game_id)
            target = next((e for e in entries if e.seq == seq and e.event.kind not in (*MARKS, "join")), None)
            if target is None:
                raise Refused(_("there is no event #{seq} with a message in this game").format(seq=seq))
            ev = target.event
            if ev.group != group.name:
                raise Refused(_("event #{seq} is group {owner}'s, not group {group}'s").format(
                    seq=seq, owner=ev.group, group=group.name))
            if ev.reported is None and seq not in sent_times(entries):
                if rules.early_minutes and ev.time - time > rules.early_minutes * 60:
                    raise Refused(_("a message sent at {sent} for {time} is more than {minutes} minutes early: "
                                    "invalid (§13)").format(sent=fmt_clock(time), time=fmt_clock(ev.time),
                                                           minutes=rules.early_minutes))
                mark = Outcome(event=Event(SENT, ev.group, time, ref=seq), state=LedgerState())
                insert(conn, game_id, group.key, entries[-1].seq + 1, mark, None, None)
                self._replays.pop(game_id, None)
        return next(r for r in self.events(rules, game_id, seq - 1) if r.seq == seq)

    # ---- reads -------------------------------------------------------------------------------------
    def events(self, rules: LedgerRules, game_id: str, since: int = 0) -> list[Recorded]:
        """The game's events after number ``since``, in order (marks left out), voided ones marked, amounts,
        messages and money moved as they stand (an undone event moves nothing, and says why), with when each
        message was sent."""
        def read(conn: sqlite3.Connection) -> list[Recorded]:
            rep = self._replayed(conn, rules, game_id)
            rows, outcomes = rep.rows, rep.outcomes
            gone = voided(rep.entries)
            sent = sent_times(rep.entries)
            out = []
            for r in rows:
                if r.seq <= since or r.event.kind == SENT:
                    continue
                o = outcomes.get(r.seq)
                when = r.event.reported if r.event.reported is not None else sent.get(r.seq)
                if o is None:  # a join, a void
                    out.append(dataclasses.replace(r, voided=r.seq in gone, sent=when))
                elif o.undone:
                    out.append(dataclasses.replace(r, amount=0, transfers=(), voided=r.seq in gone,
                                                   undone=o.undone, sent=when))
                else:
                    out.append(dataclasses.replace(
                        r, amount=o.amount, message=o.message, pending=o.pending, voided=r.seq in gone, sent=when,
                        transfers=tuple((t.payer, t.payee, t.amount) for t in o.transfers)))
            return out

        return self._read(read, list)

    def state(self, rules: LedgerRules, game_id: str) -> LedgerState:
        """The ledger state of the game (a replay of its standing events): the caller's own copy."""
        return self._read(lambda c: self._replayed(c, rules, game_id).state.clone(), LedgerState)

    def standing(self, rules: LedgerRules, game_id: str) -> list[Event]:
        """The game's events that apply (neither marks, voided nor undone), in decision-time order."""
        return self._read(lambda c: self._replayed(c, rules, game_id).standing, list)

    def view(self, rules: LedgerRules, game_id: str) -> LedgerState:
        """The ledger state of the game, shared with the kept replay: for reading only (no copy made)."""
        return self._read(lambda c: self._replayed(c, rules, game_id).state, LedgerState)

    def owed(self, rules: LedgerRules, game_id: str, group: str,
             stops: list[tuple[str, str, int]]) -> list[tuple[str, int | None, int] | None]:
        """What ``group`` owes for each stop ``(kind, name, time)`` (:func:`planner.ledger.owed.owed`), as the
        ledger stood at each stop's time; None: nothing, or paid. Kept with the replay while the log is the same."""
        def read(conn: sqlite3.Connection) -> list:
            rep = self._replayed(conn, rules, game_id)
            key = (group, tuple(stops))
            if key not in rep.owed:
                if len(rep.owed) > 64:
                    rep.owed.clear()
                rep.owed[key] = owed(rules, rep.applied, group, stops, (rep.last, rep.state))
            return rep.owed[key]

        return self._read(read, lambda: [None] * len(stops))

    def feed(self, rules: LedgerRules, game_id: str, group: str, since: int = 0) -> list[Recorded]:
        """The events ``group`` (its name) must be told of (§13) since number ``since``: others' events told to
        all or to it (a fee it was paid), and corrections."""
        return [r for r in self.events(rules, game_id, since)
                if r.event.group != group and (r.tell == "*" or r.tell == group)
                or r.event.kind == VOID]

    def _read(self, fn: Callable[[sqlite3.Connection], object], empty: Callable[[], object]):
        return self.db.read_part(self._ready, fn, empty)  # no state file (yet): ``empty()``, nothing created
