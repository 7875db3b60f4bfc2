"""The kinds of ledger event a group or an organiser tells, declared once (pure): each with the facts it carries
and the doors it comes in by. The ledger's stored kinds (:data:`planner.ledger.money_rules.EVENT_KINDS`), the
service's request kinds, the command line's ``planner ledger ACTION`` and the phone's ``event`` field are made
from this table (tests/project/test_contributing_recipes.py checks each door has every kind it names)."""

from __future__ import annotations

from dataclasses import dataclass

from planner.util.i18n import N_

CLI, WEB = "cli", "web"
TARGET = ("station", "toll_line", "tunnel")  # exactly one of them names what an event is about


@dataclass(frozen=True)
class Kind:
    """A kind of event as told (``planner ledger NAME``, the phone's ``"event": NAME``).

    ``stored``: the ledger's kind it is recorded as (a group *pays* a *fee*); ``fields``: the request's facts it
    reads (:class:`planner.service.change.ledger_events.LedgerRequest` attributes, the phone's JSON keys);
    ``required``: those it cannot be told without; ``doors``: where it may be told; ``help``: what it is, in a
    line (marked for the catalog: the command line's ``planner ledger --help`` shows it translated)."""

    name: str
    fields: tuple[str, ...] = ()
    stored: str = ""
    doors: tuple[str, ...] = (CLI, WEB)
    required: tuple[str, ...] = ()
    help: str = ""

    @property
    def recorded_as(self) -> str:
        """The ledger's event kind this is recorded as."""
        return self.stored or self.name


KINDS: tuple[Kind, ...] = (
    Kind("buy", TARGET, help=N_("buy the station the group is at, or a toll line / tunnel it travelled")),
    Kind("build", ("houses",), required=("houses",),
         help=N_("build houses / a hotel on complete letter groups")),
    Kind("mortgage", TARGET,
         help=N_("mortgage a holding when the cash does not cover a payment (half its value, §10)")),
    Kind("redeem", TARGET, help=N_("redeem a mortgaged holding (half its purchase value, §10)")),
    Kind("pay", (*TARGET, "dice"), stored="fee",
         help=N_("pay the fee of a stop at a station, toll line or tunnel owned by another group")),
    Kind("income", ("bonus", "trip"), help=N_("the full-hour income (§6): the base fee, or the bonus fee")),
    # a payment into the free parking, or (empty) a roll to empty it
    Kind("parking", ("reason", "empty", "dice"),
         help=N_("pay into the free parking, or roll to empty it on boarding at a change (§17-§18)")),
    Kind("parking_empty", ("dice",), doors=()),  # told as parking with ``empty``: a roll to empty it (§18.1)
    Kind("tax", ("reason",), stored="parking", required=("reason",),  # a tax goes into the free parking (§16)
         help=N_("pay a tax into the free parking (§16), e.g. --reason unscheduled_stop")),
    # a card of the group's own paper deck: the phone draws instead
    Kind("card", ("card",), doors=(CLI,), required=("card",),
         help=N_("a card the group drew from its own paper deck (named, §14-§15)")),
    Kind("draw", ("deck",), required=("deck",),
         help=N_("draw the next card of the group's deck (§14-§15) and apply it")),
    Kind("play", (*TARGET, "card"), required=("card",),
         help=N_("play a kept card (out of jail; the next station free: name it with --station)")),
    Kind("sell", (*TARGET, "to", "amount"), required=("to", "amount"),
         help=N_("offer a station to another group for an agreed amount (§7.3)")),
    Kind("accept", ("offer",), required=("offer",), help=N_("accept a sale offered to the group (§7.3)")),
    # the command line also takes every group's sum at once (--roll)
    Kind("diceoff", ("station", "dice"), required=("station",),
         help=N_("a §7.2 dice-off: the group's two dice (or every group's sum with --roll)")),
)
BY_NAME = {k.name: k for k in KINDS}
# recorded by the ledger itself, never told: a group's first event joins it; a late train or a card jails it
SYSTEM_KINDS = ("join", "jail")


def told(name: str, *, empty: bool = False) -> str:
    """The request kind of an event told as ``name`` (``parking`` with ``empty``: a roll to empty the free parking,
    ``parking_empty``)."""
    return "parking_empty" if name == "parking" and empty else name


def told_by(door: str) -> tuple[str, ...]:
    """The kinds that may be told at ``door`` (:data:`CLI`, :data:`WEB`)."""
    return tuple(k.name for k in KINDS if door in k.doors)


def recorded_as(name: str) -> str:
    """The ledger's event kind of request kind ``name`` (``pay`` -> ``fee``)."""
    return BY_NAME[name].recorded_as


def request_fields(door: str) -> frozenset[str]:
    """Every fact a kind told at ``door`` may carry."""
    return frozenset(f for k in KINDS if door in k.doors for f in k.fields)
