"""The organiser's page on a 390 x 844 phone in Chromium: the groups' table fits the screen ("Unterwegs nach" was
cut), and every position says how long ago the group told it ("Gelb Zürich Oerlikon 12:51" at 17:56 said
nothing of the five hours since). The game plays on the day written in tests/support/play_day.py."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from tests.support.browser import phone, split_words
from tests.support.webserver import run_cli, web_game


@pytest.fixture(scope="module")
def site(web_server, play_argv):
    game = web_game(web_server.env, "Rot,Gelb,Grünweiss", base=web_server.url, day=play_argv)

    def cli(*args: str) -> dict:
        p = run_cli(web_server.env, *args, "--game-id", game["game"], *play_argv, "--json")
        assert p.returncode == 0, p.stderr
        return json.loads(p.stdout)

    cli("group", "position", "--group", "Gelb", "--at", "Zürich Oerlikon", "--time", "12:51")
    cli("roll", "--group", "Gelb", "--dice", "4", "--time", "12:52")  # a target with a long name
    cli("group", "position", "--group", "Rot", "--at", "Hünenberg Zythus", "--time", "17:20")
    return {"game": game}


def test_the_groups_table_fits_a_phone_and_says_how_old_each_position_is(site, browser):
    errors: list = []
    ctx, p = phone(browser, errors)
    p.clock.set_fixed_time("2021-09-11T17:56:00")  # the organiser's phone: 17:56 on the game day, its own zone
    p.goto(site["game"]["organiser"]["url"])
    p.wait_for_url(re.compile(rf"/games/{site['game']['game']}$"))
    p.goto(p.url + "?lang=de")  # the page's language switch, as the organiser taps it
    rows = p.locator("#groups tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.nth(1).locator("td").nth(3)).to_have_text(re.compile(r"^Zürich Oerlikon 12:51\s+vor 5 h 5 Min\.$"))
    expect(rows.nth(0).locator("td").nth(3)).to_have_text(re.compile(r"^Hünenberg Zythus 17:20\s+vor 36 Min\.$"))
    heading = rows.nth(1).locator("td").nth(4).inner_text()
    assert heading and heading != "-"  # where Gelb's roll sends it
    fit = p.evaluate("""() => {
      const t = document.querySelector('#groups'), wrap = t.parentElement;
      const cells = [...t.querySelectorAll('th, td')].map(c => c.getBoundingClientRect().right);
      return {table: t.scrollWidth, wrap: wrap.clientWidth, right: Math.max(...cells), width: innerWidth,
              page: document.documentElement.scrollWidth};
    }""")
    assert fit["table"] <= fit["wrap"] and fit["right"] <= fit["width"] and fit["page"] <= fit["width"], fit
    assert p.locator("#groups thead th").nth(4).inner_text().split() == ["Unterwegs", "nach"]
    assert split_words(p, "#groups th, #groups td") == []  # wrapped between words, none cut inside
    assert errors == []
    ctx.close()


def test_the_organisers_page_asks_nothing_while_nothing_happens_and_follows_a_report_at_once(site, browser, web_server,
                                                                                          play_argv):
    """The page waits on the game's change mark (a long poll), not a timer: idle, it asks nothing else; a group's
    report on the command line shows at once; the position's age follows the phone's clock without a request."""
    errors: list = []
    ctx, p = phone(browser, errors)
    p.clock.set_fixed_time("2021-09-11T17:30:00")
    p.goto(site["game"]["organiser"]["url"])
    p.wait_for_url(re.compile(rf"/games/{site['game']['game']}$"))
    rows = p.locator("#groups tbody tr")
    expect(rows.nth(0).locator("td").nth(3)).to_have_text(re.compile(r"^Hünenberg Zythus 17:20\s+10 min ago$"))
    asked: list[str] = []
    p.on("request", lambda r: "/api/" in r.url and asked.append(r.url.split("?")[0]))
    p.wait_for_timeout(3000)
    assert [u for u in asked if not u.endswith("/changes")] == []  # idle: the change mark's long poll only
    p.clock.set_fixed_time("2021-09-11T17:32:00")  # the clock alone: the age moves, nothing is asked
    expect(rows.nth(0).locator("td").nth(3)).to_have_text(re.compile(r"\s+12 min ago$"), timeout=35_000)
    assert [u for u in asked if not u.endswith("/changes")] == []
    p_ = run_cli(web_server.env, "group", "position", "--group", "Grünweiss", "--at", "Cham", "--time", "17:31",
                 "--game-id", site["game"]["game"], *play_argv, "--json")
    assert p_.returncode == 0, p_.stderr
    expect(rows.nth(2).locator("td").nth(3)).to_have_text(re.compile(r"^Cham 17:31"), timeout=5_000)  # at once
    assert errors == []
    ctx.close()
