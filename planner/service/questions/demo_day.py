"""The demo use case (``planner demo``, what ``make run`` shows): load the game day and answer the questions a group
asks at one place: a roll, the change window at the target, the full-hour chances."""

from __future__ import annotations

import time as clock
from dataclasses import dataclass

from planner.game.dice import DiceAnswer
from planner.routing import station_origin
from planner.service.answers.questions import BonusAnswer, TrainsAnswer
from planner.service.answers.rolls import DiceAnswer as DiceJson
from planner.service.questions.bonus_trains import bonus_answer
from planner.service.questions.target import target_answer
from planner.service.read.decisions import trains_after_getting_off
from planner.service.setup.playing import GameDay


@dataclass(frozen=True)
class DemoAnswer:
    """What the demo shows: the dice answer (its JSON, how long it took), the trains the change window allows at
    the target, the bonus chances of the next full hour."""

    answer_ms: float
    answer: DiceAnswer
    dice: DiceJson
    after: TrainsAnswer | None
    bonus: BonusAnswer


def demo(day: GameDay, at: str, time: int, roll: int) -> DemoAnswer:
    """Answer the demo questions for a group standing ``at`` a station at ``time`` that rolls ``roll``."""
    tt = day.timetable
    origin = station_origin(day.station(at), time, window=day.window_seconds)
    t1 = clock.perf_counter()
    ans, out = target_answer(day, None, origin, roll)
    ms = (clock.perf_counter() - t1) * 1000
    after = None
    if ans.journey is not None and ans.journey.legs and day.window is not None:
        last = ans.journey.legs[-1]
        after = trains_after_getting_off(day, ans.journey.target_station, last.arrival(tt),
                                         -1 if last.is_walk else last.trip)
    return DemoAnswer(ms, ans, out, after, bonus_answer(day, origin))
