"""The route use case: the fastest legal itinerary from an origin to a station, the cheapest of the equally
fast for a group, and the alternatives within a few minutes (``planner route``; the web can call the same)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from planner.errors import InputError
from planner.service.gameday import GameDay
from planner.service.jail import jail_json, plan_jails
from planner.service.pricing import Pricing, cheapest
from planner.service.realtime import with_realtime
from planner.service.views import journey_json, late_warning, zugzwang_json

if TYPE_CHECKING:
    from planner.routing import Origin


def route_answer(day: GameDay, pricing: Pricing | None, origin: Origin, target: int, within: float | None,
                 train: str | None = None) -> dict:
    """The route answer as ``planner route --json`` prints it (fastest, ``alternatives`` within ``within``
    minutes of it, what the change-window rule applied, a warning when it arrives after the game's end);
    ``train``: the echo of the train a seated group named."""
    from planner.routing import best_journey, journeys_within

    net = day.network
    j = best_journey(net, origin, target, end_time=day.search_end)
    j = cheapest(day, pricing, origin, j)  # a group: the cheapest of the equally fast
    jailed = plan_jails(day, origin, target, j)  # §17 on real-time data: a late train's jail, then on from it
    j = jailed.journey
    out = journey_json(day, j, origin, target, pricing)
    if jailed.jails:
        out["jail"] = jail_json(day, jailed, pricing.group if pricing is not None else None)
    if train:
        out["train"] = train
    warnings = late_warning(day, j.arrival(day.timetable) if j is not None and j.legs else None)
    if warnings:
        out["warnings"] = warnings
    alts = []
    if within is not None:
        if within < 0 or within > 180:
            raise InputError(f"--within {within}: expected 0 to 180 minutes")
        for a in journeys_within(net, origin, target, within, fastest=j):
            if j is not None and a.signature() == j.signature():
                continue
            alts.append(journey_json(day, a, origin, target, pricing))
    out["alternatives"] = alts
    out["zugzwang"] = zugzwang_json(origin)
    return with_realtime(day, out, origin.time)
