"""Variant B's toll-line and tunnel targets are reached where the train has passed them on the physical line
(RULES.md §2): at the time interpolated along the line's km between the timetable times of the stops around
them, not at the next stop. The re-roll is five minutes before that time, and a 6 rolled at the re-roll starts
its 60 minutes when the target is reached; during free movement the next roll is due when it ends. Played on a day of
variant B written here (the IR27 Liestal :05 - Basel SBB through the Adler tunnel, the S3 Liestal :19 and :49 -
Pratteln - Muttenz - Basel SBB, the Waldenburgerbahn 19 from Liestal, Bahnhof) and the SBB line data of Basel -
Liestal (tests/support/inline_day.py :data:`BASEL_LINES`).
"""

from __future__ import annotations

import pytest

from planner.rail.loader import load_rail_network
from planner.rail.trips import passing_time
from planner.service import GameDay, PlaceRequest, Play, RollRequest, implicit_record, roll, set_position
from planner.service import status as group_status
from planner.store.state import State
from planner.util.timefmt import fmt_clock
from planner.util.timefmt import parse_clock as T
from tests.support.inline_day import BASEL_LINES, line_service, nws_lines_day, write_lines
from tests.support.timetable import TimetableBuilder, secs


@pytest.fixture(scope="module", autouse=True)
def _basel_lines(tmp_path_factory):
    """The line data of this module's days: Basel - Liestal, written here."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PLANNER_RAIL_CSV", str(write_lines(tmp_path_factory.mktemp("lines"), BASEL_LINES)))
        yield


@pytest.fixture(scope="module")
def nws_day(tmp_path_factory, session_cache, _basel_lines) -> GameDay:
    hours = range(9, 16)
    lines = [line_service("IR27", [("Liestal", 0), ("Basel SBB", 10)], [f"{h:02d}:05" for h in hours]),
             line_service("S3", [("Liestal", 0), ("Pratteln", 7), ("Muttenz", 11), ("Basel SBB", 16)],
                          [f"{h:02d}:{m:02d}" for h in hours for m in (19, 49)], dwell=0),
             line_service("R19", [("Liestal, Bahnhof", 0), ("Hölstein, Station", 12), ("Niederdorf, Station", 16),
                                  ("Waldenburg, Station", 21)], [f"{h:02d}:{m:02d}" for h in hours for m in (19, 49)])]
    with pytest.MonkeyPatch.context() as mp:  # (module fixtures come before the tests' own cache)
        mp.setenv("PLANNER_CACHE", str(session_cache))
        return nws_lines_day(tmp_path_factory.mktemp("crossing-day"), lines).warm()


@pytest.fixture
def play(nws_day):
    state = State(":memory:")
    yield Play(nws_day, implicit_record(state, nws_day, nws_day.game.name), state)
    state.close()


def km_share_to(stop_a: str, stop_b: str, end: str) -> float:
    """How far (track km) along the physical path from ``stop_a`` to ``stop_b`` its first point of station ``end``
    lies: read off the SBB line network here, as a train's run time goes by the km."""
    net = load_rail_network()
    path = net.path(net.resolve(stop_a), net.resolve(stop_b))
    ends = net.resolve_all(end)
    nodes = [net.node_of[u] for u in path]
    km = [net.track_km(a, b) for a, b in zip(nodes, nodes[1:], strict=False)]
    k = next(i for i, u in enumerate(path) if u in ends)
    return sum(km[:k]) / sum(km)


def test_passing_time_is_interpolated_between_the_stops_around_it():
    b = TimetableBuilder()
    for name in ("A", "B"):
        b.station(name)
    b.trip([("A", None, "12:04"), ("B", "12:14", None)])
    tt = b.build()
    assert passing_time(tt, 1, 1.0) == secs("12:14")  # the crossing ends at the stop after it
    assert passing_time(tt, 1, 0.55) == secs("12:10")  # 12:09:30: passed by 12:10
    assert passing_time(tt, 1, 0.0) == secs("12:04")


def test_a_tunnel_target_is_reached_where_the_train_leaves_the_tunnel(play, nws_day):
    tt = nws_day.timetable
    set_position(play, "Rot", PlaceRequest("Liestal"), T("12:00"))
    ans = roll(play, RollRequest("Rot", 55, T("12:00"))).to_json()
    (ride,) = ans["legs"]
    assert (ans["target"], ride["route"], ride["from"], ride["to"]) == ("Adlertunnel", "IR27", "Liestal", "Basel SBB")
    # through the Adler tunnel to Muttenz, on the way to Basel SBB: the target is reached at Muttenz's points
    dep, arr = T(ride["departure"]), T(ride["arrival"])
    share = km_share_to("Liestal", "Basel SBB", "Muttenz")
    assert 0.3 < share < 0.9
    passed = dep + share * (arr - dep)
    assert T(ans["arrival"]) == -(-int(round(passed)) // 60) * 60 < arr
    assert T(ans["reroll_at"]) == T(ans["arrival"]) - 5 * 60
    fastest = ans["admissible"][0]
    assert (fastest["reached"], fastest["arrival"]) == (ans["arrival"], ride["arrival"])
    # a 6 at the re-roll: the free hour starts when the tunnel is passed, not at the roll
    free = roll(play, RollRequest("Rot", 61, T(ans["reroll_at"]))).to_json()
    assert free["kind"] == "free" and T(free["free_until"]) == T(ans["arrival"]) + 3600
    st = group_status(play, "Rot", T("12:30")).state
    assert st.obligation.kind == "free" and st.next_roll_at == T(free["free_until"])  # not "now"
    assert tt.station_name[st.position.station]  # the day still knows where the group is


def test_a_line_passed_within_five_minutes_asks_for_the_re_roll_at_once(play):
    # from Muttenz the first train through Basel SBB–Muttenz has passed it before Basel SBB, within 5 minutes
    set_position(play, "Blau", PlaceRequest("Muttenz"), T("11:50"))
    ans = roll(play, RollRequest("Blau", 52, T("12:00"))).to_json()
    (ride,) = ans["legs"]
    assert ride["to"] == "Basel SBB" and T(ride["departure"]) < T(ans["arrival"]) < T(ride["arrival"])
    assert T(ans["arrival"]) - T("12:00") < 5 * 60
    assert ans["reroll_at"] == "12:00"  # five minutes before it lies before the roll: now, never earlier


def test_a_line_off_the_sbb_network_is_reached_at_its_end_stop(play):
    # Hölstein–Niederdorf (Waldenburgerbahn) is decided on its stops: reached on arrival at Niederdorf, Station
    set_position(play, "Gelb", PlaceRequest("Liestal, Bahnhof"), T("12:00"))
    ans = roll(play, RollRequest("Gelb", 53, T("12:00"))).to_json()
    (ride,) = ans["legs"]
    assert (ride["to"], ans["arrival"]) == ("Niederdorf, Station", ride["arrival"])
    assert fmt_clock(T(ans["arrival"]) - 300) == ans["reroll_at"]
