"""A full disk while a command writes its output: one line naming the file it was writing (never "Error" alone),
exit 2, nothing half-written left behind (not the Leaflet copy a map began), and nothing else changed: a lab run
whose report could not be written keeps the advise rates that were kept before it. The day is the real-time
demo's, written in tests/support/inline_day.py."""

from __future__ import annotations

import json
import os

import pytest

from planner.gamefile.game import load_game
from planner.lab.rates import rates_path
from planner.service.setup.playing import GameDay
from tests.support import DEMO_DATE, assert_one_line_error
from tests.support.inline_day import day_argv, demo_day
from tests.support.namespaces import planner_on_full_disk
from tests.support.webserver import run_cli

pytestmark = pytest.mark.long  # one worker runs a module (--dist loadfile); this one early



@pytest.fixture
def day_args(tmp_path) -> list[str]:
    return day_argv(demo_day(tmp_path / "day"))


def test_a_map_whose_leaflet_copy_does_not_fit_names_the_folder_and_leaves_none(tmp_path, day_args):
    p, left = planner_on_full_disk(tmp_path / "disk", ["map", "area", *day_args, "--out", str(tmp_path / "disk" / "m.html")],
                                   dict(os.environ), room=20_000)
    assert_one_line_error(p.returncode, p.stderr, "sbb-planner-assets", "cannot be written",
                          "No space left on device")
    assert left == []


def test_a_map_that_does_not_fit_names_its_file_and_takes_its_leaflet_copy_with_it(tmp_path, day_args):
    p, left = planner_on_full_disk(tmp_path / "disk", ["map", "area", *day_args, "--out", str(tmp_path / "disk" / "m.html")],
                                   dict(os.environ), room=300_000)
    assert_one_line_error(p.returncode, p.stderr, "m.html: No space left on device")
    assert left == []


def test_a_lab_run_whose_report_does_not_fit_keeps_the_advise_rates(tmp_path):
    feed = demo_day(tmp_path / "day").feed  # the kept rates' name is keyed by the feed's path: this test's own
    day = ["--feed", str(feed), "--date", DEMO_DATE.isoformat()]
    env = dict(os.environ)
    kept = run_cli(env, "simulate", *day, "--days", "1", "--groups", "2", "--executor", "serial", "--json")
    assert json.loads(kept.stdout)["advise_rates"]["saved"]
    path = rates_path(GameDay(str(feed), load_game("sbb-monopoly"), DEMO_DATE))
    before = path.read_bytes()
    p, left = planner_on_full_disk(tmp_path / "disk", ["simulate", *day, "--days", "1", "--groups", "1", "--seed",
                                                        "7", "--executor", "serial", "--replace-rates", "--out",
                                                        str(tmp_path / "disk" / "r.html")], env, room=4_000)
    assert_one_line_error(p.returncode, p.stderr, "r.html: No space left on device")
    assert left == []
    assert path.read_bytes() == before  # before: this run's rates replaced them although it failed
