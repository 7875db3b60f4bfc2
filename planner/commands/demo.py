"""``planner demo``: a real query on the real extract (what ``make run`` shows)."""

from __future__ import annotations

import argparse
import time

from planner import SOURCE_CREDIT
from planner.commands.base import Context, add_common


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``planner demo``."""
    p = sub.add_parser("demo", help="load the game day and answer real questions (the make-run demo)")
    add_common(p)
    p.add_argument("--at", default="Zug", help="where the demo group stands (default Zug)")
    p.add_argument("--time", default="12:40", help="when (default 12:40, after dice start)")
    p.add_argument("--roll", type=int, default=2, help="the demo roll (default 2)")
    p.add_argument("--no-map", action="store_true", help="skip writing the demo map")
    p.set_defaults(func=cmd_demo)


def cmd_demo(args: argparse.Namespace) -> int:
    """Print a dice answer, the 29-minute rule and the bonus chances; write a map when available."""
    from planner.commands.rules import dice_json, render_dice
    from planner.game.bonus import bonus_chances
    from planner.game.zugzwang import zugzwang
    from planner.routing import station_origin

    ctx = Context(args)
    t0 = time.perf_counter()
    tt = ctx.timetable
    t_load = time.perf_counter() - t0
    g = ctx.game
    print(f"{g.title}, {ctx.date.isoformat()}, feed {ctx.feed} ({tt.feed_version})")
    print(f"game day loaded in {t_load:.2f} s: {tt.n_stations} stations, {tt.n_trips} trips, "
          f"{tt.n_connections} connections in the area")
    origin = station_origin(ctx.station(args.at), ctx.clock(args.time), window=ctx.day.window_seconds)
    t1 = time.perf_counter()
    from planner.service.rules import decide_at

    ans = decide_at(ctx.day, origin, args.roll, [])
    out = dice_json(ctx, ans, origin)
    t_q = (time.perf_counter() - t1) * 1000
    print(f"\nA group at {out['from']} at {out['time']} rolls {args.roll} ({t_q:.0f} ms):")
    print(render_dice(out))
    if ans.journey is not None and ans.journey.legs and ctx.day.window is not None:
        last = ans.journey.legs[-1]
        got_off = last.arrival(tt)
        z = zugzwang(ctx.network, ans.journey.target_station, got_off, ctx.day.window, exclude_trip=last.trip,
                     stop=-1 if last.is_walk else int(tt.st_stop[last.alight_row]))
        print(f"\n29-minute rule after arriving at {z['station']} {z['got_off']}: depart by {z['deadline']}:")
        for d in z["departures"][:6]:
            print(f"  {d['departure']} {d['route']:6} {d['headsign']} (pl. {d['platform']})")
    b = bonus_chances(ctx.network, g, origin)
    print(f"\nFull hour {b['hour']}: {len(b['chances'])} way(s) to earn {b['fee']} instead of {b['base_fee']}:")
    for c in b["chances"][:6]:
        print(f"  {c['route']} {c['event']} {c['station']} {c['time']} (board {c['board_at']} {c['board_time']})")
    if not args.no_map:
        path = _demo_map(ctx, ans, out)
        print(f"\nMap of this answer (works offline, one file): {path}")
    print(f"\n{SOURCE_CREDIT}")
    return 0


def _demo_map(ctx: Context, ans, out: dict) -> str:
    """Write the demo answer as a standalone offline map; returns its path (or why there is none)."""
    from planner.commands.organiser import output_dir
    from planner.errors import PlannerError
    from planner.maps import assets, web
    from planner.maps.layers import journey_shapes

    try:
        assets.require()
    except PlannerError as exc:
        return f"(no map: {exc})"
    tt = ctx.timetable
    legs = journey_shapes(tt, ans.journey) if ans.journey is not None else []
    title = f"Roll {out['roll']} at {out['from']} {out['time']}: go to {out.get('target') or '?'}"
    m, _ = web.journey_map(tt, ctx.game, legs, out, title=title)
    path = output_dir() / "demo-target.html"
    web.save(m, path, standalone=True)
    return str(path)
