"""A replayed game day (variant A) on a day around Zug written here: three groups buy, travel, pay the fees their
itineraries carry, earn income, use the free parking; the end ranking is checked by hand.

The day: the real-time demo's lines (tests/support/inline_day.py: S1 Baar :01 - Zug :06 - Cham :12 - Rotkreuz :19,
S26 Rotkreuz :23 - Wohlen AG :50, IR70, S9), the IR75 Zürich HB :33 - Thalwil - Baar :58 - Zug :02 - Rotkreuz :10 -
Luzern :25 and back (Zug :56, Baar :00, Thalwil :15), the IC1 Zürich HB :00 - Zug :24 - Luzern :45 and back, the S2
Zug :04 and :34 - Baar - Thalwil - Zürich Enge - Zürich HB and back; the toll line Luzern–Rotkreuz on Zug's piece of
the line data."""

from __future__ import annotations

import json

import pytest

from planner.cli import main
from planner.gamefile.game import load_game
from tests.support.inline_day import DEMO_ROUTES, day_argv, demo_lines, line_service, lines_day, write_lines

DAY: list[str] = []  # the day's --feed, --date and --game (the fixture below)


@pytest.fixture(autouse=True)
def day_tt(tmp_path, monkeypatch):
    """The day above (its timetable; the commands read it through ``DAY``)."""
    monkeypatch.setenv("PLANNER_RAIL_CSV", str(write_lines(tmp_path / "lines")))
    hours = range(6, 22)
    lines = [*demo_lines(),
             line_service("IR75", [("Zürich HB", 0), ("Thalwil", 10), ("Baar", 25), ("Zug", 29), ("Rotkreuz", 37),
                                   ("Luzern", 52)], [f"{h:02d}:33" for h in hours]),
             line_service("IC1", [("Zürich HB", 0), ("Zug", 24), ("Luzern", 45)], [f"{h:02d}:00" for h in hours]),
             line_service("S2", [("Zug", 0), ("Baar", 4), ("Thalwil", 17), ("Zürich Enge", 25), ("Zürich HB", 29)],
                          [f"{h:02d}:{m:02d}" for h in hours for m in (4, 34)])]
    day = lines_day(tmp_path, lines, routes=DEMO_ROUTES + "IR75,sbb,IR75,,InterRegio,103\n")
    monkeypatch.setattr(f"{__name__}.DAY", day_argv(day))
    return day.timetable


def ok(capsys, *argv: str) -> dict:
    rc = main([*argv, *DAY, "--json"])
    out = capsys.readouterr().out
    assert rc == 0, out
    return json.loads(out)


def pay_itinerary(capsys, group: str, itinerary: dict) -> int:
    """Pay every fee the itinerary carries, as the group would on the way; return the total paid."""
    paid = 0
    for f in itinerary["fees"]:
        flag = {"station": "--station", "toll_line": "--toll-line"}[f["kind"]]
        time = f.get("time") or itinerary["arrival"]
        out = ok(capsys, "ledger", "pay", "--group", group, flag, f["name"], "--time", time)
        assert out["amount"] == f["amount"] and out["tell"] == f["owner"]
        paid += out["amount"]
    return paid


def test_a_game_day(capsys, day_tt):
    stations = {r["name"]: r for r in ok(capsys, "stations")}
    # the prices the hand calculation below uses (§9: IC 4000, fast-train 2000, regional 1000; categories from
    # the trains stopping in game hours: Zürich Enge is regional then)
    assert [stations[s]["price"] for s in ("Zug", "Baar", "Thalwil", "Zürich Enge", "Zürich HB")] == \
        [4000, 2000, 2000, 1000, 4000]
    ok(capsys, "ledger", "buy", "--group", "1", "--station", "Zug", "--time", "09:05")
    ok(capsys, "ledger", "buy", "--group", "2", "--station", "Baar", "--time", "09:30")
    ok(capsys, "ledger", "buy", "--group", "2", "--station", "Thalwil", "--time", "10:00")
    ok(capsys, "ledger", "buy", "--group", "3", "--toll-line", "Luzern–Rotkreuz", "--time", "10:15")

    # group 1 rides Zug -> Thalwil: the IR stops at Baar and Thalwil, both group 2's (1/4 of 2000 each)
    trip1 = ok(capsys, "route", "--from", "Zug", "--to", "Thalwil", "--time", "10:35", "--group", "1")
    assert [(f["name"], f["owner"], f["amount"]) for f in trip1["fees"]] == [("Baar", "2", 500),
                                                                             ("Thalwil", "2", 500)]
    assert trip1["fees_total"] == 1000
    assert pay_itinerary(capsys, "1", trip1) == 1000
    ok(capsys, "ledger", "income", "--group", "1", "--time", "11:00")
    # the bonus is checked on the train (§6): group 3 names one arriving or departing at 11:00
    from planner.game.bonus import trip_meets_bonus

    eleven = next(t for t in range(day_tt.n_trips) if trip_meets_bonus(day_tt, load_game("sbb-monopoly"), t, 11 * 3600))
    ok(capsys, "ledger", "income", "--group", "3", "--time", "11:00", "--bonus", "--trip", day_tt.trip_id[eleven])
    ok(capsys, "ledger", "buy", "--group", "1", "--station", "Zürich Enge", "--time", "11:35")
    ok(capsys, "ledger", "buy", "--group", "1", "--station", "Zürich HB", "--time", "12:15")
    built = ok(capsys, "ledger", "build", "--group", "1", "--time", "12:20", "--houses", "Zug=2")
    assert built["message"] == "1 12.20 HH Zug" and built["amount"] == 8000

    # group 2 rides Zug -> Luzern over group 3's toll line (one line owned: 500)
    trip2 = ok(capsys, "route", "--from", "Zug", "--to", "Luzern", "--time", "12:00", "--group", "2")
    assert [(f["kind"], f["owner"], f["amount"]) for f in trip2["fees"]] == [("toll_line", "3", 500)]
    assert pay_itinerary(capsys, "2", trip2) == 500
    jail = ok(capsys, "ledger", "parking", "--group", "2", "--time", "12:50", "--reason", "jail")
    assert jail["message"] == "2P 1000 P total 1000"
    empty = ok(capsys, "ledger", "parking", "--group", "3", "--time", "13:00", "--empty", "--dice", "2,3")
    assert empty["message"] == "3 P leer 1000"

    end = ok(capsys, "ledger", "end")
    table = [(r["rank"], r["group"], r["cash"], r["holdings_value"], r["group_bonus"], r["capital"])
             for r in end["ranking"]]
    # by hand:
    # group 1: 20000 - 4000 Zug - 500 - 500 fees + 4000 income - 1000 Enge - 4000 HB - 8000 two houses = 6000;
    #          Zug 4000 + 2 houses 8000, Enge 1000, HB 4000 = 17000; one Z letter group 2000 -> 25000
    # group 2: 20000 - 2000 - 2000 + 500 + 500 - 500 toll - 1000 jail = 15500; Baar + Thalwil 4000 -> 19500
    # group 3: 20000 - 4000 toll line + 8000 bonus income + 500 toll + 1000 parking = 25500; line 4000 -> 29500
    assert table == [(1, "3", 25500, 4000, 0, 29500), (2, "1", 6000, 17000, 2000, 25000),
                     (3, "2", 15500, 4000, 0, 19500)]
    assert end["winner"] == "3" and end["parking"] == 0
    feed = ok(capsys, "ledger", "feed", "--group", "2")
    assert [e["message"] for e in feed["events"]] == [
        "1K 9.05 Zug", "3K 10.15 Luzern–Rotkreuz", "1 Baar B 500", "1 Thalwil B 500", "1K 11.35 Zürich Enge",
        "1K 12.15 Zürich HB", "1 12.20 HH Zug", "3 P leer 1000"]


def _stops(tt, leg: dict) -> list[str]:
    rows = list(tt.trip_stop_times(tt.trip_index[leg["trip_id"]]))
    names = [tt.station_name[tt.stop_station[tt.st_stop[r]]] for r in rows]
    return names[names.index(leg["from"]) + 1:names.index(leg["to"]) + 1]


def test_among_equally_fast_itineraries_the_group_gets_the_cheaper(capsys, day_tt):
    plain = ok(capsys, "route", "--from", "Zug", "--to", "Wohlen AG", "--time", "10:00")
    assert "Cham" in _stops(day_tt, plain["legs"][0])  # the planner's first choice stops at Cham
    ok(capsys, "ledger", "buy", "--group", "9", "--station", "Cham", "--time", "09:30")
    priced = ok(capsys, "route", "--from", "Zug", "--to", "Wohlen AG", "--time", "10:00", "--group", "1")
    assert priced["arrival"] == plain["arrival"]
    assert priced["pricing"]["compared"] >= 2 and "bonus" in priced["pricing"]["weighed"]
    assert priced["fees_total"] == 0 and priced["legs"] != plain["legs"]
    assert not any("Cham" in _stops(day_tt, leg) for leg in priced["legs"])
    # the group owning Cham is not charged there, so for it the planner's first choice stands
    own = ok(capsys, "route", "--from", "Zug", "--to", "Wohlen AG", "--time", "10:00", "--group", "9")
    assert own["legs"] == plain["legs"] and own["fees_total"] == 0
