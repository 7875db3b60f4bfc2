"""Variant B: a group that walks between a station and one of its stops is at that stop when it arrives on foot
(RULES.md §2): the walk is the way there, a dice target reached on foot is reached, the stop can be bought then;
from a stop the group walks to its station the same way. Specified on a tiny timetable and played on the
SYNTHETIC Nordwestschweiz day (``tests/support/nws_synthetic.py``).
"""

from __future__ import annotations

import json

import pytest

from planner.cli import main
from planner.errors import InputError
from planner.routing import Query, TransitNetwork, best_journey, reach, station_origin, trip_origin
from planner.service import GameDay, PlaceRequest, Play, implicit_record, set_position
from planner.service.change.ledger_events import LedgerRequest, record_event
from planner.store.state import State
from planner.util.timefmt import parse_clock as T
from tests.support.inline_day import day_argv, line_service, nws_lines_day, walks_txt
from tests.support.timetable import TimetableBuilder, secs

# the walks between a station and the stop in front of it (minutes), as the feed's transfers.txt gives them
WALKS = (("Liestal", "Liestal, Bahnhof", 3), ("Laufen", "Laufen, Bahnhof", 3))


def walk_minutes(a: str, b: str) -> int:
    """The fixture's walk between a station and its stop (either way)."""
    return next(m for x, y, m in WALKS if {x, y} == {a, b})


def run_json(capsys, *argv: str) -> dict:
    rc = main([*argv, "--json"])
    out = capsys.readouterr().out
    assert rc == 0, out
    return json.loads(out)


@pytest.fixture(scope="module")
def nws_day(tmp_path_factory, session_cache) -> GameDay:
    hours = range(9, 16)
    lines = [line_service("S3", [("Laufen", 0), ("Dornach-Arlesheim", 14), ("Muttenz", 24), ("Pratteln", 28),
                                 ("Liestal", 35)], [f"{h:02d}:{m:02d}" for h in hours for m in (2, 32)]),
             line_service("B70", [("Liestal, Bahnhof", 0), ("Ziefen, Zentrum", 18), ("Reigoldswil, Dorfplatz", 26)],
                          [f"{h:02d}:{m:02d}" for h in hours for m in (13, 43)]),
             line_service("B111", [("Laufen, Bahnhof", 0), ("Bretzwil, Dorf", 25)], [f"{h:02d}:12" for h in hours])]
    with pytest.MonkeyPatch.context() as mp:  # (module fixtures come before the tests' own cache)
        mp.setenv("PLANNER_CACHE", str(session_cache))
        return nws_lines_day(tmp_path_factory.mktemp("walk-day"), lines, transfers=walks_txt(*WALKS))


@pytest.fixture(scope="module")
def day(nws_day) -> list[str]:
    return day_argv(nws_day)


# ---- the rule on a tiny timetable ------------------------------------------------------------------------

def _square() -> TransitNetwork:
    """A station ``Bahnhof`` and its bus stop ``Bahnhof, Bus`` (3 minutes apart), and a train that reaches the
    bus stop only by a 15-minute loop, and ``Dorf`` one train away from the station."""
    b = TimetableBuilder()
    b.station("Bahnhof")
    b.station("Bahnhof, Bus")
    b.station("Loop")
    b.station("Dorf")
    b.link("Bahnhof", "Bahnhof, Bus", 180)
    b.trip([("Bahnhof", None, "09:50"), ("Loop", "09:55", "09:56"), ("Bahnhof, Bus", "10:05", None)], trip_id="loop")
    b.trip([("Dorf", None, "09:40"), ("Bahnhof", "09:48", None)], trip_id="in")
    return TransitNetwork(b.build())


def test_a_walk_ends_at_the_linked_stop():
    net = _square()
    tt = net.tt
    bus = tt.station_name.index("Bahnhof, Bus")
    origin = station_origin(tt.station_name.index("Bahnhof"), secs("09:46"))
    res = reach(net, Query(origin))
    assert res.station_arrival(bus) == secs("09:49")  # on foot, not by the 10:05 loop
    assert res.arrivals()[bus] == secs("09:49")
    j = best_journey(net, origin, bus)
    assert [(leg.is_walk, leg.departure(tt), leg.arrival(tt)) for leg in j.legs] == [(True, secs("09:46"),
                                                                                        secs("09:49"))]
    assert j.changes == 0


def test_a_ride_then_a_walk_reaches_the_stop_by_the_walk():
    net = _square()
    tt = net.tt
    bus = tt.station_name.index("Bahnhof, Bus")
    j = best_journey(net, station_origin(tt.station_name.index("Dorf"), secs("09:30")), bus)
    assert [tt.station_name[leg.to_station(tt)] for leg in j.legs] == ["Bahnhof", "Bahnhof, Bus"]
    assert j.legs[-1].is_walk and j.arrival(tt) == secs("09:48") + 180 and j.changes == 0
    # seated in that train: getting off at the station, then the walk
    seated = trip_origin(net, tt.trip_index["in"], int(tt.trip_stop_times(tt.trip_index["in"]).start) + 1)
    assert reach(net, Query(seated)).station_arrival(bus) == secs("09:51")


# ---- variant B's day written here ----------------------------------------------------------------

def test_walking_to_the_stop_in_front_of_the_station_is_the_way_there(capsys, day):
    out = run_json(capsys, "route", *day, "--from", "Liestal", "--to", "Liestal, Bahnhof", "--time", "09:46")
    walk = walk_minutes("Liestal", "Liestal, Bahnhof")
    assert [(leg["route"], leg["from"], leg["to"]) for leg in out["legs"]] == [("walk", "Liestal", "Liestal, Bahnhof")]
    assert (out["departure"], out["arrival"], out["changes"]) == ("09:46", f"09:{46 + walk}", 0)


def test_from_a_stop_the_group_walks_to_its_station(capsys, day):
    out = run_json(capsys, "route", *day, "--from", "Liestal, Bahnhof", "--to", "Liestal", "--time", "09:46")
    assert [(leg["route"], leg["to"]) for leg in out["legs"]] == [("walk", "Liestal")]
    assert out["arrival"] == f"09:{46 + walk_minutes('Liestal', 'Liestal, Bahnhof')}"


@pytest.mark.parametrize(("roll", "stop", "station"), [(12, "Liestal, Bahnhof", "Liestal"),
                                                       (11, "Laufen, Bahnhof", "Laufen")])
def test_a_target_across_the_square_is_reached_on_foot(capsys, day, roll, stop, station):
    ans = run_json(capsys, "target", *day, "--at", stop, "--time", "11:30", "--roll", str(roll))
    walk = walk_minutes(station, stop)
    assert ans["target"] == station
    assert [(leg["route"], leg["from"], leg["to"]) for leg in ans["legs"]] == [("walk", stop, station)]
    assert ans["arrival"] == f"11:{30 + walk}" and ans["changes"] == 0
    # five minutes before a target three minutes away is now: the re-roll is never before the roll
    assert ans["reroll_at"] == "11:30"
    assert all(w["reached"] >= ans["arrival"] for w in ans["admissible"])


@pytest.fixture
def play(nws_day):
    state = State(":memory:")
    yield Play(nws_day, implicit_record(state, nws_day, nws_day.game.name), state)
    state.close()


def test_a_stop_reached_on_foot_can_be_bought(play):
    walk = walk_minutes("Liestal", "Liestal, Bahnhof") * 60
    set_position(play, "Rot", PlaceRequest("Liestal"), T("09:40"))
    record_event(play, LedgerRequest("Rot", "buy", T("09:46"), station="Liestal"))
    record_event(play, LedgerRequest("Rot", "buy", T("09:46") + walk, station="Liestal, Bahnhof"))
    # another group at Liestal once both were bought (no fee is due for a stop before its purchase, RULES §3b)
    # pays there; it is not at the stop a minute later, but once it has walked there
    set_position(play, "Blau", PlaceRequest("Liestal"), T("09:50"))
    record_event(play, LedgerRequest("Blau", "pay", T("09:50"), station="Liestal"))
    with pytest.raises(InputError, match=f"can be there at 09:{50 + walk // 60} at the earliest"):
        record_event(play, LedgerRequest("Blau", "pay", T("09:51"), station="Liestal, Bahnhof"))
    record_event(play, LedgerRequest("Blau", "pay", T("09:50") + walk, station="Liestal, Bahnhof"))
