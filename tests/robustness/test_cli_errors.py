"""Bad input: a clear one-line error, exit code 2 (JSON with --json), never a traceback. The Zug day is a timetable
written here: S1 Baar - Baar Neufeld - Zug, IR70 Zug - Luzern and IC1 Olten - Basel SBB (in both games' areas),
hourly."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from planner.cli import main
from tests.support import FIXTURES, assert_one_line_error
from tests.support.inline_day import ROUTES, day_argv, inline_day, line_service, stops_txt

DAY: list[str] = []  # --feed, --date and --game of the day below, for the test running
ZUG: list[str] = []  # its feed


@pytest.fixture(autouse=True)
def _zug_day(tmp_path):
    hours = [f"{h:02d}:00" for h in range(6, 22)]
    lines = [line_service("S1", [("Baar", 0), ("Baar Neufeld", 2), ("Zug", 5)], hours),
             line_service("IR70", [("Zug", 0), ("Luzern", 21)], hours),
             line_service("IC1", [("Olten", 0), ("Basel SBB", 24)], hours)]
    day = inline_day(tmp_path / "day", routes=ROUTES,
                     stops=stops_txt("Baar", "Baar Neufeld", "Zug", "Luzern", "Olten", "Basel SBB"),
                     trips="route_id,service_id,trip_id\n" + "".join(t for t, _ in lines),
                     stop_times="trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
                     + "".join(st for _, st in lines))
    DAY[:] = day_argv(day)
    ZUG[:] = [day.feed]
    yield
    DAY.clear()
    ZUG.clear()


def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    cap = capsys.readouterr()
    return rc, cap.out, cap.err


def test_unknown_station_suggests(capsys):
    rc, _, err = run(capsys, "route", *DAY, "--from", "Zugg", "--to", "Luzern", "--time", "10:00")
    assert_one_line_error(rc, err, "Zugg", "did you mean", "Zug")


def test_ambiguous_station(capsys):
    rc, _, err = run(capsys, "route", *DAY, "--from", "Ba", "--to", "Luzern", "--time", "10:00")
    assert_one_line_error(rc, err, "ambiguous", "Baar")


def test_missing_station_name(capsys):
    rc, _, err = run(capsys, "route", *DAY, "--to", "Luzern", "--time", "10:00")
    assert_one_line_error(rc, err, "--from")


def test_date_outside_feed(capsys):
    rc, _, err = run(capsys, "route", "--feed", ZUG[0], "--date", "2030-01-01", "--from", "Zug", "--to", "Luzern",
                     "--time", "10:00")
    assert_one_line_error(rc, err, "2030-01-01", "outside the feed")


@pytest.mark.parametrize("t", ["25:00:00x", "10:61", "48:00", "ten"])
def test_time_out_of_range(capsys, t):
    rc, _, err = run(capsys, "route", *DAY, "--from", "Zug", "--to", "Luzern", "--time", t)
    assert_one_line_error(rc, err, "time")


def test_time_after_game_end(capsys):
    rc, _, err = run(capsys, "target", *DAY, "--at", "Zug", "--time", "18:30", "--roll", "2")
    assert_one_line_error(rc, err, "after the end of the game")


@pytest.mark.parametrize("roll", ["0", "7"])
def test_roll_out_of_range_variant_a(capsys, roll):
    rc, _, err = run(capsys, "target", *DAY, "--at", "Zug", "--time", "13:00", "--roll", roll)
    assert_one_line_error(rc, err, f"roll {roll}")


def test_variant_b_roll_57(capsys):
    rc, _, err = run(capsys, "target", *DAY, "--game", "nordwestschweiz", "--at", "Olten", "--time", "12:00",
                     "--roll", "57")
    assert_one_line_error(rc, err, "roll 57")


def test_unknown_trip(capsys):
    rc, _, err = run(capsys, "route", *DAY, "--from", "Zug", "--to", "Luzern", "--trip", "no.such.trip")
    assert_one_line_error(rc, err, "unknown trip id")


def test_game_file_unknown_key(capsys, tmp_path):
    from importlib import resources

    p = tmp_path / "g.toml"
    text = (resources.files("planner") / "games" / "sbb-monopoly.toml").read_text("utf-8")
    p.write_text(text.replace("[dice]\n", "[dice]\nsides = 8\n"), "utf-8")
    rc, _, err = run(capsys, "stations", *DAY, "--game", str(p))
    assert_one_line_error(rc, err, str(p), "dice.sides")


def _feed_copy(tmp_path: Path) -> Path:
    d = tmp_path / "feed"
    shutil.copytree(FIXTURES / "blt", d)
    return d


def test_feed_without_stop_times(capsys, tmp_path):
    d = _feed_copy(tmp_path)
    z = tmp_path / "nost.zip"
    with zipfile.ZipFile(z, "w") as zf:
        for f in d.iterdir():
            if f.name != "stop_times.txt":
                zf.write(f, f.name)
    rc, _, err = run(capsys, "stations", "--feed", str(z), "--date", "2026-05-02", "--game", "none")
    assert_one_line_error(rc, err, "stop_times.txt missing")


def test_bad_time_row_names_file_line_column(capsys, tmp_path):
    d = _feed_copy(tmp_path)
    st = d / "stop_times.txt"
    lines = st.read_text().splitlines()
    lines[3] = lines[3].replace("10:05:00,10:05:00", "25:61:00,25:61:00")
    st.write_text("\n".join(lines) + "\n")
    rc, _, err = run(capsys, "stations", "--feed", str(d), "--date", "2026-05-02", "--game", "none")
    assert_one_line_error(rc, err, "stop_times.txt line 4 column arrival_time", "25:61:00")


def test_missing_feed_path(capsys, tmp_path):
    rc, _, err = run(capsys, "stations", "--feed", str(tmp_path / "nope.zip"), "--date", "2026-05-02")
    assert_one_line_error(rc, err, "not found")


def test_json_errors_are_json(capsys):
    rc, out, err = run(capsys, "route", *DAY, "--from", "Zugg", "--to", "Luzern", "--time", "10:00", "--json")
    assert rc == 2
    assert "did you mean" in json.loads(out)["error"]


def test_usage_error_is_one_line(capsys):
    rc, _, err = run(capsys, "route", "--bogus-flag")
    assert_one_line_error(rc, err, "unrecognized arguments")


def test_real_process_no_traceback(tmp_path):
    """The console entry point in a real process: bad date, one line on stderr, exit 2."""
    p = subprocess.run([sys.executable, "-m", "planner", "feed-info", "--feed", ZUG[0], "--date", "2021-13-40"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 2
    assert p.stderr.strip().count("\n") == 0 and "Traceback" not in p.stderr
    assert "2021-13-40" in p.stderr


def test_missing_time_on_another_day(capsys):
    rc, _, err = run(capsys, "route", *DAY, "--from", "Zug", "--to", "Luzern")
    assert_one_line_error(rc, err, "--time HH:MM is required", "Saturday, September 11, 2021")


def test_time_defaults_to_now_on_the_game_day():
    import argparse
    import datetime as dt
    from zoneinfo import ZoneInfo

    from planner.commands.base import Context
    from planner.util.timefmt import parse_clock

    today = dt.datetime.now(ZoneInfo("Europe/Zurich"))
    ctx = Context(argparse.Namespace(feed=ZUG[0], game="none", date=today.date().isoformat()))
    t = ctx.clock(None, within_game=False)
    assert abs(t - parse_clock(today.strftime("%H:%M"))) <= 60
