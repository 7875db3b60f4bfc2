"""The ``planner ledger`` commands' arguments, made from the kinds of event (:mod:`planner.ledger.kinds`); part of
:mod:`planner.commands.grammar`, which hands in its shared options: ``--feed --game --date --json``, ``--game-id``,
``--realtime``."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from planner.commands import argtypes, handlers
from planner.ledger.kinds import BY_NAME, CLI, told_by
from planner.util.i18n import N_

Adder = Callable[..., None]


# How each fact of an event is given on the command line; which facts a kind carries, and which it needs, is
# declared once with the kind (planner/ledger/kinds.py).
FACT_OPTIONS: dict[str, dict] = {
    "station": {}, "toll_line": {}, "tunnel": {},
    "houses": {"help": N_('new totals, e.g. "Aarau=2;Attiswil=1;Aesch=hotel"')},
    "dice": {"help": N_("the two dice, e.g. 3,4")},
    "bonus": {"action": "store_true", "help": N_("the bonus rule is met (checked on the train)")},
    "trip": {"help": N_("the train we sat in (default: the one the group's day has it in)")},
    "reason": {"help": N_("what is paid: a key of the game's ledger.parking_payments (e.g. jail)")},
    "empty": {"action": "store_true", "help": N_("roll for the free parking (give --dice)")},
    "card": {"help": N_("the kept card's key")},
    "deck": {"help": N_("the deck, e.g. Kanzlei or Chance")},
    "to": {"help": N_("the buying group")},
    "amount": {"type": argtypes.integer(0, 10_000_000, "--amount")},
    "offer": {"type": argtypes.integer(1, 10**9, "--offer"), "help": N_("the sale's number")},
}
# where a fact means something particular to one kind
OWN_HELP: dict[tuple[str, str], str] = {
    ("pay", "dice"): N_("tunnel: the two dice, e.g. 3,4"),
    ("parking", "dice"): N_("the two dice rolled when boarding at a change, e.g. 2,3"),
    ("diceoff", "dice"): N_("the group's two dice, e.g. 5,3"),
    ("tax", "reason"): N_("a key of the game's [[ledger.taxes]]"),
    ("card", "card"): N_("card key (see the game file's [[ledger.cards]])"),
}


def section(sub, common: Adder, game_id: Adder, realtime: Adder) -> None:
    """Add ``planner ledger ACTION``: an action for each kind of event the command line may tell
    (:func:`planner.ledger.kinds.told_by`), then the organiser's and the reading actions."""
    p = sub.add_parser("ledger", help=N_("the money side: buy, build, mortgage, pay fees, income, cards, sales, "
                                      "status, ranking"))
    lsub = p.add_subparsers(dest="ledger_command", metavar="ACTION")

    def action(name: str, help_: str, *, group: bool = True) -> argparse.ArgumentParser:
        a = lsub.add_parser(name, help=help_)
        if group:
            a.add_argument("--group", required=True, help=N_("group number or name"))
        a.add_argument("--time", help=N_("HH:MM of the event (the decision, §19); default now on the game day"))
        a.add_argument("--reported", help=N_("HH:MM the message was sent (§13); default now on the game day"))
        a.add_argument("--event-id", help=N_("client id making a retried command idempotent"))
        game_id(a)
        common(a)
        a.set_defaults(handler=handlers.cmd_event, event=name, writes_state=True)
        return a

    for name in told_by(CLI):
        kind = BY_NAME[name]
        a = action(name, kind.help, group=name != "diceoff")
        for fact in kind.fields:
            options = dict(FACT_OPTIONS[fact])
            if (name, fact) in OWN_HELP:
                options["help"] = OWN_HELP[name, fact]
            a.add_argument(f"--{fact.replace('_', '-')}", required=fact in kind.required, **options)
        _extras(name, a, realtime)
    a = action("sent", N_("the message of an event was sent at --time (§13: late messages cost the penalty)"))
    a.add_argument("event_seq", type=argtypes.integer(1, 10**9, N_("event number")), metavar="EVENT")
    a = action("void", N_("organisers: void a recorded event (it stays in the log, marked; every group is told)"),
               group=False)
    a.add_argument("event_seq", type=argtypes.integer(1, 10**9, N_("event number")), metavar="EVENT",
                   help=N_("the event's number (#N in status, feed and messages)"))
    a.add_argument("--reason", required=True, help=N_("why (every group is told)"))
    _reads(lsub, common, game_id)


def _extras(name: str, a: argparse.ArgumentParser, realtime: Adder) -> None:
    """What only the command line adds to a kind: a dice-off of every group at once (the organiser's table),
    and real-time data for the free parking (a jail is known on it: paying out of one twice is refused)."""
    if name == "diceoff":
        a.add_argument("--group", help=N_("the group rolling (with --dice)"))
        a.add_argument("--roll", action="append", metavar="GROUP=SUM", help=N_("every group's sum at once, one each"))
    elif name == "parking":
        realtime(a)


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
