"""The target use case: "we rolled N here: where must we go, and how?" for a group that says what it targeted
(``planner target``, ``planner map target``, the demo). A recorded roll of a group's day is
:func:`planner.service.change.group_day.roll`; both decide by the same rules (:func:`planner.service.read.decisions.decide_at`)."""

from __future__ import annotations

import msgspec

from planner.game.day import GroupDay
from planner.game.dice import DiceAnswer
from planner.routing import Origin
from planner.service.answers.rolls import DiceAnswer as DiceJson
from planner.service.read.decisions import decide_at, resolve_targets
from planner.service.read.pricing import Pricing, cheapest_answer
from planner.service.read.views import dice_json
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
    ans = cheapest_answer(day, pricing, origin, decide_at(day, origin, roll, resolve_targets(day, visited),
                                                          asked=rolled))
    out = dice_json(day, ans, origin, pricing, rolled_at=rolled, plan_from=rolled)
    if train:  # the train the group sits in, as the answer names it (a Struct: a copy with the field set)
        out = msgspec.structs.replace(out, train=train)
    return ans, out
