"""Shared fixtures: private state, one timetable cache per test session, and game-day timetables built
from the real Swiss extracts in ../shared/data (paths and plain helpers: :mod:`tests.support`)."""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from planner.gamefile.game import load_game
from planner.gtfs.ingest import build_timetable
from planner.gtfs.source import FeedSource
from tests.support import CHROMIUM, DEMO_DATE, ROOT, SHARED, ZUG

# the fixtures that read ../shared (the real Zug extract; the SYNTHETIC days take their stops and lines from its ATLAS
# registry and line network): a test using one must be in a module marked ``needs_shared``
SHARED_FIXTURES = frozenset({"zug_tt", "zug_all_tt", "zug_day", "nws_feed", "nws_tt", "area_feed", "area_tt"})


def pytest_configure(config):
    """Byte-compile the code every process of the session imports, once, before the test processes start (in
    the only process, or xdist's controller): with ``PYTHONDONTWRITEBYTECODE`` set (as in CI's environment) no
    Python process writes its ``__pycache__``, so every worker, command subprocess, server and routing child would
    compile the planner from source again (about 0.5 s of CPU each). Only stale or missing files are written, into
    the git-ignored ``__pycache__`` folders, as any Python run without that variable writes them."""
    # pytest rewrites the asserts of every test module it imports and keeps the result in __pycache__ only when
    # bytecode may be written: under PYTHONDONTWRITEBYTECODE each test process rewrote and compiled all of tests/ again
    # (about 5 of its 9 s of CPU to collect the suite). The rewritten modules are written as the planner's are below:
    # into the git-ignored __pycache__ folders, stale ones replaced (pytest checks each against its source).
    sys.dont_write_bytecode = False
    if hasattr(config, "workerinput"):  # an xdist worker: its controller has compiled
        return
    import compileall

    for folder in ("planner", "tests/support", "tools"):
        compileall.compile_dir(ROOT / folder, quiet=2)  # a read-only checkout: compiled as before


@pytest.fixture(scope="session")
def session_cache(tmp_path_factory):
    """The cache folder the session's tests share (never the user's): the Zug day is ingested into it once
    per test process, and every later command reads it from there. Entries are content-keyed (feed, game,
    date, code) and published atomically, so sharing cannot change an answer."""
    return tmp_path_factory.mktemp("session-cache")


@pytest.fixture(autouse=True)
def _no_language_left_over():
    """Each test starts with no language chosen: a service called outside a command's or request's language block
    (``default_language``) would otherwise leave the game's language to the worker's next test."""
    from planner.util import i18n

    token = i18n._language.set(None)
    yield
    i18n._language.reset(token)


@pytest.fixture(autouse=True)
def _isolated_cache(request, session_cache, tmp_path_factory, monkeypatch):
    """Every test gets a private state file; the session's cache, or with ``@pytest.mark.fresh_cache`` an
    empty one of its own."""
    fresh = request.node.get_closest_marker("fresh_cache") is not None
    cache = tmp_path_factory.mktemp("cache") if fresh else session_cache
    monkeypatch.setenv("PLANNER_CACHE", str(cache))
    monkeypatch.setenv("PLANNER_STATE", str(tmp_path_factory.mktemp("state") / "groups.sqlite"))


def pytest_runtest_setup(item):
    """A module that reads ``../shared`` (the real extracts, the rule seeds) says so with
    ``pytestmark = pytest.mark.needs_shared``; every other module runs without it (``make test-inline``:
    ``PLANNER_SHARED`` an empty folder, ``-m "not needs_shared"``). Checked before any fixture is set up: a marked
    test where ``../shared`` is missing fails naming the folder, never skips (in CI the data is there and every test
    runs), and an unmarked test asking for a fixture of the real extract fails naming the marker."""
    marked = item.get_closest_marker("needs_shared") is not None
    if marked and not ZUG.exists():
        pytest.fail(f"this module reads ../shared, and {ZUG} is missing: set PLANNER_SHARED, or run the rest of the "
                    f"suite with -m 'not needs_shared'", pytrace=False)
    defs = getattr(item, "_fixtureinfo", None)
    defs = defs.name2fixturedefs if defs else {}
    # (a module's own fixture of the same name, e.g. an inline ``zug_day``, is not the extract)
    used = sorted(name for name in SHARED_FIXTURES.intersection(item.fixturenames)
                  if defs.get(name) and defs[name][-1].func.__code__.co_filename == __file__)
    if used and not marked:
        pytest.fail(f"fixture {', '.join(used)} reads {SHARED}: mark the module "
                    f"(pytestmark = pytest.mark.needs_shared) or write the day inline (tests/support/inline_day.py)",
                    pytrace=False)


@pytest.fixture(scope="session", autouse=True)
def _english():
    """English unless a test says otherwise (``monkeypatch.delenv("PLANNER_LANG")``): the suite asserts texts by the
    catalogs' message ids; the shipped games' German default is specified in tests/languages/test_languages.py. Set for the
    whole session, so servers and subprocesses that module fixtures start inherit it."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PLANNER_LANG", "en")
        yield


@pytest.fixture(autouse=True)
def _answers_meet_their_schema(monkeypatch):
    """Every answer a test produces is validated against its published JSON Schema (tests/support/answers.py): the
    adapters' encoder in this process (the command line's ``--json``, an in-process web app, the stored rolls), and
    every web API answer a test reads with ``requests`` from a real server (kept as it came and validated when the
    test is done: the test's own timing stays the server's)."""
    import requests

    from planner.service.answers import base
    from tests.support import answers

    monkeypatch.setattr(base, "encode", answers.checked_encode)
    real = requests.Session.request
    received: list[tuple] = []

    def request(self, method, url, *args, **kwargs):
        r = real(self, method, url, *args, **kwargs)
        path = urlsplit(r.url).path
        if path.startswith("/api/") and not kwargs.get("stream"):  # (a streamed body is the caller's to read)
            received.append((method.upper(), path, r.status_code, r.headers.get("content-type", ""), r.content))
        return r

    monkeypatch.setattr(requests.Session, "request", request)
    yield
    for answer in received:
        answers.check_response(*answer)


@pytest.fixture(scope="session")
def demo_date():
    """The demo Saturday of the Zug extract, 2021-09-11."""
    return DEMO_DATE


@pytest.fixture(scope="session")
def play_argv(tmp_path_factory, session_cache) -> list[str]:
    """The day to play on written in tests/support/play_day.py (no ../shared), as the command line and
    ``web_game(..., day=)`` take it: ``--feed``, ``--date``, ``--game``. Ingested once per test process."""
    from tests.support.inline_day import day_argv
    from tests.support.play_day import play_day

    with pytest.MonkeyPatch.context() as mp:  # the tests' cache (session fixtures come before the autouse one)
        mp.setenv("PLANNER_CACHE", str(session_cache))
        return day_argv(play_day(tmp_path_factory.mktemp("play-day")))


@pytest.fixture(scope="session")
def variant_b_argv(tmp_path_factory, session_cache) -> list[str]:
    """A day of variant B written in tests/support/play_day.py (no ../shared), as the command line takes it."""
    from tests.support.inline_day import day_argv
    from tests.support.play_day import variant_b_day

    with pytest.MonkeyPatch.context() as mp:  # the tests' cache (session fixtures come before the autouse one)
        mp.setenv("PLANNER_CACHE", str(session_cache))
        return day_argv(variant_b_day(tmp_path_factory.mktemp("variant-b-day")))


@pytest.fixture(scope="module")
def zug_day(zug_tt, sbb_game):
    """The Zug game day (sbb-monopoly, 2021-09-11) as the service layer loads it, on the session's timetable."""
    from planner.service.setup.playing import GameDay

    d = GameDay(str(ZUG), sbb_game, DEMO_DATE)
    d.__dict__["timetable"] = zug_tt
    return d


@pytest.fixture(scope="session")
def zug_tt():
    """Game-day timetable: Zug extract, game sbb-monopoly, Saturday 2021-09-11."""
    return build_timetable(FeedSource(ZUG), load_game("sbb-monopoly"), DEMO_DATE, progress=False)


@pytest.fixture(scope="session")
def zug_all_tt():
    """Whole Zug extract (game ``none``: all modes), Saturday 2021-09-11."""
    return build_timetable(FeedSource(ZUG), load_game("none"), DEMO_DATE, progress=False)


@pytest.fixture(scope="session")
def sbb_game():
    """The shipped variant-A game."""
    return load_game("sbb-monopoly")


@pytest.fixture(scope="session")
def nws_game():
    """The shipped variant-B game."""
    return load_game("nordwestschweiz")


# ---- the SYNTHETIC Nordwestschweiz game day (variant B; tests/support/nws_synthetic.py) ----------------

@pytest.fixture(scope="session")
def nws_date() -> dt.date:
    """The one Saturday the SYNTHETIC Nordwestschweiz feed runs: 2026-06-13."""
    from tests.support.nws_synthetic import GAME_DAY

    return GAME_DAY


@pytest.fixture(scope="session")
def nws_feed(tmp_path_factory) -> Path:
    """The SYNTHETIC Nordwestschweiz feed (a GTFS folder, seed 0), written once per session outside the repo."""
    from tests.support.nws_synthetic import write_feed

    return write_feed(tmp_path_factory.mktemp("synthetic-nws"), seed=0)


@pytest.fixture(scope="session")
def nws_tt(nws_feed, nws_date, nws_game):
    """Game-day timetable of the SYNTHETIC feed through the real ingest, game nordwestschweiz."""
    from planner.gtfs.ingest import build_timetable
    from planner.gtfs.source import FeedSource

    return build_timetable(FeedSource(nws_feed), nws_game, nws_date, progress=False)


# ---- the SYNTHETIC full game day of variant A (tools/synth_area.py) ------------------------------------------------

@pytest.fixture(scope="session")
def area_feed(tmp_path_factory) -> Path:
    """The SYNTHETIC whole-area day of sbb-monopoly (a GTFS folder, seed 0), written once per session outside the
    repo."""
    from tools.synth_area import write_feed

    return write_feed(tmp_path_factory.mktemp("synthetic-area"), seed=0)


@pytest.fixture(scope="session")
def area_date() -> dt.date:
    """The one Saturday the SYNTHETIC area feed runs: 2026-06-13."""
    from tools.synth_area import GAME_DAY

    return GAME_DAY


@pytest.fixture(scope="session")
def area_tt(area_feed, area_date, sbb_game):
    """Game-day timetable of the SYNTHETIC area feed through the real ingest, game sbb-monopoly."""
    return build_timetable(FeedSource(area_feed), sbb_game, area_date, progress=False)


# ---- the browser of the phone app's tests (tests/support/browser.py has the phone helpers) -------------------------

@pytest.fixture(scope="session")
def browser():
    """Debian's headless chromium through Playwright (nothing downloaded), one per test process: each test opens
    its own browser context (a fresh profile: no cookies, storage or cache of another test) and closes it."""
    from playwright.sync_api import sync_playwright

    from tests.support.browser import ARGS

    assert CHROMIUM.exists(), "Debian's chromium is needed (make system-deps)"
    # what a page shows after a server's answer may take longer than Playwright's 5 s while the two cores run the
    # other worker, the servers and coverage: an expectation waits up to 15 s (a passing one returns at once)
    from playwright.sync_api import expect

    expect.set_options(timeout=15_000)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


# ---- the real server the web tests share (tests/support/webserver.py starts it) ------------------------------------

@pytest.fixture(scope="session")
def web_server(tmp_path_factory, session_cache):
    """One real ``planner serve`` per test process (its own process and routing child, over loopback, on the
    session's timetable cache), shared by the web tests that are not about the server's own start, options, exit or
    faults (those start their own). Each module creates its own game in it (``web_game`` with
    ``base=web_server.url``): new tokens and groups, served at once as any game created while a server runs. The
    pages poll every 0.5 s (``--poll-interval``; 4 and 5 s by default), so what another interface did shows sooner;
    what shows is the same. Yields the :class:`~tests.support.webserver.Server` with its environment as ``env``."""
    from tests.support.webserver import serve, web_env

    env = web_env(tmp_path_factory.mktemp("shared-web"), cache=session_cache)
    with serve(env, "--poll-interval", "0.5") as srv:
        yield srv


# ---- the order the two test processes (pytest-xdist, ``--dist loadfile``) take the modules in -----------------------

def pytest_collection_modifyitems(items):
    """Modules marked ``long`` go first: with ``--dist loadfile`` each module is one unit on one worker, and a long
    unit handed out last would keep one worker busy while the other sits idle. The order inside a module, and of
    every other module, stays as collected."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)
