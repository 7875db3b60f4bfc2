"""Both doors refuse before they write (issue 41): the phone's API over loopback against the shared ``planner
serve`` answers 422 with one sentence, the command line (a real ``python -m planner`` process, in German) exits 2
with one line, and in either case nothing is recorded. The rules themselves are specified in
tests/ledger/test_every_door_checks_first.py; here the cases of the report: the roll with a
card and the bonus train on a day of variant B (tests/support/play_day.py), the rest on the demo day
(tests/support/inline_day.py)."""

from __future__ import annotations

import json

import pytest
import requests

from tests.support.inline_day import day_argv, demo_day
from tests.support.webserver import planner, run_cli

pytestmark = pytest.mark.long  # one worker runs a module (--dist loadfile)


def _game(env: dict, day: list[str], name: str) -> dict:
    p = run_cli(env, "game", "new", "--name", name, "--groups", "Rot,Blau,Gelb", *day, "--json")
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


@pytest.fixture(scope="module")
def site(web_server, tmp_path_factory, session_cache, variant_b_argv):
    with pytest.MonkeyPatch.context() as mp:  # the tests' cache (module fixtures come before the autouse one)
        mp.setenv("PLANNER_CACHE", str(session_cache))
        demo = day_argv(demo_day(tmp_path_factory.mktemp("guard-web-day")))
    nws = variant_b_argv
    return {"env": web_server.env, "url": web_server.url, "demo": demo, "nws": nws,
            "demo_game": _game(web_server.env, demo, "Wache"), "nws_game": _game(web_server.env, nws, "Wache B")}


class Phone:
    """One group's phone: its token and the game's API."""

    def __init__(self, site, game: str, number: int):
        g = site[game]
        self.base = f"{site['url']}/api/games/{g['game']}/groups/{number}"
        self.headers = {"Authorization": f"Bearer {g['groups'][number - 1]['token']}", "Cookie": "planner_lang=de"}

    def post(self, path: str, body: dict) -> requests.Response:
        return requests.post(self.base + path, json=body, headers=self.headers, timeout=120)

    def ok(self, path: str, body: dict) -> dict:
        r = self.post(path, body)
        assert r.status_code == 200, r.text
        return r.json()

    def refused(self, path: str, body: dict, needle: str) -> str:
        r = self.post(path, body)
        assert r.status_code == 422, r.text
        error = r.json()["error"]
        assert needle in error and "\n" not in error, error
        return error

    def get(self, path: str) -> dict:
        r = requests.get(self.base + path, headers=self.headers, timeout=120)
        assert r.status_code == 200, r.text
        return r.json()


def cli(site, game: str, *args: str):
    g = site[f"{game}_game"]["game"]
    return planner(site["env"], args[0], *args[1:], "--lang", "de", "--game-id", g, *site[game])


def refused_in_one_line(p, needle: str) -> None:
    assert p.returncode == 2, (p.returncode, p.stdout, p.stderr)
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0] and "Traceback" not in p.stderr, p.stderr


def own_events(site, game: str, number: int) -> list[dict]:
    return [e for e in Phone(site, game, number).get("/ledger")["messages"] if e["kind"] != "join"]


def test_a_roll_with_a_card_not_held_records_nothing_from_either_door(site):
    blau = Phone(site, "nws_game", 2)
    for i in range(20):  # the probe's twenty requests: none records a roll
        blau.refused("/rolls", {"dice": 23, "at": "Olten", "time": "11:30", "card": "chance-freiheit",
                                "roll_id": f"blau-web-roll-{i}"}, "keine Karte")
    p = cli(site, "nws", "roll", "--group", "Blau", "--at", "Olten", "--dice", "23", "--card", "chance-freiheit",
            "--time", "11:30", "--roll-id", "blau-roll-1")
    refused_in_one_line(p, "keine Karte 'chance-freiheit'")
    assert blau.get("")["status"]["rolls"] == []


def test_a_message_marked_sent_outside_the_game_is_refused(site):
    rot = Phone(site, "demo_game", 1)
    rot.ok("/position", {"at": "Zug", "time": "09:00"})
    buy = rot.ok("/ledger", {"event": "buy", "station": "Zug", "time": "09:01"})
    owner = Phone(site, "demo_game", 1).get("/ledger")["cash"]
    for when in ("47:59", "25:00"):
        rot.refused(f"/messages/{buy['seq']}/sent", {"time": when}, "ausserhalb")
    assert Phone(site, "demo_game", 1).get("/ledger")["cash"] == owner
    assert [e["sent"] for e in own_events(site, "demo_game", 1)] == [None]


def test_one_tax_tapped_on_two_phones_is_charged_once(site):
    gelb, gelb_too = Phone(site, "demo_game", 3), Phone(site, "demo_game", 3)
    gelb.ok("/position", {"trip": "S1 10:01 Rotkreuz", "time": "10:02"})
    gelb.ok("/ledger", {"event": "tax", "reason": "unscheduled_stop", "time": "10:04", "event_id": "gelb-tax-one"})
    gelb_too.refused("/ledger", {"event": "tax", "reason": "unscheduled_stop", "time": "10:04",
                                 "event_id": "gelb-tax-two"}, "einmal")
    p = cli(site, "demo", "ledger", "tax", "--group", "Gelb", "--reason", "unscheduled_stop", "--time", "10:04")
    refused_in_one_line(p, "einmal")
    assert [e["kind"] for e in own_events(site, "demo_game", 3)] == ["parking"]


def test_a_station_and_a_toll_line_the_groups_day_cannot_put_it_at_are_refused(site):
    blau = Phone(site, "demo_game", 2)
    blau.ok("/position", {"at": "Cham", "time": "11:00"})
    assert [o["name"] for o in blau.get("/ledger?time=11:05")["now"]["buy_offers"]] == ["Cham"]
    blau.refused("/ledger", {"event": "buy", "station": "Luzern", "time": "11:05"}, "Luzern")
    refused_in_one_line(cli(site, "demo", "ledger", "buy", "--group", "Blau", "--station", "Luzern", "--time",
                            "11:05"), "Luzern")
    blau.refused("/ledger", {"event": "buy", "toll_line": "Luzern–Rotkreuz", "time": "11:10"}, "Luzern–Rotkreuz")
    refused_in_one_line(cli(site, "demo", "ledger", "buy", "--group", "Blau", "--toll-line", "Luzern–Rotkreuz",
                            "--time", "11:10"), "Luzern–Rotkreuz")
    assert own_events(site, "demo_game", 2) == []


def test_a_group_that_is_out_is_refused_at_both_doors(site):
    rot = Phone(site, "demo_game", 1)
    rot.ok("/position", {"trip": "S1 13:01 Rotkreuz", "time": "13:02"})
    for minute in range(3, 10):  # 7 x 4000: more than it has (it owns Zug: mortgaged first, then out)
        r = rot.post("/ledger", {"event": "tax", "reason": "unscheduled_stop", "time": f"13:{minute:02d}"})
        if r.status_code != 200:
            break
    assert rot.get("/ledger")["out"] is True
    rot.refused("/rolls", {"dice": 3, "at": "Rotkreuz", "time": "13:30"}, "ausgeschieden")
    r = requests.get(rot.base + "/next?time=13:31", headers=rot.headers, timeout=120)
    assert r.status_code == 422 and "ausgeschieden" in r.json()["error"]
    refused_in_one_line(cli(site, "demo", "roll", "--group", "Rot", "--at", "Rotkreuz", "--dice", "3", "--time",
                            "13:30"), "ausgeschieden")
    page = rot.get("?time=13:32")  # its page still shows its day, and advises no purchase
    assert page["status"]["rolls"] == [] and page.get("buy_advice") is None


def test_the_bonus_train_is_the_one_boarded_at_its_first_stop_named_as_the_feed_names_it(site):
    gelb, rot = Phone(site, "nws_game", 3), Phone(site, "nws_game", 1)
    gelb.ok("/position", {"at": "Olten", "time": "09:30"})
    gelb.ok("/position", {"trip": "1 09:43", "time": "09:42"})  # the feed's own name of the bus, 18 min before
    p = cli(site, "nws", "ledger", "income", "--group", "Gelb", "--bonus", "--time", "10:00")
    assert p.returncode == 0, p.stderr
    rot.ok("/position", {"at": "Basel SBB", "time": "09:40"})
    income = rot.ok("/ledger", {"event": "income", "bonus": True, "trip": "S2 09:49", "time": "10:00"})
    assert income["bonus"] is True
    assert [e["bonus"] for e in own_events(site, "nws_game", 3) if e["kind"] == "income"] == [True]
