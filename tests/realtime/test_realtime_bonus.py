"""Variant B's full-hour bonus "effektiv oder nach Fahrplan" (§6): a real (predicted) departure or arrival in
minute 00-01 earns it as the timetable one does; variant A's stays by timetable. Game data, not code. On a
timetable written here: an S1 leaves Zug at 13:58 for Baar."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from planner.game.bonus import leg_bonus_events
from planner.gamefile.rules import BonusRule
from planner.realtime.feed import decode_feed
from planner.realtime.overlay import apply, service_day_start
from planner.routing.journey import Leg
from tests.support import DEMO_DATE
from tests.support.inline_day import inline_day, stop_times_txt, stops_txt
from tests.support.rt_fixtures import feed_message


@pytest.fixture
def tt(tmp_path):
    return inline_day(tmp_path, stops=stops_txt("Zug", "Baar"), trips="route_id,service_id,trip_id\nS1,SA,s1\n",
                      stop_times=stop_times_txt(("s1", [("Zug", "13:58", "13:58"), ("Baar", "14:03", "14:03")]))
                      ).timetable


def test_the_variant_b_game_file_counts_real_times(nws_game, sbb_game):
    assert nws_game.bonus.effective and not sbb_game.bonus.effective


def test_a_late_departure_in_minute_00_earns_the_bonus_only_where_the_game_says_so(tt, sbb_game):
    minute = (tt.st_dep // 60) % 60
    last = np.zeros(len(tt.st_stop), bool)
    last[tt.trip_offset[1:] - 1] = True
    # a departure planned at 13:58 (inside the game's hours), not the trip's last stop
    rows = np.flatnonzero((minute == 58) & (tt.st_dep // 3600 == 13) & ~last & tt.st_pickup)
    r = int(rows[0])
    t = int(tt.st_trip[r])
    f = feed_message(service_day_start(DEMO_DATE) + 13 * 3600, [{
        "trip_id": tt.trip_id[t], "start_date": DEMO_DATE.strftime("%Y%m%d"),
        "stops": [{"stop_id": tt.stop_id[tt.st_stop[r]], "departure_delay": 150}]}])
    real = apply(tt, decode_feed(f, "b.pb"), DEMO_DATE).timetable
    assert real.st_dep[r] // 60 % 60 == 0  # now leaves at 14:00:30
    leg = Leg(t, r, r + 1)
    b_rule = BonusRule(base_fee=4000, bonus_fee=8000, minutes=(0, 1), event="any", effective=True)
    game_b = replace(sbb_game, bonus=b_rule)
    events = leg_bonus_events(tt, game_b, leg, real)
    dep = [e for e in events if e["event"] == "departure"]
    assert dep and dep[0]["effective"] and dep[0]["hour"] == "14:00"
    # the same day for a game counting the timetable only (variant A's rule, effective = false)
    game_a = replace(sbb_game, bonus=replace(b_rule, effective=False))
    assert not [e for e in leg_bonus_events(tt, game_a, leg, real) if e["event"] == "departure"]
    # and without real-time data nothing changes
    assert not [e for e in leg_bonus_events(tt, game_b, leg) if e["event"] == "departure"]
