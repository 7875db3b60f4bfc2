"""The kinds of ledger event a group or an organiser tells, declared once (pure): each with the facts it carries
and the doors it comes in by. The ledger's stored kinds (:data:`planner.ledger.money_rules.EVENT_KINDS`), the
service's request kinds, the command line's ``planner ledger ACTION`` and the phone's ``event`` field are made
from this table (tests/project/test_contributing_recipes.py checks each door has every kind it names)."""

from __future__ import annotations

from dataclasses import dataclass

CLI, WEB = "cli", "web"
TARGET = ("station", "toll_line", "tunnel")  # exactly one of them names what an event is about


@dataclass(frozen=True)
class Kind:
    """A kind of event as told (``planner ledger NAME``, the phone's ``"event": NAME``).

    ``stored``: the ledger's kind it is recorded as (a group *pays* a *fee*); ``fields``: the request's facts it
    reads (:class:`planner.service.change.ledger_events.LedgerRequest` attributes, the phone's JSON keys);
    ``doors``: where it may be told."""

    name: str
    fields: tuple[str, ...] = ()
    stored: str = ""
    doors: tuple[str, ...] = (CLI, WEB)

    @property
    def recorded_as(self) -> str:
        """The ledger's event kind this is recorded as."""
        return self.stored or self.name


KINDS: tuple[Kind, ...] = (
    Kind("buy", TARGET),
    Kind("build", ("houses",)),
    Kind("mortgage", TARGET),
    Kind("redeem", TARGET),
    Kind("pay", (*TARGET, "dice"), stored="fee"),
    Kind("income", ("bonus", "trip")),
    Kind("parking", ("reason", "empty", "dice")),  # a payment into the free parking, or (empty) a roll to empty it
    Kind("parking_empty", ("dice",), doors=()),  # told as parking with ``empty``: a roll to empty it (§18.1)
    Kind("tax", ("reason",), stored="parking"),  # a tax goes into the free parking (§16)
    Kind("card", ("card",), doors=(CLI,)),  # a card of the group's own paper deck: the phone draws instead
    Kind("draw", ("deck",)),
    Kind("play", (*TARGET, "card")),
    Kind("sell", (*TARGET, "to", "amount")),
    Kind("accept", ("offer",)),
    Kind("diceoff", ("station", "dice")),  # the command line also takes every group's sum at once (--roll)
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
