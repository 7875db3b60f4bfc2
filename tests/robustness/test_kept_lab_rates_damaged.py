"""The lab rates ``simulate`` keeps for ``advise`` are read as every cache entry is: bounded, a regular file only,
every value a finite, plausible number of stops. A damaged file (a FIFO, a link to ``/dev/zero``, infinity, 1e308,
NaN, a negative rate, an hour 99, not JSON, too large) is set aside and reported once, and the advice rests on the
timetable's estimate; the phones' polls never hang on it, and ``serve`` stops on SIGTERM even while a request hangs.

The day's feed is a copy of the Zug extract in a module folder: the kept file's name is keyed by the feed's path,
so this module's damage never reaches another module's rates (the timetable itself comes from the shared cache).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import requests

from planner.cli import main
from planner.gamefile.game import load_game
from planner.lab.rates import rates_path
from planner.service.setup.playing import GameDay
from tests.support import DEMO_DATE, ROOT
from tests.support.inline_day import demo_day
from tests.support.webserver import free_port, process_gone, routing_child, run_cli, serve, web_env

pytestmark = pytest.mark.long  # one worker runs a module (--dist loadfile); this one early


@pytest.fixture(scope="module")
def kept(tmp_path_factory, session_cache) -> tuple[list[str], Path, bytes]:
    """The day's options (on the module's own feed: the real-time demo's day, written in tests/support/inline_day.py),
    the kept rates' path and the good file's bytes (a real ``simulate`` run of 1 day x 2 groups)."""
    folder = tmp_path_factory.mktemp("kept-rates")
    with pytest.MonkeyPatch.context() as mp:  # the tests' cache (module fixtures come before the autouse one)
        mp.setenv("PLANNER_CACHE", str(session_cache))
        feed = Path(demo_day(folder).feed)
    day = ["--feed", str(feed), "--date", DEMO_DATE.isoformat()]
    env = {**os.environ, "PLANNER_CACHE": str(session_cache), "PLANNER_STATE": str(folder / "s.sqlite")}
    p = run_cli(env, "simulate", *day, "--days", "1", "--groups", "2", "--executor", "serial", "--json")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["advise_rates"]["saved"]
    with pytest.MonkeyPatch.context() as mp:  # the tests' cache (module fixtures come before the autouse one)
        mp.setenv("PLANNER_CACHE", str(session_cache))
        path = rates_path(GameDay(str(feed), load_game("sbb-monopoly"), DEMO_DATE))
    return day, path, path.read_bytes()


def _with_rate(good: bytes, value: str, hour: str | None = None) -> bytes:
    """The good file with its first station's first hour set to ``value`` (JSON text), or moved to ``hour``."""
    doc = json.loads(good)
    name = next(iter(doc["rates"]))
    first = next(iter(doc["rates"][name]))
    text = json.dumps(doc)
    old = f'"{name}": {{"{first}": {json.dumps(doc["rates"][name][first])}'
    assert old in text
    new = f'"{name}": {{"{hour or first}": {value}'
    return text.replace(old, new, 1).encode()


DAMAGE = {
    "infinity": lambda good, p: p.write_bytes(_with_rate(good, "1e999")),
    "1e308": lambda good, p: p.write_bytes(_with_rate(good, "1e308")),
    "NaN": lambda good, p: p.write_bytes(_with_rate(good, "NaN")),
    "negative": lambda good, p: p.write_bytes(_with_rate(good, "-2.5")),
    "hour 99": lambda good, p: p.write_bytes(_with_rate(good, "0.5", hour="99")),
    "a string": lambda good, p: p.write_bytes(_with_rate(good, '"lots"')),
    "not JSON": lambda good, p: p.write_bytes(good[: len(good) // 2]),
    "a folder": lambda good, p: p.mkdir(),
    "too large": lambda good, p: p.write_bytes(good + b" " * (65 << 20)),
}


def _advise(capsys, day: list[str]) -> dict:
    rc = main(["advise", *day, "--group", "Rot", "--time", "12:45", "--json"])
    cap = capsys.readouterr()
    assert rc == 0, cap.err
    return json.loads(cap.out)["rates"]


def _damaged_aside(path: Path) -> list[Path]:
    return sorted(path.parent.glob(f".{path.name}.damaged-*"))


@pytest.fixture
def fresh(kept):
    """The kept file as simulate wrote it, nothing set aside (restored after each test)."""
    day, path, good = kept
    yield day, path, good
    for p in [path, *_damaged_aside(path)]:
        if p.is_dir() and not p.is_symlink():
            p.rmdir()
        else:
            p.unlink(missing_ok=True)
    path.write_bytes(good)


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_damaged_kept_rates_are_set_aside_and_reported_once(damage, fresh, capsys):
    day, path, good = fresh
    assert _advise(capsys, day)["source"] == "lab"
    path.unlink()
    DAMAGE[damage](good, path)
    first = _advise(capsys, day)
    assert first["source"] == "timetable" and first["set_aside"], first
    assert "damaged and set aside" in first["summary"]
    assert not path.exists() and len(_damaged_aside(path)) == 1  # moved aside, kept for a person to look at
    again = _advise(capsys, day)
    assert again["source"] == "timetable" and again["set_aside"] is None  # reported once


@pytest.mark.parametrize("plant", ["FIFO", "link to /dev/zero"])
def test_a_kept_rates_file_that_never_ends_is_not_read(plant, fresh):
    """In a fresh process with a deadline: before, a FIFO blocked ``advise`` for good and /dev/zero filled the
    memory (MemoryError)."""
    day, path, _good = fresh
    path.unlink()
    os.mkfifo(path) if plant == "FIFO" else path.symlink_to("/dev/zero")
    p = subprocess.run([sys.executable, "-m", "planner", "advise", *day, "--group", "Rot", "--time", "12:45",
                        "--json"], capture_output=True, text=True, cwd=ROOT, timeout=120, env=dict(os.environ))
    assert p.returncode == 0, p.stderr
    rates = json.loads(p.stdout)["rates"]
    assert rates["source"] == "timetable" and rates["set_aside"]
    assert "kept lab rates" in p.stderr and "damaged" in p.stderr  # the one report on stderr, too
    assert not os.path.lexists(path)


def test_simulate_replaces_a_damaged_kept_file(fresh, capsys):
    day, path, good = fresh
    path.write_bytes(_with_rate(good, "NaN"))
    rc = main(["simulate", *day, "--days", "1", "--groups", "1", "--executor", "serial", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0 and out["advise_rates"]["saved"]  # a run of 1 group-day replaces a damaged one of 2
    assert _advise(capsys, day)["group_days"] == 1


# ---- the phones --------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def site(kept, tmp_path_factory, session_cache):
    """A real server whose game plays on the module's feed (so its day reads the module's kept rates)."""
    day, path, _good = kept
    folder = tmp_path_factory.mktemp("rates-web")
    env = web_env(folder, cache=session_cache)
    port = free_port()
    p = run_cli(env, "game", "new", "--name", "rates", "--groups", "Rot,Blau", *day, "--base-url",
                f"http://127.0.0.1:{port}", "--json")
    assert p.returncode == 0, p.stderr
    game = json.loads(p.stdout)
    with serve(env, port=port) as srv:
        yield srv, game


def _get(srv, game, what: str = "") -> requests.Response:
    return requests.get(f"{srv.url}/api/games/{game['game']}/groups/1{what}", timeout=60,
                        headers={"Authorization": f"Bearer {game['groups'][0]['token']}"})


def test_the_phones_polls_answer_with_a_fifo_as_the_kept_rates(site, kept):
    srv, game = site
    _day, path, good = kept
    path.unlink()
    os.mkfifo(path)
    try:
        assert _get(srv, game).status_code == 200
        assert _get(srv, game, "/next?time=12:45").status_code == 200
        assert requests.get(srv.url + "/health", timeout=60).status_code == 200
    finally:
        for p in [path, *_damaged_aside(path)]:
            p.unlink(missing_ok=True)
        path.write_bytes(good)


def test_serve_stops_on_sigterm_while_a_request_hangs(site):
    """The routing process frozen (SIGSTOP: a read that never returns) with a request in it: SIGTERM still stops
    the server within its grace times, and the frozen process is gone with it."""
    srv, game = site
    child = routing_child(srv.proc.pid)
    os.kill(child, signal.SIGSTOP)
    try:
        threading.Thread(target=lambda: _request_quietly(srv, game), daemon=True).start()
        time.sleep(1.0)  # the request is in the frozen process now
        t0 = time.monotonic()
        srv.proc.send_signal(signal.SIGTERM)
        srv.proc.wait(timeout=30)  # before: still running after 40 s
        assert time.monotonic() - t0 < 30
        deadline = time.monotonic() + 10
        while not process_gone(child) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert process_gone(child)
    finally:
        if not process_gone(child):
            os.kill(child, signal.SIGCONT)


def _request_quietly(srv, game) -> None:
    try:
        _get(srv, game, "/next?time=12:45")
    except requests.RequestException:
        pass  # the server went away: what the test is about
