"""The ``planner ledger`` commands' arguments (part of :mod:`planner.commands.grammar`, which hands in its shared
options: ``--feed --game --date --json``, ``--game-id``, ``--realtime``)."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from planner.commands import argtypes, handlers
from planner.util.i18n import N_

Adder = Callable[..., None]


def section(sub, common: Adder, game_id: Adder, realtime: Adder) -> None:
    """Add ``planner ledger ACTION`` with every action."""
    p = sub.add_parser("ledger", help=N_("the money side: buy, build, mortgage, pay fees, income, cards, sales, "
                                      "status, ranking"))
    lsub = p.add_subparsers(dest="ledger_command", metavar="ACTION")

    def action(name: str, help_: str, *, group: bool = True, target: bool = False) -> argparse.ArgumentParser:
        a = lsub.add_parser(name, help=help_)
        if group:
            a.add_argument("--group", required=True, help=N_("group number or name"))
        a.add_argument("--time", help=N_("HH:MM of the event (the decision, §19); default now on the game day"))
        a.add_argument("--reported", help=N_("HH:MM the message was sent (§13); default now on the game day"))
        a.add_argument("--event-id", help=N_("client id making a retried command idempotent"))
        if target:
            a.add_argument("--station")
            a.add_argument("--toll-line")
            a.add_argument("--tunnel")
        game_id(a)
        common(a)
        a.set_defaults(handler=handlers.cmd_event, event=name, writes_state=True)
        return a

    _money(action, realtime)
    _cards_and_sales(action)
    a = action("void", "organisers: void a recorded event (it stays in the log, marked; every group is told)",
               group=False)
    a.add_argument("event_seq", type=argtypes.integer(1, 10**9, N_("event number")), metavar="EVENT",
                   help=N_("the event's number (#N in status, feed and messages)"))
    a.add_argument("--reason", required=True, help=N_("why (every group is told)"))
    _reads(lsub, common, game_id)


def _money(action: Callable[..., argparse.ArgumentParser], realtime: Adder) -> None:
    action("buy", "buy the station the group is at, or a toll line / tunnel it travelled", target=True)
    a = action("build", "build houses / a hotel on complete letter groups")
    a.add_argument("--houses", required=True, help=N_('new totals, e.g. "Aarau=2;Attiswil=1;Aesch=hotel"'))
    action("mortgage", "mortgage a holding when the cash does not cover a payment (half its value, §10)",
           target=True)
    action("redeem", "redeem a mortgaged holding (half its purchase value, §10)", target=True)
    a = action("pay", "pay the fee of a stop at a station, toll line or tunnel owned by another group", target=True)
    a.add_argument("--dice", help=N_("tunnel: the two dice, e.g. 3,4"))
    a = action("income", "the full-hour income (§6): the base fee, or the bonus fee")
    a.add_argument("--bonus", action="store_true", help=N_("the bonus rule is met (checked on the train)"))
    a.add_argument("--trip", help=N_("the train we sat in (default: the one the group's day has it in)"))
    a = action("parking", "pay into the free parking, or roll to empty it on boarding at a change (§17-§18)")
    a.add_argument("--reason", help=N_("what is paid: a key of the game's ledger.parking_payments (e.g. jail)"))
    a.add_argument("--empty", action="store_true", help=N_("roll for the free parking (give --dice)"))
    realtime(a)  # a jail is known on real-time data: paying out of one twice is refused
    a.add_argument("--dice", help=N_("the two dice rolled when boarding at a change, e.g. 2,3"))
    a = action("tax", "pay a tax into the free parking (§16), e.g. --reason unscheduled_stop")
    a.add_argument("--reason", required=True, help=N_("a key of the game's [[ledger.taxes]]"))


def _cards_and_sales(action: Callable[..., argparse.ArgumentParser]) -> None:
    a = action("draw", "draw the next card of the group's deck (§14-§15) and apply it")
    a.add_argument("--deck", required=True, help=N_("the deck, e.g. Kanzlei or Chance"))
    a = action("play", "play a kept card (out of jail; the next station free: name it with --station)",
               target=True)
    a.add_argument("--card", required=True, help=N_("the kept card's key"))
    a = action("card", "a card the group drew from its own paper deck (named, §14-§15)")
    a.add_argument("--card", required=True, help=N_("card key (see the game file's [[ledger.cards]])"))
    a = action("sell", "offer a station to another group for an agreed amount (§7.3)", target=True)
    a.add_argument("--to", required=True, help=N_("the buying group"))
    a.add_argument("--amount", required=True, type=argtypes.integer(0, 10_000_000, "--amount"))
    a = action("accept", "accept a sale offered to the group (§7.3)")
    a.add_argument("--offer", required=True, type=argtypes.integer(1, 10**9, "--offer"), help=N_("the sale's number"))
    a = action("diceoff", "a §7.2 dice-off: the group's two dice (or every group's sum with --roll)", group=False)
    a.add_argument("--group", help=N_("the group rolling (with --dice)"))
    a.add_argument("--station", required=True)
    a.add_argument("--dice", help=N_("the group's two dice, e.g. 5,3"))
    a.add_argument("--roll", action="append", metavar="GROUP=SUM", help=N_("every group's sum at once, one each"))
    a = action("sent", "the message of an event was sent at --time (§13: late messages cost the penalty)")
    a.add_argument("event_seq", type=argtypes.integer(1, 10**9, N_("event number")), metavar="EVENT")


def _reads(lsub, common: Adder, game_id: Adder) -> None:
    a = lsub.add_parser("status", help=N_("cash, capital and holdings (one group or all)"))
    a.add_argument("--group")
    game_id(a)
    common(a)
    a.set_defaults(handler=handlers.cmd_status)
    a = lsub.add_parser("now", help=N_("what applies now: fees due, buy offers, decks, taxes, dice-offs, sales, kept "
                                    "cards, the free parking (without --group: the organiser's view)"))
    a.add_argument("--group")
    a.add_argument("--time", help=N_("HH:MM (default: now on the game day, else the group's latest entry)"))
    game_id(a)
    common(a)
    a.set_defaults(handler=handlers.cmd_now)
    a = lsub.add_parser("end", help=N_("end of the game: capital table and ranking (§5)"))
    game_id(a)
    common(a)
    a.set_defaults(handler=handlers.cmd_end)
    a = lsub.add_parser("feed", help=N_("the events a group must be told of (§13), since event N"))
    a.add_argument("--group", required=True, help=N_("group number or name"))
    a.add_argument("--since", type=argtypes.integer(0, 10**12, "--since"), default=0)
    game_id(a)
    common(a)
    a.set_defaults(handler=handlers.cmd_feed)
