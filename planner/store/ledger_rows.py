"""The ledger's rows in the state database: a stored event as read back (every column checked) and written."""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from dataclasses import dataclass

from planner.errors import DamagedState, InputError
from planner.ledger.corrections import VOID, Entry
from planner.ledger.model import Event
from planner.ledger.moves import Outcome
from planner.util.i18n import _
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
    undone: str = ""  # why it no longer applies in decision-time order (it moves nothing now), "" when it does
    undoes: tuple[int, ...] = ()  # (as just recorded) the events it undid: a later decision recorded first
    sent: int | None = None  # when its message was sent (§13; None: not known to be sent)

    def to_json(self) -> dict:
        """The feed / CLI shape of a recorded event."""
        return {"seq": self.seq, **self.event.to_json(), "amount": self.amount, "message": self.message,
                "tell": self.tell, "pending": self.pending, "transfers": [list(t) for t in self.transfers],
                "voided": self.voided, "undone": self.undone, "undoes": list(self.undoes), "sent": self.sent}


_COLS = "seq, event, amount, message, tell, pending, transfers"


def rows_where(conn: sqlite3.Connection, where: str, params: tuple) -> list[Recorded]:
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


def id_known(conn: sqlite3.Connection, game_id: str, event_id: str) -> bool:
    return conn.execute("SELECT 1 FROM ledger_events WHERE game_id = ? AND event_id = ? LIMIT 1",
                        (game_id, event_id)).fetchone() is not None


def last_row(conn: sqlite3.Connection, game_id: str) -> tuple[int, int]:
    """(row id, seq) of the game's last event, (0, 0) for none: with an append-only log, its whole content."""
    row = conn.execute("SELECT id, seq FROM ledger_events WHERE game_id = ? ORDER BY seq DESC LIMIT 1",
                       (game_id,)).fetchone()
    if row is None:
        return (0, 0)
    if not (isinstance(row[0], int) and isinstance(row[1], int)):  # a row edited by hand
        raise DamagedState(f"ledger event #{str(row[1])[:20]} is damaged: seq is not a whole number")
    return (row[0], row[1])


def refuse_voided(rows: list[Recorded], event_id: str, first: Recorded) -> None:
    """A retry of an event that was voided since is refused, naming the void: returning the voided row would
    say "recorded" of an event that does not count (a new one needs a new id)."""
    void = next((r for r in rows if r.event.kind == VOID and r.event.voids == first.seq), None)
    if void is not None:
        reason = " ".join(str(void.event.reason).split())[:200]
        raise InputError(_("event id {event_id!r} was event #{seq} ({message}), voided at {time} ({reason}): record "
                           "it again with a new id").format(event_id=event_id, seq=first.seq, message=first.message,
                                                            time=fmt_clock(void.event.time), reason=reason))


def entries_of(conn: sqlite3.Connection, game_id: str) -> list[Entry]:
    return [Entry(r.seq, r.event) for r in rows_where(conn, "WHERE game_id = ?", (game_id,))]


def request_of(conn: sqlite3.Connection, game_id: str, seq: int) -> str | None:
    row = conn.execute("SELECT request FROM ledger_events WHERE game_id = ? AND seq = ?", (game_id, seq)).fetchone()
    return row[0] if row else None


def insert(conn: sqlite3.Connection, game_id: str, key: str, seq: int, out: Outcome, event_id: str | None,
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


def game_groups(conn: sqlite3.Connection, game_id: str) -> list[tuple[str, str]]:
    """(key, name) of every group of the game, by number: each is in the ledger from the start (docs/rules.md §3b)."""
    return [(k, n) for k, n in conn.execute("SELECT grp, name FROM groups WHERE game_id = ? ORDER BY number",
                                            (game_id,)).fetchall()]
