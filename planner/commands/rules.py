"""Game-rule commands: ``target``, ``roll``, ``group status``, ``zugzwang``, ``bonus``, ``tolls``."""

from __future__ import annotations

import argparse
from pathlib import Path

from planner.commands.base import Context, add_common, add_position, add_roll, add_routing, emit
from planner.commands.route import resolve_origin
from planner.errors import InputError, PlannerError
from planner.util.table import format_table
from planner.util.timefmt import fmt_clock, parse_clock
from planner.util.userfiles import read_csv, read_toml


def register(sub: argparse._SubParsersAction) -> None:
    """Add the rule commands."""
    p = sub.add_parser("target", help="we rolled N: the dice target to head for, and how")
    p.add_argument("--group", help="price the itinerary for this group (fees from the ledger)")
    add_position(p)
    add_roll(p)
    add_common(p)
    p.set_defaults(func=cmd_target)

    p = sub.add_parser("zugzwang", help="29-minute rule: which trains may we take after getting off here?")
    p.add_argument("--at", help="station where the group got off")
    p.add_argument("--time", help="HH:MM when the group got off")
    p.add_argument("--trip", help="the train the group got off (excluded)")
    p.add_argument("--check", metavar="LEGS.csv", help="check a day's log: CSV from,to,departure,arrival[,route]")
    add_common(p)
    add_routing(p)
    p.set_defaults(func=cmd_zugzwang)

    p = sub.add_parser("bonus", help="full-hour bonus: trains we can sit in arriving/departing at hh:00")
    p.add_argument("--group", help="a group's day: only chances on the ways it may take (bound to its target)")
    add_position(p)
    add_common(p)
    p.set_defaults(func=cmd_bonus)

    p = sub.add_parser("tolls", help="toll lines and tunnels a trip crosses, and the fees owed")
    p.add_argument("--trip", required=True, help="trip id")
    p.add_argument("--from", dest="origin", help="boarding station (default: the trip's first in-area stop)")
    p.add_argument("--to", dest="target", help="alighting station (default: its last in-area stop)")
    p.add_argument("--owners", help="TOML: [owners] \"Olten–Aarau\" = \"group 2\" ... (fees by owner's count)")
    p.add_argument("--tunnel-dice", type=int, help="sum of the two dice rolled for a tunnel fee (2-12)")
    add_common(p)
    p.set_defaults(func=cmd_tolls)


# ---- target / roll -------------------------------------------------------------------------------

def dice_json(ctx: Context, ans, origin) -> dict:
    """JSON of a dice answer (the interface of ``planner target``)."""
    from planner.service.pricing import cheapest_answer
    from planner.service.views import dice_json as view

    ans = cheapest_answer(ctx.day, ctx.pricing, origin, ans)  # --group: the cheapest of the equally fast
    return view(ctx.day, ans, origin, ctx.pricing)


def decide_roll(ctx: Context, args, roll: int, targeted: list[str]):
    """Apply the dice rules at the group's position (the group-day model checks dice time and the end)."""
    from planner.game.day import GroupDay
    from planner.game.dice import validate_roll
    from planner.service.rules import decide_at

    validate_roll(ctx.game, roll)
    origin = resolve_origin(ctx, args.at, args.time, args.trip, args.since)
    GroupDay(ctx.timetable, ctx.game).check_roll(origin.time)
    ans = decide_at(ctx.day, origin, roll, targeted)
    return ans, origin


def cmd_target(args: argparse.Namespace) -> int:
    """Answer a roll for a group that tells what it already targeted."""
    from planner.service.rules import resolve_targets

    ctx = Context(args)
    visited = resolve_targets(ctx.day, args.visited)
    ans, origin = decide_roll(ctx, args, args.roll, visited)
    out = dice_json(ctx, ans, origin)
    if ctx.train:
        out["train"] = ctx.train
    emit(args, out, render_dice(out))
    return 0


def render_dice(out: dict) -> str:
    """Readable dice answer (80 columns; each warning once)."""
    from planner.commands.route import _wrap, render

    if out["kind"] == "free":
        s = f"roll {out['roll']}: free movement until {out['free_until']}"
    elif out.get("arrival") is None:
        s = f"roll {out['roll']}: target {out.get('target') or '-'} (not reachable)"
    else:
        s = (f"roll {out['roll']}: go to {out['target']}, arrival {out['arrival']}\n"
             + render({**out, "from": out["from"], "to": out["target"], "warnings": [], "train": None,
                       "alternatives": [a for a in out.get("admissible", []) if a["legs"] != out["legs"]]}))
    if out.get("why"):
        s += "\n" + "\n".join(_wrap(f"why: {out['why']}", 2))
    if out.get("candidates"):
        s += "\n" + "\n".join(_wrap("candidates: " + "; ".join(
            f"{c['name']} {c['arrival'] or '-'}{' (targeted)' if c['targeted'] else ''}"
            f"{'' if c['available'] else ' (not in area)'}" for c in out["candidates"]), 2))
    for w in dict.fromkeys(out.get("warnings", [])):
        s += "\n" + "\n".join(_wrap(f"warning: {w}", 2))
    return s


# ---- zugzwang ------------------------------------------------------------------------------------

def cmd_zugzwang(args: argparse.Namespace) -> int:
    """The change-window rule for one stop, or a check of a day's legs (the game file says whether it applies)."""
    from planner.game.zugzwang import check_legs

    ctx = Context(args)
    window = ctx.day.window
    rule = {"applies": window is not None, "minutes": None if window is None else window.minutes}
    if args.check:
        legs = _read_legs(ctx, Path(args.check))
        violations = check_legs(ctx.network, legs, window)
        out = {"legs": len(legs), "violations": violations, "ok": not violations, "zugzwang": rule}
        emit(args, out, "no violations" if not violations else
             "\n".join(f"line {v['line']}: §{v['rule']} {v['message']}" for v in violations))
        return 0 if not violations else 1
    if not args.at:
        raise InputError("--at STATION is required (or --check LEGS.csv)")
    s = ctx.station(args.at)
    t = ctx.clock(args.time)
    exclude = ctx.trip(args.trip, s) if args.trip else -1
    from planner.service.rules import trains_after_getting_off

    out = trains_after_getting_off(ctx.day, s, t, exclude)
    if not out["applies"]:
        table = f"{ctx.game.title} has no rule on how long a group may wait at {out['station']}"
    elif out["forced_next"]:
        table = f"no train leaves {out['station']} by {out['deadline']}: you must take the next one\n"
    else:
        table = f"got off at {out['station']} {out['got_off']}: take a train departing by {out['deadline']}\n"
    if out["departures"]:
        rows = [d | {"note": "" if d["catchable"] else "too soon"} for d in out["departures"]]
        table += format_table(rows, ["departure", "route", "headsign", "platform", "note"])
    emit(args, out, table)
    return 0


def _read_legs(ctx: Context, path: Path) -> list[dict]:
    """The legs CSV (``from,to,departure,arrival``; ``from_platform,to_platform`` optional: their change
    times then apply)."""
    legs = []
    for line, row in read_csv(path, "legs file", {"from", "to", "departure", "arrival"}):
        try:
            a, b = ctx.station(row["from"]), ctx.station(row["to"])
            leg = {"from_station": a, "to_station": b, "departure": parse_clock(row["departure"]),
                   "arrival": parse_clock(row["arrival"]), "line": line,
                   "from_stop": _platform(ctx, a, row.get("from_platform")),
                   "to_stop": _platform(ctx, b, row.get("to_platform"))}
        except PlannerError as exc:
            raise InputError(f"legs file {path} line {line}: {exc}") from None
        if leg["arrival"] < leg["departure"]:
            raise InputError(f"legs file {path} line {line}: arrival {row['arrival']} is before departure "
                             f"{row['departure']}")
        legs.append(leg)
    return legs


def _platform(ctx: Context, station: int, code: str | None) -> int:
    """Stop index of platform ``code`` at ``station`` (-1: not given or not known there)."""
    if not code or not code.strip():
        return -1
    tt = ctx.timetable
    off, members = tt.station_stops
    for q in members[off[station]:off[station + 1]]:
        if tt.stop_platform[q] == code.strip():
            return int(q)
    return -1


# ---- bonus ---------------------------------------------------------------------------------------

def cmd_bonus(args: argparse.Namespace) -> int:
    """Bonus chances at the next full hour (for a group: only along the itineraries it may take)."""
    from planner.game.bonus import bonus_chances, next_full_hour

    ctx = Context(args)
    if args.group:
        from planner.service import next_step
        from planner.store.groups import GroupStore

        t = ctx.day.status_time(args.time)
        with GroupStore() as store:
            ans = next_step(ctx.day, store, args.group, t)
        g = ctx.game
        st = ans.status.state
        out = {"hour": fmt_clock(next_full_hour(st.time)), "minutes": sorted(g.bonus.minutes),
               "fee": g.bonus.bonus_fee, "base_fee": g.bonus.base_fee, "chances": ans.bonus,
               "obligation": st.obligation.kind, "target": st.obligation.target}
        if st.position is not None:
            from planner.service.positions import origin_of
            from planner.service.views import zugzwang_json

            out["zugzwang"] = zugzwang_json(origin_of(ctx.day, st.position, st.time))
    else:
        origin = resolve_origin(ctx, args.at, args.time, args.trip, args.since)
        out = bonus_chances(ctx.network, ctx.game, origin)
        from planner.service.views import zugzwang_json

        out["zugzwang"] = zugzwang_json(origin)  # the chances are those a group obeying the rule can reach
        if ctx.train:
            out["train"] = ctx.train
    head = (f"{out['train']}\n" if out.get("train") else "") + f"full hour {out['hour']}: {len(out['chances'])} chance(s) for {out['fee']} instead of {out['base_fee']}"
    if out.get("target"):
        head += f"\nonly on the way to {out['target']} (the group is bound to it)"
    table = head + "\n" + format_table(out["chances"], ["time", "event", "station", "route", "board_at",
                                                        "board_time"])
    emit(args, out, table)
    return 0


# ---- tolls ---------------------------------------------------------------------------------------

def cmd_tolls(args: argparse.Namespace) -> int:
    """Toll lines and tunnels crossed by (part of) a trip, and what is owed."""
    from planner.rail import fee_for, load_rail_network, trip_crossings

    ctx = Context(args)
    tt = ctx.timetable
    trip = ctx.trip(args.trip)
    rows = list(tt.trip_stop_times(trip))
    first, last = rows[0], rows[-1]
    if args.origin:
        s = ctx.station(args.origin)
        cand = [r for r in rows if tt.stop_station[tt.st_stop[r]] == s]
        if not cand:
            raise InputError(f"trip {args.trip} does not stop at {tt.station_name[s]}")
        first = cand[0]
    if args.target:
        s = ctx.station(args.target)
        cand = [r for r in rows if tt.stop_station[tt.st_stop[r]] == s and r > first]
        if not cand:
            raise InputError(f"trip {args.trip} does not stop at {tt.station_name[s]} after the boarding stop")
        last = cand[0]
    if args.tunnel_dice is not None and not 2 <= args.tunnel_dice <= 12:
        raise InputError(f"--tunnel-dice {args.tunnel_dice}: two dice sum to 2-12")
    owners = _owners(ctx, args.owners) if args.owners else {}
    hits = trip_crossings(tt, load_rail_network(), ctx.game, trip, first, last)
    crossings = []
    for h in hits:
        c = ctx.game.crossing(h.name)
        fee = fee_for(ctx.game, c, owners, args.tunnel_dice) if c is not None else None
        crossings.append({"name": h.name, "kind": h.kind, "between": list(h.between), "owner": owners.get(h.name),
                          "fee": None if fee is None else fee["amount"],
                          "fee_text": None if fee is None else fee["text"]})
    out = {"trip_id": tt.trip_id[trip], "route": tt.route_name[tt.trip_route[trip]],
           "from": tt.station_name[tt.stop_station[tt.st_stop[first]]],
           "to": tt.station_name[tt.stop_station[tt.st_stop[last]]], "crossings": crossings}
    table = f"{out['route']} {out['from']} -> {out['to']}: " + (
        "no toll line or tunnel" if not crossings else
        "; ".join(f"{c['name']} ({c['kind']}): {c['fee_text']}" for c in crossings))
    emit(args, out, table)
    return 0


def _owners(ctx: Context, path: str) -> dict[str, str]:
    from planner.game.owners import resolve_owners

    doc = read_toml(path, "owners file", limit=1 << 20)
    return resolve_owners(doc, ctx.game, ctx.timetable.station_name, f"owners file {path}")
