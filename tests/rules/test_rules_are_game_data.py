"""Game variants are data: the 29-minute window, the free white six, forced dice and the dice keys come
from the game file (TOML in ``planner/games/``), never from code that asks which variant it is."""

from __future__ import annotations

import tomllib
from importlib import resources

import pytest

from planner.errors import GameFileError, InputError
from planner.game.day import GroupDay, Position
from planner.game.dice import decide
from planner.game.zugzwang import deadline_at
from planner.gamefile.game import load_game, parse_game
from planner.routing import TransitNetwork, station_origin
from planner.util.timefmt import parse_clock as T
from tests.support.inline_day import inline_day, stop_times_txt, stops_txt
from tests.support.timetable import TimetableBuilder


@pytest.fixture
def zug_tt(tmp_path):
    return inline_day(tmp_path, stops=stops_txt("Zug", "Baar"), trips="route_id,service_id,trip_id\nS1,SA,a\nS1,SA,b\n",
                      stop_times=stop_times_txt(("a", [("Zug", "13:10", "13:10"), ("Baar", "13:14", "13:14")]),
                                                ("b", [("Zug", "13:40", "13:40"), ("Baar", "13:44", "13:44")]))
                      ).timetable


def _doc(variant: str) -> dict:
    return tomllib.loads((resources.files("planner") / "games" / f"{variant}.toml").read_text("utf-8"))


def test_forced_dice_from_is_an_obligation(zug_tt, nws_game):
    # variant B: the dice rules apply from 11:00, the first roll is at 11:30 (seed §4.1-4.2)
    day = GroupDay(zug_tt, nws_game)
    assert day.state_at(T("10:50")).obligation.kind == "before_dice"
    ob = day.state_at(T("11:10")).obligation
    assert (ob.kind, ob.since, ob.until) == ("dice_soon", T("11:00"), T("11:30"))
    with pytest.raises(InputError, match="dice start at 11:30"):
        day.check_roll(T("11:10"))
    assert day.state_at(T("11:30")).obligation.kind == "roll"


def test_the_29_minute_window_is_game_data(zug_tt, sbb_game, nws_game):
    assert (sbb_game.window.minutes, nws_game.window) == (29, None)
    doc = _doc("sbb-monopoly")
    doc["zugzwang"] = {"applies": True, "minutes": 20}
    g20 = parse_game(doc, source="test")
    zug = zug_tt.station_index["8502204"]  # a 13:10 departure lies in both windows: each board-by is its end
    net = TransitNetwork(zug_tt)
    for game, board_by in ((sbb_game, T("13:29")), (g20, T("13:20")), (nws_game, None)):
        deadline = (lambda p, w=game.window: deadline_at(net, w, p)) if game.window else None
        st = GroupDay(zug_tt, game, positions=[], deadline_of=deadline).obligation_at(T("13:05"),
                                                                                     Position(zug, T("13:00")))[0]
        assert st.board_by == board_by
    doc["zugzwang"] = {"applies": True, "minutes": 0}
    with pytest.raises(GameFileError, match="zugzwang.minutes"):
        parse_game(doc, source="test")


def test_the_free_white_six_is_game_data():
    b = TimetableBuilder()
    for s in "AB":
        b.station(s)
    b.trip([("A", None, "12:10"), ("B", "12:20", None)], route="S1", trip_id="t")
    net = TransitNetwork(b.build())
    doc = _doc("nordwestschweiz")
    doc["dice"]["targets"] = [{"number": 61, "stations": ["B"]}]
    doc["dice"]["free_numbers"] = [62, 63, 64, 65, 66]
    g = parse_game(doc, source="test")
    o = station_origin(0, T("12:00"))
    assert decide(net, g, o, 61, []).target == "B"  # 61 is a target in this game file, not a hard-coded free roll
    assert decide(net, g, o, 62, []).kind == "free"


def test_game_files_keep_no_unused_dice_keys():
    # dice_forced_from is used by the group model; both shipped games load and keep their keys
    assert load_game("nordwestschweiz").clock.dice_forced_from == T("11:00")
    assert load_game("sbb-monopoly").clock.dice_forced_from is None
