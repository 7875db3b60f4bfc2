"""Dice answers: ``planner target`` (a group that says what it targeted) and a recorded roll (``planner roll``,
the phone's roll), which adds the group's day."""

from __future__ import annotations

import msgspec

from planner.service.answers.base import UNSET, Answer, Message, Opt
from planner.service.answers.itinerary import (
    BonusEvent,
    Crossing,
    Fee,
    Itinerary,
    Jail,
    Leg,
    PricingNote,
    Realtime,
    Zugzwang,
)
from planner.service.answers.money import RecordedEvent


class Candidate(Answer, kw_only=True):
    """One target of the rolled number: its earliest arrival, whether it was targeted before, whether the game
    day serves it."""

    name: str
    arrival: str | None
    targeted: bool
    available: bool


class DiceAnswer(Answer, kw_only=True):
    """"We rolled N: where must we go, and how?": the target (``kind`` "target") and the itinerary to it, or free
    movement (``kind`` "free") until ``free_until``. ``rolled_at``: when the roll was made; ``plan_from``: when
    the itinerary is planned from (the end of free movement for a roll made during it, else the roll's time)."""

    roll: int
    kind: str
    target: str | None
    arrival: str | None
    departure: str | None
    changes: int | None
    legs: list[Leg]
    already_there: bool
    candidates: list[Candidate]
    free_until: str | None
    admissible: list[Itinerary]
    bonus: list[BonusEvent]
    crossings: list[Crossing]
    fees: list[Fee] | Opt = UNSET
    fees_total: int | float | Opt = UNSET
    fees_min: int | float | Opt = UNSET
    fees_max: int | float | Opt = UNSET
    pricing: PricingNote | Opt = UNSET
    reroll_at: str | None
    why: str | None
    warnings: list[str]
    from_: str = msgspec.field(name="from")
    rolled_at: str
    plan_from: str
    zugzwang: Zugzwang
    jail: Jail | None | Opt = UNSET
    realtime: Realtime | Opt = UNSET
    train: str | Opt = UNSET
    free: Message | None = None  # free movement in words (``kind`` "free")


class RollAnswer(DiceAnswer, kw_only=True):
    """A recorded roll (``planner roll --json``, the phone): the dice answer with the group, its game, the roll's
    number and the targets it has had; ``replayed`` (web) when its roll id was recorded before."""

    group: str
    game_id: str
    seq: int
    targeted: list[str]
    replayed: bool | Opt = UNSET
    card: RecordedEvent | Opt = UNSET  # a kept card played with the roll, turning it into a 6


_LEGACY_KEYS = {"time": "rolled_at"}  # a roll stored before the keys were split: its "time" was the roll's


def stored_roll(text: str | bytes) -> RollAnswer:
    """A roll's answer as the state stores it, decoded once into its type (one stored before ``rolled_at`` was
    split from ``time`` is read with its old key)."""
    try:
        return msgspec.json.decode(text, type=RollAnswer)
    except msgspec.ValidationError:
        old = msgspec.json.decode(text)
        if not isinstance(old, dict) or "rolled_at" in old:
            raise
        for was, now in _LEGACY_KEYS.items():
            if was in old:
                old[now] = old.pop(was)
        old.setdefault("plan_from", old["rolled_at"])
        return msgspec.convert(old, RollAnswer)
