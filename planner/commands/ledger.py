"""``planner ledger ...``: purchases, building, mortgages, fees, income, free parking, cards, voids; status, end,
feed (adapters of :mod:`planner.service.ledger`: the phone sends the same requests)."""

from __future__ import annotations

import argparse

from planner.commands.base import Context, emit
from planner.errors import InputError
from planner.service.ledger import LedgerRequest, end, feed, record_event, status, void
from planner.util.table import format_table
from planner.util.timefmt import parse_clock


def _dice(text: str | None, what: str) -> tuple[int, ...]:
    if not text:
        return ()
    try:
        dice = tuple(int(x) for x in text.replace("+", ",").split(","))
    except ValueError:
        raise InputError(f"{what} {text!r}: expected two dice like 3,4") from None
    if len(dice) != 2 or not all(1 <= d <= 6 for d in dice):
        raise InputError(f"{what} {text!r}: two dice, each 1-6")
    return dice


def _houses(text: str) -> tuple[tuple[str, str], ...]:
    out = []
    for item in (x.strip() for x in text.split(";")):
        if not item:
            continue
        name, _, n = item.rpartition("=")
        if not name.strip() or not n.strip():
            raise InputError(f"--houses {item!r}: expected STATION=N or STATION=hotel")
        out.append((name.strip(), n.strip()))
    return tuple(out)


def _rolls(items: list[str]) -> tuple[tuple[str, int], ...]:
    out = []
    for r in items:
        g, _, v = r.partition("=")
        if not g.strip() or not v.strip().isdigit():
            raise InputError(f"--roll {r!r}: expected GROUP=SUM")
        out.append((g.strip(), int(v)))
    return tuple(out)


def cmd_event(args: argparse.Namespace) -> int:
    """Record one money event (``args.event`` says which; amounts are computed, never typed)."""
    ctx = Context(args, game_scope=True)
    t = ctx.clock(args.time)
    if args.event == "void":
        rec = void(ctx.play, args.event_seq, args.reason, t)
        emit(args, rec.to_json(), rec.message)
        return 0
    reported = parse_clock(args.reported) if args.reported else ctx.day.now()
    kind = args.event
    if kind == "parking" and args.empty:
        kind = "parking_empty"
        if not args.dice:
            raise InputError("--empty needs --dice (the two dice rolled)")
    elif kind == "parking" and not args.reason:
        raise InputError("give --reason (a payment) or --empty --dice D,D")
    req = LedgerRequest(
        group=getattr(args, "group", None) or (args.roll[0].partition("=")[0] if kind == "diceoff" else ""),
        kind=kind, time=t, reported=reported, station=getattr(args, "station", None),
        toll_line=getattr(args, "toll_line", None), tunnel=getattr(args, "tunnel", None),
        dice=_dice(getattr(args, "dice", None), "--dice"), houses=_houses(getattr(args, "houses", "") or ""),
        bonus=bool(getattr(args, "bonus", False)), trip=getattr(args, "trip", None),
        reason=getattr(args, "reason", None) or "", card=getattr(args, "card", None) or "",
        rolls=_rolls(getattr(args, "roll", None) or []), event_id=getattr(args, "event_id", None))
    res = record_event(ctx.play, req)
    last = res.rows[-1]
    emit(args, res.to_json(), last.message + (" (pending dice-off)" if last.pending else "")
         + "".join(f"\n  {a} -> {b}: {n}" for a, b, n in last.transfers))
    return 0


def cmd_status(args: argparse.Namespace) -> int:
    """Cash, capital, holdings."""
    ctx = Context(args, game_scope=True)
    out = status(ctx.play, args.group)
    groups = [out] if args.group else out["groups"]
    table = format_table([{**g, "stations": ", ".join(f"{s['name']}{' ' + s['code'] if s['code'] else ''}"
                                                      f"{' (V)' if s['mortgaged'] else ''}" for s in g["stations"]),
                           "lines": ", ".join(h["name"] for h in g["toll_lines"] + g["tunnels"])} for g in groups],
                         ["group", "cash", "capital", "stations", "lines", "out"])
    emit(args, out, table + f"\nfree parking: {out['parking']}")
    return 0


def cmd_end(args: argparse.Namespace) -> int:
    """Ranking."""
    out = end(Context(args, game_scope=True).play)
    emit(args, out, format_table(out["ranking"], ["rank", "group", "cash", "holdings_value", "group_bonus",
                                                  "capital", "out"]) + f"\nwinner: {out['winner'] or '-'}")
    return 0


def cmd_feed(args: argparse.Namespace) -> int:
    """Events to tell a group of."""
    out = feed(Context(args, game_scope=True).play, args.group, args.since)
    emit(args, out, "\n".join(f"#{e['seq']} {e['message']}" for e in out["events"]) or "nothing new")
    return 0
