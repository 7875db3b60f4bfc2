"""The published answers: one name per answer type (``planner schema NAME``, ``docs/schema/NAME.json``), and the
one encoder every adapter uses.

A slice that adds an answer adds one line to :data:`ANSWERS` (or calls :func:`register` from its own module,
imported here) and commits its schema (``planner schema --write docs/schema``).
"""

from __future__ import annotations

from typing import Any

import msgspec

from planner.service.answers.base import encode
from planner.service.answers.group_status import (
    AdviseAnswer,
    GroupListAnswer,
    GroupStatusAnswer,
    NextAnswer,
    PositionAnswer,
    UndoAnswer,
)
from planner.service.answers.itinerary import RouteAnswer
from planner.service.answers.money import (
    Feed,
    GameLedger,
    GroupLedger,
    LedgerNow,
    LedgerPage,
    OrganiserLedger,
    Ranking,
    RecordedEvent,
)
from planner.service.answers.page import ErrorAnswer, GroupPageAnswer, OrganiserAnswer, WhereaboutsAnswer
from planner.service.answers.questions import BonusAnswer, LogCheckAnswer, TollsAnswer, TrainsAnswer
from planner.service.answers.rolls import DiceAnswer, RollAnswer

__all__ = ["ANSWERS", "encode", "name_of", "register", "schema"]

ANSWERS: dict[str, type[msgspec.Struct]] = {
    "roll": RollAnswer,  # planner roll, POST .../rolls
    "target": DiceAnswer,  # planner target
    "next": NextAnswer,  # planner next, GET .../next
    "status": GroupStatusAnswer,  # planner group status
    "groups": GroupListAnswer,  # planner group list
    "position": PositionAnswer,  # planner group position, POST .../position
    "undo": UndoAnswer,  # planner group undo, POST .../undo
    "route": RouteAnswer,  # planner route
    "zugzwang": TrainsAnswer,  # planner zugzwang, GET .../trains
    "zugzwang-check": LogCheckAnswer,  # planner zugzwang --check
    "bonus": BonusAnswer,  # planner bonus
    "tolls": TollsAnswer,  # planner tolls
    "advise": AdviseAnswer,  # planner advise
    "group-page": GroupPageAnswer,  # GET /api/games/{game}/groups/{group}: what the group's page shows
    "error": ErrorAnswer,  # any refused request on the web (4xx, 5xx)
    "whereabouts": WhereaboutsAnswer,  # POST .../whereabouts: where are we?
    "organiser": OrganiserAnswer,  # GET /api/games/{game}: the organiser's page
    "ledger-event": RecordedEvent,  # planner ledger EVENT, POST .../ledger, .../messages/{seq}/sent, organiser void
    "ledger-status": GameLedger,  # planner ledger status
    "ledger-group": GroupLedger,  # planner ledger status --group
    "ledger-page": LedgerPage,  # GET .../ledger: the money part of a group's page
    "ledger-now": LedgerNow,  # planner ledger now --group: what applies to a group now
    "ledger-organiser": OrganiserLedger,  # planner ledger now: sales, dice-offs, messages not sent
    "ledger-end": Ranking,  # planner ledger end
    "ledger-feed": Feed,  # planner ledger feed
}


def register(name: str, kind: type[msgspec.Struct]) -> None:
    """Publish ``kind`` as the answer ``name`` (a name names one type)."""
    if ANSWERS.get(name, kind) is not kind:
        raise ValueError(f"answer {name!r} is {ANSWERS[name].__name__} already")
    ANSWERS[name] = kind


def name_of(kind: type) -> str | None:
    """The published name of an answer type (None: not published)."""
    return next((n for n, k in ANSWERS.items() if k is kind), None)


def schema(name: str) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of answer ``name``, generated from its type."""
    out = msgspec.json.schema(ANSWERS[name])
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": name, **out}
