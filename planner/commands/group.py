"""Group commands: ``roll``, ``next``, ``group status|list|undo|position`` (adapters of planner.service).

A group is one of its game's groups (``--game-id``, ``$PLANNER_GAME_ID``, the only game in the state, else the
implicit game of the game file and date): the same group as on its phones and in the ledger. What binds a group
is worded by the service (:mod:`planner.service.read.rule_words`); these commands only lay it out.
"""

from __future__ import annotations

import argparse
import sys

import msgspec

from planner.commands.base import Context, emit
from planner.commands.questions import render_dice
from planner.commands.route import render
from planner.errors import InputError
from planner.game.bonus import bonus_event_word
from planner.lab.advise import next_with_advice
from planner.service import PlaceRequest, groups_answer, position_answer, status_answer, undo_answer
from planner.service.answers.group_status import GroupState
from planner.service.change.group_day import RollRequest, roll
from planner.util.i18n import _
from planner.util.table import format_table


def cmd_roll(args: argparse.Namespace) -> int:
    """Record a roll (computed outside the write transaction; a retried --roll-id answers the same)."""
    ctx = Context(args, game_scope=True)
    t = ctx.clock(args.time, within_game=False)
    since = ctx.optional_clock(args.since, "--since")
    place = PlaceRequest(args.at, t if args.trip and args.time else None, args.trip, since)
    res = roll(ctx.play, RollRequest(str(args.group), args.dice, t, place, args.roll_id, args.card or ""))
    if args.card:  # a kept card turned the roll into a 6 (played with it): the answer carries its play
        answer = res.answer
        emit(args, answer, _("card {title} played: the roll counts as {roll}").format(
            title=args.card, roll=answer.roll) + "\n" + render_dice(msgspec.to_builtins(answer)))
        return 0
    if getattr(args, "json", False):
        sys.stdout.write(res.answer_text + "\n")  # byte for byte what was stored
        return 0
    out = res.answer
    head = (_("group {group}, roll #{seq} (recorded before)") if res.replayed
            else _("group {group}, roll #{seq}")).format(group=out.group, seq=res.seq)
    if out.train:
        head += f"\n{out.train}"
    emit(args, out, head + "\n" + render_dice(msgspec.to_builtins(out)))
    return 0


def _state_lines(st: GroupState) -> list[str]:
    """The group's state laid out: where it is, what binds it and the change window's deadline (the service's
    words), when it rolls next."""
    ob, pos = st.obligation, st.position
    if pos is None:
        where = _("position unknown (tell it with 'planner group position')")
    elif pos.seated:
        where = pos.train or pos.station
    else:
        where = _("at {station} since {since}").format(station=pos.station, since=pos.since)
    lines = [_("{group} at {time}: {where}").format(group=st.group, time=st.time, where=where), f"  {ob.text.text}"]
    if ob.board is not None:
        lines.append(f"  {ob.board.text}")
    if st.next_roll_at and ob.kind not in ("roll", "ended"):
        lines.append("  " + _("next roll: {time}").format(time=st.next_roll_at))
    return lines


def cmd_next(args: argparse.Namespace) -> int:
    """What now, for one group."""
    ctx = Context(args, game_scope=True)
    out = next_with_advice(ctx.play, str(args.group), ctx.day.status_time(args.time))
    lines = _state_lines(out) + [_("now: {advice}").format(advice=out.advice)]
    if out.buy_advice:
        b = out.buy_advice
        what = (_("worth buying: {name} ({price}, expected fees {income} by the end; {why})") if b.pays_back else
                _("best buy, but it does not pay back its price before the end: {name} ({price}, expected fees "
                  "{income} by the end; {why})"))
        lines.append(what.format(name=b.name, price=b.price, income=b.expected_income, why=b.why))
    if out.itinerary and out.itinerary.legs:
        lines.append(render({**msgspec.to_builtins(out.itinerary), "alternatives": []}))
    if out.bonus:
        b = out.bonus[0]
        said = (_("bonus chance: {time} {event} at {station} (board {route} at {board_at} {board_time})")
                if b.board_at else _("bonus chance: {time} {event} at {station}"))
        lines.append(said.format(time=b.time, event=bonus_event_word(b.event), station=b.station, route=b.route,
                                 board_at=b.board_at, board_time=b.board_time))
    if out.fees:
        lines.append(_("fees ahead ({total}): {fees}").format(total=out.fees_total, fees="; ".join(
            _("{name} {amount} to {owner}").format(
                name=f.name, owner=f.owner,
                amount=f.amount if f.amount is not None else f"{f.min}-{f.max}") for f in out.fees)))
    for w in out.warnings:
        lines.append(_("warning: {warning}").format(warning=w))
    emit(args, out, "\n".join(lines))
    return 0


def cmd_group_status(args: argparse.Namespace) -> int:
    """A group's state and history."""
    ctx = Context(args, game_scope=True)
    out = status_answer(ctx.play, str(args.group), ctx.day.status_time(args.time))
    rolls = msgspec.to_builtins(out.rolls)
    table = "\n".join(_state_lines(out)) + "\n" + (
        format_table(rolls, ["seq", "time", "dice", "kind", "target", "free_until"],
                     [_("seq"), _("time"), _("dice"), _("kind"), _("target"), _("free until")]) if rolls
        else _("no rolls yet")) + "\n" + _("targeted: {targets}").format(targets=", ".join(out.targeted) or "-")
    emit(args, out, table)
    return 0


def cmd_group_list(args: argparse.Namespace) -> int:
    """Every group of the game."""
    ctx = Context(args, game_scope=True)
    out = groups_answer(ctx.play, ctx.day.status_time(args.time))
    table = [{"group": r.group, "where": r.position.station if r.position else "-", "doing": r.obligation.kind,
              "target": r.obligation.target or "", "rolls": len(r.rolls)} for r in out.groups]
    emit(args, out, format_table(table, ["group", "where", "doing", "target", "rolls"],
                                 [_("group"), _("where"), _("doing"), _("target"), _("rolls")]) if table
         else _("no groups yet"))
    return 0


def cmd_group_undo(args: argparse.Namespace) -> int:
    """Remove the last entry of a group."""
    ctx = Context(args, game_scope=True)
    out = undo_answer(ctx.play, str(args.group))
    text = (_("nothing to undo") if out.removed is None and out.removed_position is None else
            _("removed roll #{seq}").format(seq=out.removed) if out.removed is not None else
            _("removed position {position}").format(position=out.removed_position))
    emit(args, out, text)
    return 0


def cmd_group_position(args: argparse.Namespace) -> int:
    """Record where the group is."""
    if not args.time:
        raise InputError(_("--time HH:MM is required"))
    ctx = Context(args, game_scope=True)
    t = ctx.clock(args.time, within_game=False)
    place = PlaceRequest(args.at, t, args.trip, ctx.optional_clock(args.since, "--since"))
    out = position_answer(ctx.play, str(args.group), place, t, late=args.late)
    emit(args, out, "\n".join(([out.train] if out.train else []) + _state_lines(out)
                              + ([out.late.why] if out.late else [])))
    return 0
