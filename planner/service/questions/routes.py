"""The route use case: where a group is (a station, or a train it sits in), the fastest legal itinerary from there
to a station, the cheapest of the equally fast for a group, and the alternatives within a few minutes
(``planner route``, ``planner map route``; the web calls the same)."""

from __future__ import annotations

import msgspec

from planner.errors import InputError
from planner.game.day import Position
from planner.routing import Journey, Origin, best_journey, journeys_within
from planner.service.answers.itinerary import RouteAnswer, as_itinerary_fields
from planner.service.questions.next_step import group_origin
from planner.service.read.jail_plans import plan_jails
from planner.service.read.positions import PlaceRequest, origin_of, resolve_place, train_echo
from planner.service.read.pricing import Pricing, cheapest, load_pricing
from planner.service.read.views import jail_answer, journey_json, late_warning, with_realtime, zugzwang_json
from planner.service.setup.playing import GameDay, Play
from planner.util.i18n import _
from planner.util.timefmt import fmt_clock


def place_origin(day: GameDay, at: str | None, time: int | None, trip: str | None,
                 since: int | None = None) -> tuple[Origin, str | None]:
    """The routing origin of a group standing ``at`` a station at ``time`` (there since ``since``), or seated in
    ``trip`` (at its time there, or where it is at ``time``), bound by the day's change window; and how a named
    train was understood (echoed to the group)."""
    if not at and not trip:
        raise InputError(_("--from (or --at) is required"))
    if trip and since is not None:
        raise InputError(_("--since is for a group standing at a station; with --trip the group sits in a train"))
    if since is not None and time is not None and since > time:
        raise InputError(_("--since {since} is after --time {time}").format(since=fmt_clock(since),
                                                                            time=fmt_clock(time)))
    place = resolve_place(day, PlaceRequest(at, time, trip))
    pos = place.position
    if since is not None:
        pos = Position(pos.station, since)
    return origin_of(day, pos, time, got_off=since is not None), place.train


def fastest(day: GameDay, pricing: Pricing | None, origin: Origin, target: int) -> Journey | None:
    """The fastest legal itinerary; for a group the cheapest of the equally fast."""
    return cheapest(day, pricing, origin, best_journey(day.network, origin, target, end_time=day.search_end))


def route_answer(day: GameDay, pricing: Pricing | None, origin: Origin, target: int, within: float | None,
                 train: str | None = None) -> RouteAnswer:
    """The route answer (``planner route``): fastest, ``alternatives`` within ``within`` minutes of it, what the
    change-window rule applied, a warning when it arrives after the game's end; ``train``: the echo of the train a
    seated group named."""
    if within is not None and not 0 <= within <= 180:
        raise InputError(_("--within {within}: expected 0 to 180 minutes").format(within=within))
    j = fastest(day, pricing, origin, target)
    jailed = plan_jails(day, origin, target, j)  # §17 on real-time data: a late train's jail, then on from it
    j = jailed.journey
    it = journey_json(day, j, origin, target, pricing)
    if jailed.jails:
        it = msgspec.structs.replace(it, jail=jail_answer(day, jailed, pricing.group if pricing is not None else None))
    alts = []
    if within is not None:
        for a in journeys_within(day.network, origin, target, within, fastest=j):
            if j is not None and a.signature() == j.signature():
                continue
            alts.append(journey_json(day, a, origin, target, pricing))
    out = RouteAnswer(**as_itinerary_fields(it), alternatives=alts, zugzwang=zugzwang_json(origin))
    if train:
        out.train = train
    warnings = late_warning(day, j.arrival(day.timetable) if j is not None and j.legs else None)
    if warnings:
        out.warnings = warnings
    return with_realtime(day, out, origin.time)


def group_route(play: Play, group: str, target: str | None, time: int, within: float | None) -> RouteAnswer:
    """``planner route --group G`` without a position: from where the group is in its day, to ``target`` (a
    station) or, left out, to the target it heads for; priced with its fees."""
    origin, heading_to = group_origin(play, group, time)
    day = play.day
    if target is None and heading_to is None:
        raise InputError(_("group {group} is not heading for a target: give --to").format(
            group=play.group(group).name))
    to = day.station(target) if target else heading_to
    assert to is not None
    train = train_echo(day, origin.trip, origin.row) if origin.in_trip else None
    return route_answer(day, load_pricing(play, play.group(group).name), origin, to, within, train)
