"""A group's day through the CLI on a Zug day (roll, next, status, list, position, undo), roll ids, trains as players
name them, inputs as people type them, and 8 concurrent cold-cache rolls. The day is a timetable written here (every
stop on platform 1), all day, both ways unless said:

* S1 Baar :01/:31 - Zug :06 - Zug Schutzengel - Cham - Rotkreuz :19 - Luzern :31 - Emmenbrücke :37 (a 3's target);
* S26 Rotkreuz :23/:53 - Muri AG - Wohlen AG :50/:20 (a 2's target); S3 Zürich HB :50 - Zürich Oerlikon :56 (the
  other: from Zug at 12:40 at 13:56, after Wohlen AG);
* IR70 Luzern :09 - Rotkreuz :20 - Zug :28/:29 - Zürich HB :52, one way; back only Zürich HB 12:10 - Luzern;
* IR75 Luzern 12:35 - Zug - Zürich HB and Zürich HB 12:35 - Zug - Luzern;
* S9 Zug :02 - Wohlen AG :46, one way (from Zug at 12:40 the fastest way to a 2's target, Wohlen AG 13:46);
* S2 Zug 12:29 - Baar (a minute after 12:28: too soon to catch).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from planner.cli import main
from tests.support import ROOT, assert_one_line_error
from tests.support.inline_day import ROUTES, day_argv, inline_day, line_service, stops_txt

DAY: list[str] = []  # --feed, --date and --game of the day above, for the test running
HOURS = range(6, 22)


@pytest.fixture(autouse=True)
def _zug_day(tmp_path):
    lines = [line_service("S1", [("Baar", 0), ("Zug", 5), ("Zug Schutzengel", 6), ("Cham", 11), ("Rotkreuz", 18),
                                 ("Luzern", 30), ("Emmenbrücke", 36)], [f"{h:02d}:{m}" for h in HOURS for m in ("01", "31")],
                          dwell=0),
             line_service("S26", [("Rotkreuz", 0), ("Muri AG", 13), ("Wohlen AG", 27)],
                          [f"{h:02d}:{m}" for h in HOURS for m in ("23", "53")]),
             line_service("S3", [("Zürich HB", 0), ("Zürich Oerlikon", 6)], [f"{h:02d}:50" for h in HOURS]),
             line_service("IR70", [("Luzern", 0), ("Rotkreuz", 11), ("Zug", 19), ("Zürich HB", 43)],
                          [f"{h:02d}:09" for h in HOURS], both_ways=False),
             line_service("IR70B", [("Zürich HB", 0), ("Zug", 23), ("Luzern", 42)], ["12:10"], both_ways=False),
             line_service("IR75", [("Luzern", 0), ("Zug", 23), ("Zürich HB", 45)], ["12:35"]),
             line_service("S9", [("Zug", 0), ("Wohlen AG", 44)], [f"{h:02d}:02" for h in HOURS], both_ways=False),
             line_service("S2", [("Zug", 0), ("Baar", 4)], ["12:29"], both_ways=False)]
    names = ("Baar", "Zug", "Zug Schutzengel", "Cham", "Rotkreuz", "Luzern", "Emmenbrücke", "Muri AG", "Wohlen AG",
             "Zürich HB", "Zürich Oerlikon")
    stops = stops_txt(*names).replace("stop_lon\n", "stop_lon,platform_code\n").replace("\n", ",1\n")
    stops = stops.replace("platform_code,1\n", "platform_code\n")
    trips = "route_id,service_id,trip_id\n" + "".join(t for t, _ in lines).replace("IR70B,", "IR70,")
    DAY[:] = day_argv(inline_day(
        tmp_path / "day", routes=ROUTES + "S26,sbb,S26,,S-Bahn,106\nS3,sbb,S3,,S-Bahn,106\n"
        "IR75,sbb,IR75,,InterRegio,103\nS9,sbb,S9,,S-Bahn,106\n", stops=stops, trips=trips,
        stop_times="trip_id,arrival_time,departure_time,stop_id,stop_sequence\n" + "".join(st for _, st in lines)))
    yield
    DAY.clear()


def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    cap = capsys.readouterr()
    return rc, cap.out, cap.err


def js(capsys, *argv: str) -> dict:
    rc, out, err = run(capsys, *argv, "--json")
    assert rc == 0, (out, err)
    return json.loads(out)


# ---- the group's day ----------------------------------------------------------------------------------

def test_a_roll_during_free_time_is_the_earliest_legal_arrival_from_the_roll(capsys):
    # a 6 at 13:00 at Zug (free until 14:00); a roll at 13:50 there: the group stands at Zug since 13:00, so
    # the 29-minute window has closed: the earliest legal itinerary leaves on the first train, from the roll
    js(capsys, "roll", *DAY, "--group", "Blau", "--dice", "6", "--at", "Zug", "--time", "13:00")
    out = js(capsys, "roll", *DAY, "--group", "Blau", "--dice", "2", "--time", "13:50")
    assert out["plan_from"] == "13:50" and out["rolled_at"] == "13:50" and out["departure"] >= "13:50"
    assert out["zugzwang"] == {"applies": True, "minutes": 29, "since": "13:00"}
    assert any("rolled during free movement (until 14:00)" in w for w in out["warnings"])


def test_times_never_run_backwards_and_rolls_on_the_way_are_refused(capsys):
    js(capsys, "roll", *DAY, "--group", "Gelb", "--dice", "2", "--at", "Zug", "--time", "15:00")
    rc, _, err = run(capsys, "roll", *DAY, "--group", "Gelb", "--dice", "3", "--at", "Zug", "--time", "12:40")
    assert_one_line_error(rc, err, "12:40 is earlier than the group's last entry at 15:00")
    rc, _, err = run(capsys, "roll", *DAY, "--group", "gelb", "--dice", "3", "--time", "15:10")
    assert_one_line_error(rc, err, "heading for Wohlen AG")


def test_group_names_fold_case_and_accents(capsys):
    js(capsys, "roll", *DAY, "--group", "Team Rot", "--dice", "2", "--at", "Zug", "--time", "12:40")
    st = js(capsys, "group", "status", *DAY, "--group", "team röt")
    assert [r["target"] for r in st["rolls"]] == ["Wohlen AG"] and st["group"] == "Team Rot"
    assert {"group", "game", "date", "rolls", "targeted", "position", "obligation", "next_roll_at"} <= set(st)
    groups = js(capsys, "group", "list", *DAY)["groups"]
    assert [g["group"] for g in groups] == ["Team Rot"] and groups[0]["obligation"]["kind"] == "heading"


def test_next_position_and_undo(capsys):
    js(capsys, "group", "position", *DAY, "--group", "Grün", "--at", "Zug", "--time", "12.35")
    out = js(capsys, "next", *DAY, "--group", "Grün", "--time", "1236")
    assert out["obligation"]["kind"] == "roll" and out["obligation"]["board_by"] == "13:04"
    assert out["position"]["station"] == "Zug" and out["advice"] == "roll the dice now" and not out["warnings"]
    late = js(capsys, "next", *DAY, "--group", "Grün", "--time", "13:10")
    assert late["warnings"] == ["the 29-minute rule's deadline was 13:04: take the next train, or tell where you are "
                                "('planner group position')"]
    js(capsys, "roll", *DAY, "--group", "Grün", "--dice", "2", "--time", "12h40")
    out = js(capsys, "next", *DAY, "--group", "Grün", "--time", "12:41")
    assert out["obligation"]["target"] == "Wohlen AG" and out["itinerary"]["arrival"] == "13:46"  # the S9 13:02
    assert out["itinerary"]["legs"][0]["from_platform"] and out["next_roll_at"] == "13:46"
    assert js(capsys, "group", "undo", *DAY, "--group", "grün")["removed"] == 1
    assert js(capsys, "group", "undo", *DAY, "--group", "grün")["removed_position"].startswith("at Zug")
    rc, out, _ = run(capsys, "next", *DAY, "--group", "Grün", "--time", "12:41")
    assert rc == 0 and "position unknown" in out


def test_roll_id_replays_byte_for_byte_and_refuses_other_inputs(capsys):
    def argv(dice: str = "2", time: str = "12:40") -> list[str]:
        return ["roll", *DAY, "--group", "7", "--dice", dice, "--at", "Zug", "--time", time, "--roll-id", "p1:1"]

    rc1, out1, _ = run(capsys, *argv(), "--json")
    rc2, out2, _ = run(capsys, *argv(), "--json")
    assert rc1 == rc2 == 0 and out1 == out2 and json.loads(out1)["target"] == "Wohlen AG"
    rc, _, err = run(capsys, *argv(dice="4"))
    assert_one_line_error(rc, err, "roll id 'p1:1' was already recorded with dice 2, not 4")
    rc, _, err = run(capsys, *argv(time="12:45"))
    assert_one_line_error(rc, err, "roll id 'p1:1' was already recorded with other inputs")
    assert len(js(capsys, "group", "status", *DAY, "--group", "7")["rolls"]) == 1


# ---- inputs as people type them -----------------------------------------------------------------------

def test_visited_names_resolve_like_every_station_name(capsys):
    # "oerlikon;wohlen" are Zürich Oerlikon and Wohlen AG: both targeted, so a 2 is a free roll here
    out = js(capsys, "target", *DAY, "--roll", "2", "--at", "zug", "--time", "13:00", "--visited", "oerlikon;wohlen")
    assert out["kind"] == "free" and out["target"] is None
    rc, _, err = run(capsys, "target", *DAY, "--roll", "2", "--at", "zug", "--time", "13:00",
                     "--visited", "Wohlen AG;Oerlikn")
    assert_one_line_error(rc, err, "--visited", "Oerlikn", "did you mean")


def test_swiss_time_spellings(capsys):
    """The four ways Swiss players write 13:00 give the one same journey, which leaves at 13:00 or later."""
    answers = {t: js(capsys, "route", *DAY, "--from", "Zug", "--to", "Luzern", "--time", t)
               for t in ("13:00", "13.00", "1300", "13h00")}
    first = answers["13:00"]
    assert first["departure"] >= "13:00" and first["arrival"]
    for spelling, out in answers.items():
        assert out == first, spelling


# ---- trains as players name them ----------------------------------------------------------------------

def test_trip_with_time_is_the_position_in_the_train(capsys):
    out = js(capsys, "route", *DAY, "--trip", "IR70 12:09", "--from", "luzern", "--time", "12:25",
             "--to", "emmenbrucke")
    assert out["train"].startswith("in IR70 12:09 Luzern → Zürich HB, next stop")
    # the ride the group sits in comes first (from the stop before); every other leg leaves after 12:25
    seated, *rest = out["legs"]
    assert seated.get("seated") and seated["route"] == "IR70" and seated["to"] == rest[0]["from"]
    assert out["departure"] >= "12:25" and all(leg["departure"] >= "12:25" for leg in rest)


def test_trip_one_minute_off_names_the_trains_there_and_ambiguity_lists_each(capsys):
    # at Luzern, "IR70 12:10" is no train (the one leaving Zürich HB at 12:10 is another): the one leaving
    # Luzern a minute earlier is named, nothing is silently picked
    rc, _, err = run(capsys, "route", *DAY, "--trip", "IR70 12:10", "--from", "Luzern", "--to", "Emmenbrücke")
    assert_one_line_error(rc, err, "no IR70 calls at Luzern at 12:10", "nearby: IR70 12:09 Luzern → Zürich HB")
    rc, _, err = run(capsys, "route", *DAY, "--trip", "IR75 12:35", "--to", "Luzern")
    assert_one_line_error(rc, err, "matches 2 trains", "Luzern → Zürich HB", "Zürich HB → Luzern")


# ---- concurrency: 8 processes, 8 groups, cold day cache ---------------------------------------------

def test_eight_processes_rolling_with_a_cold_cache(tmp_path):
    env = dict(os.environ, PLANNER_CACHE=str(tmp_path / "cold-cache"), PLANNER_STATE=str(tmp_path / "s.sqlite"))
    cmd = [sys.executable, "-m", "planner", "roll", *DAY, "--dice", "2", "--at", "Zug", "--time", "12:40", "--json"]
    procs = [subprocess.Popen([*cmd, "--group", f"G{i}", "--roll-id", f"g{i}"], cwd=ROOT, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for i in range(8)]
    results = [p.communicate(timeout=600) for p in procs]
    assert [p.returncode for p in procs] == [0] * 8, [err for _, err in results]
    assert not any("locked" in err for _, err in results)
    assert {json.loads(out)["target"] for out, _ in results} == {"Wohlen AG"}
    from planner.store.state import State

    with State(tmp_path / "s.sqlite") as state:
        game = state.games.get("sbb-monopoly@2021-09-11")
        assert sorted(g.key for g in game.groups) == [f"g{i}" for i in range(8)]
        assert all(len(state.groups.snapshot(game.id, game.group(f"G{i}")).rolls) == 1 for i in range(8))


def test_route_for_a_group_starts_where_its_day_has_it(capsys):
    js(capsys, "roll", *DAY, "--group", "Lila", "--dice", "3", "--at", "Zug", "--time", "13:20")
    out = js(capsys, "route", *DAY, "--group", "lila", "--time", "13:40")  # no --to: its target
    assert out["to"] == "Emmenbrücke" and out["train"].startswith("in S1 ") and out["departure"] >= "13:40"
    rc, _, err = run(capsys, "route", *DAY, "--group", "Nobody", "--time", "13:40", "--to", "Luzern")
    assert_one_line_error(rc, err, "position unknown")


def test_zugzwang_lists_catchable_trains_first(capsys):
    out = js(capsys, "zugzwang", *DAY, "--at", "Zug", "--time", "12:28")  # the train just left is not listed
    flags = [d["catchable"] for d in out["departures"]]
    assert flags == sorted(flags, reverse=True) and not flags[-1] and out["applies"]


def test_position_without_a_time_is_one_line_error(capsys):
    rc, _, err = run(capsys, "group", "position", *DAY, "--group", "Lila", "--at", "Zug")
    assert_one_line_error(rc, err, "--time HH:MM is required")
