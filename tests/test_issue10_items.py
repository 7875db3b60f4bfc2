"""Issue 10, items 1, 6 and 8: the group model's clock rules, prices from game hours, one change-time
policy, declared dependencies, game data instead of code (free white 6, 29-minute window, forced dice)."""

from __future__ import annotations

import ast
import itertools
import json
import re
import sys
import tomllib
from importlib import resources
from pathlib import Path

import pytest

from planner.cli import main
from planner.errors import GameFileError, InputError
from planner.game.day import GroupDay, Position
from planner.game.dice import decide
from planner.gamefile.game import load_game, parse_game
from planner.routing import TransitNetwork, station_origin
from planner.util.timefmt import parse_clock as T
from tests.conftest import ROOT, ZUG
from tests.timetable_builder import TimetableBuilder

DAY = ["--feed", str(ZUG), "--date", "2021-09-11"]


def _doc(variant: str) -> dict:
    return tomllib.loads((resources.files("planner") / "games" / f"{variant}.toml").read_text("utf-8"))


# ---- the group model (pure) ---------------------------------------------------------------------------

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
    zug = zug_tt.station_index["8502204"]
    from planner.game.zugzwang import deadline_at

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


# ---- prices from game hours -----------------------------------------------------------------------------

def test_station_categories_count_only_game_hours(capsys, tmp_path):
    rc = main(["stations", *DAY, "--json"])
    by = {r["name"]: r for r in json.loads(capsys.readouterr().out)}
    assert rc == 0
    # these see IR/RE trains only at night (01:45-05:42, 24:39): regional stations, 1000
    for name in ("Cham", "Ebikon", "Gisikon-Root", "Horgen Oberdorf", "Dulliken"):
        assert (by[name]["category"], by[name]["price"]) == ("regional", 1000), name
    assert (by["Zug"]["category"], by["Baar"]["category"]) == ("IC", "fast")
    doc = (resources.files("planner") / "games" / "sbb-monopoly.toml").read_text("utf-8")
    game = tmp_path / "mine.toml"
    game.write_text(doc.replace('overrides = { "Olten" = 1000 }',
                                'overrides = { "Olten" = 1000 }\ncategory_overrides = { "Cham" = "IC" }'), "utf-8")
    rc = main(["stations", *DAY, "--game", str(game), "--json"])
    by = {r["name"]: r for r in json.loads(capsys.readouterr().out)}
    assert rc == 0 and (by["Cham"]["category"], by["Cham"]["price"]) == ("IC", 4000)


# ---- one change-time policy ---------------------------------------------------------------------------

def test_timetable_and_network_share_the_game_default_change_time():
    b = TimetableBuilder()
    b.station("A")
    b.station("B", platforms=("1", "2"))  # no station default in the feed: the game's default applies
    b.trip([("A", None, "10:00"), (("B", "1"), "10:10", None)], trip_id="in")
    b.trip([(("B", "2"), None, "10:14"), ("A", "10:20", None)], trip_id="out")
    tt = b.build()
    net = TransitNetwork(tt, default_change=300)
    pairs = [(p, q) for p, q in itertools.product(range(tt.n_stops), repeat=2)
             if tt.stop_station[p] == tt.stop_station[q]]
    assert pairs and all(net.change_seconds(p, q) == tt.change_seconds(p, q, default=300) for p, q in pairs)
    assert {tt.change_seconds(p, q, default=300) for p, q in pairs} == {300}


# ---- declared dependencies match imports -------------------------------------------------------------

def test_declared_dependencies_match_imports():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    declared = {re.split(r"[<>=\[; ]", d)[0].lower().replace("-", "_") for d in project["dependencies"]}
    imported: set[str] = set()
    for path in Path(ROOT / "planner").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Import):
                imported |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                imported.add(node.module.split(".")[0])
    third_party = {m.lower() for m in imported if m not in sys.stdlib_module_names and m != "planner"}
    data_only = {"tzdata"}  # zoneinfo's time-zone data on systems without one: never imported by name
    assert third_party == declared - data_only


def test_game_files_keep_no_unused_dice_keys():
    # dice_forced_from is used by the group model; both shipped games load and keep their keys
    assert load_game("nordwestschweiz").clock.dice_forced_from == T("11:00")
    assert load_game("sbb-monopoly").clock.dice_forced_from is None
