"""Variant B's answers read as the group rides them (on its day written here: the S3 Laufen - Basel SBB - Liestal
at platforms 1 and 2, the bus 111 Laufen, Bahnhof - Bretzwil, Dorf, the bus 93 on to Reigoldswil, the bus 70 from
Liestal, Bahnhof by Ziefen (12:01) to Reigoldswil, and the 3-minute walks between the stations and the stops in front
of them): an itinerary rolled in a bus starts with the bus the group sits in (no leg from a stop to itself) and counts
the changes its legs show; bus and tram stops have no platform letters and a bus's bonus is the bus's; without a
change window the trains panel lists the next departures."""

from __future__ import annotations

import json

import numpy as np
import pytest

from planner.cli import main
from planner.service import GameDay, PlaceRequest, Play, RollRequest, implicit_record, roll, set_position
from planner.store.state import State
from planner.util.timefmt import parse_clock as T
from tests.support.inline_day import day_argv, line_service, nws_lines_day, walks_txt

WALKS = (("Liestal", "Liestal, Bahnhof", 3), ("Laufen", "Laufen, Bahnhof", 3))


@pytest.fixture(scope="module")
def nws_day(tmp_path_factory, session_cache) -> GameDay:
    hours = range(9, 16)
    lines = [line_service("S3", [("Laufen", 0), ("Dornach-Arlesheim", 14), ("Basel SBB", 25), ("Muttenz", 31),
                                 ("Pratteln", 35), ("Liestal", 42)], [f"{h:02d}:{m:02d}" for h in hours for m in (2, 32)],
                          platforms=("1", "2")),
             line_service("B111", [("Laufen, Bahnhof", 0), ("Bretzwil, Dorf", 25)], [f"{h:02d}:12" for h in hours]),
             line_service("B93", [("Bretzwil, Dorf", 0), ("Reigoldswil, Dorfplatz", 15)],
                          [f"{h:02d}:40" for h in hours]),
             line_service("B70", [("Liestal, Bahnhof", 0), ("Ziefen, Zentrum", 18), ("Reigoldswil, Dorfplatz", 26)],
                          [f"{h:02d}:{m:02d}" for h in hours for m in (13, 43)], dwell=0)]
    with pytest.MonkeyPatch.context() as mp:  # (module fixtures come before the tests' own cache)
        mp.setenv("PLANNER_CACHE", str(session_cache))
        return nws_lines_day(tmp_path_factory.mktemp("ridden-day"), lines, transfers=walks_txt(*WALKS))


@pytest.fixture(scope="module")
def day(nws_day) -> list[str]:
    return day_argv(nws_day)


@pytest.fixture
def play(nws_day):
    state = State(":memory:")
    yield Play(nws_day, implicit_record(state, nws_day, nws_day.game.name), state)
    state.close()


@pytest.mark.parametrize("again", [45, 11, 12])
def test_a_re_roll_in_the_bus_starts_with_the_bus_it_sits_in(play, again):
    set_position(play, "Rot", PlaceRequest("Laufen, Bahnhof"), T("12:30"))
    first = roll(play, RollRequest("Rot", 21, T("12:30"))).to_json()
    assert (first["target"], first["legs"][-1]["route"]) == ("Bretzwil, Dorf", "Bus 111")
    ans = roll(play, RollRequest("Rot", again, T(first["reroll_at"]))).to_json()
    assert ans["train"].startswith("in Bus 111") and ans["train"].endswith(f"next stop Bretzwil, Dorf {first['arrival']}")
    ride, *rest = ans["legs"]
    # the bus it sits in, from the stop before, to where it gets off: a leg that goes somewhere
    assert ride.get("seated") and ride["route"] == "Bus 111" and ride["to"] == "Bretzwil, Dorf"
    assert ride["from"] != ride["to"] and ride["departure"] < first["reroll_at"] <= ride["arrival"]
    assert all(leg["from"] != leg["to"] and not leg.get("seated") for leg in rest)
    assert ans["changes"] == sum(leg["route"] != "walk" for leg in ans["legs"]) - 1


def test_bus_and_tram_stops_have_no_platform_letters(capsys, day):
    rc = main(["route", *day, "--from", "Liestal", "--to", "Reigoldswil, Dorfplatz", "--time", "11:20", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0
    bus = next(leg for leg in out["legs"] if leg["route"] == "Bus 70")
    assert (bus["mode"], bus["from_platform"], bus["to_platform"]) == ("bus", "", "")
    rc = main(["route", *day, "--from", "Basel SBB", "--to", "Liestal", "--time", "11:20", "--json"])
    rail = json.loads(capsys.readouterr().out)["legs"][0]
    assert rail["mode"] == "rail" and rail["from_platform"] and rail["to_platform"]  # a railway's tracks stay


def test_a_bus_bonus_is_the_bus_arriving(capsys, day):
    rc = main(["route", *day, "--from", "Liestal, Bahnhof", "--to", "Reigoldswil, Dorfplatz", "--time", "11:40"])
    out = capsys.readouterr().out
    assert rc == 0
    assert "full-hour bonus (8,000): the bus calls at Ziefen, Zentrum at 12:01" in out
    assert "the train" not in out


def test_without_a_change_window_the_next_departures_are_listed(capsys, day, nws_day):
    rc = main(["zugzwang", *day, "--at", "Liestal", "--time", "11:30", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0 and not out["applies"] and out["deadline"] is None
    # the timetable's departures at Liestal's platforms in the next half hour (after the shortest change time),
    # one row per train, in time order
    tt = nws_day.timetable
    s = tt.station_name.index("Liestal")
    rows = np.flatnonzero((tt.stop_station[tt.st_stop] == s) & tt.st_pickup)
    last = np.asarray(tt.trip_offset[1:]) - 1
    change = nws_day.network.min_change(s)
    want = sorted((int(tt.st_dep[r]), tt.trip_id[int(tt.st_trip[r])]) for r in rows
                  if T("11:30") + change <= int(tt.st_dep[r]) <= T("12:00") and r not in set(last.tolist()))
    assert [d["trip_id"] for d in out["departures"]] == [trip for _t, trip in want] and want
    assert all(d["catchable"] for d in out["departures"])
    rc = main(["zugzwang", *day, "--at", "Liestal", "--time", "11:30"])
    text = capsys.readouterr().out
    assert rc == 0 and "no change window in this game: any train from Liestal" in text
