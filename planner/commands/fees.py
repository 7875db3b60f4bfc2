"""Itinerary fees for a group (``--group G`` on route/target/roll): the hooks the routing commands call.

``add_fees`` prices one itinerary dict from the ledger; ``prefer_cheaper`` picks, among itineraries
arriving exactly as early, the one costing the group least on balance (fees minus extra full-hour
income). Both do nothing without ``--group``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from planner.commands.base import Context

if TYPE_CHECKING:
    from planner.routing import Journey, Origin

WEIGHING = ("among itineraries arriving at the same minute, the lowest net cost wins: fees_total (tunnels at "
            "their expected fee, dice sum 7) minus the extra full-hour income (bonus fee minus base fee) for "
            "each full hour with a bonus event; ties keep the planner's order (fewer changes, later departure)")


def _group(ctx: Context) -> str | None:
    g = getattr(ctx.args, "group", None)
    return None if g is None else str(g)


def _ledger(ctx: Context):
    if "ledger_state" not in ctx.extra:
        from planner.ledger.service import rules_of
        from planner.ledger.store import LedgerStore

        rules = rules_of(ctx)
        with LedgerStore() as store:
            ctx.extra["ledger_state"] = store.state(rules, ctx.date)
    return ctx.extra["ledger_rules"], ctx.extra["ledger_state"]


def _leg_stops(ctx: Context, journey: Journey, crossings: list[list[dict]]):
    from planner.ledger.fees import LegStops

    tt = ctx.timetable
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


def price(ctx: Context, journey: Journey, crossings: list[list[dict]], group: str) -> dict:
    """The fees of ``journey`` for ``group`` (``crossings``: per leg, as annotate computed them)."""
    from planner.ledger.fees import itinerary_fees
    from planner.util.timefmt import fmt_clock

    rules, state = _ledger(ctx)
    out = itinerary_fees(rules, state, group, _leg_stops(ctx, journey, crossings))
    for f in out["fees"]:
        if "time" in f:
            f["time"] = fmt_clock(f["time"])
    return out


def add_fees(ctx: Context, journey: Journey | None, d: dict) -> None:
    """Add ``fees``, ``fees_total`` (and bounds) to an annotated itinerary dict, for ``--group``."""
    group = _group(ctx)
    if group is None or journey is None:
        return
    d |= price(ctx, journey, [ld.get("crossings", []) for ld in d["legs"]], group)
    note = ctx.extra.get("fee_choice", {}).get(journey.signature())
    if note:
        d["pricing"] = note


def prefer_cheaper(ctx: Context, origin: Origin, journey: Journey | None) -> Journey | None:
    """For ``--group``: among itineraries arriving as early as ``journey``, the cheapest on balance."""
    group = _group(ctx)
    if group is None or journey is None or not journey.legs:
        return journey
    from planner.commands.annotate import annotate
    from planner.ledger.fees import net_cost
    from planner.routing.query import equally_fast

    tt = ctx.timetable
    rules, _ = _ledger(ctx)
    same = {journey.signature(): journey}
    for j in equally_fast(ctx.network, origin, journey.target_station, journey.arrival(tt)):
        same.setdefault(j.signature(), j)
    scored = []
    for i, j in enumerate(same.values()):
        d = {"legs": [leg.to_dict(tt) for leg in j.legs]}
        annotate(ctx, j, d)
        priced = price(ctx, j, [ld["crossings"] for ld in d["legs"]], group)
        hours = len({b["hour"] for b in d["bonus"]})
        scored.append((net_cost(priced, hours, rules), i, j, priced["fees_total"], hours))
    scored.sort(key=lambda x: (x[0], x[1]))
    cost, _, best, fees, hours = scored[0]
    ctx.extra.setdefault("fee_choice", {})[best.signature()] = {
        "group": group, "compared": len(scored), "net_cost": cost, "fees_total": fees, "bonus_hours": hours,
        "weighed": WEIGHING}
    return best
