"""The fees a group still owes for the stops of its day (pure): each stop's fee as the ledger stood at the stop's
time (who owned it then, its houses then; nothing before the purchase), unless it was paid."""

from __future__ import annotations

from planner.errors import DamagedState
from planner.ledger.apply import Refused, apply
from planner.ledger.corrections import Entry, decided
from planner.ledger.dues import fee_due
from planner.ledger.model import LedgerState
from planner.ledger.money_rules import LedgerRules

Due = tuple[str, int | None, int]  # (owner, amount (None: a tunnel's two dice), multiplier)


def owed(rules: LedgerRules, applied: list[Entry], group: str,
         stops: list[tuple[str, str, int]], now: tuple[int, LedgerState] | None = None) -> list[Due | None]:
    """For each stop ``(kind, name, time)``: what ``group`` owes for it (None: nothing, or paid already).

    ``applied``: the events that apply, in decision-time order (as the ordered replay applied them); each stop's fee
    is read when every event decided by its minute has applied. ``now``: the latest decision time of those events
    and the state they made (the kept replay's): a stop at or after that minute reads that state, and whether a fee
    was paid is read from it, so the events are replayed only up to the stops before it (a fee paid at its stop,
    the common case, replays nothing: a replay of the whole day per payment made a simulated day quadratic)."""
    final = None if now is None else now[1]
    order = sorted(range(len(stops)), key=lambda i: stops[i][2])
    state = LedgerState()
    out: list[Due | None] = [None] * len(stops)
    j = 0
    for i in order:
        kind, name, t = stops[i]
        if now is not None and t // 60 >= now[0] // 60:
            out[i] = fee_due(rules, now[1], group, kind, name, time=t)  # every event that applies was decided by then
            continue
        while j < len(applied) and decided(rules, applied[j].event) // 60 <= t // 60:
            state = _apply(rules, state, applied[j])
            j += 1
        out[i] = fee_due(rules, state, group, kind, name, time=t)
    if final is None:
        for e in applied[j:]:
            state = _apply(rules, state, e)
        final = state
    return [None if (group, kind, name, t // 60) in final.fees_paid else due
            for (kind, name, t), due in zip(stops, out, strict=True)]


def _apply(rules: LedgerRules, state: LedgerState, entry: Entry) -> LedgerState:
    e = entry.event
    try:
        return apply(rules, state, e, inplace=True, seq=entry.seq, strict=False).state
    except Refused as exc:  # it applied in this very order when the log was replayed
        raise DamagedState(f"ledger event ({e.kind} of group {e.group}) does not apply again: {exc}") from None
