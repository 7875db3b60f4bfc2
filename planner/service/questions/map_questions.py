"""What the maps of a question show (``planner map route|target|reach``): the same answers as the route, target and
reach questions, with what a map needs to draw them (the itinerary, the stations reached by band); the maps
(:mod:`planner.maps`) only draw."""

from __future__ import annotations

from dataclasses import dataclass, field

import msgspec

from planner.errors import InputError
from planner.maps.layers import ReachPoint, reach_points
from planner.routing import Journey, Origin
from planner.service.questions.routes import fastest
from planner.service.questions.target import target_answer
from planner.service.read.views import journey_json, zugzwang_json
from planner.service.setup.playing import GameDay
from planner.util.i18n import _


@dataclass(frozen=True)
class MapAnswer:
    """A question's answer (``answer``: its JSON) with the itinerary to draw, or the reach bands (free movement)."""

    answer: dict  # the answer's JSON, as the map draws it
    journey: Journey | None = None
    points: list[ReachPoint] = field(default_factory=list)
    bands: tuple[int, ...] = ()


def route_map(day: GameDay, origin: Origin, target: int) -> MapAnswer:
    """The fastest legal itinerary (as ``planner route``) to draw."""
    j = fastest(day, None, origin, target)
    out = msgspec.to_builtins(journey_json(day, j, origin, target)) | {
        "zugzwang": msgspec.to_builtins(zugzwang_json(origin))}
    return MapAnswer(out, j)


def target_map(day: GameDay, origin: Origin, roll: int, visited: str) -> MapAnswer:
    """The dice answer (as ``planner target``); free movement shows how far the group gets in its free time."""
    ans, typed = target_answer(day, None, origin, roll, visited)
    out = msgspec.to_builtins(typed)
    if ans.kind == "free":
        step = max(day.game.dice.free_minutes // 3, 1)
        bands = (step, 2 * step, day.game.dice.free_minutes)
        return MapAnswer(out, None, reach_points(day.network, origin, bands), bands)
    return MapAnswer(out, ans.journey)


def reach_map(day: GameDay, origin: Origin, bands_text: str) -> MapAnswer:
    """The stations a group reaches within each band of minutes (``--bands 30,60,90``)."""
    try:
        bands = tuple(sorted({int(b) for b in bands_text.split(",") if b.strip()}))
    except ValueError:
        raise InputError(_("--bands {bands!r}: expected minutes like 30,60,90").format(bands=bands_text)) from None
    if not bands or bands[0] <= 0 or bands[-1] > 600:
        raise InputError(_("--bands {bands!r}: minutes between 1 and 600").format(bands=bands_text))
    pts = reach_points(day.network, origin, bands)
    out = {"stations": {str(b): sorted(p.name for p in pts if p.band == b) for b in bands}}
    return MapAnswer(out, None, pts, bands)
