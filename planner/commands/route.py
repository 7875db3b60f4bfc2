"""``planner route``: fastest itinerary (and alternatives within X minutes), single or batch (an adapter of
:mod:`planner.service.route`), and the readable itinerary every command prints."""

from __future__ import annotations

import argparse
import sys
import textwrap

import msgspec

from planner.commands.base import Context, emit
from planner.errors import InputError, PlannerError
from planner.routing import Origin
from planner.service.answers.base import encode
from planner.service.realtime import late_mark
from planner.service.route import group_route, place_origin, route_answer
from planner.util.i18n import _
from planner.util.userfiles import read_csv


def origin_of_args(ctx: Context, at: str | None, time: str | None, trip: str | None, since: str | None = None
                   ) -> Origin:
    """The group's position from --from/--time/--trip/--since (resolved by the service); a named train is
    echoed as ``ctx.train`` for the readable output."""
    t = ctx.clock(time) if (time or not trip) else None
    origin, ctx.train = place_origin(ctx.day, at, t, trip, ctx.optional_clock(since, "--since"))
    return origin


def cmd_route(args: argparse.Namespace) -> int:
    """Run one query, or a batch file (one JSON object per line)."""
    ctx = Context(args, game_scope=bool(args.group))
    if args.batch:
        return _batch(ctx, args)
    if args.group and not (args.origin or args.trip):
        out = group_route(ctx.play, args.group, args.target, ctx.day.status_time(args.time), args.within)
    else:
        if not args.target:
            raise InputError("--to is required")
        origin = origin_of_args(ctx, args.origin, args.time, args.trip, args.since)
        out = route_answer(ctx.day, ctx.pricing, origin, ctx.station(args.target), args.within, ctx.train)
    emit(args, out, render(msgspec.to_builtins(out)))
    return 0


def _batch(ctx: Context, args: argparse.Namespace) -> int:
    path = args.batch
    answered = failed = 0
    for line, row in read_csv(path, "batch file", {"from", "to", "time"}):
        try:
            origin = origin_of_args(ctx, row["from"], row["time"], row.get("trip") or None)
            out = route_answer(ctx.day, ctx.pricing, origin, ctx.station(row["to"]), args.within)
            answered += 1
        except PlannerError as exc:
            out = {"error": f"{path} line {line}: {exc}"}
            failed += 1
        sys.stdout.write(encode(out).decode() + "\n")
    if failed and not answered:
        raise InputError(f"batch file {path}: none of its {failed} rows could be answered (see each line)")
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
    rt = out.get("realtime")
    if rt:
        lines += _wrap(f"real time: {rt['source']}, " + (
            f"{rt['age_s'] // 60} min old, {rt['trips_matched']} trips matched"
            if rt.get("available") and rt.get("age_s") is not None else "not available: timetable times"), 2)
    for i, a in enumerate(out.get("alternatives", []), 1):
        lines += _wrap(f"alternative {i}: dep {a['departure']}, arr {a['arrival']}, {_changes(a['changes'])}", 2)
        lines += ["  " + x for x in _legs(a)]
    return "\n".join(lines)


def _plat(p: str | None) -> str:
    return f", pl. {p}" if p else ""


def _late(delay_min: int | None) -> str:
    """``+4'`` beside a late time (real-time answers only)."""
    return late_mark(delay_min)


def _bonus_line(mode: str, kinds: set[str]) -> str:
    """The sentence of a full-hour bonus on a leg, naming the vehicle it is (a bus is no train)."""
    calls, arrives = len(kinds) > 1, "arrival" in kinds
    if mode == "bus":
        return (_("full-hour bonus ({fee}): the bus calls at {station} at {time}") if calls else
                _("full-hour bonus ({fee}): the bus arrives at {station} at {time}") if arrives else
                _("full-hour bonus ({fee}): the bus departs {station} at {time}"))
    if mode == "tram":
        return (_("full-hour bonus ({fee}): the tram calls at {station} at {time}") if calls else
                _("full-hour bonus ({fee}): the tram arrives at {station} at {time}") if arrives else
                _("full-hour bonus ({fee}): the tram departs {station} at {time}"))
    return (_("full-hour bonus ({fee}): the train calls at {station} at {time}") if calls else
            _("full-hour bonus ({fee}): the train arrives at {station} at {time}") if arrives else
            _("full-hour bonus ({fee}): the train departs {station} at {time}"))


def _legs(out: dict) -> list[str]:
    """Two lines per ride (board, get off), then what happens on it in words: bonus, toll lines, tunnels."""
    lines: list[str] = []
    for leg in out["legs"]:
        if leg.get("route") == "walk":
            lines += _wrap(f"  {leg['departure']}  walk from {leg['from']} to {leg['to']} (arr {leg['arrival']})")
            continue
        if leg.get("seated"):  # the ride the group sits in: it gets off at the stop its train approaches
            lines += _wrap(f"  {leg['arrival']}  {leg['to']}{_plat(leg.get('to_platform'))}: get off the "
                           f"{leg['route']}")
            continue
        towards = f" towards {leg['headsign']}" if leg.get("headsign") else ""
        dep, arr = _late(leg.get("departure_delay_min")), _late(leg.get("arrival_delay_min"))
        lines += _wrap(f"  {leg['departure']}{dep}  {leg['from']}{_plat(leg.get('from_platform'))}: "
                       f"{leg['route']}{towards}")
        lines += _wrap(f"  {leg['arrival']}{arr}  {leg['to']}{_plat(leg.get('to_platform'))}: get off")
        events: dict[tuple, set] = {}
        for b in leg.get("bonus", []):
            events.setdefault((b["time"], b["station"], b["fee"]), set()).add(b["event"])
        for (time, station, fee), kinds in events.items():
            lines += _wrap("         " + _bonus_line(leg.get("mode", "rail"), kinds).format(
                fee=fee, station=station, time=time))
        for c in leg.get("crossings", []):
            what = "tunnel" if c.get("kind") == "tunnel" else "toll line"
            lines += _wrap(f"         crosses the {what} {c['name']}: its owner's fee is due")
    return lines
