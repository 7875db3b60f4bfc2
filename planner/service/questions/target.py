"""The target use case: "we rolled N here: where must we go, and how?" for a group that says what it targeted
(``planner target``, ``planner map target``, the demo). A recorded roll of a group's day is
:func:`planner.service.change.group_day.roll`; both decide and answer in one place (:func:`planner.service.read.decisions.roll_answer`)."""

from __future__ import annotations

import msgspec

from planner.game.day import GroupDay
from planner.game.dice import DiceAnswer
from planner.routing import Origin
from planner.service.answers.rolls import DiceAnswer as DiceJson
from planner.service.read.decisions import resolve_targets, roll_answer
from planner.service.read.pricing import Pricing
from planner.service.setup.playing import GameDay


def target_answer(day: GameDay, pricing: Pricing | None, origin: Origin, roll: int, visited: str = "",
                  train: str | None = None, asked: int | None = None) -> tuple[DiceAnswer, DiceJson]:
    """The dice answer at ``origin`` for ``roll`` with the targets already had (``visited``: ``;``-separated names
    as typed), and its answer (``planner target``); for a group, the cheapest of the equally fast ways.
    ``asked``: when the roll was made (default the origin's time, later for a group just off a train), as
    ``roll`` has it: the clock and the free time count from it."""
    day.game.dice.validate(roll)
    rolled = origin.time if asked is None else asked
    GroupDay(day.timetable, day.game).check_roll(rolled)  # the clock: dice time, the end
    ans, out = roll_answer(day, origin, roll, resolve_targets(day, visited), pricing, asked=rolled, rolled_at=rolled)
    if train:  # the train the group sits in, as the answer names it (a Struct: a copy with the field set)
        out = msgspec.structs.replace(out, train=train)
    return ans, out
