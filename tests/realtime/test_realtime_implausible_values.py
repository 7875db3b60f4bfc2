"""Real-time values no train can have: a delay of -2^31 s or of a day, an absolute time in 1970, a header time out of
every calendar, a start date not written YYYYMMDD. Predicted times implausibly far from the timetable are dropped
and counted (the stop keeps its timetable time); a feed about no day is refused in one line naming it. The day is
the real-time demo's, written in tests/support/inline_day.py (``demo_day``): S1 Zug 13:06 - Rotkreuz 13:19."""

from __future__ import annotations

import json

import pytest

from planner.cli import main
from planner.realtime.feed import decode_feed
from planner.realtime.match import EARLIEST_DELAY, LATEST_DELAY
from planner.realtime.overlay import apply, service_day_start
from tests.support import DEMO_DATE, assert_one_line_error
from tests.support.inline_day import day_argv, demo_day
from tests.support.rt_fixtures import demo_legs, feed_message

YMD = DEMO_DATE.strftime("%Y%m%d")
NOON = service_day_start(DEMO_DATE) + 12 * 3600

BROKEN = {
    "delay of -2^31 s": {"departure_delay": -(2**31)},
    "delay of minus one day": {"departure_delay": -86400},
    "delay of plus two days": {"departure_delay": 2 * 86400},
    "absolute time in 1970": {"departure_time": 60},
    "absolute time at 2^62": {"departure_time": 2**62},
}


@pytest.fixture
def zug_day(tmp_path):
    return demo_day(tmp_path / "day")


@pytest.fixture
def day_args(zug_day) -> list[str]:
    return day_argv(zug_day)


@pytest.fixture
def s1(zug_day) -> dict:
    """The demo's first leg (the S1 13:06 Zug -> Rotkreuz) with its rows."""
    leg = demo_legs(zug_day)[0]
    tt = zug_day.timetable
    t = tt.trip_index[leg["trip_id"]]
    return leg | {"rows": list(tt.trip_stop_times(t))}


def _stop_update(leg: dict, fields: dict) -> bytes:
    return feed_message(NOON, [{"trip_id": leg["trip_id"], "start_date": YMD,
                                "stops": [{"stop_id": leg["board_stop"], **fields}]}])


@pytest.mark.parametrize("broken", list(BROKEN))
def test_implausible_predicted_times_are_dropped_and_counted(broken, zug_day, s1):
    tt = zug_day.timetable
    ov = apply(tt, decode_feed(_stop_update(s1, BROKEN[broken]), "t.pb"), DEMO_DATE)
    rows = s1["rows"]
    assert ov.counts["times_implausible"] == 1 and ov.counts["trips_matched"] == 1
    assert list(ov.arr[rows]) == list(tt.st_arr[rows]) and list(ov.dep[rows]) == list(tt.st_dep[rows])
    assert not ov.dep_known[rows].any()  # no prediction, not "early"


@pytest.mark.parametrize("delay", [EARLIEST_DELAY, -180, LATEST_DELAY])
def test_plausible_delays_at_the_bounds_are_applied(delay, zug_day, s1):
    tt = zug_day.timetable
    ov = apply(tt, decode_feed(_stop_update(s1, {"departure_delay": delay}), "t.pb"), DEMO_DATE)
    board = s1["board_row"]
    assert ov.counts["times_implausible"] == 0 and ov.dep_known[board]
    if delay > 0:
        assert ov.departure_delay(board) == delay


def test_a_trip_level_delay_of_a_day_is_dropped(zug_day, s1):
    tt = zug_day.timetable
    data = feed_message(NOON, [{"trip_id": s1["trip_id"], "start_date": YMD, "delay": -86400}])
    ov = apply(tt, decode_feed(data, "t.pb"), DEMO_DATE)
    assert ov.counts["times_implausible"] == 1 and not ov.changes_anything


def test_a_route_in_a_train_with_a_broken_delay_shows_no_delay(tmp_path, capsys, s1, day_args):
    """Before, the S1 was shown as running early (the delay wrapped); now it runs on its timetable time."""
    feed = tmp_path / "broken.pb"
    feed.write_bytes(_stop_update(s1, {"departure_delay": -(2**31)}))
    rc = main(["route", *day_args, "--trip", "S1 13:06", "--from", "Zug", "--to", "Rotkreuz", "--realtime", str(feed),
               "--json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0 and out["realtime"]["times_implausible"] == 1
    assert out["departure"] == "13:06" and out["arrival"] == "13:19"
    assert out["legs"][0]["departure_delay_min"] is None


def test_a_header_time_out_of_every_calendar_names_the_feed(tmp_path, capsys, day_args):
    feed = tmp_path / "far.pb"
    feed.write_bytes(feed_message(2**63 - 1, []))
    rc = main(["route", *day_args, "--from", "Zug", "--to", "Luzern", "--time", "12:40", "--realtime", str(feed)])
    assert_one_line_error(rc, capsys.readouterr().err, "far.pb", str(2**63 - 1), "not on the game day Saturday, September 11, 2021")


def test_a_start_date_not_written_yyyymmdd_is_quoted_whole(tmp_path, capsys, s1, day_args):
    feed = tmp_path / "dashed.pb"
    feed.write_bytes(feed_message(NOON, [{"trip_id": s1["trip_id"], "start_date": "2021-09-11", "stops": []}]))
    rc = main(["route", *day_args, "--from", "Zug", "--to", "Luzern", "--time", "12:40", "--realtime", str(feed)])
    assert_one_line_error(rc, capsys.readouterr().err, "dashed.pb", "'2021-09-11' is not a date YYYYMMDD")


def test_another_day_is_named_as_a_date(tmp_path, capsys, s1, day_args):
    feed = tmp_path / "other.pb"
    feed.write_bytes(feed_message(NOON, [{"trip_id": s1["trip_id"], "start_date": "20210912", "stops": []}]))
    rc = main(["route", *day_args, "--from", "Zug", "--to", "Luzern", "--time", "12:40", "--realtime", str(feed)])
    assert_one_line_error(rc, capsys.readouterr().err, "other.pb", "run on Sunday, September 12, 2021, not on the game day")
