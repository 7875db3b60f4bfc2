"""Organisers' area check (planner.organiser.area_check, ``planner check-area``) on the real Zug extract.

Facts checked by hand in the feed (stop_times of the services running on the day, 09:00-17:55):
* 2021-09-11 (Saturday): Zürich Oerlikon is served by 36 S24 trains, first 09:09, last 17:52; Emmenbrücke by
  36 S1 trains, 09:08 to 17:49. Every dice target of the feed (Zürich Oerlikon, Wohlen AG, Emmenbrücke,
  Affoltern am Albis) is served.
* 2021-10-02 (Saturday, engineering works): no train stops at Emmenbrücke before 18:38.
The extract covers only trips touching canton Zug, so with the shipped game most targets are missing: the
verdict is invalid (exit 1), which is the correct answer for that feed.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import subprocess
import tempfile
from pathlib import Path

import pytest

from planner.cli import main
from tests.support import CHROMIUM, ZUG

pytestmark = pytest.mark.needs_shared  # reads ../shared (tests/project/test_suite_without_shared.py)

GOOD_DAY = dt.date(2021, 9, 11)
WORKS_DAY = dt.date(2021, 10, 2)  # Emmenbrücke without trains during the game hours


def zug_game_toml() -> str:
    """The shipped SBB-Monopoly game with only what the Zug extract can serve (targets, toll lines)."""
    from importlib import resources

    text = (resources.files("planner") / "games" / "sbb-monopoly.toml").read_text("utf-8")
    targets = """targets = [
  { number = 1, stations = ["Zürich Oerlikon"] },
  { number = 2, stations = ["Wohlen AG"] },
  { number = 3, stations = ["Emmenbrücke"] },
  { number = 4, stations = ["Affoltern am Albis"] },
]"""
    text, n = re.subn(r"^targets = \[\n.*?\n\]", targets, text, count=1, flags=re.S | re.M)
    assert n == 1
    crossings = """[[toll_lines]]
name = "Olten–Aarau"
between = ["Olten", "Aarau"]
price = 4000

[[toll_lines]]
name = "Luzern–Rotkreuz"
between = ["Luzern", "Rotkreuz"]
price = 4000

[prices]"""
    text, n = re.subn(r"^\[\[toll_lines\]\].*?^\[prices\]", crossings, text, count=1, flags=re.S | re.M)
    assert n == 1
    return text.replace('name = "sbb-monopoly"', 'name = "zug-check"')


@pytest.fixture(scope="module")
def zug_game_file(tmp_path_factory) -> Path:
    p = tmp_path_factory.mktemp("games") / "zug-check.toml"
    p.write_text(zug_game_toml(), "utf-8")
    return p


def _report(game, date: dt.date) -> dict:
    from planner.gtfs.ingest import build_timetable
    from planner.gtfs.source import FeedSource
    from planner.organiser.area_check import check_area
    from planner.routing import TransitNetwork

    src = FeedSource(ZUG)
    tt = build_timetable(src, game, date, progress=False)
    net = TransitNetwork(tt, default_change=int(game.default_change_minutes * 60))
    return check_area(tt, game, net, src)


@pytest.fixture(scope="module")
def sbb_report(sbb_game) -> dict:
    return _report(sbb_game, GOOD_DAY)


@pytest.fixture(scope="module")
def zug_reports(zug_game_file) -> dict[dt.date, dict]:
    from planner.gamefile.game import load_game

    game = load_game(zug_game_file)
    return {d: _report(game, d) for d in (GOOD_DAY, WORKS_DAY)}


def _target(rep: dict, name: str) -> dict:
    return next(t for t in rep["targets"] if t["name"] == name)


# ---- the shipped game on the Zug extract -----------------------------------------------------------

def test_shipped_game_is_invalid_on_the_zug_extract(sbb_report):
    rep = sbb_report
    assert rep["valid"] is False
    assert set(rep) >= {"valid", "targets", "toll_lines", "tunnels", "stations", "letters", "unreachable",
                        "problems"}
    assert len(rep["targets"]) == 20  # 5 numbers x 4 stations
    oerlikon = _target(rep, "Zürich Oerlikon")
    assert oerlikon == {**oerlikon, "number": 2, "found": True, "in_area": True, "served": True,
                        "first": "09:09", "last": "17:52", "per_hour": 4.0}
    emmen = _target(rep, "Emmenbrücke")
    assert (emmen["served"], emmen["first"], emmen["last"]) == (True, "09:08", "17:49")
    for name in ("Wohlen AG", "Affoltern am Albis"):
        assert _target(rep, name)["served"] is True
    sissach = _target(rep, "Sissach")
    assert (sissach["found"], sissach["served"]) == (False, False)
    assert "target 1 Sissach: not found in the feed" in rep["problems"]
    # every missing target is listed, not only the first
    missing = [t["name"] for t in rep["targets"] if not t["found"]]
    assert len(missing) == 16
    assert all(any(m in p for p in rep["problems"]) for m in missing)


def test_toll_lines_and_tunnels_of_the_shipped_game(sbb_report):
    tolls = {c["name"]: c for c in sbb_report["toll_lines"]}
    assert list(tolls) == ["Delémont–Laufen", "Olten–Aarau", "Brugg–Baden", "Luzern–Rotkreuz"]
    lr = tolls["Luzern–Rotkreuz"]
    assert lr["served"] and lr["in_area"] and "S1" in lr["routes"]
    assert lr["first"] is not None and lr["first"] >= "09:00" and lr["last"] <= "17:55"
    assert tolls["Olten–Aarau"]["served"]
    assert not tolls["Delémont–Laufen"]["served"]  # Jura line: not in the extract
    assert any(p.startswith("toll line Delémont–Laufen:") for p in sbb_report["problems"])
    tunnels = {c["name"]: c for c in sbb_report["tunnels"]}
    assert set(tunnels) == {"Hauenstein", "Heitersberg"}
    assert not any(t["served"] for t in tunnels.values())


def test_area_stations_routes_letters(sbb_report):
    st = sbb_report["stations"]
    assert st["count"] == len(st["buyable"]) == sum(st["by_category"].values())
    assert set(st["by_category"]) <= {"IC", "fast", "regional"}  # variant A: trains only
    assert {"Zug", "Zürich Oerlikon", "Luzern", "Arth-Goldau"} <= set(st["on_ring"])
    assert "Rotkreuz" not in st["on_ring"]  # inside, not on the ring
    assert st["routes"]["dropped_by_mode"].get("bus", 0) > 0  # the Zug buses are dropped by mode
    excl = {(e["agency"], e["route"]): e["routes"] for e in st["routes"]["excluded"]}
    assert excl == {("Baselland Transport", "10"): 0, ("Baselland Transport", "11"): 0}  # no Basel in the extract
    assert any("exclusion Baselland Transport 10 matches no route" in w for w in sbb_report["warnings"])
    rows = {r["name"]: r for r in st["buyable"]}
    assert rows["Zug"]["category"] == "IC" and rows["Zug"]["price"] == 4000 and rows["Zug"]["letter"] == "Z"
    assert rows["Olten"]["price"] == 1000  # the game file's override
    assert rows["Zürich Oerlikon"]["targets"] == [2]
    letters = sbb_report["letters"]
    assert sum(v["stations"] for v in letters.values()) == st["count"]
    small = [k for k, v in letters.items() if v["stations"] < 3]
    assert small and all(not letters[k]["can_form_group"] for k in small)
    for k in small:
        assert any(w.startswith(f"letter {k}: only") for w in sbb_report["warnings"])
    assert letters["Z"]["groups"] == letters["Z"]["stations"] // 3


def test_connectivity(sbb_report, sbb_game):
    # the extract's rail network is connected over the whole game day ...
    assert sbb_report["unreachable"] == []
    # ... but not when the game lasts only 20 minutes
    from dataclasses import replace

    from planner.gtfs.ingest import build_timetable
    from planner.gtfs.source import FeedSource
    from planner.organiser.area_check import unreachable_pairs
    from planner.routing import TransitNetwork

    short = replace(sbb_game, clock=replace(sbb_game.clock, end=sbb_game.clock.start + 20 * 60))
    tt = build_timetable(FeedSource(ZUG), short, GOOD_DAY, progress=False)
    gaps = unreachable_pairs(TransitNetwork(tt), short)
    assert gaps and all(g["count"] == len(g["to"]) > 0 for g in gaps)
    assert {g["from"] for g in gaps} <= set(tt.station_name)


# ---- a game the extract can serve: valid on one day, not on the other --------------------------------

def test_valid_when_every_target_is_served(zug_reports):
    rep = zug_reports[GOOD_DAY]
    assert rep["valid"] is True, rep["problems"]
    assert rep["problems"] == []
    assert [t["name"] for t in rep["targets"]] == ["Zürich Oerlikon", "Wohlen AG", "Emmenbrücke",
                                                    "Affoltern am Albis"]
    assert all(t["found"] and t["in_area"] and t["served"] for t in rep["targets"])
    assert all(c["served"] for c in rep["toll_lines"]) and rep["tunnels"] == []


def test_game_new_says_nothing_on_a_valid_day(tmp_path, nws_feed, nws_date):
    """On a day check-area finds valid (the SYNTHETIC Nordwestschweiz day) ``game new`` warns of nothing; its warning
    on an invalid day: tests/organiser/test_organisers_are_told_the_verdict.py."""
    from tests.support.webserver import run_cli, web_env

    p = run_cli(web_env(tmp_path), "game", "new", "--name", "NWS", "--groups", "Rot", "--game", "nordwestschweiz",
                "--feed", str(nws_feed), "--date", nws_date.isoformat(), "--json")
    assert p.returncode == 0 and p.stderr == "" and json.loads(p.stdout)["warnings"] == []


def test_invalid_when_a_target_has_no_train_in_the_game_hours(zug_reports):
    rep = zug_reports[WORKS_DAY]
    assert rep["valid"] is False
    emmen = _target(rep, "Emmenbrücke")
    # found and in the area (trains stop there from 18:38), but none during the game hours
    assert (emmen["found"], emmen["in_area"], emmen["served"], emmen["first"]) == (True, True, False, None)
    assert rep["problems"] == ["target 3 Emmenbrücke: no train during the game hours (09:00–17:55) on Saturday, October 2, 2021"]


def test_target_in_the_feed_but_outside_the_area(sbb_game):
    from dataclasses import replace

    from planner.gamefile.rules import DiceTarget

    # Erstfeld (Gotthard line) is a stop of trips kept whole in the extract, but far outside the ring
    game = replace(sbb_game, dice=replace(sbb_game.dice, targets=(DiceTarget(1, ("Erstfeld", "Zug")),)), toll_lines=(),
                   tunnels=())
    rep = _report(game, GOOD_DAY)
    erst, zug = _target(rep, "Erstfeld"), _target(rep, "Zug")
    assert (erst["found"], erst["in_area"], erst["served"]) == (True, False, False)
    assert (zug["found"], zug["in_area"], zug["served"]) == (True, True, True)
    assert rep["problems"] == ["target 1 Erstfeld: outside the game area"]
    assert rep["valid"] is False


# ---- the command -------------------------------------------------------------------------------------

def _run(capsys, *argv: str) -> tuple[int, str]:
    rc = main(list(argv))
    return rc, capsys.readouterr().out


def test_cli_exit_codes_and_json(capsys, zug_game_file, tmp_path):
    rc, out = _run(capsys, "check-area", "--feed", str(ZUG), "--game", "sbb-monopoly", "--date", "2021-09-11",
                   "--json")
    assert rc == 1
    rep = json.loads(out)
    assert rep["valid"] is False and len(rep["problems"]) >= 16
    rc, out = _run(capsys, "check-area", "--feed", str(ZUG), "--game", str(zug_game_file), "--date", "2021-09-11")
    assert rc == 0
    assert "VALID" in out.splitlines()[0] and "Source: opentransportdata.swiss" in out
    rc, out = _run(capsys, "check-area", "--feed", str(ZUG), "--game", str(zug_game_file), "--date", "2021-10-02",
                   "--json")
    assert rc == 1
    assert json.loads(out)["problems"][0].startswith("target 3 Emmenbrücke")
    rc, out = _run(capsys, "check-area", "--feed", str(ZUG), "--game", "sbb-monopoly", "--date", "2030-01-01")
    assert rc == 2  # date outside the feed: an error, not a verdict


def _chromium_dom(html_file: Path) -> tuple[str, str]:
    """DOM after scripts ran, and the console log, with the network cut off."""
    with tempfile.TemporaryDirectory() as profile:
        proc = subprocess.run(
            [str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={profile}", "--host-resolver-rules=MAP * ~NOTFOUND",
             "--proxy-server=http://127.0.0.1:9", "--enable-logging=stderr", "--v=0",
             "--virtual-time-budget=2000", "--dump-dom", html_file.resolve().as_uri()],
            capture_output=True, text=True, timeout=120)
    return proc.stdout, proc.stderr


def test_html_report_renders_in_the_browser(capsys, tmp_path):
    assert CHROMIUM.exists(), "chromium not installed: run `make system-deps`"  # fail, never skip
    out_html = tmp_path / "report.html"
    rc, out = _run(capsys, "check-area", "--feed", str(ZUG), "--game", "sbb-monopoly", "--date", "2021-09-11",
                   "--json", "--out", str(out_html))
    assert rc == 1 and json.loads(out)["html"] == str(out_html)
    text = out_html.read_text("utf-8")
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", text)  # self-contained
    dom, log = _chromium_dom(out_html)
    assert 'id="verdict" class="verdict invalid"' in dom
    assert "The game area is NOT valid" in dom
    assert dom.index("verdict") < dom.index("Dice targets")  # verdict at the top
    assert "Zürich Oerlikon" in dom and "09:09" in dom and "Luzern–Rotkreuz" in dom
    assert "Source: opentransportdata.swiss" in dom
    assert dom.count("<tr>") > 60  # targets, crossings, letters, stations
    assert "Uncaught" not in log
