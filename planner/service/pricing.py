"""Fees of itineraries for a group (use case helpers): the ledger's ownership applied to the stops, toll lines
and tunnels of an itinerary, and the choice of the cheapest among equally fast legal itineraries.

The rules are the ledger's (planner/ledger/fees.py); this module only gathers what they need from a
:class:`GameDay` and a ledger snapshot, so the CLI (``--group``) and the web app price the same way.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from planner.service.gameday import GameDay
from planner.service.legs import annotate

if TYPE_CHECKING:
    from planner.game.dice import DiceAnswer
    from planner.ledger.model import LedgerState
    from planner.ledger.rules import LedgerRules
    from planner.routing import Journey, Origin

WEIGHING = ("among itineraries arriving at the same minute, the lowest net cost wins: fees_total (tunnels at "
            "their expected fee, dice sum 7) minus the extra full-hour income (bonus fee minus base fee) for "
            "each full hour with a bonus event; ties keep the planner's order (fewer changes, later departure)")


@dataclass
class Pricing:
    """One group's view of the ledger at the time of a question: who owns what, and the fee rules."""

    group: str
    rules: LedgerRules
    state: LedgerState
    notes: dict[tuple, dict] = field(default_factory=dict)  # journey signature -> how it was chosen


def load_pricing(day: GameDay, group: str, store=None) -> Pricing:
    """The ledger snapshot of ``day`` for ``group`` (``store``: a LedgerStore, else one is opened)."""
    from planner.ledger.rules import ledger_rules
    from planner.store.ledger import LedgerStore

    rules = ledger_rules(day.game)
    if store is not None:
        return Pricing(group, rules, store.state(rules, day.date))
    with LedgerStore() as own:
        return Pricing(group, rules, own.state(rules, day.date))


def _leg_stops(day: GameDay, journey: Journey, crossings: list[list[dict]]):
    from planner.ledger.fees import LegStops

    tt = day.timetable
    out = []
    for leg, cr in zip(journey.legs, crossings, strict=True):
        if leg.is_walk:
            stops, times = (tt.station_name[leg.walk_to],), (leg.walk_arr,)
        else:
            rows = [r for r in range(leg.board_row + 1, leg.alight_row + 1)
                    if tt.st_pickup[r] or tt.st_dropoff[r] or r == leg.alight_row]
            stops = tuple(tt.station_name[tt.stop_station[tt.st_stop[r]]] for r in rows)
            times = tuple(int(tt.st_arr[r]) for r in rows)
        out.append(LegStops(stops, tuple((c["kind"], c["name"]) for c in cr), times))
    return out


def price(day: GameDay, pricing: Pricing, journey: Journey, crossings: list[list[dict]]) -> dict:
    """``{fees, fees_total, fees_min, fees_max}`` of ``journey`` (``crossings``: per leg, as annotated)."""
    from planner.ledger.fees import itinerary_fees
    from planner.util.timefmt import fmt_clock

    out = itinerary_fees(pricing.rules, pricing.state, pricing.group, _leg_stops(day, journey, crossings))
    for f in out["fees"]:
        if "time" in f:
            f["time"] = fmt_clock(f["time"])
    return out


def add_fees(day: GameDay, pricing: Pricing | None, journey: Journey | None, d: dict) -> None:
    """Add ``fees``, ``fees_total`` (and bounds, and ``pricing`` when a choice was made) to an annotated
    itinerary dict; nothing without a group."""
    if pricing is None or journey is None:
        return
    d |= price(day, pricing, journey, [ld.get("crossings", []) for ld in d["legs"]])
    note = pricing.notes.get(journey.signature())
    if note:
        d["pricing"] = note


def cheapest(day: GameDay, pricing: Pricing | None, origin: Origin, journey: Journey | None) -> Journey | None:
    """Among the legal itineraries arriving as early as ``journey`` (same rules, same query), the cheapest for
    the group on balance; ``journey`` itself without a group or when it is the only one."""
    if pricing is None or journey is None or not journey.legs:
        return journey
    from planner.ledger.fees import net_cost
    from planner.routing.query import equally_fast

    tt = day.timetable
    same = {journey.signature(): journey}
    for j in equally_fast(day.network, origin, journey.target_station, journey.arrival(tt)):
        same.setdefault(j.signature(), j)
    scored = []
    for i, j in enumerate(same.values()):
        d = {"legs": [leg.to_dict(tt) for leg in j.legs]}
        annotate(day, j, d)
        priced = price(day, pricing, j, [ld["crossings"] for ld in d["legs"]])
        hours = len({b["hour"] for b in d["bonus"]})
        scored.append((net_cost(priced, hours, pricing.rules), i, j, priced["fees_total"], hours))
    scored.sort(key=lambda x: (x[0], x[1]))
    cost, _, best, fees, hours = scored[0]
    pricing.notes[best.signature()] = {"group": pricing.group, "compared": len(scored), "net_cost": cost,
                                       "fees_total": fees, "bonus_hours": hours, "weighed": WEIGHING}
    return best


def cheapest_answer(day: GameDay, pricing: Pricing | None, origin: Origin, ans: DiceAnswer) -> DiceAnswer:
    """The dice answer with its itinerary replaced by the cheapest equally fast one (see :func:`cheapest`)."""
    j = cheapest(day, pricing, origin, ans.journey)
    return ans if j is ans.journey else dataclasses.replace(ans, journey=j)
