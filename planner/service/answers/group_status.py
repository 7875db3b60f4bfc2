"""A group's day as answers carry it: where it is, what binds it (in words, from the catalog), its history;
``next``'s way on and the best station to buy; ``undo``."""

from __future__ import annotations

from typing import Any

from planner.service.answers.base import UNSET, Answer, Message, Opt
from planner.service.answers.itinerary import Fee, Itinerary


class PositionState(Answer, kw_only=True):
    """Where the group is: standing at ``station`` since ``since``, or seated in a train (``trip_id``, ``train``)
    at or approaching ``station``."""

    station: str
    since: str | None
    seated: bool
    trip_id: str | None
    train: str | None


class ObligationState(Answer, kw_only=True):
    """What binds the group (:class:`planner.game.day.Obligation`) and, in words, ``text`` (what it does now) and
    ``board`` (the change window's deadline for a standing group; None otherwise)."""

    kind: str
    since: str | None
    until: str | None
    target: str | None
    board_by: str | None
    forced: bool
    rule: str | None
    text: Message
    board: Message | None


class GroupState(Answer, kw_only=True):
    """A group's state at ``time``."""

    group: str
    time: str
    position: PositionState | None
    obligation: ObligationState
    next_roll_at: str | None
    targeted: list[str]


class RollEntry(Answer, kw_only=True):
    """A roll of the group's history."""

    seq: int
    time: str
    dice: str
    kind: str
    target: str | None
    free_until: str | None
    position: str | None


class PositionEntry(Answer, kw_only=True):
    """A position report of the group's history (``label``: the train's name as told; none at a station)."""

    time: str
    since: str | None
    station: str
    trip_id: str | None
    label: str | None


class GroupStatusAnswer(GroupState, kw_only=True):
    """``planner group status``: the state plus the history."""

    number: int
    game: str
    date: str
    rolls: list[RollEntry]
    positions: list[PositionEntry]


class JailStayAnswer(Answer, kw_only=True):
    """A jail stay (§17): where, from when, until when."""

    station: str
    since: str
    until: str


class LateAnswer(Answer, kw_only=True):
    """What a reported late arrival did (§17 without a live feed): the jail (None: not late enough, or jailed for
    that train already), why in words, the recorded jail event."""

    jail: JailStayAnswer | None
    why: str
    event: dict[str, Any] | None


class PositionAnswer(GroupStatusAnswer, kw_only=True):
    """``planner group position``: the state after the report, how a named train was understood, and what a
    late arrival reported with it did."""

    train: str | None
    late: LateAnswer | Opt = UNSET


class GroupListAnswer(Answer, kw_only=True):
    """``planner group list``: every group of the game."""

    game_id: str
    groups: list[GroupStatusAnswer]


class UndoAnswer(Answer, kw_only=True):
    """``planner group undo``: the roll removed (its number), or the position report, or nothing."""

    group: str
    removed: int | None
    removed_position: str | None


class Chance(Answer, kw_only=True):
    """A train the group can sit in at a full hour while it arrives or departs in a bonus minute; where and when
    to board it (``fee``: on the itinerary a heading group must take; ``seated_now``: the train it sits in)."""

    trip_id: str
    route: str
    headsign: str
    station: str
    event: str
    time: str
    fee: int | Opt = UNSET
    board_at: str
    board_time: str
    seated_now: bool | Opt = UNSET


class StationAdvice(Answer, kw_only=True):
    """A station the group may buy on its way: price, fee, the fee income expected by the end, when it is there."""

    name: str
    price: int
    fee: int
    expected_income: int
    net: int
    pays_back: bool
    at: str
    why: str
    certain_stops: int
    expected_stops: float


class NextAnswer(GroupState, kw_only=True):
    """``planner next``: the state, the way to the target, bonus chances, fees ahead, warnings, what to do now
    (``advice``, in words) and the best station to buy now."""

    itinerary: Itinerary | None
    bonus: list[Chance]
    fees: list[Fee]
    fees_total: int | float
    warnings: list[str]
    advice: str
    buy_advice: StationAdvice | None | Opt = UNSET


class AdviseAnswer(Answer, kw_only=True):
    """``planner advise``: the stations to buy, best first; ``basis`` and ``rates`` what the expectation rests on."""

    group: str
    time: str
    cash: int
    over: bool
    doing: str
    scope: str
    basis: str
    rates: dict[str, Any]
    paying_back: int
    stations: list[StationAdvice]


class GameInfo(Answer, kw_only=True):
    """What a page needs to know of the game: id, names, date, dice, dice start, end, the change window, the
    answers' language."""

    id: str
    name: str
    game: str
    title: str
    date: str
    dice: int
    dice_from: str | None
    end: str | None
    rule: str | None
    admissible_extra_minutes: int | None
    language: str


class GroupRef(Answer, kw_only=True):
    """A group of a game: its number and name."""

    number: int
    name: str


class RealtimeBanner(Answer, kw_only=True):
    """What a phone shows about the real-time data of ``planner serve --realtime``."""

    available: bool
    version: int
    age_s: int | None
    stale: bool
    error: str | None
    source: str
    trips_matched: int
