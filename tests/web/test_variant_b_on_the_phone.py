"""Variant B's positions, tunnel targets and named trains on the phone, in Debian's headless chromium at 390 x 844,
on a day of variant B written here (game nordwestschweiz) and a line network written beside it
(tests/support/play_day.py), read by a server of its own:

* a group that walks from Liestal to the stop in front of the station is there, buys it, and a roll for Liestal
  from that stop goes on foot;
* a tunnel target is reached where the train leaves the tunnel: the re-roll five minutes before, and a 6 rolled
  then gives its hour from the tunnel on, the next roll due when it ends;
* a train is named by its time at the group's stop; when two trains leave there in that minute the page asks which.

The day: an S3 Laufen :02 - Basel SBB +20 - Muttenz +30 - Pratteln +36 (leaves +37) - Liestal +44 - Olten +70 and
one Olten :39 the other way; an IC Olten :45 - Liestal +20 - Basel SBB +30 (non-stop through the Adlertunnel), both
ways; a bus "1" Liestal, Bahnhof :10 - Pratteln +12, both ways; two trams "10" leaving Basel, Dreispitz at 12:10, to Dornach, Bahnhof and to Basel SBB; a walk of 3 minutes
between Liestal and Liestal, Bahnhof (transfers.txt).
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.support.browser import joined_phone, page_width, tell_position, unfold
from tests.support.browser import roll as roll_dice
from tests.support.inline_day import ROUTES, STATIONS, day_argv, inline_day, line_service, stops_txt
from tests.support.play_day import rail_csv
from tests.support.webserver import run_cli, serve, web_env

pytestmark = pytest.mark.long  # one worker runs a module (--dist loadfile); this one early

WALK = 3  # minutes between Liestal and Liestal, Bahnhof
S3 = [("Laufen", 0), ("Basel SBB", 20), ("Muttenz", 30), ("Pratteln", 36), ("Liestal", 44), ("Olten", 70)]


def _day(folder, cache) -> list[str]:
    hours = range(8, 17)
    lines = [line_service("S3", S3, [f"{h:02d}:02" for h in hours], both_ways=False),
             line_service("S3", [(n, 70 - t) for n, t in reversed(S3)], [f"{h:02d}:39" for h in hours],
                          both_ways=False),
             line_service("IC1", [("Olten", 0), ("Liestal", 20), ("Basel SBB", 30)], [f"{h:02d}:45" for h in hours]),
             line_service("B1", [("Liestal, Bahnhof", 0), ("Pratteln", 12)], [f"{h:02d}:10" for h in hours]),
             line_service("T10", [("Basel, Dreispitz", 0), ("Dornach, Bahnhof", 15)], ["12:10"], both_ways=False),
             line_service("T10b", [("Basel, Dreispitz", 0), ("Basel SBB", 6)], ["12:10"], both_ways=False)]
    liestal, stop = STATIONS["Liestal"][0], STATIONS["Liestal, Bahnhof"][0]
    walks = "".join(f"{a},{b},2,{WALK * 60}\n" for a, b in ((liestal, stop), (stop, liestal)))
    with pytest.MonkeyPatch.context() as mp:  # the tests' cache (module fixtures come before the autouse one)
        mp.setenv("PLANNER_CACHE", str(cache))
        return day_argv(inline_day(
            folder, game="nordwestschweiz",
            routes=ROUTES + "S3,sbb,S3,,S-Bahn,106\nT10,sbb,10,,Tram,900\nT10b,sbb,10,,Tram,900\n",
            stops=stops_txt("Laufen", "Basel SBB", "Muttenz", "Pratteln", "Liestal", "Liestal, Bahnhof", "Olten",
                            "Basel, Dreispitz", "Dornach, Bahnhof"),
            trips="route_id,service_id,trip_id\n" + "".join(t for t, _ in lines),
            stop_times="trip_id,arrival_time,departure_time,stop_id,stop_sequence\n" + "".join(st for _, st in lines),
            transfers="from_stop_id,to_stop_id,transfer_type,min_transfer_time\n" + walks))


@pytest.fixture(scope="module")
def site(tmp_path_factory, session_cache):
    folder = tmp_path_factory.mktemp("variant-b-phone")
    day = _day(folder, session_cache)
    env = {**web_env(folder, cache=session_cache), "PLANNER_RAIL_CSV": rail_csv(folder)}
    with serve(env, "--poll-interval", "0.5") as srv:
        p = run_cli(env, "game", "new", "--name", "Zu Fuss", "--groups", "Rot,Blau,Gelb", *day,
                    "--base-url", srv.url, "--json")
        assert p.returncode == 0, p.stderr
        yield {"env": env, "game": json.loads(p.stdout), "day": day}


def cli(site, *argv: str) -> dict:
    p = run_cli(site["env"], *argv, *site["day"], "--json")
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def open_group(browser, site, number: int, errors: list, failed: list):
    return joined_phone(browser, errors, site["game"]["groups"][number - 1]["url"], f"/groups/{number}", failed)


def set_position(p, time: str, at: str = "", trip: str = "") -> None:
    tell_position(p, at, time, trip=trip)


def roll(p, white: str, colour: str) -> None:
    roll_dice(p, white, colour)


def buy(p, name: str) -> None:
    unfold(p, "money")
    p.fill("#buy-name", name)
    p.click("#buy-form button")


def test_a_group_that_walked_to_the_stop_is_there(site, browser):
    walk = WALK
    errors: list = []
    failed: list = []
    ctx, p = open_group(browser, site, 1, errors, failed)
    set_position(p, "09:46", "Liestal")
    expect(p.locator("#position")).to_have_text("Liestal 09:46")
    buy(p, "Liestal")
    expect(p.locator("#money-message")).to_contain_text("Recorded #")
    set_position(p, f"09:{46 + walk}", "Liestal, Bahnhof")  # on foot across the square
    expect(p.locator("#position")).to_have_text(f"Liestal, Bahnhof 09:{46 + walk}")
    buy(p, "Liestal, Bahnhof")
    expect(p.locator("#money-message")).to_contain_text("Recorded #")
    expect(p.locator("#money-message")).to_contain_text("Liestal, Bahnhof")
    # a roll for Liestal from the stop: the walk back is the way (one leg, no train)
    set_position(p, "11:25", "Liestal, Bahnhof")
    p.fill("#time", "11:30")
    roll(p, "1", "2")
    expect(p.locator("#target")).to_have_text("Liestal")
    expect(p.locator("#arrival")).to_have_text(f"11:{30 + walk}")
    expect(p.locator("#reroll")).to_have_text("11:30")
    rows = p.locator("#legs tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("on foot")  # a walk in the reader's words, not the key "walk"
    assert page_width(p) <= 390
    assert errors == [] and failed == []
    ctx.close()


def test_a_tunnel_target_rerolls_before_the_tunnel_and_frees_from_it(site, browser):
    want = cli(site, "target", "--at", "Liestal", "--time", "12:00", "--roll", "55")
    ride = want["legs"][0]
    assert ride["departure"] < want["arrival"] < ride["arrival"]  # passed before Basel SBB
    errors: list = []
    failed: list = []
    ctx, p = open_group(browser, site, 2, errors, failed)
    set_position(p, "12:00", "Liestal")
    roll(p, "5", "5")
    expect(p.locator("#target")).to_have_text("Adlertunnel")
    expect(p.locator("#arrival")).to_have_text(want["arrival"])
    expect(p.locator("#reroll")).to_have_text(want["reroll_at"])
    expect(p.locator("#admissible li.fastest b")).to_have_text(f"{ride['departure']} → {want['arrival']}")
    # at the re-roll, a 6: free from the tunnel on, the next roll when the hour ends
    p.fill("#time", want["reroll_at"])
    roll(p, "6", "1")
    h, m = map(int, want["arrival"].split(":"))
    free_until = f"{h + 1:02d}:{m:02d}"
    expect(p.locator("#free-until")).to_have_text(free_until)
    expect(p.locator("#next-roll")).to_have_text(free_until)
    assert errors == [] and failed == []
    ctx.close()


def test_a_train_is_named_by_its_time_at_the_stop_and_the_page_asks_which(site, browser):
    errors: list = []
    failed: list = []
    ctx, p = open_group(browser, site, 3, errors, failed)
    set_position(p, "09:28", "Pratteln")
    expect(p.locator("#position")).to_have_text("Pratteln 09:28")
    set_position(p, "09:38", trip="S3 09:39")  # the S3 leaving Pratteln at 09:39, not the one leaving Olten
    expect(p.locator("#position")).to_contain_text("in S3 09:02 Laufen → Olten, next stop Pratteln")
    # two trams leave Basel, Dreispitz at 12:10, one each way: the page asks, and takes the one chosen
    set_position(p, "12:05", "Basel, Dreispitz")
    expect(p.locator("#position")).to_have_text("Basel, Dreispitz 12:05")
    set_position(p, "12:06", trip="Tram 10 12:10")
    expect(p.locator("#train-choice")).to_be_visible()
    options = p.locator("#train-options button")
    expect(options).to_have_count(2)
    expect(p.locator("#train-question")).to_contain_text("Tram 10 12:10")
    p.locator("#train-options button", has_text="→ Dornach, Bahnhof").click()
    expect(p.locator("#train-choice")).to_be_hidden()
    expect(p.locator("#position")).to_contain_text("Dornach, Bahnhof")
    expect(p.locator("#position")).to_contain_text("in Tram 10")
    assert page_width(p) <= 390
    # the one answer of the server that asks: 409 with the candidates (the browser logs it as a failed load)
    assert failed == [("POST", 409, f"/api/games/{site['game']['game']}/groups/3/position")]
    assert all("409" in e for e in errors)
    ctx.close()
