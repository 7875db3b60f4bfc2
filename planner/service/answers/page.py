"""The phone's page answer (``GET /api/games/{game}/groups/{group}``): the group's day, its last roll's answer,
its money and the messages it must be told of (the ledger's parts are the ledger's answers)."""

from __future__ import annotations

from planner.service.answers.base import UNSET, Answer, Opt
from planner.service.answers.group_status import (
    GameInfo,
    GroupRef,
    GroupStatusAnswer,
    RealtimeBanner,
    StationAdvice,
)
from planner.service.answers.money import OrganiserLedger, Ranking, RecordedEvent
from planner.service.answers.rolls import RollAnswer


class GroupPageAnswer(Answer, kw_only=True):
    """What a group's page shows: the game, the group, its status, the last roll's answer, cash and capital, the
    latest messages, the best station to buy now and (``serve --realtime``) the real-time banner."""

    game: GameInfo
    group: GroupRef
    status: GroupStatusAnswer
    last: RollAnswer | None
    cash: int
    capital: int
    messages: list[RecordedEvent]
    buy_advice: StationAdvice | None
    realtime: RealtimeBanner | Opt = UNSET


class TrainCandidate(Answer, kw_only=True):
    """A train a name given fits: its id (to send back) and how players read it."""

    trip_id: str
    train: str


class ErrorAnswer(Answer, kw_only=True):
    """A refused or failed request on the web: ``{"error": "..."}`` (a 4xx with one clear line, or a 5xx); a train
    named by a time several trains fit (409) lists them."""

    error: str
    candidates: list[TrainCandidate] | Opt = UNSET


class OrganiserAnswer(Answer, kw_only=True):
    """The organiser's page (``GET /api/games/{game}``): every group's page answer, the ranking, the latest ledger
    events (to void one by its number), sales, dice-offs and messages not sent."""

    game: GameInfo
    groups: list[GroupPageAnswer]
    ranking: Ranking
    events: list[RecordedEvent]
    ledger: OrganiserLedger


class StationNear(Answer, kw_only=True):
    """A station and how far the phone is from it."""

    name: str
    distance_m: int


class TrainNear(Answer, kw_only=True):
    """The train whose timetable place is nearest the phone: its id (for the position request), its name, its next
    stop and time."""

    trip: str
    name: str
    next_stop: str
    next_time: str
    distance_m: int


class WhereaboutsAnswer(Answer, kw_only=True):
    """"Where are we?" (``POST .../whereabouts``): the station or train proposed (``proposal``: station, train or
    none), the nearest station, the phone's time."""

    time: str
    proposal: str | None
    station: StationNear | None
    train: TrainNear | None
    distance_m: int | None
    nearest: StationNear
