"""A stop's price class follows the route types of the trains serving it (variant B §9.1: a railway station, a bus
stop), never its name: the Waldenburgerbahn's stations are railway stations, a bus stop called "..., Bahnhof" is a
bus stop, a tram stop is priced as one."""

from __future__ import annotations

import json

from planner.cli import main
from planner.game.prices import price_class, station_price
from planner.gtfs.routes import classify_category
from planner.timetable.model import Mode
from tests.support.inline_day import day_argv, line_service, nws_lines_day
from tests.support.timetable import mini_timetable


def test_the_price_class_is_the_route_types(nws_game):
    tt = mini_timetable([(Mode.RAIL, [("1", "Hölstein, Station"), ("2", "Niederdorf, Station")]),
                         (Mode.BUS, [("3", "Bretzwil, Bahnhof"), ("4", "Bretzwil, Dorf")]),
                         (Mode.TRAM, [("5", "Basel, Bahnhof SBB"), ("6", "Basel, Dreispitz")])])
    tt.route_category = [classify_category(int(t), "") for t in tt.route_type]  # as the ingest classifies them
    tt.__dict__.pop("station_categories", None)
    got = {tt.station_name[s]: (price_class(nws_game, tt, s), station_price(nws_game, tt, s))
           for s in range(tt.n_stations)}
    assert got == {"Hölstein, Station": ("station", 2000), "Niederdorf, Station": ("station", 2000),
                   "Bretzwil, Bahnhof": ("bus stop", 1000), "Bretzwil, Dorf": ("bus stop", 1000),
                   "Basel, Bahnhof SBB": ("bus stop", 1000), "Basel, Dreispitz": ("bus stop", 1000)}


def test_the_waldenburgerbahn_stations_are_railway_stations(capsys, tmp_path):
    # variant B's day written here: the Waldenburgerbahn (a railway, route_type 106), the bus 111 to Bretzwil, the
    # tram 10 and the S3 at Liestal (a listed station)
    lines = [line_service("R19", [("Liestal, Bahnhof", 0), ("Hölstein, Station", 14), ("Niederdorf, Station", 18),
                                  ("Waldenburg, Station", 23)], ["10:04", "10:34"]),
             line_service("B111", [("Laufen, Bahnhof", 0), ("Bretzwil, Dorf", 25)], ["10:12"]),
             line_service("T10", [("Basel, Bahnhof SBB", 0), ("Basel, Dreispitz", 7), ("Dornach, Bahnhof", 22)],
                          ["10:05"]),
             line_service("S3", [("Basel SBB", 0), ("Muttenz", 5), ("Pratteln", 9), ("Liestal", 16)], ["10:09"])]
    day = nws_lines_day(tmp_path, lines)
    rc = main(["stations", *day_argv(day), "--json"])
    by = {r["name"]: r for r in json.loads(capsys.readouterr().out)}
    assert rc == 0
    for name in ("Hölstein, Station", "Waldenburg, Station", "Niederdorf, Station"):
        assert (by[name]["category"], by[name]["price"], by[name]["modes"]) == ("station", 2000, ["rail"]), name
    assert (by["Bretzwil, Dorf"]["category"], by["Bretzwil, Dorf"]["price"]) == ("bus stop", 1000)
    assert (by["Liestal"]["category"], by["Liestal"]["price"]) == ("listed", 4000)
    # a tram stop, even one called "..., Bahnhof SBB", is priced as a bus stop
    for name in ("Basel, Dreispitz", "Basel, Bahnhof SBB"):
        assert (by[name]["category"], by[name]["price"], by[name]["modes"]) == ("bus stop", 1000, ["tram"]), name
