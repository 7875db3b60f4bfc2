"""Per-leg annotations every printed itinerary carries: toll lines/tunnels crossed and bonus events."""

from __future__ import annotations

from typing import TYPE_CHECKING

from planner.commands.base import Context

if TYPE_CHECKING:
    from planner.routing.journey import Journey


def annotate(ctx: Context, journey: Journey, d: dict) -> None:
    """Add ``crossings`` and ``bonus`` lists to each leg dict of ``d`` (in place)."""
    from planner.crossing_index import by_trip, leg_crossings
    from planner.game.bonus import leg_bonus_events

    tt = ctx.timetable
    index = crossing_index(ctx)
    if index and "crossings_by_trip" not in ctx.extra:
        ctx.extra["crossings_by_trip"] = by_trip(index)
    trips = ctx.extra.get("crossings_by_trip", {})
    for leg, ld in zip(journey.legs, d["legs"], strict=True):
        ld["crossings"] = [] if leg.is_walk else leg_crossings(trips, ctx.game, leg.trip, leg.board_row,
                                                               leg.alight_row)
        ld["bonus"] = [] if leg.is_walk else leg_bonus_events(tt, ctx.game, leg)
    d["bonus"] = [b for ld in d["legs"] for b in ld["bonus"]]
    d["crossings"] = [c for ld in d["legs"] for c in ld["crossings"]]


def crossing_index(ctx: Context):
    """The day's crossing index (computed once per cached game day), or None without line data."""
    if "crossing_index" not in ctx.extra:
        from planner.crossing_index import day_crossings

        ctx.extra["crossing_index"] = day_crossings(ctx.timetable, ctx.game)
    return ctx.extra["crossing_index"]
