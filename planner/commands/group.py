"""Group commands: ``roll``, ``next``, ``group status|list|undo|position`` (adapters of planner.service).

A group is one of its game's groups (``--game-id``, ``$PLANNER_GAME_ID``, the only game in the state, else the
implicit game of the game file and date): the same group as on its phones and in the ledger.
"""

from __future__ import annotations

import argparse
import sys

from planner.commands.base import Context, emit
from planner.commands.route import render
from planner.commands.rules import render_dice
from planner.errors import InputError
from planner.lab.advise import next_with_advice
from planner.service import (
    PlaceRequest,
    RollRequest,
    list_groups,
    roll,
    set_position,
    status,
    status_json,
    undo,
)
from planner.service.ledger_day import position_late, roll_with_card
from planner.util.i18n import _
from planner.util.table import format_table


def cmd_roll(args: argparse.Namespace) -> int:
    """Record a roll (computed outside the write transaction; a retried --roll-id answers the same)."""
    ctx = Context(args, game_scope=True)
    t = ctx.clock(args.time, within_game=False)
    since = ctx.optional_clock(args.since, "--since")
    req = RollRequest(str(args.group), args.dice, t,
                      PlaceRequest(args.at, t if args.trip and args.time else None, args.trip, since), args.roll_id)
    if args.card:  # a kept card turns the roll into a 6 (played with it)
        res, played = roll_with_card(ctx.play, req, args.card)
        out = res.to_json() | {"card": played.to_json()}
        emit(args, out, _("card {title} played: the roll counts as {roll}").format(
            title=args.card, roll=out.get("roll", "")) + "\n" + render_dice(out))
        return 0
    res = roll(ctx.play, req)
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
        lines.append(f"  {ob['rule']}: " + (f"the next train, at {ob['board_by']}, must be taken" if ob["forced"]
                                            else f"board a train by {ob['board_by']}"))
    if st["next_roll_at"] and ob["kind"] not in ("roll", "ended"):
        lines.append(f"  next roll: {st['next_roll_at']}")
    return lines


def cmd_next(args: argparse.Namespace) -> int:
    """What now, for one group."""
    ctx = Context(args, game_scope=True)
    out = next_with_advice(ctx.play, str(args.group), ctx.day.status_time(args.time))
    lines = _state_lines(out) + [f"now: {out['advice']}"]
    if out["buy_advice"]:
        b = out["buy_advice"]
        what = "worth buying" if b["pays_back"] else "best buy, but it does not pay back its price before the end"
        lines.append(f"{what}: {b['name']} ({b['price']}, expected fees {b['expected_income']} by the end; "
                     f"{b['why']})")
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


def cmd_group_status(args: argparse.Namespace) -> int:
    """A group's state and history."""
    ctx = Context(args, game_scope=True)
    out = status_json(ctx.day, status(ctx.play, str(args.group), ctx.day.status_time(args.time)))
    table = "\n".join(_state_lines(out)) + "\n" + (
        format_table(out["rolls"], ["seq", "time", "dice", "kind", "target", "free_until"]) if out["rolls"]
        else "no rolls yet") + f"\ntargeted: {', '.join(out['targeted']) or '-'}"
    emit(args, out, table)
    return 0


def cmd_group_list(args: argparse.Namespace) -> int:
    """Every group of the game."""
    ctx = Context(args, game_scope=True)
    rows = [status_json(ctx.day, st) for st in list_groups(ctx.play, ctx.day.status_time(args.time))]
    table = [{"group": r["group"], "where": (r["position"] or {}).get("station") or "-",
              "doing": r["obligation"]["kind"], "target": r["obligation"]["target"] or "",
              "rolls": len(r["rolls"])} for r in rows]
    emit(args, {"game_id": ctx.play.id, "groups": rows},
         format_table(table, ["group", "where", "doing", "target", "rolls"]) if rows else "no groups yet")
    return 0


def cmd_group_undo(args: argparse.Namespace) -> int:
    """Remove the last entry of a group."""
    ctx = Context(args, game_scope=True)
    res = undo(ctx.play, str(args.group))
    out = {"group": res.group, "removed": res.removed, "removed_position": res.position}
    text = ("nothing to undo" if res.removed is None and res.position is None else
            f"removed roll #{res.removed}" if res.removed is not None else f"removed position {res.position}")
    emit(args, out, text)
    return 0


def cmd_group_position(args: argparse.Namespace) -> int:
    """Record where the group is."""
    if not args.time:
        raise InputError("--time HH:MM is required")
    ctx = Context(args, game_scope=True)
    t = ctx.clock(args.time, within_game=False)
    place = PlaceRequest(args.at, t, args.trip, ctx.optional_clock(args.since, "--since"))
    late = None
    if args.late is not None:  # §17 without a live feed: the group says its train was late
        st, report = position_late(ctx.play, str(args.group), place, t, args.late)
        late = report.to_json()
    else:
        st = set_position(ctx.play, str(args.group), place, t)
    out = status_json(ctx.day, st) | {"train": st.train} | ({"late": late} if late is not None else {})
    emit(args, out, "\n".join(([st.train] if st.train else []) + _state_lines(out)
                              + ([late["why"]] if late is not None else [])))
    return 0
