"""The dice answer's bonus tie-break skips the later starts when the first scan shows that no equally fast way can
earn the full-hour bonus (``planner.game.bonus.bonus_reachable``): the ways it keeps are exactly those every start's
scan finds (the real-time demo's day written here, tests/support/inline_day.py: the S1, S26, IR70 and S9 around Zug,
all day both ways, none at a full hour; with an S2 Zug :56 - Baar :00 - Sihlbrugg - Thalwil and back, Baar :56 -
Zug :00, which earns it; standing groups under the 29-minute rule, every target they can reach)."""

from __future__ import annotations

import random

from planner.game.bonus import bonus_reachable, leg_bonus_events
from planner.routing import TransitNetwork, best_journey, station_origin
from planner.routing.query import equally_fast
from planner.util.timefmt import parse_clock as T
from tests.support.inline_day import DEMO_ROUTES, demo_lines, line_service, lines_day


def test_the_bonus_shortcut_keeps_every_equally_fast_way_that_earns(tmp_path):
    s2 = line_service("S2", [("Zug", 0), ("Baar", 4), ("Sihlbrugg", 12), ("Thalwil", 22)],
                      [f"{h:02d}:56" for h in range(9, 19)], both_ways=False)
    s2_back = line_service("S2", [("Thalwil", 0), ("Sihlbrugg", 10), ("Baar", 18), ("Zug", 22)],
                           [f"{h:02d}:38" for h in range(9, 19)], both_ways=False)
    day = lines_day(tmp_path, [*demo_lines(), s2, s2_back], routes=DEMO_ROUTES)
    zug_tt, game = day.timetable, day.game
    net = TransitNetwork(zug_tt)
    rng = random.Random(3)

    def earns(j) -> bool:
        return any(leg_bonus_events(net.plan, game, leg) for leg in j.legs if not leg.is_walk)

    compared = skipped = earning = 0
    stations = [s for s in range(zug_tt.n_stations) if len(net.station_departures[s])]
    for _ in range(60):
        o = station_origin(rng.choice(stations), rng.randrange(T("12:30"), T("17:00"), 60), window=29 * 60)
        for target in rng.sample(range(zug_tt.n_stations), 6):  # (of 10)
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
