"""``planner ledger ...``: purchases, building, mortgages, fees, income, free parking, cards; status, end."""

from __future__ import annotations

import argparse

from planner.commands import argtypes
from planner.commands.base import Context, add_common, emit
from planner.errors import InputError
from planner.service.ledger import group_of
from planner.util.table import format_table
from planner.util.timefmt import fmt_clock, parse_clock


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``planner ledger`` and its actions."""
    p = sub.add_parser("ledger", help="the money side: buy, build, mortgage, pay fees, income, status, ranking")
    lsub = p.add_subparsers(dest="ledger_command", metavar="ACTION")

    def action(name: str, help_: str, func, *, group: bool = True, when: bool = True, target: bool = False):
        a = lsub.add_parser(name, help=help_)
        if group:
            a.add_argument("--group", required=True, help="group number or name")
        if when:
            a.add_argument("--time", help="HH:MM of the event (the decision, §19); default now on the game day")
            a.add_argument("--reported", help="HH:MM the message was sent (§13); default now on the game day")
            a.add_argument("--event-id", help="client id making a retried command idempotent")
        if target:
            a.add_argument("--station")
            a.add_argument("--toll-line")
            a.add_argument("--tunnel")
        add_common(a)
        a.set_defaults(func=func)
        return a

    action("buy", "buy the station the group is at, or a toll line / tunnel it travelled", cmd_buy, target=True)
    a = action("build", "build houses / a hotel on complete letter groups", cmd_build)
    a.add_argument("--houses", required=True, help='new totals, e.g. "Aarau=2;Attiswil=1;Aesch=hotel"')
    action("mortgage", "mortgage a holding (half its purchase value, §10)", cmd_simple("mortgage"), target=True)
    action("redeem", "redeem a mortgaged holding (half its purchase value, §10)", cmd_simple("redeem"), target=True)
    a = action("pay", "pay the fee at a station, toll line or tunnel owned by another group", cmd_pay, target=True)
    a.add_argument("--dice", help="tunnel: the two dice, e.g. 3,4")
    a = action("income", "the full-hour income (§6): 4000, or the bonus fee", cmd_income)
    a.add_argument("--bonus", action="store_true", help="the bonus rule is met (our statement)")
    a.add_argument("--trip", help="the train we sat in: the planner checks the bonus rule itself")
    a = action("parking", "pay into the free parking, or empty it (§16-§18)", cmd_parking)
    a.add_argument("--reason", help="what is paid: a key of the game's ledger.parking_payments (e.g. jail)")
    a.add_argument("--empty", action="store_true", help="empty the free parking (give --dice)")
    a.add_argument("--dice", help="the two dice rolled when boarding at a change, e.g. 2,3")
    a = action("card", "a Kanzlei or Chance card drawn (variant B)", cmd_card)
    a.add_argument("--card", required=True, help="card key (see the game file's [[ledger.cards]])")
    a = action("diceoff", "settle a §7.2 dice-off: each group's roll", cmd_diceoff, group=False)
    a.add_argument("--station", required=True)
    a.add_argument("--roll", action="append", required=True, metavar="GROUP=SUM", help="one per group")
    a = action("status", "cash, capital and holdings (one group or all)", cmd_status, when=False, group=False)
    a.add_argument("--group")
    action("end", "end of the game: capital table and ranking (§5)", cmd_end, when=False, group=False)
    a = action("feed", "the events a group must be told of (§13), since event N", cmd_feed, when=False)
    a.add_argument("--since", type=argtypes.integer(0, 10**9, "(an event number)"), default=0, metavar="N")


# ---- helpers -------------------------------------------------------------------------------------

def _times(ctx: Context, args: argparse.Namespace) -> tuple[int, int | None]:
    """Event time and report time (default both now when the game day is today)."""
    t = ctx.clock(args.time)
    reported = parse_clock(args.reported) if args.reported else ctx.day.now()
    return t, reported


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


def _record(ctx: Context, args: argparse.Namespace, event) -> int:
    from planner.service.ledger import record

    rows = record(ctx, event, event_id=getattr(args, "event_id", None))
    last = rows[-1]
    out = last.to_json() | {"time": fmt_clock(last.event.time)}
    out["joined"] = len(rows) > 1
    emit(args, out, last.message + (" (pending dice-off)" if last.pending else "")
         + "".join(f"\n  {a} -> {b}: {n}" for a, b, n in last.transfers))
    return 0


def _target_event(ctx: Context, args: argparse.Namespace, kind: str, **kw):
    from planner.ledger.model import STATION, Event
    from planner.service.ledger import resolve_target, station_facts

    target, name = resolve_target(ctx, args.station, args.toll_line, args.tunnel)
    t, reported = _times(ctx, args)
    if target == STATION and kind == "buy":
        name, price, letter = station_facts(ctx, name)
        kw |= {"price": price, "letter": letter}
    return Event(kind, group_of(ctx, args.group), t, reported, target=target, name=name, **kw)


# ---- actions -------------------------------------------------------------------------------------

def cmd_buy(args: argparse.Namespace) -> int:
    """Buy a station, toll line or tunnel."""
    ctx = Context(args)
    return _record(ctx, args, _target_event(ctx, args, "buy"))


def cmd_simple(kind: str):
    """mortgage / redeem."""
    def run(args: argparse.Namespace) -> int:
        ctx = Context(args)
        return _record(ctx, args, _target_event(ctx, args, kind))
    return run


def cmd_pay(args: argparse.Namespace) -> int:
    """Pay a fee (amount from the ledger)."""
    ctx = Context(args)
    return _record(ctx, args, _target_event(ctx, args, "fee", dice=_dice(args.dice, "--dice")))


def cmd_build(args: argparse.Namespace) -> int:
    """Build: new totals per station."""
    from planner.ledger.model import Event
    from planner.service.ledger import rules_of, station_facts

    ctx = Context(args)
    top = rules_of(ctx).hotel_level
    levels = []
    for item in (x.strip() for x in args.houses.split(";")):
        if not item:
            continue
        name, _, n = item.rpartition("=")
        n = n.strip().lower()
        if not name or not (n.isdigit() or n == "hotel"):
            raise InputError(f"--houses {item!r}: expected STATION=N (1-{top - 1}) or STATION=hotel")
        levels.append((station_facts(ctx, name.strip())[0], top if n == "hotel" else int(n)))
    t, reported = _times(ctx, args)
    return _record(ctx, args, Event("build", group_of(ctx, args.group), t, reported, levels=tuple(levels)))


def cmd_income(args: argparse.Namespace) -> int:
    """Full-hour income; with --trip the bonus rule is checked on the timetable."""
    from planner.ledger.model import Event

    ctx = Context(args)
    t, reported = _times(ctx, args)
    bonus = bool(args.bonus)
    if args.trip:
        from planner.game.bonus import trip_meets_bonus

        met = trip_meets_bonus(ctx.timetable, ctx.game, ctx.trip(args.trip), t)
        if bonus and not met:
            raise InputError(f"trip {args.trip} neither arrives nor departs in the bonus minutes of {fmt_clock(t)}")
        bonus = met
    return _record(ctx, args, Event("income", group_of(ctx, args.group), t, reported, bonus=bonus))


def cmd_parking(args: argparse.Namespace) -> int:
    """Pay into or empty the free parking."""
    from planner.ledger.model import Event

    ctx = Context(args)
    t, reported = _times(ctx, args)
    if args.empty:
        dice = _dice(args.dice, "--dice")
        if not dice:
            raise InputError("--empty needs --dice (the two dice rolled)")
        ev = Event("parking_empty", group_of(ctx, args.group), t, reported, dice=dice)
    elif args.reason:
        ev = Event("parking", group_of(ctx, args.group), t, reported, reason=args.reason)
    else:
        raise InputError("give --reason (a payment) or --empty --dice D,D")
    return _record(ctx, args, ev)


def cmd_card(args: argparse.Namespace) -> int:
    """A card drawn."""
    from planner.ledger.model import Event

    ctx = Context(args)
    t, reported = _times(ctx, args)
    return _record(ctx, args, Event("card", group_of(ctx, args.group), t, reported, card=args.card))


def cmd_diceoff(args: argparse.Namespace) -> int:
    """Settle a dice-off."""
    from planner.ledger.model import Event
    from planner.service.ledger import station_facts

    ctx = Context(args)
    rolls = []
    for r in args.roll:
        g, _, v = r.partition("=")
        if not g or not v.strip().isdigit():
            raise InputError(f"--roll {r!r}: expected GROUP=SUM")
        rolls.append((g.strip(), int(v)))
    t, reported = _times(ctx, args)
    name = station_facts(ctx, args.station)[0]
    return _record(ctx, args, Event("diceoff", rolls[0][0], t, reported, name=name, rolls=tuple(rolls)))


def cmd_status(args: argparse.Namespace) -> int:
    """Cash, capital, holdings."""
    from planner.service.ledger import status

    ctx = Context(args)
    out = status(ctx, group_of(ctx, args.group) if args.group else None)
    groups = [out] if args.group else out["groups"]
    table = format_table([{**g, "stations": ", ".join(f"{s['name']}{' ' + s['code'] if s['code'] else ''}"
                                                      f"{' (V)' if s['mortgaged'] else ''}" for s in g["stations"]),
                           "lines": ", ".join(h["name"] for h in g["toll_lines"] + g["tunnels"])} for g in groups],
                         ["group", "cash", "capital", "stations", "lines", "out"])
    emit(args, out, table + f"\nfree parking: {out['parking']}")
    return 0


def cmd_end(args: argparse.Namespace) -> int:
    """Ranking."""
    from planner.service.ledger import end

    ctx = Context(args)
    out = end(ctx)
    emit(args, out, format_table(out["ranking"], ["rank", "group", "cash", "holdings_value", "group_bonus",
                                                  "capital", "out"]) + f"\nwinner: {out['winner'] or '-'}")
    return 0


def cmd_feed(args: argparse.Namespace) -> int:
    """Events to tell a group of."""
    from planner.service.ledger import feed

    out = feed(Context(args), args.group, args.since)
    emit(args, out, "\n".join(f"#{e['seq']} {e['message']}" for e in out["events"]) or "nothing new")
    return 0
