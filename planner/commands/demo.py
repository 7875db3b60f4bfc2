"""``planner demo``: a real query on the real extract (what ``make run`` shows; an adapter of
:mod:`planner.service.questions.demo_day`)."""

from __future__ import annotations

import argparse
import time

import msgspec

from planner import SOURCE_CREDIT
from planner.commands.base import Context, emit
from planner.commands.organiser import _shapes, _web, demo_dir
from planner.commands.questions import render_dice
from planner.errors import PlannerError
from planner.game.bonus import bonus_event_word
from planner.service.questions.demo_day import DemoAnswer, demo
from planner.util.i18n import _, format_amount, ngettext


def cmd_demo(args: argparse.Namespace) -> int:
    """Print a dice answer, the change window at the target and the bonus chances; write a map when possible."""
    ctx = Context(args)
    t0 = time.perf_counter()
    tt, g = ctx.timetable, ctx.game
    load = time.perf_counter() - t0
    d = demo(ctx.day, args.at, ctx.clock(args.time), args.roll)
    if args.json:  # the dice answer as 'planner target --json' gives it (the map is written all the same)
        if not args.no_map:
            _demo_map(ctx, d)
        emit(args, d.dice)
        return 0
    out = msgspec.to_builtins(d.dice)
    print(_("{title}, {date}, feed {feed} ({version})").format(title=g.title, date=ctx.date.isoformat(), feed=ctx.feed,
                                                              version=tt.feed_version))
    print(_("game day loaded in {seconds} s: {stations} stations, {trips} trips, {connections} connections in the "
            "area").format(seconds=f"{load:.2f}", stations=tt.n_stations, trips=tt.n_trips,
                           connections=tt.n_connections))
    print("\n" + _("A group at {station} at {time} rolls {roll} ({ms} ms):").format(
        station=out["from"], time=out["rolled_at"], roll=args.roll, ms=f"{d.answer_ms:.0f}"))
    print(render_dice(out))
    if d.after is not None:
        z = d.after
        print("\n" + _("{rule} after arriving at {station} {time}: depart by {deadline}:").format(
            rule=z.rule, station=z.station, time=z.got_off, deadline=z.deadline))
        for dep in z.departures[:6]:
            print("  " + _("{departure} {route} {headsign} (pl. {platform})").format(
                departure=dep.departure, route=f"{dep.route:6}", headsign=dep.headsign, platform=dep.platform))
    b = d.bonus
    print("\n" + ngettext("Full hour {hour}: {n} way to earn {fee} instead of {base_fee}:",
                          "Full hour {hour}: {n} ways to earn {fee} instead of {base_fee}:", len(b.chances)).format(
        hour=b.hour, n=len(b.chances), fee=format_amount(b.fee), base_fee=format_amount(b.base_fee)))
    for c in b.chances[:6]:
        print("  " + _("{route} {event} {station} {time} (board {board_at} {board_time})").format(
            route=c.route, event=bonus_event_word(c.event), station=c.station, time=c.time, board_at=c.board_at,
            board_time=c.board_time))
    if not args.no_map:
        print("\n" + _("Map of this answer (works offline, one file): {path}").format(path=_demo_map(ctx, d)))
    print("\n" + _(SOURCE_CREDIT))
    return 0


def _demo_map(ctx: Context, d: DemoAnswer) -> str:
    """Write the demo answer as a standalone offline map; returns its path (or why there is none)."""
    try:
        web = _web()
    except PlannerError as exc:
        return _("(no map: {error})").format(error=exc)
    tt, out = ctx.timetable, msgspec.to_builtins(d.dice)
    legs = _shapes(tt, d.answer.journey) if d.answer.journey is not None else []
    title = _("Roll {roll} at {station} {time}: go to {target}").format(roll=out["roll"], station=out["from"],
                                                                         time=out["rolled_at"],
                                                                         target=out.get("target") or "?")
    m, _info = web.journey_map(tt, ctx.game, legs, out, title=title)
    path = demo_dir() / "demo-target.html"
    web.save(m, path, standalone=True)
    return str(path)
