"""Where are we? A phone's place at a time proposes the station the group stands at, or the train it sits in where
the timetable has that train then (interpolated between its stops); nothing when neither is near.

Specified on a tiny timetable: A, B, C on a line going north (about 11 km between neighbours), the S1 A 10:00 ->
B 10:10 (stands until 10:12) -> C 10:22 and the S2 C 10:00 -> A 10:20 the other way.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from planner.errors import InputError
from planner.service.read.locate import (
    STATION_RADIUS_M,
    TRAIN_RADIUS_M,
    distances_m,
    locate,
    whereabouts_json,
)
from tests.support.timetable import TimetableBuilder, secs

LAT = {"A": 47.0, "B": 47.1, "C": 47.2}
LON = 8.5
METRES_PER_DEGREE = 2 * math.pi * 6_371_000 / 360  # along a meridian


@pytest.fixture(scope="module")
def tt():
    b = TimetableBuilder()
    for name in LAT:
        b.station(name)
    b.trip([("A", None, "10:00"), ("B", "10:10", "10:12"), ("C", "10:22", None)], route="S1", trip_id="s1")
    b.trip([("C", None, "10:00"), ("B", "10:09", "10:10"), ("A", "10:20", None)], route="S2", trip_id="s2")
    tt = b.build()
    tt.station_lat[:] = [LAT[n] for n in tt.station_name]
    tt.station_lon[:] = LON
    return tt


def north_of(station: str, metres: float) -> float:
    return LAT[station] + metres / METRES_PER_DEGREE


def test_a_phone_at_a_station_proposes_the_station(tt):
    w = locate(tt, north_of("B", 150), LON + 0.001, secs("11:00"))
    assert w.proposal == "station" and tt.station_name[w.station] == "B" and w.train is None
    js = whereabouts_json(tt, w)
    assert js["proposal"] == "station" and js["station"]["name"] == "B"
    assert 150 <= js["distance_m"] <= 200 and js["time"] == "11:00"


def test_a_station_is_proposed_within_its_radius_only(tt):
    inside = locate(tt, north_of("A", STATION_RADIUS_M - 20), LON, secs("11:00"))
    outside = locate(tt, north_of("A", STATION_RADIUS_M + 20), LON, secs("11:00"))
    assert inside.proposal == "station"
    assert outside.proposal is None  # no train runs at 11:00 either
    js = whereabouts_json(tt, outside)
    assert js["station"] is None and js["train"] is None and js["distance_m"] is None
    assert js["nearest"]["name"] == "A" and abs(js["nearest"]["distance_m"] - (STATION_RADIUS_M + 20)) <= 2


def test_between_two_stations_the_train_where_its_timetable_has_it_then(tt):
    # at 10:04 the S1 is 4/10 of the way from A to B; the S2 is 4/9 of the way from C to B
    s1_place = LAT["A"] + 0.4 * (LAT["B"] - LAT["A"])
    w = locate(tt, s1_place, LON, secs("10:04"))
    assert w.proposal == "train" and tt.trip_id[w.train.trip] == "s1" and w.train.distance_m < 1
    js = whereabouts_json(tt, w)
    assert js["train"] == {"trip": "s1", "name": "S1 10:00 A → C", "next_stop": "B", "next_time": "10:10",
                           "distance_m": 0}
    s2_place = LAT["C"] - 4 / 9 * (LAT["C"] - LAT["B"])
    w = locate(tt, s2_place, LON, secs("10:04"))
    assert tt.trip_id[w.train.trip] == "s2" and tt.station_name[tt.stop_station[tt.st_stop[w.train.row]]] == "B"


def test_the_same_place_at_another_time_is_another_train_or_none(tt):
    between_a_and_b = (LAT["A"] + LAT["B"]) / 2
    s1 = locate(tt, between_a_and_b, LON, secs("10:05"))  # the S1 passes the middle at 10:05
    s2 = locate(tt, between_a_and_b, LON, secs("10:15"))  # the S2 at 10:15
    nobody = locate(tt, between_a_and_b, LON, secs("10:40"))
    assert tt.trip_id[s1.train.trip] == "s1" and tt.trip_id[s2.train.trip] == "s2"
    assert nobody.proposal is None


def test_a_train_is_proposed_within_its_radius_only(tt):
    # at 10:05 the S1 is in the middle between A and B; 1 km to the side it is still proposed, 3 km not
    middle = (LAT["A"] + LAT["B"]) / 2
    degrees_east = 1 / (METRES_PER_DEGREE * math.cos(math.radians(middle)))
    near = locate(tt, middle, LON + (TRAIN_RADIUS_M - 500) * degrees_east, secs("10:05"))
    far = locate(tt, middle, LON + (TRAIN_RADIUS_M + 1000) * degrees_east, secs("10:05"))
    assert near.proposal == "train" and far.proposal is None


def test_a_train_standing_at_a_stop_is_at_that_stop(tt):
    # 10:11: the S1 stands at B until 10:12; 1 km north of B is outside B's radius, the S1 is 1 km away
    w = locate(tt, north_of("B", 1000), LON, secs("10:11"))
    assert w.proposal == "train" and tt.trip_id[w.train.trip] == "s1"
    assert tt.station_name[tt.stop_station[tt.st_stop[w.train.row]]] == "B"
    assert 990 <= w.train.distance_m <= 1010


@pytest.mark.parametrize(("lat", "lon"), [(91.0, 8.0), (47.0, -181.0), (float("nan"), 8.0), (47.0, float("inf"))])
def test_a_point_that_is_not_a_place_is_refused(tt, lat, lon):
    with pytest.raises(InputError, match="is not a place"):
        locate(tt, lat, lon, secs("10:00"))


def test_distances_are_great_circle_metres():
    # one degree of latitude is about 111.2 km; Zürich HB to Bern about 95.5 km
    assert abs(distances_m(47.0, 8.0, np.array([48.0]), np.array([8.0]))[0] - 111_195) < 10
    assert abs(distances_m(47.3782, 8.5402, np.array([46.9490]), np.array([7.4391]))[0] - 95_500) < 1000
