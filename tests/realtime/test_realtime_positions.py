"""A group in a late train says where it is: on real-time data its train is where the predicted times put it
(RULES.md §3 "Real time"), so "we are in the S1" after the timetable's arrival at the last stop, but before the
predicted one, is a seat in that train, not an error. On a timetable written here: an S1 Baar 13:20 - Zug -
Cham - Rotkreuz 13:40."""

from __future__ import annotations

import pytest

from planner.errors import InputError
from planner.realtime.overlay import service_day_start
from planner.service import GameDay
from planner.service.read.positions import SEATED_STOP_TOLERANCE, PlaceRequest, resolve_place
from tests.support import DEMO_DATE
from tests.support.inline_day import inline_day, stop_times_txt, stops_txt
from tests.support.rt_fixtures import feed_message

LATE = 6 * 60


@pytest.fixture
def zug_day(tmp_path):
    return inline_day(
        tmp_path, stops=stops_txt("Baar", "Zug", "Cham", "Rotkreuz"), trips="route_id,service_id,trip_id\nS1,SA,s1\n",
        stop_times=stop_times_txt(("s1", [("Baar", "13:20", "13:20"), ("Zug", "13:24", "13:25"),
                                          ("Cham", "13:31", "13:31"), ("Rotkreuz", "13:40", "13:40")])))


@pytest.fixture
def late_s1(tmp_path_factory, zug_day):
    """An S1 trip through Zug, and a feed (made at noon) in which it runs 6 minutes late all along."""
    tt = zug_day.timetable
    trip = next(t for t in range(tt.n_trips) if str(tt.route_name[tt.trip_route[t]]) == "S1"
                and 13 * 3600 <= int(tt.st_dep[tt.trip_stop_times(t).start]) < 15 * 3600)
    path = tmp_path_factory.mktemp("late-s1") / "late.pb"
    path.write_bytes(feed_message(service_day_start(DEMO_DATE) + 12 * 3600,
                                  [{"trip_id": str(tt.trip_id[trip]), "start_date": DEMO_DATE.strftime("%Y%m%d"),
                                    "delay": LATE}]))
    return trip, path


def test_a_seat_in_a_late_train_after_its_timetable_arrival(late_s1, sbb_game, zug_day):
    trip, feed = late_s1
    tt = zug_day.timetable
    last = tt.trip_stop_times(trip).stop - 1
    at = int(tt.st_arr[last]) + LATE // 2  # the timetable has it arrived; the feed has it on its way
    ask = PlaceRequest(time=at, trip=str(tt.trip_id[trip]))
    with pytest.raises(InputError, match="has arrived at its last stop"):
        resolve_place(zug_day, ask)  # on the timetable alone, it has
    day = GameDay(zug_day.feed, sbb_game, DEMO_DATE, realtime=str(feed)).warm()
    place = resolve_place(day, ask)
    assert place.position.seated and place.position.trip == trip
    real = day.network.tt  # the stop it is at or approaching by the predicted times: the first it has not left
    ahead = [r for r in tt.trip_stop_times(trip) if int(real.st_dep[r]) >= at - SEATED_STOP_TOLERANCE]
    assert ahead and place.position.row == ahead[0]
