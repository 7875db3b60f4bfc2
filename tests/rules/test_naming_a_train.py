"""A train is named as players name it, by its time at the station the group stands at (or the stop its train is
at): "S3 09:39" at Pratteln is the S3 leaving Pratteln at 09:39, never one leaving its first stop at 09:39. When
several trains of the line leave there in that minute, the answer lists them (each with its trip id) and asks;
nothing is taken silently. Played on a day of variant B written here: the S3 from Laufen at :02 and :32 (Pratteln
+37, Liestal, Olten) and back from Olten at :09 and :39 (so an S3 leaves its first stop at 09:39 too; Dornach-Arlesheim
+52, on to Laufen), the tram 10 both ways through Basel, Dreispitz at :10, the bus 70 (Liestal, Bahnhof :13 and :43,
Ziefen +18), the Waldenburgerbahn 19 (Liestal, Bahnhof :19 and :49, Hölstein +12) and the IR27 Basel SBB - Liestal.
"""

from __future__ import annotations

import pytest

from planner.cli import main
from planner.errors import InputError, TrainAmbiguous
from planner.service import GameDay, PlaceRequest, Play, implicit_record, set_position
from planner.service.change.ledger_events import LedgerRequest, record_event
from planner.store.state import State
from planner.util.i18n import use_language
from planner.util.timefmt import parse_clock as T
from tests.support.inline_day import day_argv, line_service, nws_lines_day, walks_txt


@pytest.fixture(scope="module")
def nws_day(tmp_path_factory, session_cache) -> GameDay:
    hours = range(9, 16)
    s3 = [("Laufen", 0), ("Dornach-Arlesheim", 14), ("Muttenz", 30), ("Pratteln", 36), ("Liestal", 43), ("Olten", 69)]
    s3_back = [("Olten", 0), ("Liestal", 26), ("Pratteln", 33), ("Muttenz", 37), ("Dornach-Arlesheim", 51),
               ("Laufen", 65)]
    lines = [line_service("S3", s3, [f"{h:02d}:{m:02d}" for h in hours for m in (2, 32)], both_ways=False),
             line_service("S3", s3_back, [f"{h:02d}:{m:02d}" for h in hours for m in (9, 39)], both_ways=False),
             line_service("T10", [("Basel, Bahnhof SBB", 0), ("Basel, Dreispitz", 7), ("Dornach, Bahnhof", 22)],
                          [f"{h:02d}:{m:02d}" for h in hours for m in (3, 18, 33, 48)], both_ways=False, dwell=0),
             line_service("T10", [("Dornach, Bahnhof", 0), ("Basel, Dreispitz", 15), ("Basel, Bahnhof SBB", 22)],
                          [f"{h:02d}:{m:02d}" for h in hours for m in (10, 25, 40, 55)], both_ways=False, dwell=0),
             line_service("B70", [("Liestal, Bahnhof", 0), ("Ziefen, Zentrum", 18), ("Reigoldswil, Dorfplatz", 26)],
                          [f"{h:02d}:{m:02d}" for h in hours for m in (13, 43)], both_ways=False, dwell=0),
             line_service("R19", [("Liestal, Bahnhof", 0), ("Hölstein, Station", 12), ("Niederdorf, Station", 16),
                                  ("Waldenburg, Station", 21)], [f"{h:02d}:{m:02d}" for h in hours for m in (19, 49)],
                          both_ways=False, dwell=0),
             line_service("IR27", [("Basel SBB", 0), ("Liestal", 10)], [f"{h:02d}:47" for h in hours])]
    with pytest.MonkeyPatch.context() as mp:  # (module fixtures come before the tests' own cache)
        mp.setenv("PLANNER_CACHE", str(session_cache))
        return nws_lines_day(tmp_path_factory.mktemp("naming-day"), lines,
                             transfers=walks_txt(("Liestal", "Liestal, Bahnhof", 3)))


@pytest.fixture
def play(nws_day):
    state = State(":memory:")
    yield Play(nws_day, implicit_record(state, nws_day, nws_day.game.name), state)
    state.close()


def departure_at(tt, trip: int, station: str) -> str:
    """The train's departure at ``station`` as HH:MM."""
    s = tt.station_name.index(station)
    r = next(r for r in tt.trip_stop_times(trip) if int(tt.stop_station[tt.st_stop[r]]) == s)
    return f"{int(tt.st_dep[r]) // 3600:02d}:{int(tt.st_dep[r]) // 60 % 60:02d}"


def test_a_train_is_named_by_its_time_where_the_group_stands(play, nws_day):
    tt = nws_day.timetable
    set_position(play, "Rot", PlaceRequest("Pratteln"), T("09:28"))
    st = set_position(play, "Rot", PlaceRequest(None, None, "S3 09:39"), T("09:38"))
    pos = st.state.position
    assert pos.seated and tt.route_name[tt.trip_route[pos.trip]] == "S3"
    assert departure_at(tt, pos.trip, "Pratteln") == "09:39"  # the one leaving here, not the one leaving Olten
    assert tt.station_name[pos.station] == "Pratteln"


def test_the_command_line_names_it_at_the_station_given(capsys, nws_day):
    day = day_argv(nws_day)
    rc = main(["route", *day, "--trip", "S3 09:39", "--from", "Pratteln", "--to", "Basel SBB", "--json"])
    out = capsys.readouterr()
    assert rc == 0, out.err
    assert "S3 09:02 Laufen → Olten, next stop Pratteln" in out.out  # its first stop's time only echoes it


def test_the_bonus_train_is_named_by_its_time_at_the_groups_station(play):
    # the S3 to Laufen leaves Dornach-Arlesheim at 13:01 (its first stop, Olten, at 12:09): the bonus minute's train
    for group, ref in (("Blau", "S3 13:01 Laufen"), ("Gelb", "S3 13:01")):
        set_position(play, group, PlaceRequest("Dornach-Arlesheim"), T("12:50"))
        res = record_event(play, LedgerRequest(group, "income", T("13:00"), bonus=True, trip=ref))
        assert res.rows[-1].event.bonus is True


def test_several_trains_in_that_minute_are_asked_for(play, nws_day):
    tt = nws_day.timetable
    set_position(play, "Gelb", PlaceRequest("Basel, Dreispitz"), T("12:05"))
    with pytest.raises(TrainAmbiguous) as err:
        set_position(play, "Gelb", PlaceRequest(None, None, "Tram 10 12:10"), T("12:06"))
    cands = err.value.candidates
    assert len(cands) == 2 and {c["train"].split(" → ")[-1] for c in cands} == {"Dornach, Bahnhof",
                                                                                "Basel, Bahnhof SBB"}
    assert all(c["train"].startswith("Tram 10 12:10 Basel, Dreispitz") for c in cands)
    for c in cands:  # each candidate's id names exactly that train
        pos = set_position(play, "Gelb", PlaceRequest(None, None, c["trip_id"]), T("12:06")).state.position
        assert tt.trip_id[pos.trip] == c["trip_id"]
    # the destination decides, too
    pos = set_position(play, "Gelb", PlaceRequest(None, None, "Tram 10 12:10 Dornach"), T("12:07")).state.position
    assert tt.station_name[tt.stop_station[tt.st_stop[tt.trip_stop_times(pos.trip).stop - 1]]] == "Dornach, Bahnhof"


@pytest.mark.parametrize(("station", "train"), [("Liestal, Bahnhof", "Bus 70 09:43"), ("Liestal", "R19 09:49")])
def test_the_trip_boarded_at_its_first_stop_is_the_groups_bonus_train(play, station, train):
    # both leave Liestal (their first stop) before 10:00 and call somewhere at 10:01: the reported train is the
    # group's train at the full hour, with no --trip
    set_position(play, "Blau", PlaceRequest(station), T("09:35"))
    set_position(play, "Blau", PlaceRequest(None, None, train), T(train.split()[-1]))
    res = record_event(play, LedgerRequest("Blau", "income", T("10:00"), bonus=True))
    assert res.rows[-1].event.bonus is True


@pytest.mark.parametrize(("said", "route"), [("70 09:43", "Bus 70"), ("19 09:49", "R19"), ("S19 09:49", "R19"),
                                             ("Bus 70 09:43", "Bus 70"), ("R19 09:49", "R19")])
def test_the_feeds_own_line_names_name_a_train_bus_and_rail_alike(play, nws_day, said, route):
    tt = nws_day.timetable
    set_position(play, "Gelb", PlaceRequest("Liestal"), T("09:35"))
    pos = set_position(play, "Gelb", PlaceRequest(None, None, said), T("09:40")).state.position
    assert tt.route_name[tt.trip_route[pos.trip]] == route
    res = record_event(play, LedgerRequest("Gelb", "income", T("10:00"), bonus=True, trip=said))
    assert res.rows[-1].event.bonus is True


def test_a_group_still_in_its_train_at_the_full_hour_gets_the_bonus(play):
    # reported in the bus 18 minutes before 10:00; it is still in it then (it calls at Ziefen at 10:01)
    set_position(play, "Gelb", PlaceRequest("Liestal, Bahnhof"), T("09:30"))
    set_position(play, "Gelb", PlaceRequest(None, None, "70 09:43"), T("09:42"))
    assert record_event(play, LedgerRequest("Gelb", "income", T("10:00"), bonus=True)).rows[-1].event.bonus is True


def test_a_line_no_train_of_the_day_bears_is_refused_in_the_players_language(play):
    set_position(play, "Rot", PlaceRequest("Liestal"), T("09:35"))
    with use_language("de"), pytest.raises(InputError, match="keine Linie '77'"):
        set_position(play, "Rot", PlaceRequest(None, None, "77 09:43"), T("09:40"))
