"""The dice answer's bonus tie-break skips the later starts when the first scan shows that no equally fast way can
earn the full-hour bonus (``planner.game.bonus.bonus_reachable``): the ways it keeps are exactly those every start's
scan finds (Zug game day, standing groups under the 29-minute rule, every target they can reach)."""

from __future__ import annotations

import random

import pytest

from planner.game.bonus import bonus_reachable, leg_bonus_events
from planner.routing import TransitNetwork, best_journey, station_origin
from planner.routing.query import equally_fast
from planner.util.timefmt import parse_clock as T

pytestmark = pytest.mark.needs_shared  # reads ../shared (tests/project/test_suite_without_shared.py)


def test_the_bonus_shortcut_keeps_every_equally_fast_way_that_earns(zug_tt, sbb_game):
    net = TransitNetwork(zug_tt)
    game = sbb_game
    rng = random.Random(3)

    def earns(j) -> bool:
        return any(leg_bonus_events(net.plan, game, leg) for leg in j.legs if not leg.is_walk)

    compared = skipped = earning = 0
    stations = [s for s in range(zug_tt.n_stations) if len(net.station_departures[s])]
    for _ in range(60):
        o = station_origin(rng.choice(stations), rng.randrange(T("12:30"), T("17:00"), 60), window=29 * 60)
        for target in rng.sample(range(zug_tt.n_stations), 6):
            j = best_journey(net, o, target)
            if j is None or not j.legs:
                continue
            arrival = j.arrival(zug_tt)
            asked = []

            def later_needed(first, target=target, arrival=arrival, asked=asked) -> bool:
                asked.append(bonus_reachable(net, game, first, target, arrival))
                return asked[-1]

            every = [w.signature() for w in equally_fast(net, o, target, arrival) if earns(w)]
            kept = [w.signature() for w in equally_fast(net, o, target, arrival, later_needed=later_needed)
                    if earns(w)]
            assert kept == every, (o, target)
            compared += 1
            skipped += asked == [False]
            earning += bool(every)
    assert compared > 100 and skipped > 10 and earning > 10  # the shortcut is taken, and ways that earn are found
