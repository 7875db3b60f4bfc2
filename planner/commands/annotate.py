"""Per-leg annotations every printed itinerary carries: toll lines/tunnels crossed and bonus events."""

from __future__ import annotations

from planner.commands.base import Context
from planner.routing.journey import Journey


def annotate(ctx: Context, journey: Journey, d: dict) -> None:
    """Add ``crossings`` and ``bonus`` lists to each leg dict of ``d`` (in place)."""
    from planner.game.bonus import leg_bonus_events

    tt = ctx.timetable
    crossings = _crossings_fn(ctx)
    for leg, ld in zip(journey.legs, d["legs"], strict=True):
        ld["crossings"] = [] if leg.is_walk or crossings is None else crossings(leg)
        ld["bonus"] = [] if leg.is_walk else leg_bonus_events(tt, ctx.game, leg)
    d["bonus"] = [b for ld in d["legs"] for b in ld["bonus"]]
    d["crossings"] = [c for ld in d["legs"] for c in ld["crossings"]]


def _crossings_fn(ctx: Context):
    game = ctx.game
    if not (game.toll_lines or game.tunnels):
        return None
    if "crossings_fn" in ctx.extra:
        return ctx.extra["crossings_fn"]
    try:
        from planner.game.physical import trip_crossings
        from planner.rail import load_rail_network
    except ImportError:
        ctx.extra["crossings_fn"] = None
        return None
    try:
        network = load_rail_network()
    except Exception:  # noqa: BLE001 - no physical data: crossings unknown, not a crash
        ctx.extra["crossings_fn"] = None
        return None
    tt = ctx.timetable

    def fn(leg) -> list[dict]:
        hits = trip_crossings(tt, network, game, leg.trip, leg.board_row, leg.alight_row)
        return [_hit_json(h) for h in hits]

    ctx.extra["crossings_fn"] = fn
    return fn


def _hit_json(h) -> dict:
    if isinstance(h, dict):
        return h
    return {"name": h.name, "kind": h.kind, "between": list(h.between)}
