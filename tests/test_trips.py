"""Finding the train a group sits in: by trip id, or as players say it ("IR75 10:03 [destination]")."""

from __future__ import annotations

import pytest

from planner.errors import InputError
from planner.timetable.stations import find_station
from planner.timetable.trips import find_trip


def test_by_trip_id(zug_tt):
    assert zug_tt.trip_id[find_trip(zug_tt, "692.TA.91-S26-A-j21-1.221.R")] == "692.TA.91-S26-A-j21-1.221.R"


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
    assert zug_tt.trip_id[t] == "338.TA.91-S01-N-j21-1.97.H"


def test_line_category_and_swiss_times(zug_tt):
    # "IR 12:09": the IR70 leaves Luzern then; "12.09" and "1209" as people write them
    for ref in ("IR 12:09", "IR70 12.09", "ir70 1209", "IR70 12h09"):
        t = find_trip(zug_tt, ref, find_station(zug_tt, "Luzern"))
        assert zug_tt.trip_id[t] == "219.TA.91-70-j21-1.86.R"


def test_train_must_still_come_to_the_station(zug_tt):
    with pytest.raises(InputError, match="no S1 calls at Rotkreuz"):
        find_trip(zug_tt, "S1 10:06 Sursee", find_station(zug_tt, "Rotkreuz"))


@pytest.mark.parametrize("ref", ["no.such.trip", "XY9 10:03", "IR75 03:33"])
def test_unknown(zug_tt, ref):
    with pytest.raises(InputError):
        find_trip(zug_tt, ref)

