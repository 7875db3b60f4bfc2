"""The CLI interface (names and JSON keys) on the real Zug extract."""

from __future__ import annotations

import json

import pytest

from planner.cli import main
from tests.support import ZUG

pytestmark = pytest.mark.needs_shared  # reads ../shared (tests/project/test_suite_without_shared.py)

DAY = ["--feed", str(ZUG), "--date", "2021-09-11"]


def run_json(capsys, *argv: str) -> dict | list:
    rc = main([*argv, "--json"])
    out = capsys.readouterr().out
    assert rc == 0, out
    return json.loads(out)


def test_feed_info(capsys):
    info = run_json(capsys, "feed-info", "--feed", str(ZUG))
    assert info["feed_version"] == "20210614"
    assert (info["start_date"], info["end_date"]) == ("2020-12-13", "2021-12-11")
    assert info["trips"] == 13884 and info["stops"] == 905
    info = run_json(capsys, "feed-info", *DAY)
    assert info["trips_on_date"] == 2942 and info["services_on_date"] > 0


def test_stations_keys_and_prices(capsys):
    rows = run_json(capsys, "stations", *DAY)
    by = {r["name"]: r for r in rows}
    assert set(rows[0]) == {"name", "station_id", "lat", "lon", "modes", "category", "price", "letter"}
    assert by["Olten"]["price"] == 1000  # §9: Olten is the exception
    assert by["Zug"]["category"] == "IC" and by["Zug"]["price"] == 4000
    assert by["Affoltern am Albis"]["category"] == "regional" and by["Affoltern am Albis"]["price"] == 1000
    assert by["Zürich Oerlikon"]["letter"] == "Z"


def test_route_json(capsys):
    out = run_json(capsys, "route", *DAY, "--from", "Zug", "--to", "Wohlen AG", "--time", "10:00", "--within", "30")
    assert {"from", "to", "departure", "arrival", "changes", "legs", "alternatives"} <= set(out)
    assert (out["departure"], out["arrival"], out["changes"]) == ("10:06", "10:46", 1)
    assert set(out["legs"][0]) >= {"trip_id", "route", "headsign", "from", "to", "from_platform", "to_platform",
                                  "departure", "arrival"}
    assert out["alternatives"] and all(a["arrival"] <= "11:16" for a in out["alternatives"])


def test_route_unreachable_is_exit_zero_with_reason(capsys):
    out = run_json(capsys, "route", *DAY, "--game", "none", "--from", "Zug", "--to", "Benzenschwil",
                   "--time", "25:30")
    assert out["arrival"] is None and out["reason"]


def test_route_from_train(capsys):
    out = run_json(capsys, "route", *DAY, "--trip", "692.TA.91-S26-A-j21-1.221.R", "--from", "Rotkreuz",
                   "--to", "Wohlen AG")
    assert out["arrival"] == "13:46" and len(out["legs"]) == 1


def test_route_batch(capsys, tmp_path):
    f = tmp_path / "q.csv"
    f.write_text("from,to,time\nZug,Luzern,10:00\nZug,Nowhere,10:00\nZug,Wohlen AG,12:40\n", "utf-8")
    rc = main(["route", *DAY, "--batch", str(f)])
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert rc == 0 and len(lines) == 3
    assert lines[0]["arrival"] == "10:25" and "error" in lines[1] and lines[2]["arrival"] == "13:46"


def test_target_json(capsys):
    out = run_json(capsys, "target", *DAY, "--at", "Zug", "--time", "12:40", "--roll", "2", "--visited", "Wohlen AG")
    assert {"roll", "kind", "target", "arrival", "legs", "candidates", "free_until", "admissible", "bonus",
            "warnings"} <= set(out)
    assert out["target"] == "Zürich Oerlikon" and out["arrival"] == "13:51"
    assert any(c["name"] == "Wohlen AG" and c["targeted"] for c in out["candidates"])


def test_roll_remembers_targets(capsys):
    a = run_json(capsys, "roll", *DAY, "--group", "2", "--dice", "2", "--at", "Zug", "--time", "12:40")
    # a second roll waits until the group reached its target: it heads for Wohlen AG until 13:46
    b = run_json(capsys, "roll", *DAY, "--group", "2", "--dice", "2", "--time", "13:50")
    assert (a["target"], b["target"]) == ("Wohlen AG", "Zürich Oerlikon")
    st = run_json(capsys, "group", "status", *DAY, "--group", "2")
    assert [r["target"] for r in st["rolls"]] == ["Wohlen AG", "Zürich Oerlikon"]
    other = run_json(capsys, "group", "status", *DAY, "--group", "3")
    assert other["rolls"] == []


def test_zugzwang_json(capsys):
    out = run_json(capsys, "zugzwang", *DAY, "--at", "Wohlen AG", "--time", "13:46",
                   "--trip", "692.TA.91-S26-A-j21-1.221.R")
    assert out["deadline"] == "14:15" and out["forced_next"] is False
    assert set(out["departures"][0]) >= {"trip_id", "route", "headsign", "platform", "departure"}


def test_zugzwang_check_log(capsys, tmp_path):
    f = tmp_path / "legs.csv"
    f.write_text("from,to,departure,arrival\nZug,Rotkreuz,13:06,13:19\nRotkreuz,Wohlen AG,13:23,13:46\n"
                 "Wohlen AG,Rotkreuz,15:12,15:35\nLuzern,Zug,16:00,16:25\n", "utf-8")
    rc = main(["zugzwang", *DAY, "--check", str(f), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 1 and not out["ok"]
    rules = [(v["line"], v["rule"]) for v in out["violations"]]
    assert rules == [(4, "4.2"), (5, "4.1")]


def test_bonus_json(capsys):
    out = run_json(capsys, "bonus", *DAY, "--at", "Zug", "--time", "12:40")
    assert out["hour"] == "13:00"
    assert set(out["chances"][0]) >= {"trip_id", "route", "station", "event", "time", "board_at", "board_time"}


def test_tolls_json_with_owners(capsys, tmp_path):
    # IR70 173.TA... runs Zürich HB -> Luzern via Rotkreuz (non-stop there): crosses Luzern–Rotkreuz.
    owners = tmp_path / "owners.toml"
    owners.write_text('[owners]\n"Luzern–Rotkreuz" = "group 2"\n"Olten–Aarau" = "group 2"\n', "utf-8")
    out = run_json(capsys, "tolls", *DAY, "--trip", "173.TA.91-70-j21-1.63.H", "--owners", str(owners))
    assert [(c["name"], c["kind"], c["fee"]) for c in out["crossings"]] == [("Luzern–Rotkreuz", "toll_line", 1000)]
    out = run_json(capsys, "tolls", *DAY, "--trip", "173.TA.91-70-j21-1.63.H", "--to", "Zug")
    assert out["crossings"] == []


def test_route_legs_carry_crossings(capsys):
    out = run_json(capsys, "route", *DAY, "--from", "Zug", "--to", "Luzern", "--time", "10:00")
    assert out["legs"][0]["route"] == "IR75"
    assert [c["name"] for c in out["legs"][0]["crossings"]] == ["Luzern–Rotkreuz"]
