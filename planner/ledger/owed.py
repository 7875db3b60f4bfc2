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

    ``applied``: the events that apply, in decision-time order (as the ordered replay applied them); they are
    replayed once, each stop's fee read when every event decided by its minute has applied. ``now``: the latest
    decision time of those events and the state they made (the kept replay's); when every stop is at or after
    that minute, the ledger at each stop is that state, and nothing is replayed (a fee paid at its stop, the
    common case: a replay of the whole day per payment made a simulated day quadratic)."""
    if now is not None and all(t // 60 >= now[0] // 60 for _k, _n, t in stops):
        state = now[1]
        return [None if (group, kind, name, t // 60) in state.fees_paid
                else fee_due(rules, state, group, kind, name, time=t) for kind, name, t in stops]
    order = sorted(range(len(stops)), key=lambda i: stops[i][2])
    state = LedgerState()
    out: list[Due | None] = [None] * len(stops)
    j = 0
    for i in order:
        kind, name, t = stops[i]
        while j < len(applied) and decided(rules, applied[j].event) // 60 <= t // 60:
            state = _apply(rules, state, applied[j])
            j += 1
        out[i] = fee_due(rules, state, group, kind, name, time=t)
    for e in applied[j:]:
        state = _apply(rules, state, e)
    return [None if (group, kind, name, t // 60) in state.fees_paid else due
            for (kind, name, t), due in zip(stops, out, strict=True)]


def _apply(rules: LedgerRules, state: LedgerState, entry: Entry) -> LedgerState:
    e = entry.event
    try:
        return apply(rules, state, e, inplace=True, seq=entry.seq, strict=False).state
    except Refused as exc:  # it applied in this very order when the log was replayed
        raise DamagedState(f"ledger event ({e.kind} of group {e.group}) does not apply again: {exc}") from None
