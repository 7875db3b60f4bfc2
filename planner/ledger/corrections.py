"""Corrections of the ledger (pure): an event recorded by mistake is voided, never deleted.

The log stays append-only: a ``void`` event names the voided event by its number. The state is the replay of the
events that stand (:func:`standing`), so the capital and every later fee follow at once (a toll fee that depended on
a wrongly bought toll line is recomputed). A void that would leave a later event without its ground (houses on a
station whose purchase is voided) is refused, naming that event.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from planner.errors import DamagedState
from planner.ledger.apply import Outcome, Refused, apply
from planner.ledger.model import Event, LedgerState
from planner.ledger.money_rules import EVENT_NAMES, LedgerRules
from planner.ledger.moves import decided
from planner.ledger.sales import accepted_before_offer
from planner.util.i18n import _

VOID = "void"
SENT = "sent"  # a mark: the message of event ``ref`` was sent at the mark's time (§13)
MARKS = (VOID, SENT)  # rows that are no money events of their own


@dataclass(frozen=True)
class Entry:
    """One recorded event with its number in the day's log."""

    seq: int
    event: Event


@dataclass
class Replay:
    """The standing events replayed in decision-time order: the state, each event's outcome (an undone one says
    why in ``undone``), and the events that applied, in that order."""

    state: LedgerState
    outcomes: dict[int, Outcome]
    applied: list[Entry]
    last: int  # the latest decision time among the standing events (a later one is simply appended)


def voided(entries: list[Entry]) -> set[int]:
    """Numbers of the events that a ``void`` event voided."""
    return {e.event.voids for e in entries if e.event.kind == VOID}


def sent_times(entries: list[Entry]) -> dict[int, int]:
    """When each event's message was sent, by the first ``sent`` mark naming it."""
    out: dict[int, int] = {}
    for e in entries:
        if e.event.kind == SENT and e.event.ref not in out:
            out[e.event.ref] = e.event.time
    return out


def standing(entries: list[Entry]) -> list[Entry]:
    """The events that count: neither a mark nor voided (in the order recorded), each with when its message was
    sent as its ``reported`` when a mark says so."""
    gone = voided(entries)
    sent = sent_times(entries)
    return [Entry(e.seq, replace(e.event, reported=sent[e.seq]) if e.seq in sent and e.event.reported is None
                  else e.event)
            for e in entries if e.event.kind not in MARKS and e.seq not in gone]


def in_order(rules: LedgerRules, entries: list[Entry]) -> list[Entry]:
    """The standing events in decision-time order (the same time: in the order recorded)."""
    return sorted(standing(entries), key=lambda e: (decided(rules, e.event), e.seq))


def replay_ordered(rules: LedgerRules, entries: list[Entry], *, new: int = 0) -> Replay:
    """Replay the standing events in decision-time order. An event that no longer applies there (a purchase of a
    station decided earlier by another group, reported later; what depended on it) is undone: it moves nothing.
    ``new``: the number of an event about to be recorded (undone, it is refused; it needs no explanation)."""
    state = LedgerState()
    outcomes: dict[int, Outcome] = {}
    applied: list[Entry] = []
    last = 0
    for e in in_order(rules, entries):
        last = max(last, decided(rules, e.event))
        try:
            out = apply(rules, state, e.event, inplace=True, seq=e.seq, strict=e.seq == new)
        except Refused as exc:
            if e.seq == new and e.event.kind == "accept":  # an offer recorded but decided after it: say that
                offer = next((x.event for x in entries if x.seq == e.event.ref), None)
                exc = accepted_before_offer(e.event, offer) or exc
            state = _again(rules, applied)  # the refused event may have changed part of the state
            outcomes[e.seq] = Outcome(event=e.event, state=state, undone=" ".join(str(exc).split()), seq=e.seq,
                                      refusal=exc)
            continue
        state = out.state
        outcomes[e.seq] = out
        applied.append(e)
    _explained(rules, entries, {s: o for s, o in outcomes.items() if s != new})
    return Replay(state, outcomes, applied, last)


def _explained(rules: LedgerRules, entries: list[Entry], outcomes: dict[int, Outcome]) -> None:
    """Every undone event was undone by what came after it: an event recorded later but decided earlier, a sent
    mark or a void (each event applied, in decision-time order, when it was recorded). Anything else is a row
    changed by hand (a :class:`DamagedState`)."""
    undone = [o for o in outcomes.values() if o.undone]
    if not undone:
        return
    marks = max((e.seq for e in entries if e.event.kind in MARKS), default=0)
    for o in undone:
        t = decided(rules, o.event)
        if marks > o.seq or any(e.seq > o.seq and decided(rules, e.event) <= t for e in entries
                                if e.event.kind not in MARKS):
            continue
        raise DamagedState(f"ledger event #{o.seq} ({o.event.kind} of group {o.event.group}) does not apply: "
                           f"{o.undone}")


def _again(rules: LedgerRules, applied: list[Entry]) -> LedgerState:
    state = LedgerState()
    for e in applied:
        try:
            state = apply(rules, state, e.event, inplace=True, seq=e.seq, strict=False).state
        except Refused as exc:  # it applied in this very order a moment ago
            raise DamagedState(f"ledger event #{e.seq} ({e.event.kind} of group {e.event.group}) does not apply "
                               f"again: {exc}") from None
    return state


def replay_outcomes(rules: LedgerRules, entries: list[Entry]) -> tuple[LedgerState, dict[int, Outcome]]:
    """The state after the standing events (in decision-time order), and each one's outcome (its amounts as they
    stand now; an undone event's ``undone`` says why)."""
    rep = replay_ordered(rules, entries)
    return rep.state, rep.outcomes


def check_void(rules: LedgerRules, entries: list[Entry], seq: int) -> list[tuple[int, int, int]]:
    """May event ``seq`` be voided? Returns the later events whose amount changes, ``(seq, before, after)``;
    raises :class:`Refused` when the event is unknown, already voided, a join or a mark, or when another event
    needs it (it would be undone)."""
    target = next((e for e in entries if e.seq == seq), None)
    if target is None:
        raise Refused(_("no ledger event #{seq} in this game").format(seq=seq))
    if target.event.kind in (*MARKS, "join"):
        raise Refused(_("event #{seq} ({event}) cannot be voided").format(
            seq=seq, event=_(EVENT_NAMES.get(target.event.kind, target.event.kind))))
    if seq in voided(entries):
        raise Refused(_("event #{seq} was voided already").format(seq=seq))
    before = replay_ordered(rules, entries).outcomes
    after = replay_ordered(rules, [*entries, Entry(-1, Event(VOID, target.event.group, target.event.time,
                                                              voids=seq))]).outcomes
    for s, out in sorted(after.items()):
        if out.undone and not before[s].undone:
            ev = out.event
            raise Refused(_("event #{later} ({event} of group {group}) needs event #{seq}: void it first "
                            "({why})").format(later=s, event=_(EVENT_NAMES.get(ev.kind, ev.kind)), group=ev.group,
                                              seq=seq, why=out.undone))
    return [(s, before[s].amount, after[s].amount) for s in sorted(after)
            if s > seq and before[s].amount != after[s].amount]
