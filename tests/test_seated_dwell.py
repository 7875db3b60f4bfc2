"""A group rolling while its train stands in a station (arrived before the roll, leaving after it) gets off there
only at the roll: no change is planned into a train that left before the roll (found by the game lab)."""

from __future__ import annotations

from planner.game.day import Position
from planner.service import GameDay
from planner.service.positions import origin_of
from planner.service.target import target_answer
from planner.util.timefmt import parse_clock as T
from tests.support import DEMO_DATE, ZUG
from tests.support.answers import plain

S1 = "1520.TA.91-S01-N-j21-1.468.R"  # S1 Sursee -> Baar: Rotkreuz arr 16:42, dep 16:51


def test_roll_in_a_train_standing_at_rotkreuz_changes_only_after_the_roll(sbb_game):
    day = GameDay(str(ZUG), sbb_game, DEMO_DATE)
    tt = day.timetable
    trip = tt.trip_index[S1]
    row = next(r for r in tt.trip_stop_times(trip) if tt.station_name[tt.stop_station[tt.st_stop[r]]] == "Rotkreuz")
    assert int(tt.st_arr[row]) < T("16:49") < int(tt.st_dep[row])  # the train stands at Rotkreuz
    origin = origin_of(day, Position(int(tt.stop_station[tt.st_stop[row]]), int(tt.st_arr[row]), trip, row), T("16:49"))
    ans = plain(target_answer(day, None, origin, 2, "Wohlen AG")[1])
    assert ans["target"] == "Zürich Oerlikon" and ans["legs"], ans
    assert ans["legs"][0]["trip_id"] == S1  # it starts in the train it sits in
    assert len(ans["legs"]) > 1  # it changes (at Rotkreuz or later)
    for leg in ans["legs"][1:]:
        assert T(leg["departure"]) >= T("16:49"), ans["legs"]
