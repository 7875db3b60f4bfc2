"""Finding the train a group sits in: by trip id, or as players say it ("IR75 10:03 [destination]"). On a timetable
written here (times as in the Zug extract of 2021-09-11):

* IR75 Zug 10:03 - Rotkreuz 10:11 - Luzern 10:24; IR75 Luzern 12:35 - Zug - Zürich HB 13:20 and
  IR75 Zürich HB 12:35 - Zug - Luzern 13:22 (two IR75 starting at 12:35);
* IR70 Luzern 12:09 - Rotkreuz - Zug - Zürich HB 12:52; IR70 Zürich HB 12:10 - Zug - Luzern 12:52;
* S1 Baar 10:02 - Zug 10:06 - Cham - Rotkreuz 10:20 (trip 338.TA.91-S01-N-j21-1.97.H);
* S26 Zug 11:00 - Baar (trip 692.TA.91-S26-A-j21-1.221.R).
"""

from __future__ import annotations

import pytest

from planner.errors import InputError
from planner.timetable.stations import find_station
from planner.timetable.trips import find_trip
from tests.support.inline_day import ROUTES, inline_day, stop_times_txt, stops_txt

S1, S26, IR70 = "338.TA.91-S01-N-j21-1.97.H", "692.TA.91-S26-A-j21-1.221.R", "219.TA.91-70-j21-1.86.R"


@pytest.fixture
def zug_tt(tmp_path):
    return inline_day(
        tmp_path, stops=stops_txt("Baar", "Zug", "Cham", "Rotkreuz", "Luzern", "Zürich HB"),
        routes=ROUTES + "IR75,sbb,IR75,,InterRegio,103\nS26,sbb,S26,,S-Bahn,106\n",
        trips=f"""
        route_id,service_id,trip_id,trip_headsign
        IR75,SA,ir75a,Luzern
        IR75,SA,ir75b,Zürich HB
        IR75,SA,ir75c,Luzern
        IR70,SA,{IR70},Zürich HB
        IR70,SA,ir70b,Luzern
        S1,SA,{S1},Rotkreuz
        S26,SA,{S26},Baar
        """,
        stop_times=stop_times_txt(
            ("ir75a", [("Zug", "10:03", "10:03"), ("Rotkreuz", "10:11", "10:11"), ("Luzern", "10:24", "10:24")]),
            ("ir75b", [("Luzern", "12:35", "12:35"), ("Zug", "12:58", "12:59"), ("Zürich HB", "13:20", "13:20")]),
            ("ir75c", [("Zürich HB", "12:35", "12:35"), ("Zug", "12:58", "13:00"), ("Luzern", "13:22", "13:22")]),
            (IR70, [("Luzern", "12:09", "12:09"), ("Rotkreuz", "12:20", "12:20"), ("Zug", "12:28", "12:29"),
                    ("Zürich HB", "12:52", "12:52")]),
            ("ir70b", [("Zürich HB", "12:10", "12:10"), ("Zug", "12:31", "12:32"), ("Luzern", "12:52", "12:52")]),
            (S1, [("Baar", "10:02", "10:02"), ("Zug", "10:06", "10:06"), ("Cham", "10:12", "10:12"),
                  ("Rotkreuz", "10:20", "10:20")]),
            (S26, [("Zug", "11:00", "11:00"), ("Baar", "11:04", "11:04")]))).timetable


def test_by_trip_id(zug_tt):
    assert zug_tt.trip_id[find_trip(zug_tt, S26)] == S26


def test_by_line_and_time(zug_tt):
    # IR75 leaves Zug 10:03 (pl.4) for Luzern, via Rotkreuz
    t = find_trip(zug_tt, "IR75 10:03", find_station(zug_tt, "Zug"))
    assert zug_tt.route_name[zug_tt.trip_route[t]] == "IR75" and zug_tt.trip_headsign[t] == "Luzern"
    # the time is the departure at the named stop (where the group is), never at another stop on the way
    with pytest.raises(InputError, match="no IR75 calls at Rotkreuz at 10:03.*nearby: IR75 10:11 Rotkreuz"):
        find_trip(zug_tt, "IR75 10:03", find_station(zug_tt, "Rotkreuz"))
    # nor at its first stop when a stop is named: the IR70 leaving Zürich HB at 12:10 is not "IR70 12:10" at
    # Luzern (it arrives there later); the one leaving Luzern at 12:09 is offered instead
    with pytest.raises(InputError, match="no IR70 calls at Luzern at 12:10.*nearby: IR70 12:09 Luzern"):
        find_trip(zug_tt, "IR70 12:10", find_station(zug_tt, "Luzern"))


def test_ambiguous_names_each_train(zug_tt):
    # two IR75 start at 12:35, one in each direction: the error lists both, the destination decides
    with pytest.raises(InputError, match="matches 2 trains: IR75 12:35 Luzern → Zürich HB; IR75 12:35 Zürich HB"):
        find_trip(zug_tt, "IR75 12:35")
    t = find_trip(zug_tt, "IR75 12:35 Luzern")
    assert zug_tt.station_name[zug_tt.stop_station[zug_tt.st_stop[zug_tt.trip_stop_times(t)[0]]]] == "Zürich HB"
    t = find_trip(zug_tt, "S1 10:06 Rotkreuz", find_station(zug_tt, "Zug"))
    assert zug_tt.trip_id[t] == S1


def test_line_category_and_swiss_times(zug_tt):
    # "IR 12:09": the IR70 leaves Luzern then; "12.09" and "1209" as people write them
    for ref in ("IR 12:09", "IR70 12.09", "ir70 1209", "IR70 12h09"):
        t = find_trip(zug_tt, ref, find_station(zug_tt, "Luzern"))
        assert zug_tt.trip_id[t] == IR70


def test_train_must_still_come_to_the_station(zug_tt):
    with pytest.raises(InputError, match="no S1 calls at Rotkreuz"):
        find_trip(zug_tt, "S1 10:06 Sursee", find_station(zug_tt, "Rotkreuz"))


@pytest.mark.parametrize("ref", ["no.such.trip", "XY9 10:03", "IR75 03:33"])
def test_unknown(zug_tt, ref):
    with pytest.raises(InputError):
        find_trip(zug_tt, ref)

