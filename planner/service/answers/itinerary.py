"""Itineraries as answers carry them: legs with their toll lines, tunnels and bonus events, delays on real-time
data, the group's fees, a jail on the way, and what the change-window rule applied."""

from __future__ import annotations

from typing import Any

import msgspec

from planner.service.answers.base import UNSET, Answer, Message, Opt


class Zugzwang(Answer, kw_only=True):
    """What an answer applied of the change window: ``applies``, its ``minutes``, ``since`` when the standing
    group's window started (None when seated or without the rule; left out where an answer has no position)."""

    applies: bool
    minutes: int | None
    since: str | None | Opt = UNSET


class Realtime(Answer, kw_only=True):
    """What an answer says of its real-time data (``--realtime``): the source, its age, the matched trips."""

    available: bool
    source: str
    age_s: int | None
    stale: bool
    timestamp: int | None | Opt = UNSET
    trip_updates: int | Opt = UNSET
    trips_matched: int
    trips_unknown: int
    trips_other_date: int | Opt = UNSET
    trips_cancelled: int | Opt = UNSET
    trips_unsupported: int | Opt = UNSET
    stop_updates: int | Opt = UNSET
    stops_unplaced: int | Opt = UNSET
    stops_skipped: int | Opt = UNSET
    times_implausible: int | Opt = UNSET  # predicted times dropped as implausible (an hour early, 12 h late)


class BonusEvent(Answer, kw_only=True):
    """A full-hour bonus event while riding (§6): the train arrives at or departs from ``station`` at ``time``
    in a bonus minute of ``hour``; ``effective``: earned by the real time, not the timetable's."""

    station: str
    event: str
    time: str
    hour: str
    fee: int
    effective: bool | Opt = UNSET


class Crossing(Answer, kw_only=True):
    """A toll line or tunnel a leg travels through (on the physical path between its stops)."""

    name: str
    kind: str
    between: list[str]


class Fee(Answer, kw_only=True):
    """What the group owes on an itinerary (the ledger's fees): a station's, toll line's or tunnel's owner and the
    amount (None for a tunnel's two dice: then ``min``, ``max``, ``expected``), ``time`` at the stop."""

    kind: str
    name: str
    owner: str
    amount: int | None
    min: int | Opt = UNSET
    max: int | Opt = UNSET
    expected: int | float | Opt = UNSET
    time: str | None | Opt = UNSET


class PricingNote(Answer, kw_only=True):
    """How the cheapest of the equally fast itineraries was chosen for the group."""

    group: str
    compared: int
    net_cost: int | float
    fees_total: int | float
    bonus_hours: int
    weighed: str


class Leg(Answer, kw_only=True):
    """One ride (or walk: ``route`` "walk", ``trip_id`` None) of an itinerary."""

    trip_id: str | None
    route: str
    mode: str | Opt = UNSET  # rail, bus, tram, ... or walk (answers stored before it was there have none)
    headsign: str
    from_: str = msgspec.field(name="from")
    to: str
    from_platform: str  # a railway's track; empty for a bus or tram stop and a walk
    to_platform: str
    departure: str
    arrival: str
    seated: bool | Opt = UNSET  # the ride a seated group sits in, from the stop before (nothing behind it counts)
    crossings: list[Crossing]
    bonus: list[BonusEvent]
    departure_delay_min: int | None | Opt = UNSET
    arrival_delay_min: int | None | Opt = UNSET


class JailPay(Answer, kw_only=True):
    """Paying out of a jail (variant A): the amount into the free parking, the arrival that way, the command."""

    amount: int
    arrival: str | None
    ledger: str


class JailStop(Answer, kw_only=True):
    """A further jail on the way: where, from when, until when."""

    station: str
    from_: str = msgspec.field(name="from")
    until: str


class Jail(Answer, kw_only=True):
    """§17 on real-time data: the first jail on the way (the train ``delay_min`` late), paying out, the others."""

    station: str
    from_: str = msgspec.field(name="from")
    until: str
    trip_id: str
    route: str
    delay_min: int
    pay: JailPay | None
    more: list[JailStop]
    text: Message | None = None  # the jail in one sentence (planner/service/read/rule_words.py)


class Itinerary(Answer, kw_only=True):
    """One itinerary (``arrival`` None and a ``reason`` when there is none): legs, what they cross and earn, the
    group's fees on it (with a group), delays on real-time data, a jail on the way."""

    from_: str | None = msgspec.field(name="from")
    to: str
    departure: str | None
    arrival: str | None
    changes: int | None
    legs: list[Leg]
    reason: str | Opt = UNSET
    already_there: bool | Opt = UNSET
    bonus: list[BonusEvent] | Opt = UNSET
    crossings: list[Crossing] | Opt = UNSET
    departure_delay_min: int | None | Opt = UNSET
    arrival_delay_min: int | None | Opt = UNSET
    fees: list[Fee] | Opt = UNSET
    fees_total: int | float | Opt = UNSET
    fees_min: int | float | Opt = UNSET
    fees_max: int | float | Opt = UNSET
    pricing: PricingNote | Opt = UNSET
    jail: Jail | None | Opt = UNSET
    reached: str | None | Opt = UNSET  # an admissible way: when its target is reached (a crossing: passed)


class RouteAnswer(Itinerary, kw_only=True):
    """``planner route``: the fastest legal itinerary, the alternatives within the minutes asked, what the change
    window applied, and (for a seated group) the train it starts in."""

    train: str | Opt = UNSET
    warnings: list[str] | Opt = UNSET
    alternatives: list[Itinerary]
    zugzwang: Zugzwang
    realtime: Realtime | Opt = UNSET


def as_itinerary_fields(it: Itinerary) -> dict[str, Any]:
    """The fields of ``it`` by attribute name (to build a bigger answer from it)."""
    return {f: getattr(it, f) for f in it.__struct_fields__}
