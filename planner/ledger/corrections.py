"""Corrections of the ledger (pure): an event recorded by mistake is voided, never deleted.

The log stays append-only: a ``void`` event names the voided event by its number. The state is the replay of the
events that stand (:func:`standing`), so the capital and every later fee follow at once (a toll fee that depended on
a wrongly bought toll line is recomputed). A void that would leave a later event without its ground (houses on a
station whose purchase is voided) is refused, naming that event.
"""

from __future__ import annotations

from dataclasses import dataclass

from planner.errors import DamagedState
from planner.ledger.apply import Outcome, Refused, apply
from planner.ledger.model import Event, LedgerState
from planner.ledger.rules import LedgerRules

VOID = "void"


@dataclass(frozen=True)
class Entry:
    """One recorded event with its number in the day's log."""

    seq: int
    event: Event


def voided(entries: list[Entry]) -> set[int]:
    """Numbers of the events that a ``void`` event voided."""
    return {e.event.voids for e in entries if e.event.kind == VOID}


def standing(entries: list[Entry]) -> list[Entry]:
    """The events that count: neither a void nor voided."""
    gone = voided(entries)
    return [e for e in entries if e.event.kind != VOID and e.seq not in gone]


def replay_outcomes(rules: LedgerRules, entries: list[Entry]) -> tuple[LedgerState, dict[int, Outcome]]:
    """The state after the standing events, and each one's outcome (its amounts as they stand now)."""
    state = LedgerState()
    outcomes: dict[int, Outcome] = {}
    for e in standing(entries):
        try:
            out = apply(rules, state, e.event, inplace=True)
        except Refused as exc:  # accepted once: a refusal now means the stored event was changed
            raise DamagedState(f"ledger event #{e.seq} ({e.event.kind} of group {e.event.group}) does not apply: "
                               f"{exc}") from None
        state = out.state
        outcomes[e.seq] = out
    return state, outcomes


def check_void(rules: LedgerRules, entries: list[Entry], seq: int) -> list[tuple[int, int, int]]:
    """May event ``seq`` be voided? Returns the later events whose amount changes, ``(seq, before, after)``;
    raises :class:`Refused` when the event is unknown, already voided, a join or a void, or when a later
    event needs it."""
    target = next((e for e in entries if e.seq == seq), None)
    if target is None:
        raise Refused(f"no ledger event #{seq} in this game")
    if target.event.kind in (VOID, "join"):
        raise Refused(f"event #{seq} is a {target.event.kind}: it cannot be voided")
    if seq in voided(entries):
        raise Refused(f"event #{seq} was voided already")
    _, before = replay_outcomes(rules, entries)
    after_entries = [*entries, Entry(-1, Event(VOID, target.event.group, target.event.time, voids=seq))]
    state = LedgerState()
    after: dict[int, Outcome] = {}
    for e in standing(after_entries):
        try:
            out = apply(rules, state, e.event, inplace=True)
        except Refused as exc:
            raise Refused(f"event #{e.seq} ({e.event.kind} by {e.event.group}) needs event #{seq}: void it "
                          f"first ({exc})") from None
        state = out.state
        after[e.seq] = out
    return [(s, before[s].amount, after[s].amount) for s in after if s > seq and before[s].amount != after[s].amount]
