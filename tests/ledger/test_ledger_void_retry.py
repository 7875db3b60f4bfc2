"""A retry of a ledger event voided since (planner/store/ledger.py) is refused naming the void: on the command line
in one line with exit 2, on the web as a 422 with that line. The phone's page (planner/web/static/money.js) sends a
new event id for a new tap, so a group that pays again after an organiser's void is recorded, and the same id when
it taps again after "No connection", so that retry is recorded once."""

from __future__ import annotations

import json
import os
import re

import pytest
import requests

from tests.support.browser import PHONE, unfold
from tests.support.inline_day import day_argv, demo_day
from tests.support.webserver import planner, run_cli, web_game

pytestmark = pytest.mark.long  # one worker runs a module (--dist loadfile); this one early


def _voided(event_id: str, seq: int, message: str, at: str, reason: str) -> str:
    return (f"event id '{event_id}' was event #{seq} ({message}), voided at {at} ({reason}): record it again "
            "with a new id")


def test_the_command_line_refuses_a_retry_of_a_voided_event_in_one_line(tmp_path):
    env = os.environ.copy()  # the test's private state file
    day = day_argv(demo_day(tmp_path / "day"))
    buy = ["ledger", "buy", "--group", "2", "--station", "Luzern", "--time", "09:10", *day]
    # the steps around the refusal run the CLI's main in this process; the refusal itself is a real process
    first = run_cli(env, *buy, "--event-id", "phone-2-0001", "--json")
    assert first.returncode == 0, first.stderr
    assert run_cli(env, *buy, "--event-id", "phone-2-0001").returncode == 0  # a retry before the void: replayed
    void = run_cli(env, "ledger", "void", "2", "--reason", "bought  by\tmistake", "--time", "09:30", *day)
    assert void.returncode == 0, void.stderr
    retry = planner(env, *buy, "--event-id", "phone-2-0001")
    assert (retry.returncode, retry.stdout) == (2, "")
    assert retry.stderr.splitlines() == [
        "planner: error: " + _voided("phone-2-0001", 2, "2K 9.10 Luzern", "09:30", "bought by mistake")]
    again = run_cli(env, *buy, "--event-id", "phone-2-0002", "--json")  # a new id: a new purchase
    assert again.returncode == 0, again.stderr
    status = run_cli(env, "ledger", "status", "--group", "2", *day, "--json")
    assert [s["name"] for s in json.loads(status.stdout)["stations"]] == ["Luzern"]


@pytest.fixture(scope="module")
def site(web_server, tmp_path_factory, session_cache):
    """One game (Rot, Blau) on the process's shared server (conftest's web_server), on the demo day."""
    with pytest.MonkeyPatch.context() as mp:  # the tests' cache (module fixtures come before the autouse one)
        mp.setenv("PLANNER_CACHE", str(session_cache))
        day = day_argv(demo_day(tmp_path_factory.mktemp("void-retry-day")))
    game = web_game(web_server.env, "Rot,Blau", base=web_server.url, day=day)  # join links to this server
    return {"env": web_server.env, "game": game, "url": web_server.url}


def _api(site, number: int) -> tuple[str, dict]:
    token = site["game"]["groups"][number - 1]["token"]
    return (f"{site['url']}/api/games/{site['game']['game']}/groups/{number}/ledger",
            {"Authorization": f"Bearer {token}"})


def _void(site, seq: int, reason: str, time: str) -> None:
    r = requests.post(f"{site['url']}/api/games/{site['game']['game']}/void", json={
        "seq": seq, "reason": reason, "time": time}, headers={
        "Authorization": f"Bearer {site['game']['organiser']['token']}"}, timeout=60)
    assert r.status_code == 200, r.text


def test_the_web_api_answers_a_retry_of_a_voided_event_with_a_422_naming_the_void(site):
    url, auth = _api(site, 1)
    body = {"event": "buy", "station": "Baar", "time": "09:10", "event_id": "phone-rot-0001"}
    first = requests.post(url, json=body, headers=auth, timeout=60)
    assert first.status_code == 200, first.text
    seq = first.json()["seq"]
    assert requests.post(url, json=body, headers=auth, timeout=60).json()["seq"] == seq  # replayed
    _void(site, seq, "wrong station", "09:20")
    retry = requests.post(url, json=body, headers=auth, timeout=60)
    assert retry.status_code == 422
    assert retry.json() == {"error": _voided("phone-rot-0001", seq, "RotK 9.10 Baar", "09:20", "wrong station")}
    again = requests.post(url, json=body | {"event_id": "phone-rot-0002"}, headers=auth, timeout=60)
    assert again.status_code == 200 and again.json()["seq"] > seq and not again.json()["voided"]


def test_the_phone_retries_with_the_same_id_and_buys_again_after_a_void_with_a_new_one(site, browser):
    ctx = browser.new_context(**PHONE, service_workers="block")  # every POST reaches the route below
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sent: list[str] = []  # the event ids the page sent, in order; the first one never arrives

    def ledger_post(route) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        sent.append(route.request.post_data_json["event_id"])
        route.abort() if len(sent) == 1 else route.continue_()

    page.route(re.compile(r"/groups/2/ledger$"), ledger_post)
    page.goto(site["game"]["groups"][1]["url"])
    page.wait_for_url(re.compile(r"/groups/2$"))
    page.fill("#time", "09:30")
    unfold(page, "money")
    page.select_option("#buy-kind", "station")
    page.fill("#buy-name", "Cham")
    message = page.locator("#money-message")

    def buy(expected: str) -> None:
        page.click("#buy-form button")
        page.wait_for_function("t => document.getElementById('money-message').textContent.startsWith(t)",
                               arg=expected, timeout=20000)

    buy("No connection: not recorded")
    buy("Recorded #")  # tapped again: the same event, so the same id
    first = int(re.match(r"Recorded #(\d+): BlauK 9\.30 Cham$", message.text_content()).group(1))
    assert len(sent) == 2 and sent[0] == sent[1]
    _void(site, first, "organiser: not there", "09:40")
    buy("Recorded #")  # the group buys it again after the void: a new tap, a new id, a new event
    second = int(re.match(r"Recorded #(\d+): BlauK 9\.30 Cham$", message.text_content()).group(1))
    assert second > first and len(sent) == 3 and sent[2] != sent[1]
    url, auth = _api(site, 2)
    money = requests.get(url, headers=auth, timeout=60).json()
    assert [s["name"] for s in money["owned"]["stations"]] == ["Cham"]
    assert [(m["seq"], m["voided"]) for m in money["messages"] if m["name"] == "Cham"] == [(first, True),
                                                                                             (second, False)]
    assert errors == []
    ctx.close()
