"""The group page in Debian's headless chromium (Playwright, the system browser; nothing downloaded), phone-sized,
on the day to play on written in tests/support/play_day.py.

Join link -> set position -> roll -> target and itinerary shown -> a second phone (another browser context with
the same join link) shows the roll within 10 s -> offline: the page reloads from the service worker and still
shows the last answer; a roll tried offline is queued and sent once back online. No console errors.
"""

from __future__ import annotations

import json
import re

import pytest
import requests
from playwright.sync_api import expect

from tests.support.browser import joined_phone as browser_joined
from tests.support.browser import phone, roll, tell_position, unfold
from tests.support.webserver import run_cli, web_game

pytestmark = pytest.mark.long  # one worker runs a module (--dist loadfile); this one early

EVIL = "<img src=x onerror=alert(1)>"
# What a browser logs by itself while the phone has no network (the page handles it): not an error of ours.
OFFLINE_NOISE = re.compile(r"ERR_INTERNET_DISCONNECTED|Failed to fetch|Failed to load resource")


@pytest.fixture(scope="module")
def site(web_server, play_argv):
    game = web_game(web_server.env, f"Rot,Blau,{EVIL}", base=web_server.url, day=play_argv)
    return {"env": web_server.env, "game": game, "url": web_server.url, "day": play_argv}


def set_position_and_roll(p, station: str, time: str, die: str, *, shown: str) -> None:
    """Type the position as a player would, wait until the page shows it, then roll ``die``."""
    tell_position(p, station, time)
    expect(p.locator("#position")).to_have_text(re.compile("^" + re.escape(shown)))
    roll(p, die)


def test_group_page_join_position_roll_share_offline(site, browser):
    game = site["game"]
    expected = json.loads(run_cli(site["env"], "target", "--at", "Zug", "--time", "12:40", "--roll", "2",
                                  *site["day"], "--json").stdout)
    errors: list = []
    offline_errors: list = []
    ctx1, p1 = phone(browser, errors)
    ctx2, p2 = phone(browser, errors)
    join = game["groups"][0]["url"]
    for p in (p1, p2):
        p.goto(join)
        p.wait_for_url(re.compile(rf"/games/{game['game']}/groups/1$"))
        assert p.inner_text("#group-name") == "Rot"
        p.wait_for_selector("html[data-offline-ready='1']", timeout=15000)
    assert p1.evaluate("document.cookie") == ""  # HttpOnly: the page's scripts cannot read the token

    set_position_and_roll(p1, "zug", "12:40", "2", shown="Zug 12:40")
    expect(p1.locator("#target")).to_have_text(expected["target"])
    legs = p1.locator("#legs tbody tr")
    expect(legs).to_have_count(len(expected["legs"]))
    first = expected["legs"][0]
    row = legs.nth(0).inner_text()
    assert first["route"] in row and first["departure"] in row and f"Gl. {first['from_platform']}" in row
    assert p1.inner_text("#arrival") == expected["arrival"]
    if len(expected["legs"]) > 1:  # the 29-minute rule at the change, as planner zugzwang answers it
        change = expected["legs"][0]
        z = json.loads(run_cli(site["env"], "zugzwang", "--at", change["to"], "--time", change["arrival"],
                               "--trip", change["trip_id"], *site["day"], "--json").stdout)
        expect(legs.nth(0).locator(".deadline")).to_have_text(f"next train by {z['deadline']}")
    expect(p1.locator("#map path.route")).to_have_count(1)  # the itinerary on the map, above the base layer
    expect(p1.locator("#map .leaflet-base-pane path").first).to_be_attached()

    # the second phone of the group sees the roll within 10 s (it polls)
    expect(p2.locator("#target")).to_have_text(expected["target"], timeout=10000)
    expect(p2.locator("#history tbody tr")).to_have_count(1)

    # the group gets there and says so (a roll while heading for the target is refused by the group's day)
    tell_position(p2, expected["target"], expected["arrival"])
    expect(p2.locator("#position")).to_have_text(re.compile("^" + re.escape(f"{expected['target']} "
                                                                             f"{expected['arrival']}")))

    # in a tunnel: the page reloads from the service worker and still shows the last answer
    p2.on("console", lambda m: m.type == "error" and offline_errors.append(m.text))
    ctx2.set_offline(True)
    p2.reload()
    expect(p2.locator("#target")).to_have_text(expected["target"])
    expect(p2.locator("#legs tbody tr")).to_have_count(len(expected["legs"]))
    expect(p2.locator("#net")).to_have_text(re.compile(r"^Offline"))

    # a roll tried offline is queued, then sent once when back online
    roll(p2, "3")
    assert "queued" in p2.inner_text("#message")
    ctx2.set_offline(False)
    expect(p2.locator("#message")).to_contain_text("was sent", timeout=15000)
    expect(p2.locator("#history tbody tr")).to_have_count(2, timeout=15000)  # the state asked after the send
    p2.reload()
    expect(p2.locator("#history tbody tr")).to_have_count(2)
    state = requests.get(f"{site['url']}/api/games/{game['game']}/groups/1",
                         headers={"Authorization": f"Bearer {game['groups'][0]['token']}"}).json()
    assert [r["dice"] for r in state["status"]["rolls"]] == ["2", "3"]  # sent once, not twice

    assert errors == [e for e in errors if e in offline_errors and OFFLINE_NOISE.search(e)]
    ctx1.close()
    ctx2.close()


def poll_ms(p) -> int:
    """How often the page polls (``planner serve --poll-interval``, else its 4 s), as api.js's pollMs works it out."""
    return p.evaluate("Number(document.body.dataset.pollMs) || 4000")


def joined_phone(browser, errors: list, url: str, number: int):
    """A phone that opened a group's join link and landed on the group's page."""
    return browser_joined(browser, errors, url, f"/groups/{number}")


def test_undo_on_the_page(site, browser):
    game = site["game"]
    errors: list = []
    ctx, p = joined_phone(browser, errors, game["groups"][1]["url"], 2)
    set_position_and_roll(p, "Baar", "13:00", "1", shown="Baar 13:00")
    expect(p.locator("#history tbody tr")).to_have_count(1)
    unfold(p, "history-box")
    p.click("#undo")  # one tap never deletes a roll: the page asks, naming it
    expect(p.locator("#undo-question")).to_contain_text("Remove roll #1 (1 at 13:00")
    p.click("#undo-no")
    expect(p.locator("#undo-confirm")).to_be_hidden()
    p.wait_for_timeout(poll_ms(p) + 500)  # one poll of the page and a little: the roll is still there
    expect(p.locator("#history tbody tr")).to_have_count(1)
    p.click("#undo")
    p.click("#undo-yes")
    expect(p.locator("#history tbody tr")).to_have_count(0)
    expect(p.locator("#message")).to_contain_text("removed")
    assert errors == []
    ctx.close()


def test_group_name_with_markup_is_shown_as_text(site, browser):
    game = site["game"]
    errors: list = []
    ctx, p = joined_phone(browser, errors, game["groups"][2]["url"], 3)
    assert p.inner_text("#group-name") == EVIL
    assert p.locator("header img").count() == 0
    assert p.title().startswith(EVIL)
    tell_position(p, "Zug", "11:00")
    expect(p.locator("#position")).to_have_text("Zug 11:00")
    # the organiser's table and the label on its map show it as text, too
    org = ctx.new_page()
    org.on("dialog", lambda d: (errors.append("dialog: " + d.message), d.dismiss()))
    org.goto(game["organiser"]["url"])
    org.wait_for_url(re.compile(rf"/games/{game['game']}$"))
    expect(org.locator("#groups tbody tr")).to_have_count(3)
    assert org.locator("#groups tbody tr").nth(2).locator("td").nth(0).inner_text() == EVIL
    assert org.locator("#groups img").count() == 0
    label = org.locator("#map .leaflet-tooltip.group-name", has_text="Zug")
    expect(label).to_have_count(1)
    assert label.inner_text() == f"{EVIL}: Zug" and org.locator("#map img").count() == 0
    assert errors == []
    ctx.close()


def test_page_shows_the_group_model_state(site, browser):
    """The "Now" box says what the group's day says (planner group status): the obligation, the next roll,
    the board-by time of the 29-minute rule; not only the last roll."""
    game = site["game"]
    token = game["groups"][1]["token"]
    api = f"{site['url']}/api/games/{game['game']}/groups/2"
    errors: list = []
    ctx, p = joined_phone(browser, errors, game["groups"][1]["url"], 2)
    tell_position(p, "Zug", "14:00")
    expect(p.locator("#position")).to_have_text("Zug 14:00")
    st = requests.get(api, headers={"Authorization": f"Bearer {token}"}).json()["status"]
    assert st["obligation"]["board_by"] == "14:29"
    expect(p.locator("#deadline")).to_have_text(st["obligation"]["board_by"])
    expect(p.locator("#obligation")).to_have_text("Roll the dice now")
    roll(p, "4")
    expect(p.locator("#history tbody tr")).to_have_count(1)
    st = requests.get(api, headers={"Authorization": f"Bearer {token}"}).json()["status"]
    ob = st["obligation"]
    assert ob["kind"] == "heading"
    expect(p.locator("#obligation")).to_have_text(f"Heading for {ob['target']}, arrival {ob['until']}")
    expect(p.locator("#next-roll")).to_have_text(st["next_roll_at"])
    assert errors == []
    ctx.close()


def test_undo_of_a_position_says_so(site, browser):
    """Undo removes the latest entry; when that is a position report the page says which, not "nothing"."""
    game = site["game"]
    errors: list = []
    ctx, p = joined_phone(browser, errors, game["groups"][1]["url"], 2)
    tell_position(p, "Baar", "15:00")
    expect(p.locator("#position")).to_have_text("Baar 15:00")
    unfold(p, "history-box")
    p.click("#undo")
    expect(p.locator("#undo-question")).to_contain_text('the position report "at Baar" at 15:00')
    p.click("#undo-yes")
    expect(p.locator("#message")).to_have_text(re.compile(r"^Position at Baar at 15:00 removed"))
    assert errors == []
    ctx.close()
