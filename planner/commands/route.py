"""``planner route``: fastest itinerary (and alternatives within X minutes), single or batch."""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from typing import TYPE_CHECKING

from planner.commands import argtypes
from planner.commands.base import Context, add_common, add_routing, add_since, emit
from planner.errors import InputError, PlannerError
from planner.util.timefmt import fmt_clock
from planner.util.userfiles import read_csv

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
    p.add_argument("--within", type=argtypes.minutes(0, 600), metavar="MIN", help="also list every itinerary arriving at most MIN "
                                                               "minutes after the fastest")
    p.add_argument("--group", help="for this group: priced with its fees (ledger); without --from, from where it is "
                                  "in its day (to its target when --to is left out)")
    p.add_argument("--batch", metavar="CSV", help="answer many queries: CSV with columns from,to,time[,trip]")
    add_common(p)
    add_routing(p)
    p.set_defaults(func=cmd_route)


def resolve_origin(ctx: Context, origin: str | None, time: str | None, trip: str | None,
                   since: str | None = None) -> Origin:
    """Build the group's position from --from/--time/--trip/--since (the service resolves it; errors as one
    line), bound by the game's change window (unless --no-zugzwang). A named train is echoed as ``ctx.train``
    for the readable output."""
    from planner.game.day import Position
    from planner.service.positions import PlaceRequest, origin_of, resolve_place

    if not origin and not trip:
        raise InputError("--from (or --at) is required")
    if trip and since:
        raise InputError("--since is for a group standing at a station; with --trip the group sits in a train")
    t = ctx.clock(time) if (time or not trip) else None
    got_off = None
    if since:
        try:
            got_off = ctx.clock(since)
        except InputError as exc:
            raise InputError(f"--since: {exc}") from None
        if t is not None and got_off > t:
            raise InputError(f"--since {since} is after --time {fmt_clock(t)}")
    place = resolve_place(ctx.day, PlaceRequest(origin, t, trip))
    ctx.train = place.train
    pos = place.position
    if got_off is not None:
        pos = Position(pos.station, got_off)
    return origin_of(ctx.day, pos, t)


def journey_json(ctx: Context, j: Journey | None, origin: Origin, target: int) -> dict:
    """JSON for one itinerary, with per-leg annotations (toll lines, tunnels, bonus events); with --group, its
    fees for that group."""
    from planner.service.views import journey_json as view

    return view(ctx.day, j, origin, target, ctx.pricing)


def answer(ctx: Context, origin: Origin, target: int, within: float | None) -> dict:
    """The route answer (fastest + alternatives), as the service's route use case gives it."""
    from planner.service.route import route_answer

    return route_answer(ctx.day, ctx.pricing, origin, target, within, getattr(ctx, "train", None))


def cmd_route(args: argparse.Namespace) -> int:
    """Run one query, or a batch file (one JSON object per line)."""
    ctx = Context(args)
    if args.batch:
        return _batch(ctx, args)
    if args.group and not (args.origin or args.trip):
        from planner.service import group_origin
        from planner.store.groups import GroupStore

        with GroupStore() as store:
            origin, heading_to = group_origin(ctx.day, store, args.group, ctx.day.status_time(args.time))
        if origin.in_trip:
            from planner.service.positions import train_echo

            ctx.train = train_echo(ctx.day, origin.trip, origin.row)
        if not args.target and heading_to is None:
            raise InputError(f"group {args.group} is not heading for a target: give --to")
        target = ctx.station(args.target) if args.target else heading_to
    else:
        if not args.target:
            raise InputError("--to is required")
        origin = resolve_origin(ctx, args.origin, args.time, args.trip, args.since)
        target = ctx.station(args.target)
    out = answer(ctx, origin, target, args.within)
    emit(args, out, render(out))
    return 0


def _batch(ctx: Context, args: argparse.Namespace) -> int:
    path = args.batch
    rows = bad = 0
    for line, row in read_csv(path, "batch file", {"from", "to", "time"}):
        rows += 1
        try:
            origin = resolve_origin(ctx, row["from"], row["time"], row.get("trip") or None)
            out = answer(ctx, origin, ctx.station(row["to"]), args.within)
        except PlannerError as exc:
            bad += 1
            out = {"error": f"{path} line {line}: {exc}"}
        sys.stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
    if rows and bad == rows:  # nothing answered: the file, not one row, is wrong
        raise PlannerError(f"batch file {path}: none of its {rows} queries could be answered (see each line)")
    return 0


WIDTH = 80  # a phone in landscape, a terminal: every readable line fits


def _changes(n: int | None) -> str:
    return "no change" if not n else f"{n} change" + ("s" if n > 1 else "")


def _wrap(line: str, indent: int = 9) -> list[str]:
    return textwrap.wrap(line, WIDTH, subsequent_indent=" " * indent, break_on_hyphens=False) or [line]


def render(out: dict) -> str:
    """Readable itinerary for a phone screen (80 columns, no trip ids, tolls and bonus in words)."""
    lines = [f"in {out['train'].removeprefix('in ')}"] if out.get("train") else []
    if out.get("arrival") is None:
        return "\n".join(lines + _wrap(f"{out['from']} → {out['to']}: {out.get('reason', 'unreachable')}", 2))
    if out.get("already_there") or not out.get("legs"):
        return "\n".join(lines + [f"{out['to']}: already there ({out['arrival']})"])
    lines += _wrap(f"{out['from']} → {out['to']}: dep {out['departure']}, arr {out['arrival']}, "
                   f"{_changes(out['changes'])}", 2)
    lines += _legs(out)
    for w in out.get("warnings", []):
        lines += _wrap(f"warning: {w}", 2)
    for i, a in enumerate(out.get("alternatives", []), 1):
        lines += _wrap(f"alternative {i}: dep {a['departure']}, arr {a['arrival']}, {_changes(a['changes'])}", 2)
        lines += ["  " + x for x in _legs(a)]
    return "\n".join(lines)


def _plat(p: str | None) -> str:
    return f", pl. {p}" if p else ""


def _legs(out: dict) -> list[str]:
    """Two lines per ride (board, get off), then what happens on it in words: bonus, toll lines, tunnels."""
    lines: list[str] = []
    for leg in out["legs"]:
        if leg.get("route") == "walk":
            lines += _wrap(f"  {leg['departure']}  walk from {leg['from']} to {leg['to']} (arr {leg['arrival']})")
            continue
        if leg["from"] == leg["to"] and leg["departure"] == leg["arrival"]:
            lines += _wrap(f"  {leg['arrival']}  {leg['to']}{_plat(leg.get('to_platform'))}: get off the "
                           f"{leg['route']}")
            continue
        towards = f" towards {leg['headsign']}" if leg.get("headsign") else ""
        lines += _wrap(f"  {leg['departure']}  {leg['from']}{_plat(leg.get('from_platform'))}: "
                       f"{leg['route']}{towards}")
        lines += _wrap(f"  {leg['arrival']}  {leg['to']}{_plat(leg.get('to_platform'))}: get off")
        events: dict[tuple, set] = {}
        for b in leg.get("bonus", []):
            events.setdefault((b["time"], b["station"], b["fee"]), set()).add(b["event"])
        for (time, station, fee), kinds in events.items():
            verb = "calls at" if len(kinds) > 1 else "arrives at" if "arrival" in kinds else "departs"
            lines += _wrap(f"         full-hour bonus ({fee}): the train {verb} {station} at {time}")
        for c in leg.get("crossings", []):
            what = "tunnel" if c.get("kind") == "tunnel" else "toll line"
            lines += _wrap(f"         crosses the {what} {c['name']}: its owner's fee is due")
    return lines
