"""Per-leg facts of an itinerary on the game day: the toll lines and tunnels each leg crosses, its bonus events."""

from __future__ import annotations

from planner.game.bonus import leg_bonus_events
from planner.rail.index import leg_crossings
from planner.routing import Journey
from planner.service.gameday import GameDay


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
