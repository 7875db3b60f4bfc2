"""Feed ingest on the real extracts: calendars, trips, stop-id eras, modes, times past midnight."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pytest

from planner.errors import FeedError
from planner.gamefile.game import load_game
from planner.gtfs.calendar import services_on
from planner.gtfs.ingest import build_timetable
from planner.gtfs.source import FeedSource
from planner.gtfs.stops import station_key
from planner.timetable.model import Mode
from tests.support import FIXTURES, IC1_2019, ZUG

pytestmark = pytest.mark.needs_shared  # reads ../shared (tests/project/test_suite_without_shared.py)

FRI = dt.date(2019, 1, 18)


@pytest.fixture(scope="module")
def ic1_tt():
    return build_timetable(FeedSource(IC1_2019), load_game("none"), FRI, progress=False)


def test_fp2019_services_on_friday():
    running = services_on(FeedSource(IC1_2019), FRI)
    assert {"TA+b0001", "TA+b02ro"} <= running
    assert not {"TA+b02i1", "TA+b00va", "TA+b03ur"} & running


def test_fp2019_trips_on_friday(ic1_tt):
    ids = set(ic1_tt.trip_id)
    assert {"1.TA.1-85-j19-1.1.H", "18.TA.6-1-j19-1.17.H"} <= ids
    assert not {"6.TA.6-1-j19-1.6.R", "41.TA.6-1-j19-1.37.R"} & ids


def test_fp2019_trip_times_and_hops(ic1_tt):
    tt = ic1_tt
    t = tt.trip_index["2.TA.1-85-j19-1.1.H"]
    rows = tt.trip_stop_times(t)
    assert len(rows) - 1 == 16
    assert tt.st_dep[rows.start] == 6 * 3600 + 60
    assert tt.st_arr[rows.stop - 1] == 6 * 3600 + 23 * 60
    assert tt.stop_id[tt.st_stop[rows.start]] == "8572668"
    assert tt.stop_id[tt.st_stop[rows.stop - 1]] == "8572648"


@pytest.mark.parametrize("stop_id,parent,didok,expected", [
    ("8503000:0:7", "8503000P", "", "8503000"),
    ("8503000:0:7", "Parent8503000", "", "8503000"),
    ("ch:1:sloid:3000:502:42", "Parentch:1:sloid:3000", "8503000", "8503000"),
    ("ch:1:sloid:3000:502:42", "Parentch:1:sloid:3000", "", "8503000"),
    ("Parentch:1:sloid:3000", "", "", "8503000"),
    ("8503000", "", "", "8503000"),
    ("8502280", "", "", "8502280"),
])
def test_station_key_all_eras(stop_id, parent, didok, expected):
    assert station_key(stop_id, parent, didok) == expected


def test_one_station_per_place(zug_tt):
    tt = zug_tt
    zurich = tt.station_index["8503000"]
    assert tt.station_name[zurich] == "Zürich HB"
    platforms = [tt.stop_id[i] for i in np.flatnonzero(tt.stop_station == zurich)]
    assert len(platforms) > 3 and all(p.startswith("8503000") for p in platforms)


def test_rail_only_game_drops_buses_and_boats(zug_tt, zug_all_tt):
    assert set(np.unique(zug_tt.route_mode)) == {int(Mode.RAIL)}
    all_modes = set(np.unique(zug_all_tt.route_mode))
    assert {int(Mode.RAIL), int(Mode.BUS), int(Mode.BOAT)} <= all_modes
    assert zug_all_tt.n_trips > zug_tt.n_trips


def test_blt_trams_and_modes_filtered():
    src = FeedSource(FIXTURES / "blt")
    a = build_timetable(src, load_game("sbb-monopoly"), dt.date(2026, 5, 2), progress=False)
    # BLT 10 is typed as rail (106) in the feed but counts as a tram; BLT 11 is a tram; bus and boat dropped
    assert set(a.trip_id) == {"s3", "s3late", "t19"}
    b = build_timetable(src, load_game("nordwestschweiz"), dt.date(2026, 5, 2), progress=False)
    assert {"t10", "t11", "b80", "s3"} <= set(b.trip_id)
    assert "boat" not in b.trip_id


def test_times_past_midnight_survive(zug_tt):
    tt = zug_tt
    t = tt.trip_index["173.TA.91-70-j21-1.63.H"]
    rows = tt.trip_stop_times(t)
    assert tt.st_arr[rows.stop - 1] == 25 * 3600 + 7 * 60  # 25:07:00 in the feed
    fixture = build_timetable(FeedSource(FIXTURES / "blt"), load_game("none"), dt.date(2026, 5, 2), progress=False)
    r = fixture.trip_stop_times(fixture.trip_index["s3late"])
    assert fixture.st_arr[r.stop - 1] == 24 * 3600 + 5 * 60


def test_area_cut_keeps_only_area_stations(zug_tt):
    names = set(zug_tt.station_name)
    assert {"Zug", "Luzern", "Rotkreuz", "Wohlen AG", "Zürich Oerlikon", "Olten", "Aarau"} <= names
    assert not {"Schaffhausen", "Winterthur", "Thun", "Chur"} & names


def test_date_outside_feed_is_an_error():
    with pytest.raises(FeedError, match="outside the feed"):
        build_timetable(FeedSource(ZUG), load_game("sbb-monopoly"), dt.date(2022, 6, 1), progress=False)


def test_transfers_give_station_defaults_and_pairs(zug_tt):
    tt = zug_tt
    zug = tt.station_index["8502204"]
    assert tt.station_change[zug] == 240  # transfers.txt: 8502204 -> 8502204:0:N, type 2, 240 s
    assert len(tt.xfer_from) > 0
