"""A group that never rolls plays a morning on its phone (Debian's headless chromium, 390 x 844) on the real Zug day
(sbb-monopoly, 2021-09-11), the phone's clock moving as the morning goes: the page shows only the server's answer
for the group now (``GET .../ledger`` -> ``now``).

Blau owns Zug and Rotkreuz, Gelb the toll line Luzern-Rotkreuz (each bought where its day put it, over the API).
Rot stands at Zug (Blau's: a fee at once), boards the IR75 there, rides through Rotkreuz (Blau's: a fee at 10:10,
not before) and over the toll line (Gelb's: a fee at 10:25, not before). Each fee appears at its stop as the clock
reaches it, without any tap; stays after a reload and as the clock moves on; and one tap pays it at its stop's
time, also long after. At each step the page lists exactly the server's fees due, and offers to buy only what the
server offers (never Blau's Zug).
"""

from __future__ import annotations

import re
import threading

import pytest
import requests
from playwright.sync_api import expect

from tests.support.browser import joined_phone, tell_position, unfold
from tests.support.webserver import web_game

pytestmark = [pytest.mark.long, pytest.mark.needs_shared]  # one worker runs a module (--dist loadfile); reads ../shared

WAIT = 15000  # ms: what the clock or another phone changed shows within this


@pytest.fixture(scope="module")
def site(web_server):
    """A game of its own on the process's shared server, with Blau's and Gelb's holdings bought over the API."""
    game = web_game(web_server.env, "Rot,Blau,Gelb", name="Samstag", base=web_server.url)
    site = {"url": web_server.url, "game": game, "env": web_server.env}
    blau, gelb = Api(site, 2), Api(site, 3)
    gelb.post("/position", {"at": "Rotkreuz", "trip": "IR75 09:11", "time": "09:11"})  # to Luzern over the line
    gelb.post("/ledger", {"event": "buy", "toll_line": "Luzern–Rotkreuz", "time": "09:26"})
    blau.post("/position", {"at": "Zug", "time": "09:00"})
    blau.post("/ledger", {"event": "buy", "station": "Zug", "time": "09:05"})
    blau.post("/position", {"at": "Rotkreuz", "time": "09:30"})
    blau.post("/ledger", {"event": "buy", "station": "Rotkreuz", "time": "09:31"})
    return site


class Api:
    """A group's token on the game's API (another phone of the game)."""

    def __init__(self, site: dict, number: int):
        self.base = f"{site['url']}/api/games/{site['game']['game']}/groups/{number}"
        self.headers = {"Authorization": f"Bearer {site['game']['groups'][number - 1]['token']}"}

    def post(self, path: str, body: dict) -> dict:
        r = requests.post(self.base + path, json=body, headers=self.headers, timeout=60)
        assert r.status_code == 200, r.text
        return r.json()

    def ledger(self, time: str) -> dict:
        r = requests.get(f"{self.base}/ledger?time={time}", headers=self.headers, timeout=60)
        assert r.status_code == 200, r.text
        return r.json()


def clock(p, time: str) -> None:
    """The phone's own clock shows ``time`` on the game day (the page's time field follows it)."""
    p.clock.set_fixed_time(f"2021-09-11T{time}:00")  # no zone: the browser's local time
    expect(p.locator("#time")).to_have_value(time, timeout=WAIT)


def shown_fees(p) -> list[str]:
    return [t for t in p.locator("#fees li").all_inner_texts() if t.strip() != "none"]


def agrees(p, rot: Api, time: str, fees: list[tuple[str, str]]) -> None:
    """The page lists ``fees`` (name, stop time) and nothing else, as the server's answer for the group now does."""
    expected = [re.compile(re.escape(name) + r" to \w+: .* at " + at) for name, at in fees]
    expect(p.locator("#fees li.fee")).to_have_count(len(fees), timeout=WAIT)
    if fees:
        expect(p.locator("#fees li.fee")).to_have_text(expected, timeout=WAIT)
    server = rot.ledger(time)["now"]
    assert [(f["name"], f["time"]) for f in server["fees_due"]] == fees
    assert p.locator("#buy-offers button").all_inner_texts() == [
        ("Buy " + o["name"]) if o["kind"] == "station" else f"Buy toll line {o['name']}" for o in server["buy_offers"]]


def test_a_fee_appears_at_its_stop_and_stays_until_paid_at_its_stops_time(site, browser):
    errors: list = []
    rot = Api(site, 1)
    ctx, p = joined_phone(browser, errors, site["game"]["groups"][0]["url"], "/groups/1")
    clock(p, "09:40")
    unfold(p, "money")
    agrees(p, rot, "09:40", [])
    tell_position(p, "Zug")  # standing at Blau's Zug: its fee at once, and no offer to buy Zug
    expect(p.locator("#position")).to_have_text("Zug 09:40", timeout=WAIT)
    agrees(p, rot, "09:40", [("Zug", "09:40")])
    expect(p.locator("#due-fee li")).to_contain_text("Zug to Blau")  # the first screen's action: pay it

    clock(p, "10:02")
    tell_position(p, "Zug", trip="IR75 10:02")  # boards the IR75: Rotkreuz 10:10, over the toll line to Luzern 10:25
    expect(p.locator("#position")).to_contain_text("IR75", timeout=WAIT)
    clock(p, "10:09")
    agrees(p, rot, "10:09", [("Zug", "09:40")])  # Rotkreuz is a minute ahead: no fee before its stop
    clock(p, "10:10")  # the clock alone: the page asks again at the answer's next change
    agrees(p, rot, "10:10", [("Zug", "09:40"), ("Rotkreuz", "10:10")])

    p.reload()
    clock(p, "10:12")
    unfold(p, "money")
    agrees(p, rot, "10:12", [("Zug", "09:40"), ("Rotkreuz", "10:10")])  # after a reload too
    p.locator("#fees li.fee", has_text="Zug").locator("button.pay").click()  # one tap, 32 minutes late
    expect(p.locator("#money-message")).to_contain_text("Recorded", timeout=WAIT)
    agrees(p, rot, "10:12", [("Rotkreuz", "10:10")])
    paid = [e for e in rot.ledger("10:12")["messages"] if e["kind"] == "fee"]
    assert [(e["name"], e["time"], e["amount"]) for e in paid] == [("Zug", "09:40", 1000)]  # at its stop's time

    clock(p, "10:24")
    agrees(p, rot, "10:24", [("Rotkreuz", "10:10")])  # the toll line is still ahead
    clock(p, "10:25")
    agrees(p, rot, "10:25", [("Rotkreuz", "10:10"), ("Luzern–Rotkreuz", "10:25")])
    clock(p, "10:40")
    agrees(p, rot, "10:40", [("Rotkreuz", "10:10"), ("Luzern–Rotkreuz", "10:25")])  # the clock moves on: they stay
    p.fill("#time", "10:30")  # a time typed for something else: each fee is still paid at its stop's time
    for name in ("Luzern–Rotkreuz", "Rotkreuz"):
        p.locator("#fees li.fee", has_text=re.compile("^" + re.escape(name) + " ")).locator("button.pay").click()
        expect(p.locator("#fees li.fee", has_text=re.compile("^" + re.escape(name) + " "))).to_have_count(
            0, timeout=WAIT)
    agrees(p, rot, "10:40", [])
    paid = [e for e in rot.ledger("10:40")["messages"] if e["kind"] == "fee"]
    assert sorted((e["name"], e["time"]) for e in paid) == [
        ("Luzern–Rotkreuz", "10:25"), ("Rotkreuz", "10:10"), ("Zug", "09:40")]
    expect(p.locator("#time")).to_have_value("10:40")  # after the event the field follows the clock again
    assert errors == []
    ctx.close()


def test_an_answer_asked_again_unchanged_costs_a_304_and_answers_travel_gzipped(site):
    gelb = Api(site, 3)
    url = f"{gelb.base}/ledger?time=09:50"
    first = requests.get(url, headers=gelb.headers, timeout=60)
    assert first.status_code == 200 and first.headers["Content-Encoding"] == "gzip"  # JSON shrinks on the wire
    tag = first.headers["ETag"]
    again = requests.get(url, headers={**gelb.headers, "If-None-Match": tag}, timeout=60)
    assert again.status_code == 304 and again.content == b"" and again.headers["ETag"] == tag
    gelb.post("/ledger", {"event": "income", "time": "10:00"})  # the group's money changed: a new answer
    changed = requests.get(url, headers={**gelb.headers, "If-None-Match": tag}, timeout=60)
    assert changed.status_code == 200 and changed.headers["ETag"] != tag


def test_the_change_mark_answers_as_soon_as_anything_of_the_game_changes(site):
    gelb = Api(site, 3)
    changes = f"{site['url']}/api/games/{site['game']['game']}/changes"
    mark = requests.get(changes, headers=gelb.headers, timeout=60).json()["changes"]
    unchanged = requests.get(f"{changes}?since={mark}&wait=0", headers=gelb.headers, timeout=60)
    assert unchanged.json() == {"changes": mark}
    answer: list = []
    waiting = threading.Thread(target=lambda: answer.append(
        requests.get(f"{changes}?since={mark}", headers=gelb.headers, timeout=120).json()["changes"]))
    waiting.start()
    Api(site, 2).post("/position", {"at": "Zug", "time": "10:50"})  # another group's phone reports a position
    waiting.join()
    assert answer and answer[0] != mark
    other = web_game(site["env"], "Lila", base=site["url"])
    wrong = requests.get(changes, headers={"Authorization": f"Bearer {other['groups'][0]['token']}"}, timeout=60)
    assert wrong.status_code == 403  # a token of another game learns nothing of this one


def test_in_jail_the_trains_to_board_count_from_the_jails_end(site):
    gelb = Api(site, 3)
    gelb.post("/position", {"at": "Baar", "trip": "S1 09:31", "time": "09:31"})  # Baar 09:31, Zug 09:36
    late = gelb.post("/position", {"at": "Zug", "time": "09:36", "late": 6})  # §17: jail at Zug until 10:06
    assert late["late"]["jail"]["until"] == "10:06"
    r = requests.get(f"{gelb.base}/trains?time=09:40", headers=gelb.headers, timeout=60)
    assert r.status_code == 200, r.text
    trains = r.json()
    # the page says "board a train by" this while it says "in jail until 10:06": never a deadline before the end
    assert trains["deadline"] == "10:35"
    assert all(d["departure"] >= "10:06" for d in trains["departures"] if d["catchable"])
