"""One stop-based crossing rule: the organisers' report without line data decides like the network does for
lines off it, and a bug in the crossing code is raised, not turned into a silent downgrade."""

from __future__ import annotations

import pytest

from planner.cli import main
from planner.organiser import crossings
from planner.organiser.crossings import crossing_index
from planner.rail.trips import crossing_trips
from planner.timetable.model import Mode
from tests.support.inline_day import inline_day, stop_times_txt, stops_txt
from tests.support.timetable import mini_timetable

WALDENBURG = [("8578250", "Hölstein, Station"), ("8592307", "Niederdorf, Station")]
IC = [("8500010", "Basel SBB"), ("8500021", "Muttenz"), ("8500023", "Liestal")]


@pytest.fixture
def no_rail_data(monkeypatch, tmp_path):
    """The line network's data file is missing."""
    monkeypatch.setenv("PLANNER_RAIL_CSV", str(tmp_path / "missing.csv"))


def test_without_line_data_the_report_uses_the_stop_rule(no_rail_data, nws_game):
    tt = mini_timetable([(Mode.TRAM, WALDENBURG), (Mode.BUS, WALDENBURG), (Mode.RAIL, IC)])
    index, checks, warnings = crossing_index(tt, nws_game)
    assert checks == {}
    assert len(warnings) == 1 and "checked on stops only" in warnings[0] and "missing.csv" in warnings[0]
    # the stop names carry ", Station": the rule matches them (an exact-name lookup would not)
    assert index["Hölstein–Niederdorf"] == [(0, 0, 1, 1.0)]  # the tram, not the bus (passed at the stop)
    assert index["Basel SBB–Muttenz"] == [(2, 4, 5, 1.0)]
    # the same rule as the rail package's, stop for stop
    assert index == crossing_trips(tt, None, nws_game)


def test_a_bug_in_the_crossing_code_is_raised(monkeypatch, nws_game):
    def broken(*_a, **_k):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(crossings, "crossing_trips", broken)  # a bug planted where the report calls it
    tt = mini_timetable([(Mode.RAIL, IC)])
    with pytest.raises(ZeroDivisionError):
        crossing_index(tt, nws_game)


def test_line_off_the_network_and_not_in_the_feed_is_not_called_outside_the_area(capsys, tmp_path):
    # a feed written here, of one S1 Zug - Baar: neither Hölstein nor Niederdorf is in it
    feed = inline_day(tmp_path, stops=stops_txt("Zug", "Baar"), trips="route_id,service_id,trip_id\nS1,SA,s1\n",
                      stop_times=stop_times_txt(("s1", [("Zug", "10:00", "10:00"), ("Baar", "10:04", "10:04")]))).feed
    assert main(["check-area", "--feed", feed, "--game", "nordwestschweiz", "--date", "2021-09-11"]) == 1
    out = capsys.readouterr().out
    line = next(ln for ln in out.splitlines() if "problem: toll line Hölstein–Niederdorf" in ln)
    assert "not in the feed" in line and "outside the game area" not in line
    assert "target 53 Hölstein–Niederdorf: outside the game area" not in out
