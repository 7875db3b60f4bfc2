"""``planner demo``: a real query on the real extract (what ``make run`` shows; an adapter of
:mod:`planner.service.demo`)."""

from __future__ import annotations

import argparse
import time

import msgspec

from planner import SOURCE_CREDIT
from planner.commands.base import Context
from planner.commands.organiser import _shapes, _web, output_dir
from planner.commands.rules import render_dice
from planner.errors import PlannerError
from planner.service.demo import DemoAnswer, demo


def cmd_demo(args: argparse.Namespace) -> int:
    """Print a dice answer, the change window at the target and the bonus chances; write a map when possible."""
    ctx = Context(args)
    t0 = time.perf_counter()
    tt, g = ctx.timetable, ctx.game
    load = time.perf_counter() - t0
    d = demo(ctx.day, args.at, ctx.clock(args.time), args.roll)
    out = msgspec.to_builtins(d.dice)
    print(f"{g.title}, {ctx.date.isoformat()}, feed {ctx.feed} ({tt.feed_version})")
    print(f"game day loaded in {load:.2f} s: {tt.n_stations} stations, {tt.n_trips} trips, {tt.n_connections} connections in "
          "the area")
    print(f"\nA group at {out['from']} at {out['rolled_at']} rolls {args.roll} ({d.answer_ms:.0f} ms):")
    print(render_dice(out))
    if d.after is not None:
        z = d.after
        print(f"\n{z.rule} after arriving at {z.station} {z.got_off}: depart by {z.deadline}:")
        for dep in z.departures[:6]:
            print(f"  {dep.departure} {dep.route:6} {dep.headsign} (pl. {dep.platform})")
    b = d.bonus
    print(f"\nFull hour {b.hour}: {len(b.chances)} way(s) to earn {b.fee} instead of {b.base_fee}:")
    for c in b.chances[:6]:
        print(f"  {c.route} {c.event} {c.station} {c.time} (board {c.board_at} {c.board_time})")
    if not args.no_map:
        print(f"\nMap of this answer (works offline, one file): {_demo_map(ctx, d)}")
    print(f"\n{SOURCE_CREDIT}")
    return 0


def _demo_map(ctx: Context, d: DemoAnswer) -> str:
    """Write the demo answer as a standalone offline map; returns its path (or why there is none)."""
    try:
        web = _web()
    except PlannerError as exc:
        return f"(no map: {exc})"
    tt, out = ctx.timetable, msgspec.to_builtins(d.dice)
    legs = _shapes(tt, d.answer.journey) if d.answer.journey is not None else []
    title = f"Roll {out['roll']} at {out['from']} {out['rolled_at']}: go to {out.get('target') or '?'}"
    m, _info = web.journey_map(tt, ctx.game, legs, out, title=title)
    path = output_dir() / "demo-target.html"
    web.save(m, path, standalone=True)
    return str(path)
