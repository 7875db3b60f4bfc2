"""Game-rule commands: ``target``, ``zugzwang``, ``bonus``, ``tolls`` (adapters of the service's use cases)."""

from __future__ import annotations

import argparse
from pathlib import Path

import msgspec

from planner.commands.base import Context, emit
from planner.commands.route import _wrap, origin_of_args, render
from planner.errors import InputError, PlannerError
from planner.service.questions.bonus_trains import bonus_answer, group_bonus
from planner.service.questions.target import target_answer
from planner.service.questions.tolls import tolls_answer
from planner.service.read.decisions import LogLeg, check_log, trains_after_getting_off
from planner.service.read.views import late_mark
from planner.util.i18n import _, format_amount, ngettext
from planner.util.table import format_table
from planner.util.timefmt import parse_clock
from planner.util.userfiles import read_csv, read_toml


def cmd_target(args: argparse.Namespace) -> int:
    """Answer a roll for a group that tells what it already targeted."""
    ctx = Context(args, game_scope=bool(args.group))
    origin = origin_of_args(ctx, args.at, args.time, args.trip, args.since)
    asked = ctx.clock(args.time) if args.time and not args.trip else None  # roll's time (the origin may be later)
    _answer, out = target_answer(ctx.day, ctx.pricing, origin, args.roll, args.visited, ctx.train, asked=asked)
    emit(args, out, render_dice(msgspec.to_builtins(out)))
    return 0


def render_dice(out: dict) -> str:
    """Readable dice answer (80 columns; each warning once)."""
    if out["kind"] == "free":
        s = _("roll {roll}: {free}").format(roll=out["roll"], free=out["free"]["text"])  # the service's words
    elif out.get("arrival") is None:
        s = _("roll {roll}: target {target} (not reachable)").format(roll=out["roll"],
                                                                     target=out.get("target") or "-")
    else:
        s = (_("roll {roll}: go to {target}, arrival {arrival}").format(
            roll=out["roll"], target=out["target"], arrival=out["arrival"]) + "\n"
             + render({**out, "from": out["from"], "to": out["target"], "warnings": [], "train": None,
                       "alternatives": [a for a in out.get("admissible", []) if a["legs"] != out["legs"]]}))
    if out.get("why"):
        s += "\n" + "\n".join(_wrap(_("why: {why}").format(why=out["why"]), 2))
    if out.get("candidates"):
        s += "\n" + "\n".join(_wrap(_("candidates: {candidates}").format(
            candidates="; ".join(_candidate(c) for c in out["candidates"])), 2))
    for w in dict.fromkeys(out.get("warnings", [])):
        s += "\n" + "\n".join(_wrap(_("warning: {warning}").format(warning=w), 2))
    return s


def _candidate(c: dict) -> str:
    """One candidate of a dice answer: its name, its arrival and whether it was targeted or is outside the area."""
    if not c["available"]:
        text = (_("{name} {arrival} (targeted) (not in area)") if c["targeted"] else
                _("{name} {arrival} (not in area)"))
    else:
        text = _("{name} {arrival} (targeted)") if c["targeted"] else "{name} {arrival}"
    return text.format(name=c["name"], arrival=c["arrival"] or "-")


def cmd_zugzwang(args: argparse.Namespace) -> int:
    """The change-window rule for one stop, or a check of a day's legs (the game file says whether it applies)."""
    ctx = Context(args)
    if args.check:
        legs = _read_legs(Path(args.check))  # its errors name the file and line already
        try:
            out = check_log(ctx.day, legs)
        except InputError as exc:
            raise InputError(_("legs file {path}: {error}").format(path=args.check, error=exc)) from None
        violations = out.violations
        emit(args, out, _("no violations") if not violations else
             "\n".join(_("line {line}: §{rule} {message}").format(line=v.line, rule=v.rule, message=v.message)
                       for v in violations))
        return 0 if not violations else 1
    if not args.at:
        raise InputError(_("--at STATION is required (or --check LEGS.csv)"))
    s = ctx.station(args.at)
    t = ctx.clock(args.time)
    exclude = ctx.trip(args.trip, s) if args.trip else -1
    out = trains_after_getting_off(ctx.day, s, t, exclude)
    table = (out.text.text if out.text is not None else "") + "\n"  # the rule in the service's words
    if out.departures:
        rows = [msgspec.to_builtins(d) | {"note": "" if d.catchable else _("too soon"),
                                          "departure": d.departure + late_mark(d.departure_delay_min or None)}
                for d in out.departures]
        table += format_table(rows, ["departure", "route", "headsign", "platform", "note"],
                              [_("departure"), _("route"), _("towards"), _("platform"), _("note")])
    emit(args, out, table)
    return 0


def _read_legs(path: Path) -> list[LogLeg]:
    """The legs CSV (``from,to,departure,arrival``; ``from_platform,to_platform`` optional: their change times
    then apply)."""
    legs = []
    for line, row in read_csv(path, _("legs file"), {"from", "to", "departure", "arrival"}):
        try:
            legs.append(LogLeg(line, row["from"], row["to"], parse_clock(row["departure"]), parse_clock(row["arrival"]),
                               row.get("from_platform"), row.get("to_platform")))
        except PlannerError as exc:
            raise InputError(_("legs file {path} line {line}: {error}").format(path=path, line=line,
                                                                               error=exc)) from None
    return legs


def cmd_bonus(args: argparse.Namespace) -> int:
    """Bonus chances at the next full hour (for a group: only along the itineraries it may take)."""
    ctx = Context(args, game_scope=bool(args.group))
    if args.group:
        out = group_bonus(ctx.play, args.group, ctx.day.status_time(args.time))
    else:
        out = bonus_answer(ctx.day, origin_of_args(ctx, args.at, args.time, args.trip, args.since), ctx.train)
    head = (f"{out.train}\n" if out.train else "") + ngettext(
        "full hour {hour}: {n} chance for {fee} instead of {base_fee}",
        "full hour {hour}: {n} chances for {fee} instead of {base_fee}", len(out.chances)).format(
        hour=out.hour, n=len(out.chances), fee=format_amount(out.fee), base_fee=format_amount(out.base_fee))
    if out.note:
        head += f"\n{out.note}"
    if out.target:
        head += "\n" + _("only on the way to {target} (the group is bound to it)").format(target=out.target)
    table = head + "\n" + format_table(msgspec.to_builtins(out.chances), ["time", "event", "station", "route",
                                                                          "board_at", "board_time"],
                                       [_("time"), _("event"), _("station"), _("route"), _("board at"),
                                        _("board time")])
    emit(args, out, table)
    return 0


def cmd_tolls(args: argparse.Namespace) -> int:
    """Toll lines and tunnels crossed by (part of) a trip, and what is owed."""
    ctx = Context(args)
    owners = read_toml(args.owners, _("owners file"), limit=1 << 20) if args.owners else None
    out = tolls_answer(ctx.day, args.trip, args.origin, args.target, owners, args.tunnel_dice,
                       _("owners file {path}").format(path=args.owners))
    if not out.crossings:
        table = _("{route} {origin} -> {target}: no toll line or tunnel").format(route=out.route, origin=out.from_,
                                                                                 target=out.to)
    else:
        table = "{route} {origin} -> {target}: {crossings}".format(
            route=out.route, origin=out.from_, target=out.to, crossings="; ".join(
                (_("{name} (tunnel): {fee}") if c.kind == "tunnel" else _("{name} (toll line): {fee}")).format(
                    name=c.name, fee=c.fee_text) for c in out.crossings))
    emit(args, out, table)
    return 0
