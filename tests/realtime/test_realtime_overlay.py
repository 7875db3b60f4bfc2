"""The overlay on a Zug day (the real-time demo's, written in tests/support/inline_day.py): matching (trip id, original_trip_id, platform changes, unknown trips,
other dates), GTFS-RT propagation (delays, absolute times, NO_DATA, SKIPPED, CANCELED), and the timetable's
arrays never written."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pytest

from planner.realtime.feed import decode_feed
from planner.realtime.overlay import apply, service_day_start
from tests.support import DEMO_DATE
from tests.support.rt_fixtures import feed_message, scenarios

YMD = DEMO_DATE.strftime("%Y%m%d")
TS = service_day_start(DEMO_DATE) + 12 * 3600


@pytest.fixture
def day(tmp_path):
    from tests.support.inline_day import demo_day

    return demo_day(tmp_path)


@pytest.fixture
def files(day):
    return scenarios(day)


def _ov(day, data):
    return apply(day.timetable, decode_feed(data, "t.pb"), DEMO_DATE)


def _trip(tt, trip_id):
    t = tt.trip_index[trip_id]
    return t, list(tt.trip_stop_times(t))


def test_late_propagates_from_its_stop_on_and_leaves_the_timetable_alone(day, files):
    tt = day.timetable
    before = (tt.st_arr.copy(), tt.st_dep.copy(), tt.st_pickup.copy())
    ov = _ov(day, files["late"][0])
    t, rows = _trip(tt, files["late"][1]["trip"])
    board = next(r for r in rows if tt.stop_id[tt.st_stop[r]] == scenarios_board(day))
    for r in rows:
        if r < board:
            assert ov.arr[r] == tt.st_arr[r] and not ov.dep_known[r]
        else:
            assert ov.dep[r] == tt.st_dep[r] + 240 and ov.dep_known[r]
            if r > board:
                assert ov.arr[r] == tt.st_arr[r] + 240 and ov.arrival_delay(r) == 240
    assert not ov.arr_known[board]  # only the departure was given there
    assert ov.counts["trips_matched"] == 1 and ov.counts["trips_unknown"] == 0
    other = np.ones(len(tt.st_stop), bool)
    other[rows] = False
    assert np.array_equal(ov.arr[other], tt.st_arr[other])
    assert all(np.array_equal(a, b) for a, b in zip(before, (tt.st_arr, tt.st_dep, tt.st_pickup), strict=True))


def scenarios_board(day):
    from tests.support.rt_fixtures import demo_legs

    return demo_legs(day)[0]["board_stop"]


def test_original_trip_id_and_a_platform_change_match_the_same_trip(day, files):
    late = _ov(day, files["late"][0])
    for name in ("original", "platform"):
        ov = _ov(day, files[name][0])
        assert ov.counts["trips_matched"] == 1 and ov.counts["stops_unplaced"] == 0, name
        assert np.array_equal(ov.dep, late.dep), name


def test_unknown_trip_and_other_date_are_counted_not_applied(day, files):
    ov = _ov(day, files["unknown"][0])
    assert ov.counts["trips_unknown"] == 1 and ov.counts["trips_matched"] == 1
    tt = day.timetable
    t, rows = _trip(tt, files["late"][1]["trip"])
    f = feed_message(TS, [{"trip_id": tt.trip_id[t], "start_date": "20210912",
                           "stops": [{"stop_id": tt.stop_id[tt.st_stop[rows[0]]], "departure_delay": 600}]}])
    ov = _ov(day, f)
    assert ov.counts["trips_other_date"] == 1 and not ov.changes_anything


def test_absolute_times_no_data_and_early(day):
    tt = day.timetable
    t, rows = _trip(tt, tt.trip_id[next(t for t in range(tt.n_trips) if len(tt.trip_stop_times(t)) >= 4)])
    base = service_day_start(DEMO_DATE)
    sid = [tt.stop_id[tt.st_stop[r]] for r in rows]
    f = feed_message(TS, [{"trip_id": tt.trip_id[t], "start_date": YMD, "stops": [
        {"stop_id": sid[1], "arrival_time": base + int(tt.st_arr[rows[1]]) + 180},
        {"stop_id": sid[2], "no_data": True},
        {"stop_id": sid[3], "arrival_delay": -60}]}])
    ov = _ov(day, f)
    assert ov.arrival_delay(rows[1]) == 180 and ov.departure_delay(rows[1]) == 180
    assert ov.arrival_delay(rows[2]) is None and ov.arr[rows[2]] >= tt.st_arr[rows[2]]
    # an early arrival: predicted earlier, never before the train left the stop before
    assert ov.arr[rows[3]] == max(tt.st_arr[rows[3]] - 60, ov.dep[rows[2]])
    assert np.all(np.diff(np.stack([ov.arr[rows], ov.dep[rows]], 1).ravel()) >= 0)


def test_cancelled_and_skipped_are_not_served(day, files):
    tt = day.timetable
    ov = _ov(day, files["cancelled"][0])
    t, rows = _trip(tt, files["cancelled"][1]["trip"])
    assert ov.cancelled[t] and not ov.timetable.st_pickup[rows].any() and not ov.timetable.st_dropoff[rows].any()
    ov = _ov(day, files["skipped"][0])
    t, rows = _trip(tt, files["skipped"][1]["trip"])
    skip = [r for r in rows if tt.stop_id[tt.st_stop[r]] == files["skipped"][1]["stop"]]
    assert skip and ov.skipped[skip].all()
    assert not ov.timetable.st_pickup[skip].any() and ov.timetable.st_pickup[[r for r in rows[:-1] if r not in skip]].any()


def test_empty_feed_changes_nothing(day, files):
    ov = _ov(day, files["empty"][0])
    assert not ov.changes_anything and ov.counts["trips_matched"] == 0


def test_dst_day_starts_at_noon_minus_twelve_hours():
    # 2021-03-28: clocks go forward at 02:00; GTFS times count from noon minus 12 h (23:00 the day before, UTC+1)
    noon = dt.datetime(2021, 3, 28, 12, tzinfo=dt.timezone(dt.timedelta(hours=2)))
    assert service_day_start(dt.date(2021, 3, 28)) == int(noon.timestamp()) - 12 * 3600
