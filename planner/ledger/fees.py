"""Fees of an itinerary for one group (pure): every stop at a station another group owns (docs/rules.md §3
"Being at a station", §9.3), every toll line crossed (§11.2) and every tunnel travelled (§12.2)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from planner.ledger.apply import fee_due
from planner.ledger.model import STATION, TUNNEL, LedgerState
from planner.ledger.money_rules import LedgerRules

TWO_DICE_MIN, TWO_DICE_MAX, TWO_DICE_MEAN = 2, 12, 7  # the sum of two dice: its range and expectation


@dataclass(frozen=True)
class LegStops:
    """One leg as the fee rules see it: the stations the train stops at after boarding (the alighting
    station included; the boarding station was paid for on arrival there) and the crossings travelled."""

    stops: tuple[str, ...]
    crossings: tuple[tuple[str, str], ...] = ()  # (kind, name): toll_line / tunnel
    times: tuple[int, ...] = ()  # arrival at each stop (seconds), when known


def itinerary_fees(rules: LedgerRules, state: LedgerState, group: str, legs: Iterable[LegStops]) -> dict:
    """``{"fees": [{kind, name, owner, amount}], "fees_total", "fees_min", "fees_max"}`` for ``group``.

    A tunnel's fee depends on two dice: ``amount`` is None and the entry carries ``min``, ``max`` and
    ``expected`` (dice sum 7). ``fees_total`` counts tunnels at their expected fee; ``fees_min`` and
    ``fees_max`` bound the total. A station fee carries the ``time`` (seconds) of the stop when known.
    """
    fees: list[dict] = []
    for leg in legs:
        times = leg.times or (None,) * len(leg.stops)
        items: Sequence[tuple[str, str, int | None]] = [(STATION, s, t) for s, t in zip(leg.stops, times,
                                                                                        strict=True)]
        items = [*items, *((k, n, None) for k, n in leg.crossings)]
        for kind, name, when in items:
            due = fee_due(rules, state, group, kind, name)
            if due is None:
                continue
            owner, amount, mult = due
            if kind == TUNNEL:
                fees.append({"kind": kind, "name": name, "owner": owner, "amount": None, "min": mult * TWO_DICE_MIN,
                             "max": mult * TWO_DICE_MAX, "expected": mult * TWO_DICE_MEAN})
            elif amount:
                fees.append({"kind": kind, "name": name, "owner": owner, "amount": amount}
                            | ({"time": when} if when is not None else {}))
    fixed = sum(f["amount"] for f in fees if f["amount"] is not None)
    dice = [f for f in fees if f["amount"] is None]
    return {"fees": fees, "fees_total": fixed + sum(f["expected"] for f in dice),
            "fees_min": fixed + sum(f["min"] for f in dice), "fees_max": fixed + sum(f["max"] for f in dice)}


def net_cost(priced: dict, bonus_hours: int, rules: LedgerRules) -> int:
    """What an itinerary costs the group on balance: its fees minus the extra full-hour income it earns
    (bonus fee minus base fee for each full hour with a bonus event, §6)."""
    return int(priced["fees_total"]) - bonus_hours * (rules.income_bonus - rules.income_base)
