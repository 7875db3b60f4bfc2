"""Game-rule commands: ``target``, ``roll``, ``group status``, ``zugzwang``, ``bonus``, ``tolls``."""

from __future__ import annotations

import argparse
import csv
import tomllib
from pathlib import Path

from planner.commands.base import Context, add_common, add_position, add_roll, add_routing, emit, format_table
from planner.commands.route import journey_json, resolve_origin, zugzwang_json
from planner.errors import InputError, PlannerError
from planner.util.timefmt import fmt_clock, parse_clock


def register(sub: argparse._SubParsersAction) -> None:
    """Add the rule commands."""
    p = sub.add_parser("target", help="we rolled N: the dice target to head for, and how")
    add_position(p)
    add_roll(p)
    add_common(p)
    p.set_defaults(func=cmd_target)

    p = sub.add_parser("roll", help="record a group's roll and apply the rules (remembers targeted stations)")
    p.add_argument("--group", required=True, help="group name or number")
    p.add_argument("--dice", type=int, required=True, help="the roll (as for target --roll)")
    p.add_argument("--roll-id", help="client id making a retried command idempotent")
    add_position(p)
    add_common(p)
    p.set_defaults(func=cmd_roll)

    p = sub.add_parser("group", help="a group's recorded rolls")
    gsub = p.add_subparsers(dest="group_command", metavar="ACTION")
    s = gsub.add_parser("status", help="history of rolls and targeted stations")
    s.add_argument("--group", required=True)
    add_common(s)
    s.set_defaults(func=cmd_group_status)
    u = gsub.add_parser("undo", help="remove the group's last roll (a typo)")
    u.add_argument("--group", required=True)
    add_common(u)
    u.set_defaults(func=cmd_group_undo)

    p = sub.add_parser("zugzwang", help="29-minute rule: which trains may we take after getting off here?")
    p.add_argument("--at", help="station where the group got off")
    p.add_argument("--time", help="HH:MM when the group got off")
    p.add_argument("--trip", help="the train the group got off (excluded)")
    p.add_argument("--check", metavar="LEGS.csv", help="check a day's log: CSV from,to,departure,arrival[,route]")
    add_common(p)
    add_routing(p)
    p.set_defaults(func=cmd_zugzwang)

    p = sub.add_parser("bonus", help="full-hour bonus: trains we can sit in arriving/departing at hh:00")
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

def crossing_finder(ctx: Context):
    """Lazy (trip, first_row, last_row) lookup of stretches through a toll line/tunnel: the index is only
    built or read when a roll names a toll line or tunnel (variant B)."""
    from planner.commands.annotate import crossing_index

    def find(name: str):
        index = crossing_index(ctx)
        if index is None:
            raise PlannerError("physical line data unavailable")
        return index.get(name, [])

    return find


def dice_json(ctx: Context, ans, origin) -> dict:
    """JSON of a dice answer (the interface of ``planner target``)."""
    tt = ctx.timetable
    itinerary = None
    if ans.journey is not None:
        target_station = ans.journey.target_station
        itinerary = journey_json(ctx, ans.journey, origin, target_station)
    out = {
        "roll": ans.roll,
        "kind": ans.kind,
        "target": ans.target,
        "arrival": fmt_clock(ans.arrival),
        "departure": itinerary["departure"] if itinerary else None,
        "changes": itinerary["changes"] if itinerary else None,
        "legs": itinerary["legs"] if itinerary else [],
        "candidates": ans.candidates,
        "free_until": fmt_clock(ans.free_until),
        "admissible": [journey_json(ctx, j, origin, j.target_station) for j in ans.admissible],
        "bonus": itinerary["bonus"] if itinerary else [],
        "crossings": itinerary["crossings"] if itinerary else [],
        "reroll_at": fmt_clock(ans.reroll_at),
        "warnings": ans.warnings,
        "from": tt.station_name[origin.station],
        "time": fmt_clock(origin.time),
        "zugzwang": zugzwang_json(origin),
    }
    return out


def decide_roll(ctx: Context, args, roll: int, targeted: list[str]):
    """Apply the dice rules at the group's position (checks the roll and that dice have started)."""
    from planner.game.dice import decide, validate_roll

    validate_roll(ctx.game, roll)
    origin = resolve_origin(ctx, args.at, args.time, args.trip, args.since)
    g = ctx.game
    if g.has_area and origin.time < g.dice_from:
        raise InputError(f"dice start at {fmt_clock(g.dice_from)} in {g.title}; it is {fmt_clock(origin.time)}")
    ans = decide(ctx.network, g, origin, roll, targeted, crossing_finder(ctx))
    return ans, origin


def cmd_target(args: argparse.Namespace) -> int:
    """Answer a roll for a group that tells what it already targeted."""
    ctx = Context(args)
    visited = [v.strip() for v in args.visited.split(";") if v.strip()]
    ans, origin = decide_roll(ctx, args, args.roll, visited)
    out = dice_json(ctx, ans, origin)
    emit(args, out, render_dice(out))
    return 0


def cmd_roll(args: argparse.Namespace) -> int:
    """Record a roll for a group (transaction: read targeted, decide, insert)."""
    from planner.state import GroupStore, Roll

    ctx = Context(args)
    holder: dict = {}

    def compute(targeted: list[str]) -> Roll:
        ans, origin = decide_roll(ctx, args, args.dice, targeted)
        holder["out"] = dice_json(ctx, ans, origin)
        pos = ctx.timetable.station_name[origin.station] + (f" (trip {args.trip})" if args.trip else "")
        return Roll(time=origin.time, dice=tuple(int(c) for c in str(args.dice)), kind=ans.kind,
                    target=ans.target if ans.kind == "target" else None, free_until=ans.free_until, position=pos)

    with GroupStore() as store:
        rec = store.record_roll(ctx.game.name, ctx.date, args.group, compute, roll_id=args.roll_id)
        targeted = store.targeted(ctx.game.name, ctx.date, args.group)
    out = holder.get("out") or {"roll": args.dice, "kind": rec.kind, "target": rec.target, "replayed": True}
    out["group"] = str(args.group)
    out["seq"] = rec.seq
    out["targeted"] = targeted
    emit(args, out, f"group {args.group}, roll #{rec.seq}\n" + render_dice(out))
    return 0


def cmd_group_status(args: argparse.Namespace) -> int:
    """Show a group's history."""
    from planner.state import GroupStore

    ctx = Context(args)
    with GroupStore() as store:
        hist = store.history(ctx.game.name, ctx.date, args.group)
        targeted = store.targeted(ctx.game.name, ctx.date, args.group)
    rows = [{"seq": r.seq, "time": fmt_clock(r.time), "dice": "".join(map(str, r.dice)), "kind": r.kind,
             "target": r.target, "free_until": fmt_clock(r.free_until), "position": r.position} for r in hist]
    out = {"group": str(args.group), "game": ctx.game.name, "date": ctx.date.isoformat(), "rolls": rows,
           "targeted": targeted}
    table = (f"group {args.group} on {ctx.date.isoformat()} ({ctx.game.title}): {len(rows)} roll(s)\n"
             + format_table(rows, ["seq", "time", "dice", "kind", "target", "free_until", "position"])
             + f"\ntargeted: {', '.join(targeted) or '-'}")
    emit(args, out, table)
    return 0


def cmd_group_undo(args: argparse.Namespace) -> int:
    """Remove the last roll of a group."""
    from planner.state import GroupStore

    ctx = Context(args)
    with GroupStore() as store:
        rec = store.undo_last(ctx.game.name, ctx.date, args.group)
    out = {"group": str(args.group), "removed": None if rec is None else rec.seq}
    emit(args, out, "nothing to undo" if rec is None else f"removed roll #{rec.seq}")
    return 0


def render_dice(out: dict) -> str:
    """Readable dice answer."""
    from planner.commands.route import render

    if out["kind"] == "free":
        s = f"roll {out['roll']}: free movement until {out['free_until']}"
    elif out.get("arrival") is None:
        s = f"roll {out['roll']}: target {out.get('target') or '-'} (not reachable)"
    else:
        s = (f"roll {out['roll']}: go to {out['target']}, arrival {out['arrival']}\n"
             + render({**out, "from": out["from"], "to": out["target"], "alternatives": [
                 a for a in out.get("admissible", []) if a["legs"] != out["legs"]]}))
    if out.get("candidates"):
        s += "\ncandidates: " + "; ".join(
            f"{c['name']} {c['arrival'] or '-'}{' (targeted)' if c['targeted'] else ''}"
            f"{'' if c['available'] else ' (not in area)'}" for c in out["candidates"])
    for w in out.get("warnings", []):
        s += f"\nwarning: {w}"
    return s


# ---- zugzwang ------------------------------------------------------------------------------------

def cmd_zugzwang(args: argparse.Namespace) -> int:
    """The change-window rule for one stop, or a check of a day's legs (the game file says whether it applies)."""
    from planner.game.zugzwang import check_legs, zugzwang

    ctx = Context(args)
    window = ctx.zugzwang_window
    rule = {"applies": window is not None, "minutes": None if window is None else window // 60}
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
    exclude, stop = -1, -1
    if args.trip:
        tt = ctx.timetable
        exclude = ctx.trip(args.trip, s)
        rows = [r for r in tt.trip_stop_times(exclude) if int(tt.stop_station[tt.st_stop[r]]) == s]
        if rows:  # got off that train here: its platform's change times apply
            stop = int(tt.st_stop[min(rows, key=lambda r: abs(int(tt.st_arr[r]) - t))])
    out = zugzwang(ctx.network, s, t, window, exclude, stop)
    if not out["applies"]:
        table = f"{ctx.game.title} has no rule on how long a group may wait at {out['station']}"
    elif out["forced_next"]:
        table = f"no train leaves {out['station']} by {out['deadline']}: you must take the next one\n"
    else:
        table = f"got off at {out['station']} {out['got_off']}: take a train departing by {out['deadline']}\n"
    if out["departures"]:
        table += format_table(out["departures"], ["departure", "route", "headsign", "platform", "trip_id"])
    emit(args, out, table)
    return 0


def _read_legs(ctx: Context, path: Path) -> list[dict]:
    """The legs CSV (``from,to,departure,arrival``; ``from_platform,to_platform`` optional: their change
    times then apply)."""
    if not path.is_file():
        raise InputError(f"legs file {path}: not found")
    legs = []
    with open(path, newline="", encoding="utf-8-sig") as fh:
        reader = csv.DictReader(fh)
        missing = {"from", "to", "departure", "arrival"} - set(reader.fieldnames or [])
        if missing:
            raise InputError(f"legs file {path}: missing column(s) {', '.join(sorted(missing))}")
        for line, row in enumerate(reader, start=2):
            try:
                a, b = ctx.station(row["from"]), ctx.station(row["to"])
                legs.append({"from_station": a, "to_station": b, "departure": parse_clock(row["departure"]),
                             "arrival": parse_clock(row["arrival"]), "line": line,
                             "from_stop": _platform(ctx, a, row.get("from_platform")),
                             "to_stop": _platform(ctx, b, row.get("to_platform"))})
            except InputError as exc:
                raise InputError(f"legs file {path} line {line}: {exc}") from None
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
    """Bonus chances at the next full hour."""
    from planner.game.bonus import bonus_chances

    ctx = Context(args)
    origin = resolve_origin(ctx, args.at, args.time, args.trip, args.since)
    out = bonus_chances(ctx.network, ctx.game, origin)
    out["zugzwang"] = zugzwang_json(origin)  # the chances are those a group obeying the rule can reach
    table = (f"full hour {out['hour']}: {len(out['chances'])} chance(s) for {out['fee']} instead of "
             f"{out['base_fee']}\n" + format_table(out["chances"], ["time", "event", "station", "route", "headsign",
                                                                   "board_at", "board_time"]))
    emit(args, out, table)
    return 0


# ---- tolls ---------------------------------------------------------------------------------------

def cmd_tolls(args: argparse.Namespace) -> int:
    """Toll lines and tunnels crossed by (part of) a trip, and what is owed."""
    from planner.game.physical import fee_for, trip_crossings
    from planner.rail import load_rail_network

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
    owners = _owners(args.owners) if args.owners else {}
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


def _owners(path: str) -> dict[str, str]:
    p = Path(path)
    if not p.is_file():
        raise InputError(f"owners file {path}: not found")
    try:
        doc = tomllib.loads(p.read_text("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise InputError(f"owners file {path}: not valid TOML: {exc}") from None
    owners = doc.get("owners", doc)
    if not isinstance(owners, dict) or not all(isinstance(v, str | int) for v in owners.values()):
        raise InputError(f"owners file {path}: expected [owners] with \"name\" = \"group\" lines")
    return {str(k): str(v) for k, v in owners.items()}
