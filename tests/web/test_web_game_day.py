"""One game on two phones, the command line and the organiser's page, in Debian's headless chromium at
390 x 844 on the real Zug day (sbb-monopoly, 2021-09-11).

Morning: Blau's position is set on the command line and is its phone's; Blau buys the station it stands at on its
phone, Rot buys Zug on its phone and (by mistake) Baar on the command line; a purchase the group's day rules out is
refused as the server words it. Afternoon: Rot rolls with the phone's own time, sees the trains the 29-minute rule
allows, pays the fee at Blau's Rotkreuz once its itinerary has stopped there (not before), buys the toll line while
crossing it, records the full-hour income with the bonus its train earns (a claim without a train is refused), is
offered no mortgage and no building (the rules allow neither);
Blau rolls on the command line and its phone shows it. The organiser voids the mistaken purchase. Then Blau's phone, Rot's
phone, the organiser's page and ``planner ledger status --json`` agree on every amount. No page request fails
with 404 and no page is wider than the phone. (The README's screenshots of both pages are the German ones of
tests/languages/test_phone_speaks_german.py.)
"""

from __future__ import annotations

import json
import re
import urllib.parse

import pytest
from playwright.sync_api import expect

from tests.support.browser import (
    cut_labels,
    joined_phone,
    page_width,
    roll,
    split_words,
    tell_position,
    unfold,
)
from tests.support.webserver import DAY, run_cli, web_game

pytestmark = [pytest.mark.long, pytest.mark.needs_shared]  # one worker runs a module (--dist loadfile); this one early

POLL_MS = 12000  # a page polls every 4-5 s (0.5 s on the shared server): what another interface did shows within this


@pytest.fixture(scope="module")
def site(web_server):
    """A game of its own on the process's shared server (conftest's web_server)."""
    game = web_game(web_server.env, "Rot,Blau", name="Samstag", base=web_server.url)
    return {"env": web_server.env, "game": game, "url": web_server.url}


def cli(site, *args: str) -> dict:
    """A ``planner ... --json`` command on the server's state file, for this game (its answer)."""
    p = run_cli(site["env"], *args, "--game-id", site["game"]["game"], *DAY, "--json")
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def amount(text: str) -> int:
    """A number as the pages write it (de-CH: 18'500)."""
    return int(re.sub(r"[^\d-]", "", text))


def money_ok(p, text: str) -> None:
    expect(p.locator("#money-message")).to_contain_text(text, timeout=15000)


def test_a_morning_and_an_afternoon_on_two_phones_the_command_line_and_the_organiser(site, browser):
    game = site["game"]
    errors: list = []
    failed: list = []
    ctx1, rot = joined_phone(browser, errors, game["groups"][0]["url"], "/groups/1", failed)
    ctx2, blau = joined_phone(browser, errors, game["groups"][1]["url"], "/groups/2", failed)
    ctx3, org = joined_phone(browser, errors, game["organiser"]["url"], f"/games/{game['game']}", failed)

    # ---- morning --------------------------------------------------------------------------------------
    cli(site, "group", "position", "--group", "Blau", "--at", "Rotkreuz", "--time", "09:20")
    expect(blau.locator("#position")).to_have_text("Rotkreuz 09:20", timeout=POLL_MS)  # the command line's
    blau.fill("#time", "09:25")
    unfold(blau, "money")
    expect(blau.locator("#buy-offers button")).to_have_text(["Buy Rotkreuz"])  # the station it stands at
    blau.click("#buy-offers button")
    money_ok(blau, "BlauK 9.25 Rotkreuz")
    sent = blau.locator("#own-messages li").first
    expect(sent.locator(".sms-text")).to_have_text("BlauK 9.25 Rotkreuz")
    body = urllib.parse.quote("BlauK 9.25 Rotkreuz", safe="")
    assert sent.locator("a.sms").get_attribute("href") == f"sms:?body={body}"  # §19 in two taps
    assert sent.locator("a.whatsapp").get_attribute("href") == f"https://wa.me/?text={body}"
    expect(sent).to_contain_text("to all groups")

    tell_position(rot, "zug", "09:10")
    expect(rot.locator("#position")).to_have_text("Zug 09:10")
    rot.fill("#time", "09:12")
    unfold(rot, "money")
    expect(rot.locator("#buy-offers button")).to_have_text(["Buy Zug"])
    rot.click("#buy-offers button")
    money_ok(rot, "RotK 9.12 Zug")
    mistake = cli(site, "ledger", "buy", "--group", "Rot", "--station", "Baar", "--time", "09:40")
    expect(rot.locator("#owned tbody tr")).to_have_count(2, timeout=POLL_MS)  # bought on the command line
    expect(rot.locator("#owned")).to_contain_text("Baar")
    # a purchase the group's day rules out (Cham one minute after Baar) is refused, as the server words it
    rot.fill("#time", "09:41")
    rot.select_option("#buy-kind", "station")
    rot.fill("#buy-name", "Cham")
    rot.click("#buy-form button")
    expect(rot.locator("#money-message")).to_have_text(re.compile(r"^Not recorded: group Rot at Cham at 09:41\?"))
    expect(blau.locator("#messages")).to_contain_text("RotK 9.12 Zug", timeout=POLL_MS)  # §13: told

    # ---- afternoon --------------------------------------------------------------------------------------
    # "we have stood here since": the 29-minute rule counts from it
    tell_position(rot, "Zug", "12:40", since="12:31")
    expect(rot.locator("#position")).to_have_text("Zug 12:31")
    zz = json.loads(run_cli(site["env"], "zugzwang", "--at", "Zug", "--time", "12:31", *DAY, "--json").stdout)
    expect(rot.locator("#deadline")).to_have_text(zz["deadline"])
    expect(rot.locator("#trains-rule")).to_contain_text(f"board a train leaving by {zz['deadline']}")
    unfold(rot, "trains-box")
    rows = rot.locator("#trains tbody tr")
    # the trains the rule lists from 12:31, but those that left before the time told (12:40) are off the table
    told = [d for d in zz["departures"] if d["departure"] >= "12:40"]
    assert 0 < len(told) < len(zz["departures"])
    expect(rows).to_have_count(len(told))
    for i, d in enumerate(told[:3]):
        cells = rows.nth(i).locator("td")
        assert (cells.nth(0).inner_text(), cells.nth(1).inner_text().split()[0]) == (d["departure"], d["route"])

    rot.fill("#time", "12:45")  # the phone's own clock, later than the position report
    roll(rot, "3")
    expect(rot.locator("#target")).to_have_text("Emmenbrücke")
    expect(rot.locator("#answer-roll")).to_contain_text("at 12:45")
    status = cli(site, "group", "status", "--group", "Rot")
    assert [(r["time"], r["dice"], r["target"]) for r in status["rolls"]] == [("12:45", "3", "Emmenbrücke")]
    assert status["position"]["station"] == "Zug"  # the phone's position is the command line's
    expect(rot.locator("#candidates li")).to_have_count(3)  # the other targets of a 3, each with why not
    expect(rot.locator("#map .leaflet-tooltip")).to_contain_text(["Zug", "Emmenbrücke"])  # station names

    expect(rot.locator("#fees li.fee")).to_have_count(0)  # the itinerary's stop at Blau's Rotkreuz is ahead
    rot.fill("#time", "13:15")  # in the S1 between Rotkreuz and Emmenbrücke: the stop's fee is due, one tap
    fee = rot.locator("#fees li.fee").first
    expect(fee).to_contain_text("Rotkreuz to Blau: 500 at 13:07", timeout=POLL_MS)
    fee.locator("button.pay").click()
    money_ok(rot, "Rot Rotkreuz B 500")
    expect(rot.locator("#fees li.fee")).to_have_count(0)  # paid: gone
    expect(rot.locator("#buy-offers button", has_text="toll line")).to_have_count(0)  # not crossed yet
    rot.fill("#time", "13:40")  # the S1 has crossed it, in Luzern: the toll line is offered while there
    offer = rot.locator("#buy-offers button", has_text="toll line Luzern–Rotkreuz")
    offer.click()
    money_ok(rot, "RotK 13.40 Luzern–Rotkreuz")
    expect(offer).to_have_count(0)  # its own now: no longer offered
    # in the train at the phone's time: the trains list is for getting off at its next stop
    expect(rot.locator("#trains-rule")).to_contain_text("Seated: nothing binds until you get off", timeout=POLL_MS)
    rot.fill("#income-hour", "13:00")  # the S1 stops at Hünenberg Zythus at 13:00: the bonus, checked on it
    rot.check("#income-bonus")
    rot.click("#income-form button")
    money_ok(rot, "Rot Honorar 8000")
    rot.fill("#income-hour", "14:00")  # standing at Emmenbrücke then: the claim is refused
    rot.check("#income-bonus")
    rot.click("#income-form button")
    expect(rot.locator("#money-message")).to_contain_text("Not recorded: the bonus at 14:00 needs the train")
    zug = rot.locator("#owned tbody tr", has_text="Zug")
    expect(zug.locator("button", has_text="Mortgage")).to_have_count(0)  # §10: only when the cash does not cover
    expect(zug.locator("td").first).not_to_contain_text("mortgaged")
    expect(rot.locator("#build-form")).to_be_hidden()  # §8: Zug is in no complete letter group

    blau_roll = cli(site, "roll", "--group", "Blau", "--dice", "2", "--at", "Rotkreuz", "--time", "12:50")
    expect(blau.locator("#target")).to_have_text(blau_roll["target"], timeout=POLL_MS)  # the command line's roll
    expect(blau.locator("#messages")).to_contain_text("Rot Rotkreuz B 500", timeout=POLL_MS)

    # ---- the organiser voids the mistaken purchase ----------------------------------------------------------
    before = cli(site, "ledger", "status", "--group", "Rot")
    row = org.locator("#events tbody tr", has_text="Baar")
    expect(row).to_have_count(1, timeout=POLL_MS)
    row.click()
    expect(org.locator("#void-seq")).to_have_value(str(mistake["seq"]))
    org.fill("#void-reason", "bought by mistake")
    org.fill("#void-time", "13:20")
    org.click("#void-form button")
    expect(org.locator("#void-message")).to_contain_text(f"Voided #{mistake['seq']}")
    after = cli(site, "ledger", "status", "--group", "Rot")
    assert after["cash"] == before["cash"] + mistake["amount"] and "Baar" not in [s["name"] for s in after["stations"]]
    # every group is told, in the game's language, the voided event named by its own message
    expect(blau.locator("#messages")).to_contain_text(f"Korrektur: #{mistake['seq']} RotK 9.40 Baar storniert",
                                                      timeout=POLL_MS)
    expect(org.locator("#events tbody tr.voided", has_text="Baar")).to_have_count(1)

    # ---- every interface agrees on every amount ---------------------------------------------------------------
    ledger = cli(site, "ledger", "status")
    by = {g["group"]: g for g in ledger["groups"]}
    assert by["Blau"]["cash"] == 20000 - 2000 + 500 and by["Blau"]["capital"] == by["Blau"]["cash"] + 2000
    for p, name in ((blau, "Blau"), (rot, "Rot")):
        expect(p.locator("#cash")).to_have_text(f"{by[name]['cash']:,}".replace(",", "'"), timeout=POLL_MS)
        expect(p.locator("#capital")).to_have_text(f"{by[name]['capital']:,}".replace(",", "'"))
    owned = blau.locator("#owned tbody tr")
    expect(owned).to_have_count(1)
    station = by["Blau"]["stations"][0]
    assert [amount(c) for c in owned.nth(0).locator("td").all_inner_texts()[1:3]] == [station["value"], station["fee"]]
    expect(rot.locator("#owned tbody tr")).to_have_count(len(by["Rot"]["stations"]) + len(by["Rot"]["toll_lines"]))
    expect(org.locator("#groups tbody tr")).to_have_count(2)
    for i, name in enumerate(("Rot", "Blau")):
        cells = org.locator("#groups tbody tr").nth(i).locator("td")
        expect(cells.nth(2)).to_have_text(f"{by[name]['capital']:,}".replace(",", "'"), timeout=POLL_MS)
        assert cells.nth(0).inner_text() == name and amount(cells.nth(1).inner_text()) == by[name]["cash"]
    ranking = cli(site, "ledger", "end")["ranking"]
    assert [amount(t) for t in org.locator("#ranking tbody td:nth-child(4)").all_inner_texts()] == \
        [r["capital"] for r in ranking]
    expect(org.locator("#map .leaflet-tooltip.group-name")).to_have_count(2)
    expect(org.locator("#map .leaflet-tooltip.group-name")).to_contain_text(["Rot: Zug", "Blau: Rotkreuz"])

    # ---- the pages themselves --------------------------------------------------------------------------------
    for p in (rot, blau, org):
        assert page_width(p) <= 390, p.url
    assert split_words(org, "#groups td, #ranking td, #events td") == []  # cells wrap between words only
    assert cut_labels(org) == [] and cut_labels(rot) == []  # every name on a map shown whole
    area = ctx3.new_page()
    area.on("response", lambda r: r.status >= 400 and failed.append((r.request.method, r.status, r.url)))
    area.goto(site["url"] + org.locator("#map-link").get_attribute("href"))
    expect(area.locator(".leaflet-container")).to_have_count(1)
    area.wait_for_load_state("networkidle")
    assert [f for f in failed if f[1] == 404] == []  # Leaflet's images and every asset are there
    assert [f for f in failed if f != ("POST", 422, f"/api/games/{game['game']}/groups/1/ledger")] == []
    assert [e for e in errors if "status of 422" not in e] == []
    for c in (ctx1, ctx2, ctx3):
        c.close()
