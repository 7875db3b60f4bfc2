"""``planner serve --realtime URL``: one poller for every group and both server processes (a real loopback feed
server, a real ``planner serve``), conditional requests, a garbage body never published, the phone's state
carries the data's age and a banner shows in headless Chromium. The day is the real-time demo's, written in
tests/support/inline_day.py."""

from __future__ import annotations

import json
import re

import pytest
import requests

from planner.realtime.live import LiveFeed, read_status
from tests.support.realtime_server import FeedHandler, feed_server
from tests.support.webserver import run_cli, serve, web_env

pytestmark = pytest.mark.long  # one worker runs a module (--dist loadfile); this one early


DAY: list[str] = []  # the demo day's --feed, --date and --game (filled by ``fx``)


def web_game(env: dict, groups: str, base: str | None = None) -> dict:
    """``planner game new --json`` on the demo day (as tests/support/webserver.py's on the Zug day)."""
    extra = ["--base-url", base] if base else []
    p = run_cli(env, "game", "new", "--name", "Test day", "--groups", groups, *DAY, *extra, "--json")
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


@pytest.fixture(scope="module")
def fx(tmp_path_factory, session_cache):
    from tests.support.inline_day import day_argv, demo_day
    from tests.support.rt_fixtures import write_fixtures

    with pytest.MonkeyPatch.context() as mp:  # the tests' cache (module fixtures come before the autouse one)
        mp.setenv("PLANNER_CACHE", str(session_cache))
        day = demo_day(tmp_path_factory.mktemp("rts-day"))
        DAY[:] = day_argv(day)
        out = tmp_path_factory.mktemp("rts")
        return out, write_fixtures(day, out)


def test_poller_conditional_requests_and_garbage_kept_out(fx, tmp_path):
    folder, _ = fx
    good = (folder / "late.pb").read_bytes()
    with feed_server(good) as base:
        live = LiveFeed(base + "/feed", tmp_path / "feed.pb", key="k", interval=1)
        s1 = live.poll_once()
        s2 = live.poll_once()
        assert s1["status"] == 200 and s2["status"] == 304 and (tmp_path / "feed.pb").read_bytes() == good
        assert FeedHandler.seen[1]["inm"] == '"v1"' and FeedHandler.seen[0]["auth"] == "Bearer k"
        FeedHandler.body, FeedHandler.etag = (folder / "garbage.pb").read_bytes(), '"v2"'
        s3 = live.poll_once()
        assert "not protobuf" in s3["error"] and (tmp_path / "feed.pb").read_bytes() == good  # last good stays
    s4 = live.poll_once()  # the server is gone: unreachable, the file stays
    assert "unreachable" in s4["error"] and read_status(tmp_path / "feed.pb")["error"] == s4["error"]
    assert (tmp_path / "feed.pb").read_bytes() == good


@pytest.fixture(scope="module")
def phones_server(fx, tmp_path_factory, session_cache):
    """One real ``planner serve --realtime`` on the jail fixture's feed (a loopback feed server) for the API and
    phone tests, each with a game of its own; its pages poll every 0.5 s (``--poll-interval``)."""
    folder, _ = fx
    env = web_env(tmp_path_factory.mktemp("rt-phones"), cache=session_cache)
    with feed_server((folder / "jail.pb").read_bytes()) as base, serve(env, "--realtime", base + "/feed",
                                                                       "--poll-interval", "0.5") as srv:
        yield srv


def test_serve_realtime_one_fetch_for_all_phones_and_a_banner(phones_server):
    srv = phones_server
    game = web_game(srv.env, "Rot,Blau", base=srv.url)
    n_before = len(FeedHandler.seen)
    states = []
    for g in game["groups"]:
        h = {"Authorization": f"Bearer {g['token']}"}
        gid, num = game["game"], game["groups"].index(g) + 1
        r = requests.post(f"{srv.url}/api/games/{gid}/groups/{num}/position",
                          json={"trip": "S1 13:06", "at": "Zug", "time": "13:05"}, headers=h, timeout=60)
        assert r.status_code == 200, r.text
        states.append(requests.get(f"{srv.url}/api/games/{gid}/groups/{num}", headers=h, timeout=60).json())
    for st in states:
        rt = st["realtime"]
        assert rt["available"] and rt["trips_matched"] == 1 and rt["stale"]  # the fixture is from 2021
    assert len(FeedHandler.seen) == n_before  # the phones read the server's copy: no request of their own
    assert n_before == 1  # one fetch at start-up (the next one after the interval)


def test_phone_shows_the_stale_banner(phones_server, browser):
    from playwright.sync_api import expect

    from tests.support.browser import PHONE

    game = web_game(phones_server.env, "Rot", base=phones_server.url)
    join = game["groups"][0]["url"]
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    errors: list = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(join)
    expect(page.locator("#realtime")).to_have_text(re.compile(r"Real-time data is \d+ min old"), timeout=20000)
    ctx.close()
    assert not errors, errors


def test_phone_pays_out_of_jail_in_one_tap(phones_server, browser):
    """A roll on the phone whose S1 runs 6 minutes late: the live plan shows the jail and (variant A) a button
    that pays 1000 into the free parking; once paid, the jail is gone from the plan and the button with it."""
    from playwright.sync_api import expect

    from tests.support.browser import PHONE, roll, tell_position

    srv = phones_server
    game = web_game(srv.env, "Rot", base=srv.url)
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    errors: list = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(game["groups"][0]["url"])
    page.wait_for_url(re.compile(r"/groups/1$"))
    tell_position(page, "Zug", "13:05", trip="S1 13:06")  # in the S1 that runs 6 minutes late
    roll(page, "2")
    expect(page.locator("#live-text")).to_contain_text("Jail at", timeout=20000)
    button = page.locator("#jail-pay")
    expect(button).to_have_text("Pay 1000 into the free parking")
    button.click()
    expect(page.locator("#money-message")).to_contain_text("Recorded #", timeout=20000)
    expect(button).to_be_hidden(timeout=20000)  # paid: the jail is gone from the live plan
    expect(page.locator("#live-text")).not_to_contain_text("Jail at")
    ctx.close()
    h = {"Authorization": f"Bearer {game['groups'][0]['token']}"}
    money = requests.get(f"{srv.url}/api/games/{game['game']}/groups/1/ledger", headers=h, timeout=60).json()
    assert errors == []
    assert money["cash"] == 20000 - 1000, money  # paid once
