"""``planner ledger`` on a Zug day and a real SQLite file: purchases, conflicts, concurrency. The day is a timetable
written here (every stop on platform 1), all day, both ways unless said:

* S1 Baar :01/:31 - Zug :06 - Zug Schutzengel - Cham - Rotkreuz :19 - Luzern :31 - Emmenbrücke :37;
* S26 Rotkreuz :23/:53 - Muri AG - Wohlen AG :50/:20; S3 Zürich HB :05/:35 - Zürich Oerlikon :11/:41;
* IR70 Luzern :09 - Rotkreuz :20 - Zug :28/:29 - Zürich HB :52, one way;
* IC1 Zug :00 - Zürich HB :25 - Aarau :57 (Zug an IC station, its train at Zug at 11:00 a full-hour one).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from planner.cli import main
from planner.game.prices import station_price
from planner.gamefile.game import load_game
from planner.timetable.stations import find_station
from tests.support.inline_day import ROUTES, day_argv, inline_day, line_service, stops_txt

pytestmark = pytest.mark.long  # one worker runs a module (--dist loadfile); this one early

DAY: list[str] = []  # --feed, --date and --game of the day above, for the test running
HOURS = range(6, 22)


@pytest.fixture(autouse=True)
def zug_tt(tmp_path):
    """The day above (its timetable; DAY is filled for the test)."""
    lines = [line_service("S1", [("Baar", 0), ("Zug", 5), ("Zug Schutzengel", 6), ("Cham", 11), ("Rotkreuz", 18),
                                 ("Luzern", 30), ("Emmenbrücke", 36)], [f"{h:02d}:{m}" for h in HOURS for m in ("01", "31")],
                          dwell=0),
             line_service("S26", [("Rotkreuz", 0), ("Muri AG", 13), ("Wohlen AG", 27)],
                          [f"{h:02d}:{m}" for h in HOURS for m in ("23", "53")]),
             line_service("S3", [("Zürich HB", 0), ("Zürich Oerlikon", 6)], [f"{h:02d}:{m}" for h in HOURS for m in ("05", "35")]),
             line_service("IR70", [("Luzern", 0), ("Rotkreuz", 11), ("Zug", 19), ("Zürich HB", 43)],
                          [f"{h:02d}:09" for h in HOURS], both_ways=False),
             line_service("IC1", [("Zug", 0), ("Zürich HB", 25), ("Aarau", 57)], [f"{h:02d}:00" for h in HOURS])]
    names = ("Baar", "Zug", "Zug Schutzengel", "Cham", "Rotkreuz", "Luzern", "Emmenbrücke", "Muri AG", "Wohlen AG",
             "Zürich HB", "Zürich Oerlikon", "Aarau")
    stops = stops_txt(*names).replace("stop_lon\n", "stop_lon,platform_code\n").replace("\n", ",1\n")
    stops = stops.replace("platform_code,1\n", "platform_code\n")
    day = inline_day(tmp_path / "day", routes=ROUTES + "S26,sbb,S26,,S-Bahn,106\nS3,sbb,S3,,S-Bahn,106\n",
                     stops=stops, trips="route_id,service_id,trip_id\n" + "".join(t for t, _ in lines),
                     stop_times="trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
                     + "".join(st for _, st in lines))
    DAY[:] = day_argv(day)
    yield day.timetable
    DAY.clear()
ROOT = Path(__file__).resolve().parents[2]


def run(capsys, *argv: str) -> tuple[int, dict]:
    rc = main([*argv, *DAY, "--json"])
    out = capsys.readouterr().out
    return rc, json.loads(out.strip().splitlines()[-1])


def ok(capsys, *argv: str) -> dict:
    rc, out = run(capsys, *argv)
    assert rc == 0, out
    return out


def price(tt, name: str) -> int:
    return station_price(load_game("sbb-monopoly"), tt, find_station(tt, name))


def test_buy_pay_status_feed(capsys, zug_tt):
    bought = ok(capsys, "ledger", "buy", "--group", "2", "--station", "Aarau", "--time", "09:10")
    assert bought["message"] == "2K 9.10 Aarau" and bought["joined"]
    assert bought["amount"] == price(zug_tt, "Aarau") and bought["transfers"] == [["2", "bank", bought["amount"]]]
    rc, err = run(capsys, "ledger", "buy", "--group", "4", "--station", "aarau", "--time", "09:40")
    assert rc == 2 and err["error"] == "station Aarau belongs to group 2 (bought 09:10): pay the fee instead"
    paid = ok(capsys, "ledger", "pay", "--group", "4", "--station", "Aarau", "--time", "09:41")
    assert paid["message"] == f"4 Aarau B {price(zug_tt, 'Aarau') // 4}" and paid["tell"] == "2"
    st = ok(capsys, "ledger", "status", "--group", "2")
    assert {"cash", "capital", "stations", "toll_lines", "tunnels"} <= set(st)
    assert st["cash"] == 20000 - price(zug_tt, "Aarau") + price(zug_tt, "Aarau") // 4
    assert st["capital"] == st["cash"] + price(zug_tt, "Aarau")
    assert st["stations"][0]["fee"] == price(zug_tt, "Aarau") // 4
    feed2 = ok(capsys, "ledger", "feed", "--group", "2")
    assert [e["message"] for e in feed2["events"]] == [paid["message"]]
    feed4 = ok(capsys, "ledger", "feed", "--group", "4")
    assert [e["message"] for e in feed4["events"]] == ["2K 9.10 Aarau"]
    assert ok(capsys, "ledger", "feed", "--group", "4", "--since", str(feed4["last"]))["events"] == []


def test_purchase_contradicting_the_known_position_is_refused(capsys):
    ok(capsys, "ledger", "buy", "--group", "1", "--station", "Zug", "--time", "10:00")
    rc, err = run(capsys, "ledger", "buy", "--group", "1", "--station", "Aarau", "--time", "10:05")
    assert rc == 2 and "was at Zug at 10:00" in err["error"] and "not at 10:05" in err["error"]
    # a roll's position counts too
    assert main(["roll", "--group", "5", "--dice", "2", "--at", "Baar", "--time", "12:40", *DAY, "--json"]) == 0
    capsys.readouterr()
    rc, err = run(capsys, "ledger", "buy", "--group", "5", "--station", "Luzern", "--time", "12:45")
    assert rc == 2 and "roll #1" in err["error"]
    # its day (the roll's way to Wohlen AG, 13:50) puts it out of reach of Luzern at 14:30; later, the group's word
    rc, err = run(capsys, "ledger", "buy", "--group", "5", "--station", "Luzern", "--time", "14:30")
    assert rc == 2 and "Wohlen AG at 13:50" in err["error"]
    assert ok(capsys, "ledger", "buy", "--group", "5", "--station", "Luzern", "--time", "15:30")["amount"] > 0


def test_build_toll_line_tunnel_and_errors_are_one_line(capsys):
    for s, t in [("Zug", "09:10"), ("Zürich HB", "10:00"), ("Zürich Oerlikon", "10:20")]:
        ok(capsys, "ledger", "buy", "--group", "1", "--station", s, "--time", t)
    ok(capsys, "ledger", "income", "--group", "1", "--time", "10:00")
    built = ok(capsys, "ledger", "build", "--group", "1", "--time", "10:32", "--houses", "Zug=1")
    assert built["message"] == "1 10.32 H Zug" and built["amount"] == 4000
    line = ok(capsys, "ledger", "buy", "--group", "2", "--toll-line", "luzern–rotkreuz", "--time", "11:00")
    assert line["message"] == "2K 11.00 Luzern–Rotkreuz" and line["amount"] == 4000
    tunnel = ok(capsys, "ledger", "buy", "--group", "2", "--tunnel", "Hauenstein", "--time", "11:30")
    assert tunnel["amount"] == 3000
    fee = ok(capsys, "ledger", "pay", "--group", "1", "--tunnel", "Hauenstein", "--time", "11:40", "--dice", "5,6")
    assert fee["amount"] == 80 * 11
    for argv, msg in [
        (["ledger", "pay", "--group", "1", "--tunnel", "Hauenstein", "--time", "11:41"], "two dice"),
        (["ledger", "buy", "--group", "1", "--toll-line", "Nowhere", "--time", "11:00"], "unknown toll line"),
        (["ledger", "build", "--group", "1", "--time", "11:00", "--houses", "Zug"], "STATION=N"),
        (["ledger", "parking", "--group", "1", "--time", "11:00", "--empty", "--dice", "3,7"], "each 1-6"),
        (["ledger", "income", "--group", "1", "--time", "10:00"], "already had its income"),
    ]:
        if msg == "two dice":  # one as a program of its own: its exit code and what it writes
            proc = subprocess.run([sys.executable, "-m", "planner", *argv, *DAY], capture_output=True, text=True,
                                  env=os.environ.copy(), cwd=ROOT)
            rc, out, err = proc.returncode, proc.stdout, proc.stderr
        else:  # the rest through the same main(argv), in this process (no interpreter start-up each)
            rc = main([*argv, *DAY])
            out, err = capsys.readouterr()
        assert rc == 2 and out == "", err
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("planner: error: ") and msg in lines[0], err


def _buy(group: str, minute: int) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "planner", "ledger", "buy", "--group", group, "--station",
                             "Baar", "--time", f"09:{minute:02d}", *DAY, "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=os.environ.copy(),
                            cwd=ROOT)


@pytest.mark.parametrize("same_minute", [False, True])
def test_six_processes_buying_one_station(capsys, same_minute):
    ok(capsys, "ledger", "status")  # the game day is in the cache: the six start together
    main(["stations", *DAY, "--json"])
    capsys.readouterr()
    procs = [_buy(str(g), 10 if same_minute else 10 + g) for g in range(1, 7)]
    results = [(p.wait(timeout=120), p.stdout.read(), p.stderr.read()) for p in procs]
    st = ok(capsys, "ledger", "status")
    owners = [g["group"] for g in st["groups"] if any(s["name"] == "Baar" for s in g["stations"])]
    assert len(owners) == 1
    winners = [json.loads(out) for rc, out, _ in results if rc == 0 and not json.loads(out)["pending"]]
    if not same_minute:  # §19: the earliest decision owns it, whichever process recorded first
        assert owners == ["1"] and "1" in [w["group"] for w in winners]
        assert {g["group"]: g["cash"] for g in st["groups"]}["1"] == 20000 - winners[0]["amount"]
        assert all(g["cash"] == 20000 for g in st["groups"] if g["group"] != "1")  # an undone purchase cost nothing
        refused = [err for rc, _, err in results if rc != 0]
        assert all("belongs to group" in e for e in refused), refused
        return
    assert [w["group"] for w in winners] == owners
    if same_minute:  # §7.2: the other five wait for the dice, none owns it, none paid
        assert len(st["diceoffs"]) == 1 and sorted(st["diceoffs"][0]["groups"]) == [str(g) for g in range(1, 7)], \
            [(rc, err.strip()[-300:]) for rc, _, err in results]
        assert all(rc == 0 for rc, _, _ in results)
        assert sorted(g["cash"] for g in st["groups"]) == [20000 - winners[0]["amount"]] + [20000] * 5
        rolls = [f"{g}={2 + g}" for g in range(1, 7)]
        args = ["ledger", "diceoff", "--station", "Baar", "--time", "09:12"]
        for r in rolls:
            args += ["--roll", r]
        settled = ok(capsys, *args)
        assert settled["message"] == "6 Baar Würfeln gewonnen"
        st = ok(capsys, "ledger", "status")
        assert [g["group"] for g in st["groups"] if g["stations"]] == ["6"] and not st["diceoffs"]
        assert sum(g["cash"] for g in st["groups"]) == 6 * 20000 - winners[0]["amount"]
    else:
        refused = [err for rc, _, err in results if rc == 2]
        assert len(refused) == 5
        assert all(f"belongs to group {owners[0]}" in err for err in refused)


def test_income_with_a_trip_checks_the_bonus_rule_on_the_timetable(capsys, zug_tt):
    tt = zug_tt
    hour = 11 * 3600

    def at_full_hour(trip: int) -> bool:
        rows = list(tt.trip_stop_times(trip))
        times = [int(tt.st_arr[r]) for r in rows[1:]] + [int(tt.st_dep[r]) for r in rows[:-1]]
        return hour in times

    trips = range(len(tt.trip_id))
    hit = next(t for t in trips if at_full_hour(t))
    miss = next(t for t in trips if not at_full_hour(t) and any(
        hour - 1800 < int(tt.st_arr[r]) < hour + 1800 for r in tt.trip_stop_times(t)))
    got = ok(capsys, "ledger", "income", "--group", "1", "--time", "11:00", "--trip", tt.trip_id[hit])
    assert got["amount"] == 8000 and got["bonus"] is True
    rc, err = run(capsys, "ledger", "income", "--group", "2", "--time", "11:00", "--bonus", "--trip", tt.trip_id[miss])
    assert rc == 2 and "bonus minutes" in err["error"]
    assert ok(capsys, "ledger", "income", "--group", "2", "--time", "11:00")["amount"] == 4000


def test_a_late_message_is_marked_with_the_section_13_penalty(capsys):
    late = ok(capsys, "ledger", "buy", "--group", "3", "--station", "Zug", "--time", "09:10", "--reported", "09:31")
    assert late["message"] == "3K 9.10 Zug (verspätet 21 Min.: +400 P)"
    assert late["transfers"] == [["3", "bank", 4000], ["3", "parking", 400]]
    rc, err = run(capsys, "ledger", "buy", "--group", "3", "--station", "Baar", "--time", "09:45",
                  "--reported", "09:30")
    assert rc == 2 and "more than 10 minutes early: invalid (§13)" in err["error"]


def test_a_roll_made_seated_in_a_train_is_a_sighting_at_its_stop(capsys):
    # the roll stores "Zürich HB (in IR70 12:09 Luzern → Zürich HB)": the ledger reads the station from it
    ok(capsys, "roll", "--group", "Seated", "--dice", "2", "--at", "Luzern", "--trip", "IR70 12:09", "--time", "12:40")
    assert ok(capsys, "ledger", "buy", "--group", "Seated", "--station", "Zug", "--time", "12:00")["amount"] > 0
    rc, err = run(capsys, "ledger", "buy", "--group", "Seated", "--station", "Baar", "--time", "12:45")
    assert rc == 2 and "was at Zürich HB at 12:40 (roll #1)" in err["error"], err
