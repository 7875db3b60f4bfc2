"""The group's page on a 390 x 844 phone, in Debian's headless chromium on the real Zug day (sbb-monopoly,
2021-09-11): the first screen holds what binds the group now, the one action it most likely needs and the answer's
first leg; "Where are we?" proposes the station or the train from a simulated location, confirmed in one tap; every
time field takes 24-hour times in an English browser; the page asks the answers that depend on the group's place
once per change, and nothing while nothing changes; the language switch is remembered (localStorage, the cookie ``planner_lang``).
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
import requests
from playwright.sync_api import expect

from planner.gamefile.game import load_game
from planner.rail.network import haversine_km
from planner.service.setup.playing import GameDay
from planner.timetable.trips import describe_train
from planner.util.timefmt import fmt_clock
from tests.support import DEMO_DATE, ZUG
from tests.support.browser import PHONE, joined_phone, page_width, ready, tell_position
from tests.support.webserver import DAY, run_cli, web_game

pytestmark = [pytest.mark.long, pytest.mark.needs_shared]  # one worker runs a module (--dist loadfile); this one early

VIEWPORT = PHONE["viewport"]["height"]


@pytest.fixture(scope="module")
def site(web_server):
    """A game of its own on the process's shared server: Rot, Blau, Gelb, Lila (one group per test that plays)."""
    game = web_game(web_server.env, "Rot,Blau,Gelb,Lila", name="Phone", base=web_server.url)
    return {"env": web_server.env, "game": game, "url": web_server.url}


@pytest.fixture(scope="module")
def day_tt():
    """The Zug day's timetable as the server has it (from the session's cache, which the server filled)."""
    return GameDay(str(ZUG), load_game("sbb-monopoly"), DEMO_DATE).timetable


def on_first_screen(p, selector: str) -> bool:
    """The element is shown and wholly inside the first screen (no scrolling: the page is at its top)."""
    box = p.locator(selector).bounding_box()
    return (box is not None and box["height"] > 0 and p.evaluate("window.scrollY") == 0
            and box["y"] >= 0 and box["y"] + box["height"] <= VIEWPORT)


def state(site, number: int) -> dict:
    token = site["game"]["groups"][number - 1]["token"]
    return requests.get(f"{site['url']}/api/games/{site['game']['game']}/groups/{number}",
                        headers={"Authorization": f"Bearer {token}"}, timeout=60).json()


def test_a_roll_at_390x844_keeps_the_obligation_the_action_and_the_first_leg_on_the_first_screen(site, browser):
    want = json.loads(run_cli(site["env"], "target", "--at", "Zug", "--time", "12:40", "--roll", "2", *DAY,
                              "--json").stdout)
    errors: list = []
    ctx, p = joined_phone(browser, errors, site["game"]["groups"][0]["url"], "/groups/1")
    p.fill("#time", "12:40")
    # nothing known yet: the action is to say where the group is, on the first screen
    expect(p.locator("#action #position-form")).to_have_count(1, timeout=20000)
    assert on_first_screen(p, "#action #position-form button[type=submit]") and on_first_screen(p, "#locate")
    p.fill("#at", "Zug")
    p.click("#action #position-form button[type=submit]")
    expect(p.locator("#position")).to_have_text("Zug 12:40", timeout=20000)
    # the dice ask for a roll: the roll is the action, under the obligation
    expect(p.locator("#obligation")).to_have_text("Roll the dice now")  # the server's words (service/read/rule_words.py)
    expect(p.locator("#action #roll-form")).to_have_count(1, timeout=20000)
    assert on_first_screen(p, "#obligation") and on_first_screen(p, "#roll-button")
    p.select_option("#die", "2")
    p.click("#roll-button")
    expect(p.locator("#message")).to_have_text("Recorded: roll 2 at 12:40.")
    ob = state(site, 1)["status"]["obligation"]
    assert ob["kind"] == "heading" and ob["target"] == want["target"] and ob["board_by"]
    # what binds now, the action it asks (board a train by the 29-minute deadline), the answer's first leg
    expect(p.locator("#obligation")).to_have_text(f"Heading for {want['target']}, arrival {ob['until']}")
    expect(p.locator("#action .action-title")).to_have_text(f"Board a train by {ob['board_by']}")
    leg = want["legs"][0]
    card = p.locator("#first-leg .leg-card")
    expect(card).to_contain_text(f"{leg['departure']} {leg['from']} Gl. {leg['from_platform']}")
    expect(card).to_contain_text(f"{leg['arrival']} {leg['to']}")
    expect(card.locator(".leg-train b")).to_have_text(leg["route"])
    expect(p.locator("#action tr.plan")).to_contain_text(leg["departure"])  # its train, among those allowed
    p.evaluate("window.scrollTo(0, 0)")
    for part in ("#obligation", "#action", "#message", "#first-leg"):
        assert on_first_screen(p, part), part
    # the rest folds away: the history and the money are there, closed
    expect(p.locator("#history tbody tr")).to_have_count(1)
    assert p.locator("details#history-box").evaluate("d => !d.open")
    assert p.locator("details#money").evaluate("d => !d.open")
    assert page_width(p) <= 390
    assert errors == []
    ctx.close()


def geolocated_phone(browser, errors: list, url: str, number: int, lat: float, lon: float):
    """A phone whose location (Geolocation, allowed for this page) is ``lat``, ``lon``."""
    ctx = browser.new_context(**PHONE, geolocation={"latitude": lat, "longitude": lon}, permissions=["geolocation"])
    p = ctx.new_page()
    p.on("console", lambda m: m.type == "error" and errors.append(m.text))
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.goto(url)
    p.wait_for_url(re.compile(rf"/groups/{number}$"))
    ready(p)
    return ctx, p


def test_where_are_we_proposes_the_station_the_phone_is_at_and_one_tap_sets_it(site, browser, day_tt):
    zug = day_tt.station_name.index("Zug")
    lat, lon = float(day_tt.station_lat[zug]) + 0.001, float(day_tt.station_lon[zug])  # 111 m north
    errors: list = []
    ctx, p = geolocated_phone(browser, errors, site["game"]["groups"][1]["url"], 2, lat, lon)
    p.fill("#time", "13:00")
    p.click("#locate")
    expect(p.locator("#proposal-text")).to_have_text(re.compile(r"^Are you at Zug\? \(1\d\d m from here\)$"))
    p.click("#proposal-yes")  # one tap
    expect(p.locator("#position")).to_have_text("Zug 13:00")
    expect(p.locator("#proposal")).to_be_hidden()
    pos = state(site, 2)["status"]["position"]
    assert (pos["station"], pos["since"], pos["seated"]) == ("Zug", "13:00", False)
    assert errors == []
    ctx.close()


def a_train_between_two_stops(tt):
    """A train between two stops at least 3 km apart, 2 minutes after it left the first one between 13:00 and
    14:00, and where its timetable has it then (on the straight line between the two stops, in proportion to the
    time): a place at least 800 m from every station of the day."""
    for trip in range(tt.n_trips):
        rows = tt.trip_stop_times(trip)
        for r in rows[:-1]:
            dep, arr = int(tt.st_dep[r]), int(tt.st_arr[r + 1])
            if not (13 * 3600 <= dep < 14 * 3600 and dep % 60 == 0 and arr - dep >= 4 * 60):
                continue
            a, b = (int(tt.stop_station[tt.st_stop[x]]) for x in (r, r + 1))
            if haversine_km(tt.station_lat[a], tt.station_lon[a], tt.station_lat[b], tt.station_lon[b]) < 3:
                continue
            t = dep + 120
            f = (t - dep) / (arr - dep)
            lat = float(tt.station_lat[a] + f * (tt.station_lat[b] - tt.station_lat[a]))
            lon = float(tt.station_lon[a] + f * (tt.station_lon[b] - tt.station_lon[a]))
            if min(haversine_km(lat, lon, tt.station_lat[s], tt.station_lon[s]) for s in range(tt.n_stations)) > 0.8:
                return trip, r + 1, t, lat, lon
    raise AssertionError("no train between two stops far from every station in the Zug day")


def test_where_are_we_proposes_the_train_the_phone_rides_in_and_one_tap_sets_it(site, browser, day_tt):
    trip, next_row, t, lat, lon = a_train_between_two_stops(day_tt)
    next_stop = day_tt.station_name[day_tt.stop_station[day_tt.st_stop[next_row]]]
    errors: list = []
    ctx, p = geolocated_phone(browser, errors, site["game"]["groups"][2]["url"], 3, lat, lon)
    p.fill("#time", fmt_clock(t))
    p.click("#locate")
    expect(p.locator("#proposal-text")).to_have_text(
        f"Are you in the {describe_train(day_tt, trip)}? Next stop {next_stop} "
        f"{fmt_clock(int(day_tt.st_arr[next_row]))}.")
    p.click("#proposal-yes")  # one tap
    route = day_tt.route_name[day_tt.trip_route[trip]]
    expect(p.locator("#position")).to_have_text(re.compile(rf"^in {re.escape(route)} .*next stop {re.escape(next_stop)}"))
    pos = state(site, 3)["status"]["position"]
    assert pos["seated"] and pos["trip_id"] == day_tt.trip_id[trip] and pos["station"] == next_stop
    assert errors == []
    ctx.close()


def test_where_are_we_says_plainly_when_the_phone_gives_no_location(site, browser):
    errors: list = []
    ctx, p = joined_phone(browser, errors, site["game"]["groups"][3]["url"], "/groups/4")  # no permission given
    p.click("#locate")
    expect(p.locator("#proposal")).to_contain_text("type the station or the train", timeout=30000)
    assert state(site, 4)["status"]["position"] is None  # nothing was sent, nothing set
    assert errors == []
    ctx.close()


def test_the_whereabouts_api_checks_its_input_and_keeps_no_place(site, web_server, day_tt):
    game, tok = site["game"], site["game"]["groups"][3]["token"]
    url = f"{site['url']}/api/games/{game['game']}/groups/4/whereabouts"
    h = {"Authorization": f"Bearer {tok}"}
    zug = day_tt.station_name.index("Zug")
    lat, lon = round(float(day_tt.station_lat[zug]), 7) + 1e-7, round(float(day_tt.station_lon[zug]), 7) + 1e-7
    ok = requests.post(url, json={"lat": lat, "lon": lon, "time": "13:00"}, headers=h, timeout=60)
    assert ok.status_code == 200
    assert ok.json()["proposal"] == "station" and ok.json()["station"]["name"] == "Zug"
    far = requests.post(url, json={"lat": 46.0, "lon": 7.0, "time": "13:00"}, headers=h, timeout=60).json()
    assert far["proposal"] is None and far["nearest"]["distance_m"] > 50_000
    for body, msg in [({"lon": 8.5, "time": "13:00"}, "'lat' is required"),
                      ({"lat": "47", "lon": 8.5, "time": "13:00"}, "'lat' must be a number"),
                      ({"lat": True, "lon": 8.5, "time": "13:00"}, "'lat' must be a number"),
                      ({"lat": 91, "lon": 8.5, "time": "13:00"}, "is not a place"),
                      ({"lat": 47, "lon": 8.5, "time": "1 pm"}, "HH:MM"),
                      ({"lat": 47, "lon": 8.5, "time": "13:00", "accuracy": 5}, "unknown field")]:
        r = requests.post(url, json=body, headers=h, timeout=60)
        assert r.status_code == 422 and msg in r.json()["error"], (body, r.text)
    other = requests.post(url.replace("/groups/4/", "/groups/1/"), json={"lat": lat, "lon": lon}, headers=h,
                          timeout=60)
    assert other.status_code == 403  # a group's token asks for its own group only
    # the place went into one answer: not into the state, not into the server's log
    state_file = Path(web_server.env["PLANNER_STATE"])
    kept = b"".join(f.read_bytes() for f in state_file.parent.glob("*") if f.is_file())
    assert str(lat).encode() not in kept and str(lon).encode() not in kept


def test_every_time_field_takes_24_hour_times_in_an_english_browser(site, browser):
    ctx = browser.new_context(**PHONE, locale="en-US", timezone_id="Europe/Zurich")
    p = ctx.new_page()
    p.clock.set_fixed_time("2021-09-11T13:19:00+02:00")  # the phone's clock: 1:19 PM for en-US
    p.goto(site["game"]["groups"][3]["url"])
    p.wait_for_url(re.compile(r"/groups/4$"))
    expect(p.locator("#time")).to_have_value("13:19")
    assert p.locator("input[type=time]").count() == 0
    p.fill("#time", "1305")  # typed as on a number pad: 13:05 once the field is left
    p.locator("#time").blur()
    expect(p.locator("#time")).to_have_value("13:05")
    p.click("#time-back")
    expect(p.locator("#time")).to_have_value("13:00")
    p.click("#time-now")
    expect(p.locator("#time")).to_have_value("13:19")
    org = ctx.new_page()
    org.goto(site["game"]["organiser"]["url"])
    org.wait_for_url(re.compile(rf"/games/{site['game']['game']}$"))
    expect(org.locator("#groups tbody tr")).to_have_count(4)
    assert org.locator("input[type=time]").count() == 0
    ctx.close()


def test_an_idle_page_asks_nothing_and_a_change_asks_next_the_trains_and_the_ledger_again(site, browser):
    token = site["game"]["groups"][1]["token"]
    base = f"/api/games/{site['game']['game']}/groups/2"
    r = requests.post(site["url"] + base + "/position", json={"at": "Cham", "time": "14:00"},
                      headers={"Authorization": f"Bearer {token}"}, timeout=60)
    assert r.status_code == 200, r.text
    errors: list = []
    ctx, p = joined_phone(browser, errors, site["game"]["groups"][1]["url"], "/groups/2")
    with p.expect_response(lambda r: "/ledger?time=14%3A00" in r.url):  # the typed time's answers came
        p.fill("#time", "14:00")
    expect(p.locator("#position")).to_have_text("Cham 14:00")
    expect(p.locator("#trains tbody tr").first).to_be_attached()  # the trains came
    # settled: the page watches the change mark with a long poll of its own, and what its own joining (a change of
    # the game) made it ask again has been answered: no request but that poll for two seconds
    seen: list[tuple[float, str]] = []
    p.on("request", lambda r: "/api/" in r.url and seen.append((time.monotonic(), r.url)))
    start, deadline = time.monotonic(), time.monotonic() + 20
    while time.monotonic() < deadline:
        p.wait_for_timeout(250)
        now = time.monotonic()
        if now - start >= 2 and not [u for t, u in seen if t > now - 2 and "/changes" not in u]:
            break
    asked: list[str] = []
    p.on("request", lambda r: r.method == "GET" and "/api/" in r.url and asked.append(r.url.split("?")[0]))
    p.wait_for_timeout(3000)  # nothing changed in the game, and the typed time stays: nothing is asked at all
    kinds = ("", "/next", "/trains", "/ledger")
    count = {kind: sum(u.endswith(base + kind) for u in asked) for kind in kinds}
    assert count == {"": 0, "/next": 0, "/trains": 0, "/ledger": 0}, count
    # a change: next, the trains and the ledger (what its rules offer depends on the place: the free parking at a
    # change, the taxes of the train's mode) are asked once more
    tell_position(p, "Baar", "14:10")
    expect(p.locator("#position")).to_have_text("Baar 14:10")
    p.wait_for_timeout(2000)
    after = {kind: sum(u.endswith(base + kind) for u in asked) for kind in kinds[1:]}
    # the state and the ledger are asked for the typed time, after the report, and as the game's change mark moves
    # (the same address again: a 304); next and the trains once, for the new place
    assert after["/next"] == 1 and after["/trains"] == 1 and 1 <= after["/ledger"] <= 3, after
    assert errors == []
    ctx.close()


def test_the_language_chosen_is_remembered_on_the_phone_and_in_the_cookie_the_server_reads(site, browser):
    errors: list = []
    ctx, p = joined_phone(browser, errors, site["game"]["groups"][0]["url"], "/groups/1")
    assert p.evaluate("document.documentElement.lang") == "en"
    p.click("#languages button[lang=de]")
    expect(p.locator("html")).to_have_attribute("lang", "de")  # the page came again in German
    expect(p.locator("#languages button[lang=de]")).to_have_attribute("aria-pressed", "true")
    assert p.evaluate("localStorage.getItem('planner:lang')") == "de"
    # the cookie every request of the site carries (the page's own and its API requests, as the token's cookie)
    lang = [c for c in ctx.cookies() if c["name"] == "planner_lang"]
    assert [(c["value"], c["path"], c["sameSite"]) for c in lang] == [("de", "/", "Lax")]
    p.evaluate("localStorage.clear()")
    p.goto(site["url"] + f"/games/{site['game']['game']}/groups/1")  # the next page is German, too
    assert p.evaluate("document.documentElement.lang") == "de"
    assert errors == []
    ctx.close()


def test_a_train_that_has_left_leaves_the_trains_table_as_the_phones_clock_moves(web_server, browser):
    """No tap and no roll: the group stands at Cham, the trains it may take are listed; the phone's clock passes the
    first one's departure and the table drops it (a tired player does not run for a train that has gone)."""
    game = web_game(web_server.env, "Rot,Blau", name="Clock", base=web_server.url)
    errors: list = []
    ctx, p = joined_phone(browser, errors, game["groups"][0]["url"], "/groups/1")
    p.clock.set_fixed_time("2021-09-11T14:00:00")  # no zone: the browser's local time, on the game day
    expect(p.locator("#time")).to_have_value("14:00")
    tell_position(p, "Cham")
    expect(p.locator("#position")).to_have_text("Cham 14:00")
    p.locator("#trains-box summary").click()
    departures = p.locator("#trains tbody tr td:first-child")
    expect(departures.first).to_be_attached()
    first = departures.first.inner_text()
    assert first >= "14:00", departures.all_inner_texts()
    after = fmt_clock(int(first[:2]) * 3600 + int(first[3:]) * 60 + 60)
    p.clock.set_fixed_time(f"2021-09-11T{after}:00")
    expect(p.locator("#time")).to_have_value(after)
    expect(departures.first).not_to_have_text(first)  # gone without a tap
    assert all(d >= after for d in departures.all_inner_texts()), departures.all_inner_texts()
    assert departures.count() >= 1 and errors == []
    ctx.close()
