"""``planner route``: fastest itinerary (and alternatives within X minutes), single or batch."""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from planner.commands.base import Context, add_common, add_routing, add_since, emit
from planner.errors import InputError, PlannerError
from planner.util.timefmt import fmt_clock

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
    add_since(p)
    p.add_argument("--within", type=float, metavar="MIN", help="also list every itinerary arriving at most MIN "
                                                               "minutes after the fastest")
    p.add_argument("--batch", metavar="CSV", help="answer many queries: CSV with columns from,to,time[,trip]")
    add_common(p)
    add_routing(p)
    p.set_defaults(func=cmd_route)


def resolve_origin(ctx: Context, origin: str | None, time: str | None, trip: str | None,
                   since: str | None = None) -> Origin:
    """Build the group's position from --from/--time/--trip/--since (errors as one line), bound by the
    game's change window (unless --no-zugzwang)."""
    from planner.routing import station_origin, trip_origin

    if not origin:
        raise InputError("--from (or --at) is required")
    s = ctx.station(origin)
    window = ctx.zugzwang_window
    if trip:
        if since:
            raise InputError("--since is for a group standing at a station; with --trip the group sits in a train")
        from planner.timetable.trips import train_time

        t = ctx.trip(trip, s)
        tt = ctx.timetable
        time = time or (train_time(trip) if trip not in tt.trip_index else None)
        rows = [r for r in tt.trip_stop_times(t) if int(tt.stop_station[tt.st_stop[r]]) == s]
        if not rows:
            raise InputError(f"trip {trip} does not stop at {tt.station_name[s]}")
        if time:
            want = ctx.clock(time)
            later = [r for r in rows if int(tt.st_arr[r]) >= want - 60]
            rows = later or rows
        return trip_origin(ctx.network, t, rows[0], window=window)
    t = ctx.clock(time)
    got_off = None
    if since:
        try:
            got_off = ctx.clock(since)
        except InputError as exc:
            raise InputError(f"--since: {exc}") from None
        if got_off > t:
            raise InputError(f"--since {since} is after --time {fmt_clock(t)}")
    return station_origin(s, t, since=got_off, window=window)


def zugzwang_json(origin: Origin) -> dict:
    """What the answer applied: ``{"applies", "minutes", "since"}`` (since: when the standing group's window
    started; None when seated or without the rule)."""
    applies = origin.window is not None
    return {"applies": applies, "minutes": origin.window // 60 if applies else None,
            "since": fmt_clock(origin.got_off) if applies and not origin.in_trip else None}


def journey_json(ctx: Context, j: Journey | None, origin: Origin, target: int) -> dict:
    """JSON for one itinerary, with per-leg annotations (toll lines, tunnels, bonus events) when available."""
    tt = ctx.timetable
    if j is None:
        return {"from": tt.station_name[origin.station], "to": tt.station_name[target], "departure": None,
                "arrival": None, "changes": None, "legs": [],
                "reason": "no connection on the game day from this position (after this time, in the area)"}
    d = j.to_dict(tt)
    d["from"] = tt.station_name[origin.station]
    from planner.commands.annotate import annotate

    annotate(ctx, j, d)
    return d


def answer(ctx: Context, origin: Origin, target: int, within: float | None) -> dict:
    """The route answer (fastest + alternatives)."""
    from planner.routing import best_journey, journeys_within

    net = ctx.network
    end = ctx.game.end if ctx.game.has_area else None
    j = best_journey(net, origin, target, end_time=end + 6 * 3600 if end else None)
    out = journey_json(ctx, j, origin, target)
    alts = []
    if within is not None:
        if within < 0 or within > 180:
            raise InputError(f"--within {within}: expected 0 to 180 minutes")
        for a in journeys_within(net, origin, target, within, fastest=j):
            if j is not None and a.signature() == j.signature():
                continue
            alts.append(journey_json(ctx, a, origin, target))
    out["alternatives"] = alts
    out["zugzwang"] = zugzwang_json(origin)
    return out


def cmd_route(args: argparse.Namespace) -> int:
    """Run one query, or a batch file (one JSON object per line)."""
    ctx = Context(args)
    if args.batch:
        return _batch(ctx, args)
    if not args.target:
        raise InputError("--to is required")
    origin = resolve_origin(ctx, args.origin, args.time, args.trip, args.since)
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
