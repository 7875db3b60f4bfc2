"""What a simulated group does where the rules leave it a choice: the trains it takes while it moves freely, and
what it buys. Everything else (which target, by which way, the change window, fees, income) the rules decide,
through the service layer (:mod:`planner.lab.day`).

A strategy never breaks a rule: it chooses among the legal rides it is offered, and a purchase it wants is
still checked by the ledger. Strategies are named; ``planner simulate --strategy NAME`` plays every group with
one, the default ``mix`` gives the groups the strategies in turn (group 1 ``random``, group 2 ``ic``, ...).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from planner.errors import InputError
from planner.util.i18n import _

MAX_RIDE_SECONDS = 60 * 60  # a free ride gets off within the hour (a group that rides for hours misses stations)
RESERVE = 4000  # cash a buying group keeps for fees (a full-hour income)


@dataclass(frozen=True)
class Ride:
    """A ride a group may take now: ``trip`` from stop-time row ``board`` to ``alight`` (legal by the rules)."""

    trip: int
    board: int
    alight: int
    departure: int
    arrival: int
    to_station: int


@dataclass(frozen=True)
class Offer:
    """Something the group may buy where it is: ``kind`` station / toll_line / tunnel, its ``name``, ``price`` and
    (stations) price ``category`` (``IC``, ``fast``, ``regional``, ...); ``cash``: what the group holds."""

    kind: str
    name: str
    price: int
    category: str
    cash: int


@dataclass(frozen=True)
class Strategy:
    """A named way to play: ``prefer`` (price categories of the stations it rides to, when it can), ``buys`` (the
    categories it buys; ``"*"`` every station), ``crossings`` (whether it buys toll lines and tunnels it crosses)."""

    name: str
    doc: str
    prefer: tuple[str, ...] = ()
    buys: tuple[str, ...] = ()
    crossings: bool = False

    def choose_ride(self, rides: list[Ride], category: list[str], rnd: random.Random) -> Ride:
        """One of ``rides`` (non-empty): first a train at random (every legal train alike), then where to get off:
        at a preferred station when the train stops at one, else at any of its stops."""
        trips = sorted({r.trip for r in rides})
        trip = trips[rnd.randrange(len(trips))]
        mine = [r for r in rides if r.trip == trip]
        liked = [r for r in mine if category[r.to_station] in self.prefer]
        pool = liked or mine
        return pool[rnd.randrange(len(pool))]

    def wants(self, offer: Offer) -> bool:
        """Whether the group buys ``offer`` (it keeps :data:`RESERVE` for fees)."""
        if offer.cash < offer.price + RESERVE:
            return False
        if offer.kind != "station":
            return self.crossings
        return "*" in self.buys or offer.category in self.buys


STRATEGIES: dict[str, Strategy] = {s.name: s for s in (
    Strategy("random", "random legal rides, buys nothing (the control group)"),
    Strategy("ic", "rides to IC stations where it can and buys IC stations", prefer=("IC",), buys=("IC",)),
    Strategy("greedy", "random legal rides, buys every unowned station, toll line and tunnel it can afford",
             buys=("*",), crossings=True),
    Strategy("fast", "rides to IC and fast-train stations and buys them", prefer=("IC", "fast"),
             buys=("IC", "fast")),
)}
MIX = "mix"


def strategy_names() -> list[str]:
    """The names ``--strategy`` accepts: every strategy, and ``mix``."""
    return [*STRATEGIES, MIX]


def assign(spec: str, groups: int) -> tuple[Strategy, ...]:
    """The strategy of each group: ``spec`` for all, or (``mix``) the strategies in turn."""
    if spec == MIX:
        order = list(STRATEGIES.values())
        return tuple(order[i % len(order)] for i in range(groups))
    if spec not in STRATEGIES:
        raise InputError(_("unknown strategy {strategy!r}: one of {known}").format(strategy=spec,
                                                                                   known=", ".join(strategy_names())))
    return (STRATEGIES[spec],) * groups
