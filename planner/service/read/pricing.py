"""Fees of itineraries for a group (use case helpers): the ledger's ownership applied to the stops, toll lines
and tunnels of an itinerary, and the choice of the cheapest among equally fast legal itineraries.

The rules are the ledger's (planner/ledger/fees.py); this module only gathers what they need from a
:class:`GameDay` and a ledger snapshot, so the CLI (``--group``) and the web app price the same way.

Per-leg facts of an itinerary on the game day: the toll lines and tunnels each leg crosses, its bonus events."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np

from planner.game.alternatives import equally_fast_ways
from planner.game.bonus import leg_bonus_events
from planner.game.dice import DiceAnswer
from planner.ledger.fees import LegStops, itinerary_fees, net_cost
from planner.ledger.model import LedgerState
from planner.ledger.money_rules import LedgerRules
from planner.rail.index import leg_crossings
from planner.routing import Journey, Origin
from planner.service.setup.playing import GameDay, Play
from planner.timetable.model import Timetable
from planner.util.timefmt import fmt_clock

WEIGHING = ("among the legal itineraries arriving at the same minute, the lowest net cost wins: fees_total "
            "(tunnels at their expected fee, dice sum 7) minus the extra full-hour income (bonus fee minus base fee) "
            "for each full hour with a bonus event; ties keep the planner's order (fewer changes, later departure)")


@dataclass
class Pricing:
    """One group's view of the ledger at the time of a question: who owns what, and the fee rules."""

    group: str
    rules: LedgerRules
    state: LedgerState
    notes: dict[tuple, dict] = field(default_factory=dict)  # journey signature -> how it was chosen


def load_pricing(play: Play, group: str) -> Pricing:
    """The ledger of ``play``'s game as ``group`` (its name) sees it now."""
    rules = play.day.ledger_rules
    return Pricing(group, rules, play.state.ledger.view(rules, play.id))  # read only: no copy


def leg_stops(day: GameDay, journey: Journey, crossings: list[list[dict]], seated: bool, *,
              times_on: Timetable | None = None) -> list[LegStops]:
    """The stops of each leg the group is at (§7, docs/rules.md §3 "Being at a station": its train stops there): every
    stop after boarding, the one it gets off at included; a group starting seated has not been at the stop it
    approaches yet. Their times on the timetable, or on ``times_on`` (the same rows on predicted times)."""
    tt = day.timetable
    times_tt = tt if times_on is None else times_on
    out = []
    for i, (leg, cr) in enumerate(zip(journey.legs, crossings, strict=True)):
        if leg.is_walk:  # a walk to a station's bus stop is a change, not a stop of a train (docs/rules.md §3)
            stops, times = (), ()
        else:
            first = leg.board_row if (i == 0 and seated) else leg.board_row + 1
            rows = np.arange(first, leg.alight_row + 1)
            keep = tt.st_pickup[rows] | tt.st_dropoff[rows]
            keep[-1:] = True  # where it gets off
            rows = rows[keep]
            stops = tuple(tt.station_name[s] for s in tt.stop_station[tt.st_stop[rows]].tolist())
            times = tuple(times_tt.st_arr[rows].tolist())
        out.append(LegStops(stops, tuple((c["kind"], c["name"]) for c in cr), times))
    return out


def price(day: GameDay, pricing: Pricing, journey: Journey, crossings: list[list[dict]], *,
          seated: bool = False) -> dict:
    """``{fees, fees_total, fees_min, fees_max}`` of ``journey`` (``crossings``: per leg, as annotated; ``seated``:
    it starts in a train, at the stop it approaches)."""
    out = itinerary_fees(pricing.rules, pricing.state, pricing.group, leg_stops(day, journey, crossings, seated))
    for f in out["fees"]:
        if "time" in f:
            f["time"] = fmt_clock(f["time"])
    return out


def add_fees(day: GameDay, pricing: Pricing | None, journey: Journey | None, d: dict, *, seated: bool = False) -> None:
    """Add ``fees``, ``fees_total`` (and bounds, and ``pricing`` when a choice was made) to an annotated
    itinerary dict; nothing without a group."""
    if pricing is None or journey is None:
        return
    d |= price(day, pricing, journey, [ld.get("crossings", []) for ld in d["legs"]], seated=seated)
    note = pricing.notes.get(journey.signature())
    if note:
        d["pricing"] = note


def cheapest(day: GameDay, pricing: Pricing | None, origin: Origin, journey: Journey | None) -> Journey | None:
    """Among the legal itineraries arriving as early as ``journey`` (:func:`equally_fast_ways`), the cheapest for
    the group on balance (fees minus the extra full-hour income); ``journey`` itself without a group. The
    other ways are looked for only when ``journey`` costs the group something or misses a bonus it could earn."""
    if pricing is None or journey is None or not journey.legs:
        return journey
    tt = day.timetable

    def score(i: int, j: Journey) -> tuple:
        d = {"legs": [leg.to_dict(tt) for leg in j.legs]}
        annotate(day, j, d)
        priced = price(day, pricing, j, [ld["crossings"] for ld in d["legs"]], seated=origin.in_trip)
        hours = len({b["hour"] for b in d["bonus"]})
        return net_cost(priced, hours, pricing.rules), i, j, priced["fees_total"], hours

    first = score(0, journey)
    g = day.game
    could_earn = g.bonus.pays_more and g.bonus.time_between(origin.time, journey.arrival(tt), g.clock)
    if first[3] == 0 and (first[4] > 0 or not could_earn):
        scored = [first]  # nothing to pay and nothing more to earn: no way can do better
    else:
        ways = equally_fast_ways(day.network, day.window, origin, journey.target_station, journey)
        scored = [first] + [score(i, j) for i, j in enumerate(ways) if j.signature() != journey.signature()]
    scored.sort(key=lambda x: (x[0], x[1]))
    cost, _, best, fees, hours = scored[0]
    pricing.notes[best.signature()] = {"group": pricing.group, "compared": len(scored), "net_cost": cost,
                                       "fees_total": fees, "bonus_hours": hours, "weighed": WEIGHING}
    return best


def cheapest_answer(day: GameDay, pricing: Pricing | None, origin: Origin, ans: DiceAnswer) -> DiceAnswer:
    """The dice answer with its itinerary replaced by the cheapest equally fast one (see :func:`cheapest`)."""
    j = cheapest(day, pricing, origin, ans.journey)
    return ans if j is ans.journey else dataclasses.replace(ans, journey=j)


def annotate(day: GameDay, journey: Journey, d: dict) -> None:
    """Add ``crossings`` and ``bonus`` lists to each leg dict of ``d`` (in place), and their sums."""

    trips = day.crossings_by_trip
    net = day.network
    real = None if net.on_plan else net.tt  # predicted times (a bonus "effektiv", variant B §6)
    for leg, ld in zip(journey.legs, d["legs"], strict=True):
        ld["crossings"] = [] if leg.is_walk else leg_crossings(trips, day.game, leg.trip, leg.board_row,
                                                               leg.alight_row)
        ld["bonus"] = [] if leg.is_walk else leg_bonus_events(day.timetable, day.game, leg, real)
    d["bonus"] = [b for ld in d["legs"] for b in ld["bonus"]]
    d["crossings"] = [c for ld in d["legs"] for c in ld["crossings"]]
