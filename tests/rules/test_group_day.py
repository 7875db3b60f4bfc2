"""A group's day (sbb-monopoly) through the service layer, on a day written here: a seated report in a train to the
target reaches it, a train is named by its departure where the group got on, and the use cases read the group once.
(One group through a whole day on the real Zug extract: tests/rules/test_rules_real.py.)

The day: the real-time demo's lines (tests/support/inline_day.py: S1 Baar :01 - Zug :06 - Rotkreuz :19, S26 Rotkreuz
:23 - Wohlen AG :50, IR70, S9) and an S2 Baar :31 - Zug :36 - Rotkreuz - Luzern - Emmenbrücke :13 (a dice target of
3), 06:00 to 21:59.
"""

from __future__ import annotations

import pytest

from planner.service import (
    GameDay,
    PlaceRequest,
    Play,
    RollRequest,
    implicit_record,
    next_json,
    next_step,
    roll,
    set_position,
    status,
)
from planner.store.state import State
from planner.util.timefmt import fmt_clock
from planner.util.timefmt import parse_clock as T
from tests.support.answers import plain
from tests.support.inline_day import DEMO_ROUTES, demo_lines, line_service, lines_day

G = "Team Rot"


@pytest.fixture(scope="module")
def day(tmp_path_factory, session_cache) -> GameDay:
    s2 = line_service("S2", [("Baar", 0), ("Zug", 5), ("Rotkreuz", 18), ("Luzern", 35), ("Emmenbrücke", 42)],
                      [f"{h:02d}:31" for h in range(6, 22)], both_ways=False)
    with pytest.MonkeyPatch.context() as mp:  # (module fixtures come before the tests' own cache)
        mp.setenv("PLANNER_CACHE", str(session_cache))
        return lines_day(tmp_path_factory.mktemp("group-day"), [*demo_lines(), s2], routes=DEMO_ROUTES)


def _play(day: GameDay, folder) -> Play:
    state = State(folder / "state.sqlite")
    return Play(day, implicit_record(state, day, "sbb-monopoly"), state)


def _count_snapshots(play: Play):
    """Count the snapshots the use cases read (a use case reads its group once, one version)."""

    class Counter:
        snapshots = 0

    counter = Counter()
    real = play.state.groups.snapshot

    def snapshot(game_id, group):
        counter.snapshots += 1
        return real(game_id, group)

    play.state.groups.snapshot = snapshot
    return counter


def test_seated_report_in_a_train_to_the_target_reaches_it(day, tmp_path):
    # heading for Emmenbrücke, the group says it sits in the S2 13:36 from Zug: it is there on arrival (14:13)
    play = _play(day, tmp_path)
    assert roll(play, RollRequest("Lila", 3, T("13:20"), PlaceRequest("Zug"))).to_json()["target"] == "Emmenbrücke"
    set_position(play, "Lila", PlaceRequest("Zug", None, "S2 13:36 Emmenbrücke"), T("13:36"))
    assert status(play, "Lila", T("14:10")).state.obligation.kind == "heading"
    st = status(play, "Lila", T("14:20"))
    assert st.state.obligation.kind == "roll" and st.state.obligation.since == T("14:13")
    pos = st.state.position
    assert not pos.seated and day.timetable.station_name[pos.station] == "Emmenbrücke" and pos.since == T("14:13")
    play.state.close()


def test_train_named_by_its_departure_where_the_group_got_on(day, tmp_path):
    """Players name the train they boarded by its time at their station ("S2 12:36" at Zug), not at its
    first stop (Baar 12:31): without --at, the group's own stations are where the name is matched."""
    tt = day.timetable
    play = _play(day, tmp_path)
    set_position(play, G, PlaceRequest("Zug", T("12:20")), T("12:20"))
    ans = roll(play, RollRequest(G, 3, T("12:30"))).to_json()
    first = ans["legs"][0]
    assert first["from"] == "Zug" and first["route"] == "S2"
    st = set_position(play, G, PlaceRequest(None, None, f"S2 {first['departure']}"), T("12:50"))
    pos = st.state.position
    assert pos.seated and tt.trip_id[pos.trip] == first["trip_id"]
    # the echo names the stop the group's day has it at or approaching
    assert st.train.endswith(f"next stop {tt.station_name[pos.station]} {fmt_clock(pos.since)}")
    # its time at its first stop still names it (as the echo does)
    start = tt.trip_stop_times(pos.trip).start
    named = f"S2 {fmt_clock(int(tt.st_dep[start]))}"
    assert named != f"S2 {first['departure']}"
    again = set_position(play, G, PlaceRequest(None, None, named), T("12:52")).state.position
    assert tt.trip_id[again.trip] == first["trip_id"]


def test_next_and_group_origin_read_the_group_once(day, tmp_path):
    from planner.service import group_origin

    play = _play(day, tmp_path)
    store = _count_snapshots(play)
    st = set_position(play, G, PlaceRequest("Zug"), T("12:40"))
    assert store.snapshots == 1  # the answer is the day as written, not a second read
    assert st == status(play, G, T("12:40"))  # ... and the same as one
    a = roll(play, RollRequest(G, 2, T("12:40"))).to_json()
    store.snapshots = 0
    nxt = plain(next_json(day, next_step(play, G, T("12:45"))))
    assert nxt["obligation"]["kind"] == "heading" and nxt["itinerary"]["arrival"] == a["arrival"]
    assert store.snapshots == 1
    store.snapshots = 0
    origin, heading_to = group_origin(play, G, T("12:45"))
    assert day.timetable.station_name[heading_to] == a["target"] and origin.time >= T("12:40")
    assert store.snapshots == 1
