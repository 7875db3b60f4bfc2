"""``planner route``: fastest itinerary (and alternatives within X minutes), single or batch."""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from planner.commands.base import Context, add_common, add_routing, emit
from planner.errors import InputError, PlannerError

if TYPE_CHECKING:  # the routing core (numba) is imported only by commands that route: --help stays fast
    from planner.routing import Journey
    from planner.routing.query import Origin


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``planner route``."""
    p = sub.add_parser("route", help="fastest way from a station (or from the train you sit in) to a station")
    p.add_argument("--from", dest="origin", help="station where the group stands (or the stop its train is at "
                                                 "or approaching, with --trip)")
    p.add_argument("--to", dest="target", help="target station")
    p.add_argument("--time", help="HH:MM (default: the trip's time at --from when --trip is given)")
    p.add_argument("--trip", help="the train the group sits in: trip id, or line and time as 'IR75 10:03'")
    p.add_argument("--within", type=float, metavar="MIN", help="also list every itinerary arriving at most MIN "
                                                               "minutes after the fastest")
    p.add_argument("--batch", metavar="CSV", help="answer many queries: CSV with columns from,to,time[,trip]")
    add_common(p)
    add_routing(p)
    p.set_defaults(func=cmd_route)


def resolve_origin(ctx: Context, origin: str | None, time: str | None, trip: str | None) -> Origin:
    """Build the group's position from --from/--time/--trip (the service resolves it; errors as one line).
    A named train is echoed on stderr-free JSON as ``ctx.train`` for the readable output."""
    from planner.service.positions import PlaceRequest, origin_of, resolve_place

    if not origin and not trip:
        raise InputError("--from (or --at) is required")
    t = ctx.clock(time) if (time or not trip) else None
    place = resolve_place(ctx.day, PlaceRequest(origin, t, trip))
    ctx.train = place.train
    return origin_of(ctx.day, place.position)


def journey_json(ctx: Context, j: Journey | None, origin: Origin, target: int) -> dict:
    """JSON for one itinerary, with per-leg annotations (toll lines, tunnels, bonus events)."""
    from planner.service.views import journey_json as view

    return view(ctx.day, j, origin, target)


def answer(ctx: Context, origin: Origin, target: int, within: float | None) -> dict:
    """The route answer (fastest + alternatives)."""
    from planner.routing import best_journey, journeys_within
    from planner.service.views import late_warning

    net = ctx.network
    j = best_journey(net, origin, target, end_time=ctx.day.search_end)
    out = journey_json(ctx, j, origin, target)
    if getattr(ctx, "train", None):
        out["train"] = ctx.train
    warnings = late_warning(ctx.day, j.arrival(ctx.timetable) if j is not None and j.legs else None)
    if warnings:
        out["warnings"] = warnings
    alts = []
    if within is not None:
        if within < 0 or within > 180:
            raise InputError(f"--within {within}: expected 0 to 180 minutes")
        for a in journeys_within(net, origin, target, within, fastest=j):
            if j is not None and a.signature() == j.signature():
                continue
            alts.append(journey_json(ctx, a, origin, target))
    out["alternatives"] = alts
    return out


def cmd_route(args: argparse.Namespace) -> int:
    """Run one query, or a batch file (one JSON object per line)."""
    ctx = Context(args)
    if args.batch:
        return _batch(ctx, args)
    if not args.target:
        raise InputError("--to is required")
    origin = resolve_origin(ctx, args.origin, args.time, args.trip)
    target = ctx.station(args.target)
    out = answer(ctx, origin, target, args.within)
    emit(args, out, render(out))
    return 0


def _batch(ctx: Context, args: argparse.Namespace) -> int:
    path = Path(args.batch)
    if not path.is_file():
        raise InputError(f"batch file {path}: not found")
    with open(path, newline="", encoding="utf-8-sig") as fh:
        reader = csv.DictReader(fh)
        missing = {"from", "to", "time"} - set(reader.fieldnames or [])
        if missing:
            raise InputError(f"batch file {path}: missing column(s) {', '.join(sorted(missing))}")
        for line, row in enumerate(reader, start=2):
            try:
                origin = resolve_origin(ctx, row["from"], row["time"], (row.get("trip") or "").strip() or None)
                out = answer(ctx, origin, ctx.station(row["to"]), args.within)
            except PlannerError as exc:
                out = {"error": f"{path} line {line}: {exc}"}
            sys.stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
    return 0


def render(out: dict) -> str:
    """Readable itinerary for a phone screen."""
    if out.get("arrival") is None:
        return f"{out['from']} -> {out['to']}: {out.get('reason', 'unreachable')}"
    lines = [f"{out['from']} -> {out['to']}: dep {out['departure']}, arr {out['arrival']}, "
             f"{out['changes']} change(s)"]
    lines += _legs(out)
    for i, a in enumerate(out.get("alternatives", []), 1):
        lines.append(f"  alternative {i}: dep {a['departure']}, arr {a['arrival']}, {a['changes']} change(s)")
        lines += ["  " + x for x in _legs(a)]
    return "\n".join(lines)


def _legs(out: dict) -> list[str]:
    lines = []
    for leg in out["legs"]:
        if leg.get("trip_id") and leg["from"] == leg["to"] and leg["departure"] == leg["arrival"]:
            plat = f" (pl.{leg['to_platform']})" if leg.get("to_platform") else ""
            lines.append(f"  {leg['arrival']} get off the {leg['route']} at {leg['to']}{plat}")
            continue
        plat_f = f" pl.{leg['from_platform']}" if leg.get("from_platform") else ""
        plat_t = f" pl.{leg['to_platform']}" if leg.get("to_platform") else ""
        extra = ""
        if leg.get("crossings"):
            extra += "  [" + ", ".join(c["name"] for c in leg["crossings"]) + "]"
        if leg.get("bonus"):
            extra += "  [bonus " + ", ".join(f"{b['time']} {b['event']} {b['station']}" for b in leg["bonus"]) + "]"
        lines.append(f"  {leg['departure']} {leg['from']}{plat_f}  {leg['route']} {leg['headsign']}".rstrip())
        lines.append(f"  {leg['arrival']} {leg['to']}{plat_t}{extra}")
    return lines
