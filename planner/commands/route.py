"""``planner route``: fastest itinerary (and alternatives within X minutes), single or batch (an adapter of
:mod:`planner.service.questions.routes`), and the readable itinerary every command prints."""

from __future__ import annotations

import argparse
import sys
import textwrap

import msgspec

from planner.commands.base import Context, emit
from planner.errors import InputError, PlannerError
from planner.routing import Origin
from planner.service.answers.base import encode
from planner.service.questions.routes import group_route, place_origin, route_answer
from planner.service.read.views import late_mark
from planner.util.i18n import _, format_amount, ngettext
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
            raise InputError(_("--to is required"))
        origin = origin_of_args(ctx, args.origin, args.time, args.trip, args.since)
        out = route_answer(ctx.day, ctx.pricing, origin, ctx.station(args.target), args.within, ctx.train)
    emit(args, out, render(msgspec.to_builtins(out)))
    return 0


def _batch(ctx: Context, args: argparse.Namespace) -> int:
    path = args.batch
    answered = failed = 0
    for line, row in read_csv(path, _("batch file"), {"from", "to", "time"}):
        try:
            origin = origin_of_args(ctx, row["from"], row["time"], row.get("trip") or None)
            out = route_answer(ctx.day, ctx.pricing, origin, ctx.station(row["to"]), args.within)
            answered += 1
        except PlannerError as exc:
            out = {"error": _("{path} line {line}: {error}").format(path=path, line=line, error=exc)}
            failed += 1
        sys.stdout.write(encode(out).decode() + "\n")
    if failed and not answered:
        raise InputError(ngettext("batch file {path}: none of its {n} row could be answered (see each line)",
                                  "batch file {path}: none of its {n} rows could be answered (see each line)",
                                  failed).format(path=path, n=failed))
    return 0


WIDTH = 80  # a phone in landscape, a terminal: every readable line fits


def _summary(origin: str, target: str, o: dict) -> str:
    """``A → B: dep 12:40, arr 13:46, 1 change`` (one sentence per count of changes)."""
    n = o.get("changes") or 0
    text = (_("{origin} → {target}: dep {departure}, arr {arrival}, no change") if not n else
            ngettext("{origin} → {target}: dep {departure}, arr {arrival}, {n} change",
                     "{origin} → {target}: dep {departure}, arr {arrival}, {n} changes", n))
    return text.format(origin=origin, target=target, departure=o["departure"], arrival=o["arrival"], n=n)


def _alternative(i: int, o: dict) -> str:
    n = o.get("changes") or 0
    text = (_("alternative {i}: dep {departure}, arr {arrival}, no change") if not n else
            ngettext("alternative {i}: dep {departure}, arr {arrival}, {n} change",
                     "alternative {i}: dep {departure}, arr {arrival}, {n} changes", n))
    return text.format(i=i, departure=o["departure"], arrival=o["arrival"], n=n)


def _wrap(line: str, indent: int = 9) -> list[str]:
    return textwrap.wrap(line, WIDTH, subsequent_indent=" " * indent, break_on_hyphens=False) or [line]


def render(out: dict) -> str:
    """Readable itinerary for a phone screen (80 columns, no trip ids, tolls and bonus in words)."""
    lines = [out["train"]] if out.get("train") else []  # "in IR70 12:09 ..., next stop ...", said once
    if out.get("arrival") is None:
        reason = out.get("reason") or _("unreachable")
        return "\n".join(lines + _wrap(f"{out['from']} → {out['to']}: {reason}", 2))
    if out.get("already_there") or not out.get("legs"):
        return "\n".join(lines + [_("{target}: already there ({arrival})").format(target=out["to"],
                                                                                 arrival=out["arrival"])])
    lines += _wrap(_summary(out["from"], out["to"], out), 2)
    lines += _legs(out)
    for w in out.get("warnings", []):
        lines += _wrap(_("warning: {warning}").format(warning=w), 2)
    rt = out.get("realtime")
    if rt:
        if rt.get("available") and rt.get("age_s") is not None:
            said = ngettext("real time: {source}, {minutes} min old, {n} trip matched",
                            "real time: {source}, {minutes} min old, {n} trips matched", rt["trips_matched"])
        else:
            said = _("real time: {source}, not available: timetable times")
        lines += _wrap(said.format(source=rt["source"], minutes=(rt.get("age_s") or 0) // 60,
                                   n=rt.get("trips_matched")), 2)
    for i, a in enumerate(out.get("alternatives", []), 1):
        lines += _wrap(_alternative(i, a), 2)
        lines += ["  " + x for x in _legs(a)]
    return "\n".join(lines)


def _at(station: str, platform: str | None) -> str:
    """A station with its platform (``Zug, pl. 3``), or the station alone."""
    return _("{station}, pl. {platform}").format(station=station, platform=platform) if platform else station


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
            lines += _wrap("  " + _("{departure}  walk from {origin} to {target} (arr {arrival})").format(
                departure=leg["departure"], origin=leg["from"], target=leg["to"], arrival=leg["arrival"]))
            continue
        if leg.get("seated"):  # the ride the group sits in: it gets off at the stop its train approaches
            lines += _wrap("  " + _("{arrival}  {stop}: get off the {route}").format(
                arrival=leg["arrival"], stop=_at(leg["to"], leg.get("to_platform")), route=leg["route"]))
            continue
        dep = leg["departure"] + _late(leg.get("departure_delay_min"))
        arr = leg["arrival"] + _late(leg.get("arrival_delay_min"))
        board = (_("{departure}  {stop}: {route} towards {headsign}") if leg.get("headsign") else
                 "{departure}  {stop}: {route}")
        lines += _wrap("  " + board.format(departure=dep, stop=_at(leg["from"], leg.get("from_platform")),
                                           route=leg["route"], headsign=leg.get("headsign")))
        lines += _wrap("  " + _("{arrival}  {stop}: get off").format(arrival=arr,
                                                                     stop=_at(leg["to"], leg.get("to_platform"))))
        events: dict[tuple, set] = {}
        for b in leg.get("bonus", []):
            events.setdefault((b["time"], b["station"], b["fee"]), set()).add(b["event"])
        for (time, station, fee), kinds in events.items():
            lines += _wrap("         " + _bonus_line(leg.get("mode", "rail"), kinds).format(
                fee=format_amount(fee), station=station, time=time))
        for c in leg.get("crossings", []):
            what = (_("crosses the tunnel {name}: its owner's fee is due") if c.get("kind") == "tunnel" else
                    _("crosses the toll line {name}: its owner's fee is due"))
            lines += _wrap("         " + what.format(name=c["name"]))
    return lines
