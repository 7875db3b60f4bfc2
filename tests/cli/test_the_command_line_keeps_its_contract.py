"""The command line's contract as an organiser and a group meet it (issue 43): a question about a train answers,
the game's own feed is accepted however it is typed, the handout draws the game of its links file, ``game new``
says what is wrong with the game it creates (or refuses one nobody could play), and the small refusals say what
happened, in one line of the user's language. The days are written in tests/support/play_day.py (``play_argv``,
variant B's ``variant_b_argv``).

Run as users run it: ``planner ... --lang de`` in a subprocess where the process matters (the warning on stderr, a
port in use), ``main(argv)`` in this process where only the answer does.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from planner.cli import main
from tests.support import ROOT, assert_one_line_error
from tests.support.inline_day import day_argv, demo_day

pytestmark = pytest.mark.long  # one worker runs a module (--dist loadfile)

TRIP = "IR70-1229-back"  # the IR70 Luzern 12:29 - Rotkreuz 12:42 - Zug 12:50
DAY: list[str] = []  # the day's --feed and --date (filled by ``_day``)


@pytest.fixture(scope="module", autouse=True)
def _day(play_argv):
    DAY[:] = play_argv[:4]


def planner(*argv: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """``planner ARGV`` as a user runs it (a new process, this test's state and cache)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "planner", *argv], capture_output=True, text=True, cwd=cwd,
                          env=env, timeout=300)


def _game_new(tmp_path: Path, *extra: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return planner("game", "new", "--name", "Samstag", "--groups", "Rot,Blau", *extra, "--json", cwd=cwd)


def test_target_in_a_train_answers_the_roll_in_german_and_in_json(capsys):
    p = planner("target", *DAY, "--game", "sbb-monopoly", "--trip", TRIP, "--at", "Zug", "--time", "12:45",
                "--roll", "2", "--lang", "de")
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("Wurf 2: fahrt nach Wohlen AG, Ankunft 13:50"), p.stdout  # S1 13:06, S26 13:23
    assert "aus dem IR70 aussteigen" in p.stdout
    assert main(["target", *DAY, "--trip", TRIP, "--at", "Zug", "--roll", "2", "--json", "--lang", "fr"]) == 0
    out = json.loads(capsys.readouterr().out)  # (checked against the schema of "target" on the way)
    assert out["train"] and out["legs"][0]["trip_id"] == TRIP and out["target"] == "Wohlen AG"


def test_a_group_command_accepts_the_games_feed_typed_relative_or_through_a_link(tmp_path):
    feed = Path(DAY[1])
    link = tmp_path / "zug.zip"
    link.symlink_to(feed)
    rel = os.path.relpath(feed, tmp_path)
    made = _game_new(tmp_path, "--feed", rel, "--date", "2021-09-11", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    for feed in (rel, str(link)):
        p = planner("roll", "--feed", feed, "--group", "Rot", "--dice", "2", "--at", "Zug", "--time", "12:40",
                    "--lang", "de", cwd=tmp_path)
        assert p.returncode == 0, p.stderr
        assert "Wurf 2" in p.stdout
        assert planner("group", "undo", "--feed", feed, "--group", "Rot", cwd=tmp_path).returncode == 0
    other_feed = day_argv(demo_day(tmp_path / "other"))[1]  # another feed than the game's
    other = planner("roll", "--feed", other_feed, "--group", "Rot",
                    "--dice", "2", "--at", "Zug", "--time", "12:40", "--lang", "de", cwd=tmp_path)
    assert_one_line_error(other.returncode, other.stderr, "wird mit feed")


def test_the_handout_of_a_links_file_draws_that_games_day_without_repeating_it(tmp_path, variant_b_argv):
    made = _game_new(tmp_path, *variant_b_argv)
    assert made.returncode == 0, made.stderr
    links = tmp_path / "game.json"
    links.write_text(made.stdout, "utf-8")
    assert json.loads(made.stdout)["played_on"]["game"] == "nordwestschweiz"
    for state in ("", "elsewhere"):  # the state that holds the game, then one on another machine (the file says it)
        env_state = os.environ["PLANNER_STATE"]
        if state:
            os.environ["PLANNER_STATE"] = str(tmp_path / "other.sqlite")
        try:
            pdf = tmp_path / f"handout{state}.pdf"
            p = planner("handout", "--links", str(links), "--out", str(pdf), "--no-png", "--lang", "de")
        finally:
            os.environ["PLANNER_STATE"] = env_state
        assert p.returncode == 0, p.stderr
        text = subprocess.run(["pdftotext", "-l", "1", str(pdf), "-"], capture_output=True, text=True).stdout
        assert "Nordwestschweiz" in text and "11. September 2021" in text, text[:300]
    p = planner("handout", "--links", str(links), "--out", str(tmp_path / "x.pdf"), "--date", "2021-09-18",
                "--lang", "de")
    assert_one_line_error(p.returncode, p.stderr, "--date 2021-09-18", "2021-09-11")


def test_game_new_warns_on_stderr_with_json_and_refuses_a_day_nobody_can_play(tmp_path):
    p = _game_new(tmp_path, *DAY, "--lang", "de")
    assert p.returncode == 0 and json.loads(p.stdout)["warnings"]
    assert "UNGÜLTIG" in p.stderr and p.stderr.startswith("planner: Warnung:")  # seen though stdout is a file
    p = _game_new(tmp_path, "--feed", DAY[1], "--date", "2022-01-15", "--lang", "de")
    assert_one_line_error(p.returncode, p.stderr, "2022-01-15", "ausserhalb des Fahrplans")
    p = _game_new(tmp_path, "--game", "nordwestschweiz", "--date", "2026-06-13", "--lang", "de")
    assert_one_line_error(p.returncode, p.stderr, "nordwestschweiz", "--feed")
    assert planner("group", "list", "--json").stdout.count('"name"') <= 2  # only the first game was created


def test_outputs_refuse_an_existing_file_unless_forced(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PLANNER_MAPS_DIR", raising=False)
    assert main(["schema", "--write", "d", "next"]) == 0
    (tmp_path / "d" / "next.json").write_text("mine")
    rc = main(["schema", "--write", "d", "--lang", "de"])
    assert_one_line_error(rc, capsys.readouterr().err, "next.json", "--force")
    assert (tmp_path / "d" / "next.json").read_text() == "mine" and not (tmp_path / "d" / "roll.json").exists()
    assert main(["schema", "--write", "d", "--force"]) == 0
    assert (tmp_path / "d" / "next.json").read_text().startswith("{")
    capsys.readouterr()
    assert main(["map", "area", *DAY, "--json"]) == 0  # into the current folder, not the repository's maps/
    path = Path(json.loads(capsys.readouterr().out)["path"])
    assert path.parent == tmp_path and path.is_file()
    rc = main(["map", "area", *DAY, "--lang", "de"])
    assert_one_line_error(rc, capsys.readouterr().err, path.name, "--force")
    rc = main(["export", *DAY, "--out", str(path), "--lang", "de"])
    assert_one_line_error(rc, capsys.readouterr().err, "--force")
    assert main(["map", "area", *DAY, "--force"]) == 0


def test_serve_on_a_port_in_use_says_so_in_one_line():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        p = planner("serve", "--port", str(port), "--lang", "de")
    assert_one_line_error(p.returncode, p.stderr, f"--port {port}", "belegt")
    assert "bedient" not in p.stderr and "Errno" not in p.stderr


def test_advise_for_a_group_with_no_position_asks_for_it(capsys):
    assert main(["game", "new", "--name", "G", "--groups", "Rot,Blau", *DAY, "--json"]) == 0
    capsys.readouterr()
    assert main(["advise", *DAY, "--group", "Rot", "--time", "10:00", "--lang", "de"]) == 0
    out = capsys.readouterr().out
    assert "wo die Gruppe ist, ist nicht bekannt" in out and "nichts zu kaufen" not in out
    assert main(["advise", *DAY, "--group", "Rot", "--time", "10:00", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["scope"] == "unknown"


def test_a_feed_whose_calendar_runs_nothing_is_refused(tmp_path, capsys):
    feed = tmp_path / "feed"
    with zipfile.ZipFile(DAY[1]) as z:
        z.extractall(feed)
    for name in ("calendar.txt",):  # (the day has no calendar_dates.txt)
        path = feed / name
        path.write_text(path.read_text("utf-8").splitlines()[0] + "\n", "utf-8")
    rc = main(["stations", "--feed", str(feed), "--date", "2021-09-11", "--lang", "de"])
    out, err = capsys.readouterr()
    assert_one_line_error(rc, err, "fährt nichts")
    assert out == ""


def test_ledger_events_before_the_start_and_accepts_before_the_offer_say_why(capsys):
    assert main(["game", "new", "--name", "G", "--groups", "Rot,Blau", *DAY, "--json"]) == 0
    assert main(["ledger", "buy", "--group", "Rot", "--station", "Zug", "--time", "09:00", "--reported",
                 "09:00"]) == 0
    capsys.readouterr()
    rc = main(["ledger", "income", "--group", "Rot", "--time", "08:59", "--reported", "08:59", "--lang", "de"])
    assert_one_line_error(rc, capsys.readouterr().err, "08:59", "ausserhalb des Spiels")
    assert main(["ledger", "sell", "--group", "Rot", "--station", "Zug", "--to", "Blau", "--amount", "5000",
                 "--time", "11:00", "--reported", "11:00", "--json"]) == 0
    offer = json.loads(capsys.readouterr().out)["seq"]
    rc = main(["ledger", "accept", "--group", "Blau", "--offer", str(offer), "--time", "10:00", "--reported",
               "10:00", "--lang", "de"])
    assert_one_line_error(rc, capsys.readouterr().err, f"Nr. {offer}", "um 11:00 gemacht")


@pytest.mark.parametrize("option", ["--lang", "--date"])
def test_a_value_of_ten_thousand_characters_is_not_echoed_whole(option, capsys):
    rc = main(["stations", *DAY[:2], option, "x" * 10_000])
    err = capsys.readouterr().err
    assert_one_line_error(rc, err)
    assert len(err) < 500 and "…" in err
