"""Variant B's two dice on the phone, in Debian's headless chromium at 390 x 844, on a day of variant B written in
tests/support/play_day.py (game nordwestschweiz).

A game created on that day, two groups join; white and coloured dice: 5 and 1 name the toll line
Zwingen–Grellingen (a target reached by travelling through it), 2 and 1 a village. Each answer shows the target,
the re-roll time (5 minutes before arriving) and every admissible way (at most 20 minutes longer than the
fastest), as ``planner target`` answers them; the game has no change window, and the trains list says so.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.support.browser import joined_phone, page_width, roll, tell_position
from tests.support.play_day import rail_csv
from tests.support.webserver import run_cli, serve, web_env

pytestmark = pytest.mark.long  # one worker runs a module (--dist loadfile); this one early


@pytest.fixture(scope="module")
def nws_site(tmp_path_factory, session_cache, variant_b_argv):
    """A game on the variant-B day on a server of its own, which reads the line network written beside the day
    (the toll line is decided on it; the shared server reads ../shared's)."""
    folder = tmp_path_factory.mktemp("two-dice")
    env = {**web_env(folder, cache=session_cache), "PLANNER_RAIL_CSV": rail_csv(folder)}
    day = variant_b_argv
    with serve(env, "--poll-interval", "0.5") as srv:
        p = run_cli(env, "game", "new", "--name", "Nordwestschweiz", "--groups", "Rot,Blau", *day,
                    "--base-url", srv.url, "--json")
        assert p.returncode == 0, p.stderr
        yield {"env": env, "game": json.loads(p.stdout), "url": srv.url, "day": day}


def expected(site, roll: int) -> dict:
    p = run_cli(site["env"], "target", *site["day"], "--at", "Basel SBB", "--time", "11:30", "--roll", str(roll),
                "--json")
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


@pytest.mark.parametrize(("group", "white", "colour"), [(0, "5", "1"), (1, "2", "1")])
def test_two_dice_target_admissible_ways_and_reroll(nws_site, browser, group, white, colour):
    game = nws_site["game"]
    want = expected(nws_site, int(white + colour))
    errors: list = []
    failed: list = []
    ctx, p = joined_phone(browser, errors, game["groups"][group]["url"], f"/groups/{group + 1}", failed)
    assert p.locator("#die").count() == 0  # two dice, not one
    tell_position(p, "Basel SBB", "11:30")
    expect(p.locator("#position")).to_have_text("Basel SBB 11:30")
    expect(p.locator("#trains-rule")).to_contain_text("No change window in this game")
    roll(p, white, colour)
    expect(p.locator("#target")).to_have_text(want["target"])
    expect(p.locator("#answer-roll")).to_contain_text(f"roll {white}{colour} at 11:30")
    expect(p.locator("#reroll")).to_have_text(want["reroll_at"])
    expect(p.locator("#arrival")).to_have_text(want["arrival"])
    assert want["admissible"] and want["reroll_at"]
    ways = p.locator("#admissible li")
    expect(ways).to_have_count(len(want["admissible"]))
    expect(p.locator("#admissible-minutes")).to_have_text("20")
    for i, w in enumerate(want["admissible"]):
        # (a toll line or tunnel: when the train has passed it)
        assert ways.nth(i).locator("b").inner_text() == f"{w['departure']} → {w['reached']}"
    expect(p.locator("#admissible li.fastest")).to_have_count(1)
    if want["target"] == "Zwingen–Grellingen":  # a toll line: reached by travelling through it
        expect(p.locator("#extras")).to_contain_text("toll line: Zwingen–Grellingen")
    assert page_width(p) <= 390
    assert errors == [] and failed == []
    ctx.close()


def test_a_variant_b_phone_shows_examples_of_its_own_day(nws_site, browser):
    """The fields' examples come from this game's day (a station of its dice table, a train leaving there), never
    variant A's "Zug" and "IR75 12:25"."""
    game = nws_site["game"]
    errors: list = []
    ctx, p = joined_phone(browser, errors, game["groups"][0]["url"], "/groups/1")
    try:
        station, train = p.get_attribute("#at", "placeholder"), p.get_attribute("#trip", "placeholder")
    finally:
        ctx.close()
    assert station == "Laufen" and train.endswith(" (optional)"), (station, train)  # dice number 11: Laufen
    assert "IR75" not in train and station != "Zug" and not errors
