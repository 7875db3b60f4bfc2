"""§17 jail on real-time data (pure): where along an itinerary a late train puts the group in jail.

The rule (:class:`planner.gamefile.rules.JailRule`, docs/rules.md §3 "Real time"): at the first stop where the train
the group sits in arrives 5 or more minutes late (predicted minus timetable arrival), the group gets off and
is in jail there for 30 minutes; once per train. Only predicted arrivals count (a stop the feed says nothing
about is not late). Paying out of it is the ledger's (``parking_payments.jail``, variant A).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from planner.gamefile.rules import JailRule
from planner.routing.journey import Journey, Leg
from planner.timetable.model import Timetable


@dataclass(frozen=True)
class Jail:
    """The group is in jail at ``station`` from ``arrival`` (the train's predicted arrival at stop-time ``row``
    of ``trip``, ``delay`` seconds late) until ``until``."""

    trip: int
    row: int
    station: int
    arrival: int
    delay: int
    until: int


def first_jail(journey: Journey, rule: JailRule, real: Timetable, plan: Timetable, known: np.ndarray, *,
               seated_at: int = -1, spent: frozenset[int] = frozenset()) -> Jail | None:
    """The first jail along ``journey`` (None: no train of it is late enough). ``real``/``plan``: the day on
    predicted and timetable times, ``known[r]``: the feed predicts row ``r``'s arrival; ``seated_at``: the
    row a seated group is approaching (its arrival there counts too); ``spent``: trains it was jailed for."""
    for i, leg in enumerate(journey.legs):
        if leg.is_walk or leg.trip in spent:
            continue
        first = leg.board_row if (i == 0 and leg.board_row == seated_at) else leg.board_row + 1
        for r in range(first, leg.alight_row + 1):
            if not (real.st_dropoff[r] and known[r]):
                continue  # passing through, or no prediction: not "arriving late" there
            delay = int(real.st_arr[r]) - int(plan.st_arr[r])
            if rule.jails(delay):
                return Jail(leg.trip, r, int(real.stop_station[real.st_stop[r]]), int(real.st_arr[r]), delay,
                            rule.release(int(real.st_arr[r])))
    return None


def until_jail(journey: Journey, jail: Jail) -> tuple[Leg, ...]:
    """The legs of ``journey`` up to the jail stop (the jailing leg cut there)."""
    out = []
    for leg in journey.legs:
        if leg.trip == jail.trip and leg.board_row <= jail.row <= leg.alight_row:
            out.append(Leg(leg.trip, leg.board_row, jail.row))
            return tuple(out)
        out.append(leg)
    return tuple(out)
