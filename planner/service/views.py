"""The JSON shape of answers (the CLI's ``--json`` and the web API give the same): itineraries with per-leg
toll lines, tunnels and bonus events, delays and the group's fees, and dice answers. The itinerary and the target
are decided before; what each leg crosses, earns and costs is added here by the modules that know it
(:mod:`planner.service.legs`, :mod:`planner.service.realtime`, :mod:`planner.service.pricing`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from planner.routing.journey import Leg
from planner.service.gameday import GameDay
from planner.service.jail import jail_json
from planner.service.legs import annotate
from planner.service.pricing import Pricing, add_fees
from planner.service.realtime import add_delays, with_realtime
from planner.util.timefmt import fmt_clock

if TYPE_CHECKING:
    from planner.game.dice import DiceAnswer
    from planner.routing import Journey, Origin


def zugzwang_json(origin: Origin) -> dict:
    """What an answer applied: ``{"applies", "minutes", "since"}`` (since: when the standing group's window
    started; None when seated or without the rule)."""
    applies = origin.window is not None
    return {"applies": applies, "minutes": origin.window // 60 if applies else None,
            "since": fmt_clock(origin.got_off) if applies and not origin.in_trip else None}


def late_warning(day: GameDay, arrival: int | None) -> list[str]:
    """The warning for an answer arriving after the game's end (the end ends every obligation, §3)."""
    clock = day.game.clock
    if arrival is None or not clock.over(arrival):
        return []
    return [f"arrival {fmt_clock(arrival)} is not before the end of the game ({fmt_clock(clock.end)}): "
            "the game ends on the way"]


def journey_json(day: GameDay, j: Journey | None, origin: Origin, target: int,
                 pricing: Pricing | None = None) -> dict:
    """JSON for one itinerary (``arrival: null`` and a ``reason`` when there is none); with ``pricing``, the
    group's fees on it (planner/service/pricing.py)."""
    tt = day.timetable
    if j is None:
        return {"from": tt.station_name[origin.station], "to": tt.station_name[target], "departure": None,
                "arrival": None, "changes": None, "legs": [],
                "reason": "no connection on the game day from this position (after this time, in the area)"}
    d = j.to_dict(tt)
    d["from"] = tt.station_name[origin.station]
    if not j.legs:
        d["already_there"] = True
    annotate(day, j, d)
    add_delays(day, j, d)
    add_fees(day, pricing, j, d, seated=origin.in_trip)
    _seated_start(day, j, d)
    return d


def _seated_start(day: GameDay, j: Journey, d: dict) -> None:
    """A seated group that gets off at the stop its train approaches (the routing's zero-length first leg): the
    itinerary starts with the ride it sits in, from the stop before (``seated``: the stops behind it count for
    nothing), or without it when the train has not left its first stop; ``changes`` as the legs show."""
    first = j.legs[0] if j.legs else None
    if first is None or first.is_walk or first.board_row != first.alight_row:
        return
    tt = day.timetable
    row = first.board_row
    if row > int(tt.trip_offset[first.trip]):
        ride = Leg(first.trip, row - 1, row).to_dict(tt)
        d["legs"][0] |= {k: ride[k] for k in ("from", "from_platform", "departure")} | {"seated": True}
    else:
        d["legs"] = d["legs"][1:]
    d["changes"] = max(0, sum(1 for ld in d["legs"] if ld["route"] != "walk") - 1)


FEE_KEYS = ("fees", "fees_total", "fees_min", "fees_max", "pricing")


def dice_json(day: GameDay, ans: DiceAnswer, origin: Origin, pricing: Pricing | None = None) -> dict:
    """JSON of a dice answer (the interface of ``planner target``); with ``pricing``, the group's fees."""
    tt = day.timetable
    itinerary = None
    if ans.journey is not None:
        itinerary = journey_json(day, ans.journey, origin, ans.journey.target_station, pricing)
    out = {
        "roll": ans.roll,
        "kind": ans.kind,
        "target": ans.target,
        "arrival": fmt_clock(ans.arrival),
        "departure": itinerary["departure"] if itinerary else None,
        "changes": itinerary["changes"] if itinerary else None,
        "legs": itinerary["legs"] if itinerary else [],
        "already_there": bool(itinerary and not itinerary["legs"]),
        "candidates": ans.candidates,
        "free_until": fmt_clock(ans.free_until),
        "admissible": [journey_json(day, j, origin, j.target_station, pricing)
                       | {"reached": fmt_clock(ans.reached(j, tt))} for j in ans.admissible],
        "bonus": itinerary["bonus"] if itinerary else [],
        "crossings": itinerary["crossings"] if itinerary else [],
        **({k: itinerary[k] for k in FEE_KEYS if k in itinerary} if itinerary else {}),
        "reroll_at": fmt_clock(ans.reroll_at),
        "why": ans.why,
        "warnings": ans.warnings + late_warning(day, ans.arrival),
        "from": tt.station_name[origin.station],
        "time": fmt_clock(origin.time),
        "zugzwang": zugzwang_json(origin),
    }
    if ans.jail is not None:
        out["jail"] = jail_json(day, ans.jail, pricing.group if pricing is not None else None)
    return with_realtime(day, out, origin.time)
