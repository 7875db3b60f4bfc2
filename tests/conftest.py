"""Shared fixtures: the real Swiss extracts in ../shared/data and game-day timetables built from them."""

from __future__ import annotations

import datetime as dt
import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("PLANNER_SHARED", ROOT.parent / "shared"))
DATA = SHARED / "data"
ZUG = DATA / "gtfs" / "ch-zug-fp2021.zip"
# the browser `make system-deps` installs and checks: the `chromium` command on PATH
CHROMIUM = Path(shutil.which("chromium") or "/usr/bin/chromium")
IC2020 = DATA / "gtfs" / "ch-ic-fp2020.zip"
IC1_2019 = DATA / "gtfs" / "ch-ic1-fp2019.zip"
FIXTURES = Path(__file__).parent / "fixtures"
DEMO_DATE = dt.date(2021, 9, 11)  # a Saturday in the Zug extract


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory, monkeypatch):
    """Every test gets a private cache folder (never the user's)."""
    monkeypatch.setenv("PLANNER_CACHE", str(tmp_path_factory.mktemp("cache")))
    monkeypatch.setenv("PLANNER_STATE", str(tmp_path_factory.mktemp("state") / "groups.sqlite"))


@pytest.fixture(scope="session")
def zug_tt():
    """Game-day timetable: Zug extract, game sbb-monopoly, Saturday 2021-09-11."""
    from planner.gamefile.game import load_game
    from planner.gtfs.ingest import build_timetable
    from planner.gtfs.source import FeedSource

    return build_timetable(FeedSource(ZUG), load_game("sbb-monopoly"), DEMO_DATE, progress=False)


@pytest.fixture(scope="session")
def zug_all_tt():
    """Whole Zug extract (game ``none``: all modes), Saturday 2021-09-11."""
    from planner.gamefile.game import load_game
    from planner.gtfs.ingest import build_timetable
    from planner.gtfs.source import FeedSource

    return build_timetable(FeedSource(ZUG), load_game("none"), DEMO_DATE, progress=False)


@pytest.fixture(scope="session")
def sbb_game():
    """The shipped variant-A game."""
    from planner.gamefile.game import load_game

    return load_game("sbb-monopoly")


@pytest.fixture(scope="session")
def nws_game():
    """The shipped variant-B game."""
    from planner.gamefile.game import load_game

    return load_game("nordwestschweiz")


# ---- the SYNTHETIC Nordwestschweiz game day (variant B; tests/fixtures/nws_synthetic.py) ----------------

@pytest.fixture(scope="session")
def nws_date() -> dt.date:
    """The one Saturday the SYNTHETIC Nordwestschweiz feed runs: 2026-06-13."""
    from tests.fixtures.nws_synthetic import GAME_DAY

    return GAME_DAY


@pytest.fixture(scope="session")
def nws_feed(tmp_path_factory) -> Path:
    """The SYNTHETIC Nordwestschweiz feed (a GTFS folder, seed 0), written once per session outside the repo."""
    from tests.fixtures.nws_synthetic import write_feed

    return write_feed(tmp_path_factory.mktemp("synthetic-nws"), seed=0)


@pytest.fixture(scope="session")
def nws_tt(nws_feed, nws_date, nws_game):
    """Game-day timetable of the SYNTHETIC feed through the real ingest, game nordwestschweiz."""
    from planner.gtfs.ingest import build_timetable
    from planner.gtfs.source import FeedSource

    return build_timetable(FeedSource(nws_feed), nws_game, nws_date, progress=False)


# ---- the browser of the phone app's tests (tests/browser.py has the phone helpers) -------------------------

@pytest.fixture(scope="module")
def browser():
    """Debian's headless chromium through Playwright (nothing downloaded), one per test module."""
    from playwright.sync_api import sync_playwright

    from tests.browser import ARGS

    assert CHROMIUM.exists(), "Debian's chromium is needed (make system-deps)"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()
