"""Group commands: ``roll``, ``next``, ``group status|list|undo|position`` (adapters of planner.service)."""

from __future__ import annotations

import argparse
import sys

from planner.commands.base import Context, add_common, add_position, add_realtime, emit
from planner.util.table import format_table


def register(sub: argparse._SubParsersAction) -> None:
    """Add the group commands."""
    p = sub.add_parser("roll", help="record a group's roll and apply the rules (its day is remembered)")
    p.add_argument("--group", required=True, help="group name or number (case and accents do not matter)")
    p.add_argument("--dice", type=int, required=True, help="the roll (as for target --roll)")
    p.add_argument("--roll-id", help="client id making a retried command idempotent")
    add_position(p)
    add_common(p)
    p.set_defaults(func=cmd_roll)

    p = sub.add_parser("next", help="what now? where the group is, what it must do, the itinerary")
    p.add_argument("--group", required=True)
    p.add_argument("--time", help="HH:MM (default: now on the game day)")
    add_common(p)
    add_realtime(p)
    p.set_defaults(func=cmd_next)

    p = sub.add_parser("group", help="a group's day: status, list, undo, position")
    gsub = p.add_subparsers(dest="group_command", metavar="ACTION")
    s = gsub.add_parser("status", help="where the group is, what binds it, its rolls and targets")
    s.add_argument("--group", required=True)
    s.add_argument("--time", help="HH:MM (default: the group's latest entry, or now)")
    add_common(s)
    add_realtime(s)
    s.set_defaults(func=cmd_group_status)
    s = gsub.add_parser("list", help="every group of the day with its state")
    s.add_argument("--time", help="HH:MM")
    add_common(s)
    add_realtime(s)
    s.set_defaults(func=cmd_group_list)
    u = gsub.add_parser("undo", help="remove the group's latest entry (a mistyped roll or position)")
    u.add_argument("--group", required=True)
    add_common(u)
    u.set_defaults(func=cmd_group_undo)
    u = gsub.add_parser("position", help="we got off at X at T, or we are in the IR75 12:25")
    u.add_argument("--group", required=True)
    add_position(u)
    add_common(u)
    u.set_defaults(func=cmd_group_position)


def cmd_roll(args: argparse.Namespace) -> int:
    """Record a roll (computed outside the write transaction; a retried --roll-id answers the same)."""
    from planner.commands.rules import render_dice
    from planner.service import PlaceRequest, RollRequest, roll
    from planner.store.groups import GroupStore

    ctx = Context(args)
    t = ctx.clock(args.time, within_game=False)
    req = RollRequest(str(args.group), args.dice, t,
                      PlaceRequest(args.at, t if args.trip and args.time else None, args.trip), args.roll_id)
    with GroupStore() as store:
        res = roll(ctx.day, store, req)
    if getattr(args, "json", False):
        sys.stdout.write(res.answer_text + "\n")  # byte for byte what was stored
        return 0
    out = res.to_json()
    head = f"group {out['group']}, roll #{res.seq}" + (" (recorded before)" if res.replayed else "")
    if out.get("train"):
        head += f"\n{out['train']}"
    emit(args, out, head + "\n" + render_dice(out))
    return 0


def _state_lines(st: dict) -> list[str]:
    ob, pos = st["obligation"], st["position"]
    if pos is None:
        where = "position unknown (tell it with 'planner group position')"
    elif pos["seated"]:
        where = pos["train"]
    else:
        where = f"at {pos['station']} since {pos['since']}"
    what = {"before_dice": f"free until dice start at {ob['until']}",
            "dice_soon": f"dice rules apply from {ob['since']}; first roll at {ob['until']}",
            "roll": "must roll now", "ended": "the game is over",
            "free": f"free movement until {ob['until']}",
            "heading": f"heading for {ob['target']} since {ob['since']} (arrival {ob['until']})",
            "jail": f"in jail since {ob['since']} until {ob['until']} (§17: the train was late)"
                    + (f", then on to {ob['target']}" if ob["target"] else "")}[ob["kind"]]
    lines = [f"{st['group']} at {st['time']}: {where}", f"  {what}"]
    if ob["board_by"] and not (pos and pos["seated"]):
        lines.append(f"  29-minute rule: board a train by {ob['board_by']}")
    if st["next_roll_at"] and ob["kind"] not in ("roll", "ended"):
        lines.append(f"  next roll: {st['next_roll_at']}")
    return lines


def cmd_next(args: argparse.Namespace) -> int:
    """What now, for one group."""
    from planner.commands.route import render
    from planner.service import next_json, next_step
    from planner.store.groups import GroupStore

    ctx = Context(args)
    t = ctx.day.status_time(getattr(args, "time", None))
    with GroupStore() as store:
        out = next_json(ctx.day, next_step(ctx.day, store, str(args.group), t))
    lines = _state_lines(out) + [f"now: {out['advice']}"]
    if out["itinerary"] and out["itinerary"].get("legs"):
        lines.append(render({**out["itinerary"], "alternatives": []}))
    if out["bonus"]:
        b = out["bonus"][0]
        lines.append(f"bonus chance: {b.get('time')} {b.get('event')} at {b.get('station')}"
                     + (f" (board {b['route']} at {b['board_at']} {b['board_time']})" if b.get("board_at") else ""))
    if out["fees"]:
        lines.append(f"fees ahead ({out['fees_total']}): " + "; ".join(
            f"{f['name']} {f['amount'] if f['amount'] is not None else str(f['min']) + '-' + str(f['max'])} "
            f"to {f['owner']}" for f in out["fees"]))
    for w in out["warnings"]:
        lines.append(f"warning: {w}")
    emit(args, out, "\n".join(lines))
    return 0


def _status_json(ctx: Context, st) -> dict:
    from planner.service import status_json

    return status_json(ctx.day, st)


def cmd_group_status(args: argparse.Namespace) -> int:
    """A group's state and history."""
    from planner.service import status
    from planner.store.groups import GroupStore

    ctx = Context(args)
    with GroupStore() as store:
        st = status(ctx.day, store, str(args.group), ctx.day.status_time(getattr(args, "time", None)))
    out = _status_json(ctx, st)
    table = "\n".join(_state_lines(out)) + "\n" + (
        format_table(out["rolls"], ["seq", "time", "dice", "kind", "target", "free_until"]) if out["rolls"]
        else "no rolls yet") + f"\ntargeted: {', '.join(out['targeted']) or '-'}"
    emit(args, out, table)
    return 0


def cmd_group_list(args: argparse.Namespace) -> int:
    """Every group of the day."""
    from planner.service import list_groups
    from planner.store.groups import GroupStore

    ctx = Context(args)
    with GroupStore() as store:
        groups = list_groups(ctx.day, store, ctx.day.status_time(getattr(args, "time", None)))
    rows = [_status_json(ctx, st) for st in groups]
    table = [{"group": r["group"], "where": (r["position"] or {}).get("station") or "-",
              "doing": r["obligation"]["kind"], "target": r["obligation"]["target"] or "",
              "rolls": len(r["rolls"])} for r in rows]
    emit(args, {"groups": rows}, format_table(table, ["group", "where", "doing", "target", "rolls"])
         if rows else "no groups yet")
    return 0


def cmd_group_undo(args: argparse.Namespace) -> int:
    """Remove the last entry of a group."""
    from planner.service import undo
    from planner.store.groups import GroupStore

    ctx = Context(args)
    with GroupStore() as store:
        res = undo(ctx.day, store, str(args.group))
    out = {"group": str(args.group), "removed": res.removed, "removed_position": res.position}
    text = ("nothing to undo" if res.removed is None and res.position is None else
            f"removed roll #{res.removed}" if res.removed is not None else f"removed position {res.position}")
    emit(args, out, text)
    return 0


def cmd_group_position(args: argparse.Namespace) -> int:
    """Record where the group is."""
    from planner.errors import InputError
    from planner.service import PlaceRequest, set_position
    from planner.store.groups import GroupStore

    if not args.time:
        raise InputError("--time HH:MM is required")
    ctx = Context(args)
    t = ctx.clock(args.time, within_game=False)
    with GroupStore() as store:
        st = set_position(ctx.day, store, str(args.group), PlaceRequest(args.at, t, args.trip), t)
    out = _status_json(ctx, st) | {"train": st.train}
    emit(args, out, "\n".join(([st.train] if st.train else []) + _state_lines(out)))
    return 0

