"""A group rolling while its train stands in a station (arrived before the roll, leaving after it) gets off there
only at the roll: no change is planned into a train that left before the roll (found by the game lab on the Zug
extract). On a timetable written here with the extract's times: the S1 Luzern - Rotkreuz (arr 16:42, dep 16:51) -
Zug 17:05 - Baar; from Zug the IR70 17:10 to Zürich HB (17:35) and an S2 on to Zürich Oerlikon (17:38-17:44). An
IR70 leaves Rotkreuz at 16:45 (Zürich HB 17:18, Oerlikon by the S2 17:20 at 17:26): the fastest way if a change
into a train gone before the roll at 16:49 were planned. Wohlen AG, the other target of a 2, was had already."""

from __future__ import annotations

from planner.game.day import Position
from planner.service import GameDay
from planner.service.questions.target import target_answer
from planner.service.read.positions import origin_of
from planner.util.timefmt import parse_clock as T
from tests.support.answers import plain
from tests.support.inline_day import ROUTES, inline_day, stop_times_txt, stops_txt

S1 = "1520.TA.91-S01-N-j21-1.468.R"  # S1 Sursee -> Baar: Rotkreuz arr 16:42, dep 16:51


def test_roll_in_a_train_standing_at_rotkreuz_changes_only_after_the_roll(tmp_path):
    day = inline_day(
        tmp_path, routes=ROUTES + "S26,sbb,S26,,S-Bahn,106\n",
        stops=stops_txt("Luzern", "Rotkreuz", "Zug", "Baar", "Zürich HB", "Zürich Oerlikon", "Wohlen AG"),
        trips=f"""
        route_id,service_id,trip_id
        S1,SA,{S1}
        IR70,SA,ir
        IR70,SA,gone
        S2,SA,s2
        S2,SA,s2a
        S26,SA,s26
        """,
        stop_times=stop_times_txt(
            (S1, [("Luzern", "16:30", "16:30"), ("Rotkreuz", "16:42", "16:51"), ("Zug", "17:05", "17:05"),
                  ("Baar", "17:09", "17:09")]),
            ("ir", [("Zug", "17:10", "17:10"), ("Zürich HB", "17:35", "17:35")]),
            ("s2", [("Zürich HB", "17:38", "17:38"), ("Zürich Oerlikon", "17:44", "17:44")]),
            ("gone", [("Rotkreuz", "16:45", "16:45"), ("Zug", "16:53", "16:54"), ("Zürich HB", "17:18", "17:18")]),
            ("s2a", [("Zürich HB", "17:20", "17:20"), ("Zürich Oerlikon", "17:26", "17:26")]),
            ("s26", [("Rotkreuz", "17:23", "17:23"), ("Wohlen AG", "17:50", "17:50")])))
    assert isinstance(day, GameDay)
    tt = day.timetable
    trip = tt.trip_index[S1]
    row = next(r for r in tt.trip_stop_times(trip) if tt.station_name[tt.stop_station[tt.st_stop[r]]] == "Rotkreuz")
    assert int(tt.st_arr[row]) < T("16:49") < int(tt.st_dep[row])  # the train stands at Rotkreuz
    origin = origin_of(day, Position(int(tt.stop_station[tt.st_stop[row]]), int(tt.st_arr[row]), trip, row), T("16:49"))
    ans = plain(target_answer(day, None, origin, 2, "Wohlen AG")[1])
    assert ans["target"] == "Zürich Oerlikon" and ans["legs"], ans
    assert ans["legs"][0]["trip_id"] == S1  # it starts in the train it sits in
    assert len(ans["legs"]) > 1  # it changes (at Rotkreuz or later)
    assert ans["arrival"] == "17:44"  # by the IR70 17:10 from Zug, not the one gone from Rotkreuz at 16:45
    for leg in ans["legs"][1:]:
        assert T(leg["departure"]) >= T("16:49"), ans["legs"]
