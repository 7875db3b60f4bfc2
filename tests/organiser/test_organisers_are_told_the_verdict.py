"""The organisers are told when ``planner check-area`` refuses the game area: ``game new``, ``handout`` and the
organiser's page say so in one line (the day written in tests/support/play_day.py has 5 of variant A's 20 dice
targets: INVALID); that they say nothing on a valid day is checked on the SYNTHETIC whole-area day
(tests/organiser/test_report.py). The area report's tables say what its problems say, and the join codes are
headed by the game's name. The line network is the one written beside the day (no ../shared)."""

from __future__ import annotations

import datetime as dt
import json
import re
import subprocess

import pytest
import requests

from planner.cli import main
from planner.gamefile.game import load_game
from planner.gtfs.source import FeedSource
from planner.organiser.area_check import check_area
from planner.service.setup.playing import GameDay
from tests.support.play_day import rail_csv
from tests.support.webserver import run_cli, web_env

DAY: list[str] = []  # the day's --feed, --date and --game (filled by ``check``)


@pytest.fixture(autouse=True)
def _line_network(tmp_path, monkeypatch):
    monkeypatch.setenv("PLANNER_RAIL_CSV", rail_csv(tmp_path))


@pytest.fixture(scope="module")
def check(play_argv, tmp_path_factory) -> dict:
    """``planner check-area``'s report on the day (variant A): the verdict the others repeat."""
    DAY[:] = play_argv
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PLANNER_RAIL_CSV", rail_csv(tmp_path_factory.mktemp("rail")))
        day = GameDay(DAY[1], load_game("sbb-monopoly"), dt.date.fromisoformat(DAY[3]))
        return check_area(day.timetable, day.game, day.network, FeedSource(day.feed))


def test_game_new_warns_of_an_invalid_area(tmp_path, check):
    n = len(check["problems"])
    assert not check["valid"] and n == 15 + 3 + 2  # targets missing; toll lines and tunnels no train crosses
    env = web_env(tmp_path)
    p = run_cli(env, "game", "new", "--name", "Samstag", "--groups", "Rot,Blau", *DAY, "--json")
    assert p.returncode == 0, p.stderr
    (warning,) = json.loads(p.stdout)["warnings"]
    assert warning.startswith(f"check-area: SBB-Monopoly on Saturday, September 11, 2021 is INVALID ({n} problems, the "
                              f"first: {check['problems'][0]})")
    p = run_cli(env, "game", "new", "--name", "Sonntag", "--groups", "Rot", *DAY)
    assert p.returncode == 0 and p.stderr == f"planner: warning: {warning}\n"  # one line, the game made all the same


def test_handout_warns_and_heads_the_join_codes_with_the_game_name(tmp_path, capsys, check):
    env = web_env(tmp_path)
    p = run_cli(env, "game", "new", "--name", "Samstag der Reise", "--groups", "Rot", *DAY, "--json")
    links = tmp_path / "game.json"
    links.write_text(p.stdout)
    out = tmp_path / "handout.pdf"
    rc = main(["handout", *DAY, "--no-png", "--dpi", "50", "--out", str(out), "--links", str(links), "--json"])
    info = json.loads(capsys.readouterr().out)
    assert rc == 0
    assert info["warnings"][0].startswith("check-area: SBB-Monopoly on Saturday, September 11, 2021 is INVALID "
                                          f"({len(check['problems'])} problems")
    text = subprocess.run(["pdftotext", info["join_pdf"], "-"], capture_output=True, text=True, check=True).stdout
    assert "Samstag der Reise (SBB-Monopoly)" in text and "(game " not in text
    rc = main(["handout", *DAY, "--no-png", "--dpi", "50", "--out", str(out), "--force"])
    assert rc == 0 and "planner: warning: check-area: SBB-Monopoly on Saturday, September 11, 2021 is INVALID" in capsys.readouterr().err


def test_the_organisers_page_shows_the_verdict(web_server, check):
    p = run_cli(web_server.env, "game", "new", "--name", "Banner", "--groups", "Rot", *DAY, "--json")
    game = json.loads(p.stdout)
    # the server's verdict is the one game new tells in the server's environment (its line network: ../shared's,
    # or none where the data is not)
    said = re.search(r"is INVALID \(\d+ problems", game["warnings"][0])[0]
    page = requests.get(f"{web_server.url}/games/{game['game']}",
                        headers={"Authorization": f"Bearer {game['organiser']['token']}"}, timeout=120)
    assert page.ok and 'id="area-warning"' in page.text
    assert said in page.text and f"/games/{game['game']}/report" in page.text


def test_the_report_tables_say_what_the_problems_say(capsys, check):
    for c in (*check["toll_lines"], *check["tunnels"]):
        kind = "toll line" if c["kind"] == "toll_line" else "tunnel"
        assert c["missing_ends"] == [e["name"] for e in c["ends"] if not e["found"]]
        for p in check["problems"]:  # an end the problem says is not in the feed is missing in the table too
            if p.startswith(f"{kind} {c['name']}:") and "not in the feed" in p:
                assert c["missing_ends"] and f"{', '.join(c['missing_ends'])} not in the feed" in p, (p, c)
    rc = main(["check-area", *DAY])
    text = capsys.readouterr().out
    assert rc == 1
    row = next(line for line in text.splitlines() if line.startswith("Hauenstein "))
    assert row.split()[1:4] == ["yes", "NO:", "Tecknau,"] and "NO: Tecknau, Olten" in row  # found on the line
    assert "problem: tunnel Hauenstein: no train crosses it during the game hours (09:00–17:55) on " \
           "Saturday, September 11, 2021 (Tecknau, Olten not in the feed)" in text
