"""Station prices and categories count only the trains of the game hours (a station served by IR/RE
trains only at night is a regional station), and a game file may override a category. On a timetable written
here: an IC1 stops at Zug, an IR70 at Zug and Baar by day; Cham and Rotkreuz see an IR70 only at 01:45-02:00
and 24:39-24:47, else the S1."""

from __future__ import annotations

import json

from planner.cli import main
from tests.support.inline_day import day_argv, inline_day, stop_times_txt, stops_txt


def _day(tmp_path, **game_toml):
    return day_argv(inline_day(
        tmp_path, stops=stops_txt("Zug", "Baar", "Cham", "Rotkreuz", "Zürich HB"),
        trips="""
        route_id,service_id,trip_id
        IC1,SA,ic
        IR70,SA,ir
        IR70,SA,night
        IR70,SA,late
        S1,SA,s1
        """,
        stop_times=stop_times_txt(
            ("ic", [("Zug", "10:00", "10:00"), ("Zürich HB", "10:25", "10:25")]),
            ("ir", [("Zug", "11:00", "11:00"), ("Baar", "11:05", "11:05")]),
            ("night", [("Zug", "01:45", "01:45"), ("Cham", "01:52", "01:52"), ("Rotkreuz", "02:00", "02:00")]),
            ("late", [("Cham", "24:39", "24:39"), ("Rotkreuz", "24:47", "24:47")]),
            ("s1", [("Zug", "12:00", "12:00"), ("Cham", "12:07", "12:07"), ("Rotkreuz", "12:14", "12:14")])),
        game_toml=game_toml or None))


def test_station_categories_count_only_game_hours(capsys, tmp_path):
    rc = main(["stations", *_day(tmp_path / "a"), "--json"])
    by = {r["name"]: r for r in json.loads(capsys.readouterr().out)}
    assert rc == 0
    # these see IR trains only at night: regional stations, 1000
    for name in ("Cham", "Rotkreuz"):
        assert (by[name]["category"], by[name]["price"]) == ("regional", 1000), name
    assert (by["Zug"]["category"], by["Baar"]["category"]) == ("IC", "fast")
    day = _day(tmp_path / "b", **{'overrides = { "Olten" = 1000 }':
                                  'overrides = { "Olten" = 1000 }\ncategory_overrides = { "Cham" = "IC" }'})
    rc = main(["stations", *day, "--json"])
    by = {r["name"]: r for r in json.loads(capsys.readouterr().out)}
    assert rc == 0 and (by["Cham"]["category"], by["Cham"]["price"]) == ("IC", 4000)
