"""The phone's page answer (``GET /api/games/{game}/groups/{group}``): the group's day, its last roll's answer,
its money and the messages it must be told of (the ledger's parts are the ledger's answers)."""

from __future__ import annotations

from typing import Any

from planner.service.answers.base import UNSET, Answer, Opt
from planner.service.answers.dice import RollAnswer
from planner.service.answers.group import GameInfo, GroupRef, GroupStatusAnswer, RealtimeBanner, StationAdvice


class GroupPageAnswer(Answer, kw_only=True):
    """What a group's page shows: the game, the group, its status, the last roll's answer, cash and capital, the
    latest messages, the best station to buy now and (``serve --realtime``) the real-time banner."""

    game: GameInfo
    group: GroupRef
    status: GroupStatusAnswer
    last: RollAnswer | None
    cash: int
    capital: int
    messages: list[dict[str, Any]]
    buy_advice: StationAdvice | None
    realtime: RealtimeBanner | Opt = UNSET


class ErrorAnswer(Answer, kw_only=True):
    """A refused or failed request on the web: ``{"error": "..."}`` (a 4xx with one clear line, or a 5xx)."""

    error: str
