"""``planner game new`` and ``planner serve``'s JSON API, driven over HTTP against a real server on loopback.

The API's answers are compared with the CLI's ``--json`` for the same inputs (the CLI's ``main`` in the test's
process, the server a process of its own; ``planner game new``'s text output is also run as a process), and
every security point of the issue is tried: 401, 403 across groups and games, organiser-only routes, hashed
tokens, the join cookie's flags, cross-site state changes, size limits, 422 messages, escaping, rate limit.
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
import threading
import time
from pathlib import Path

import pytest
import requests

from tests.support.webserver import DAY, planner, run_cli, serve, web_env, web_game

pytestmark = [pytest.mark.long, pytest.mark.needs_shared]  # one worker runs a module (--dist loadfile); this one early

EVIL = "<img src=x onerror=alert(1)>"


@pytest.fixture(scope="module")
def site(web_server):
    """Two games of the shared server: game A (Rot, Blau, EVIL) and game B (Gruen)."""
    env = web_server.env
    a = web_game(env, f"Rot,Blau,{EVIL}")
    b = web_game(env, "Gruen", name="Other day")
    return {"env": env, "a": a, "b": b, "srv": web_server, "url": web_server.url}


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def group_api(site, game: dict, number: int) -> str:
    return f"{site['url']}/api/games/{game['game']}/groups/{number}"


# ---- game new ----------------------------------------------------------------------------------------

def test_game_new_json_and_hashed_tokens(site):
    a = site["a"]
    assert set(a) == {"game", "name", "played_on", "organiser", "groups", "warnings"}
    assert [g["name"] for g in a["groups"]] == ["Rot", "Blau", EVIL]
    tokens = [a["organiser"]["token"]] + [g["token"] for g in a["groups"]]
    assert len(set(tokens)) == len(tokens)
    assert all(len(t) >= 43 for t in tokens)  # token_urlsafe(32): 256 bits, 43 characters
    assert a["organiser"]["url"] == f"http://127.0.0.1:8000/join?t={a['organiser']['token']}"
    state = Path(site["env"]["PLANNER_STATE"])
    raw = b"".join(p.read_bytes() for p in state.parent.glob(state.name + "*"))
    assert not any(t.encode() in raw for t in tokens)  # never the token itself, in the file or its WAL
    with sqlite3.connect(state) as conn:
        hashes = {r[0] for r in conn.execute("SELECT token_hash FROM tokens")}
    assert {hashlib.sha256(t.encode()).hexdigest() for t in tokens} <= hashes
    assert oct(state.stat().st_mode & 0o777) == "0o600"


def test_game_new_text_output_and_bad_input(tmp_path):
    env = web_env(tmp_path)
    p = planner(env, "game", "new", "--name", "Day", "--groups", "Rot, Blau", "--base-url", "https://game.example/")
    assert p.returncode == 0
    assert "https://game.example/join?t=" in p.stdout and "Blau: https://" in p.stdout
    for groups, msg in [(",", "at least one group"), ("Rot,rot", "are the same group"), ("x" * 61, "1 to 60"),
                        ("Rot,2", "is a number"), ("a\x1bb", "control characters")]:
        p = run_cli(env, "game", "new", "--name", "Day", "--groups", groups)
        assert p.returncode == 2 and p.stderr.startswith("planner: error: ") and msg in p.stderr
        assert p.stderr.count("\n") == 1
    p = run_cli(env, "game", "new", "--name", "Day", "--groups", "Rot", "--game", "nosuchgame", "--json")
    assert p.returncode == 2 and "error" in json.loads(p.stdout)


# ---- the API answers what the CLI answers --------------------------------------------------------------

def test_roll_answers_exactly_what_planner_roll_json_answers(site, tmp_path):
    a = site["a"]
    body = {"dice": 2, "at": "Zug", "time": "12:40"}
    r = requests.post(group_api(site, a, 2) + "/rolls", json=body, headers=bearer(a["groups"][1]["token"]))
    assert r.status_code == 200, r.text
    api = r.json()
    assert api["group"] == "Blau" and api["game_id"] == a["game"]  # a name, never a key
    # The same inputs through the CLI, in a fresh state file holding a game of the same groups: its first roll.
    env = web_env(tmp_path)
    other = web_game(env, f"Rot,Blau,{EVIL}")
    p = run_cli(env, "roll", "--group", "blau", "--dice", "2", "--at", "Zug", "--time", "12:40", *DAY, "--json")
    assert p.returncode == 0, p.stderr
    cli = json.loads(p.stdout)
    assert cli["game_id"] == other["game"] and {**cli, "game_id": a["game"]} == api
    assert api["target"] == "Wohlen AG" and api["seq"] == 1 and api["legs"]
    # group status over the API is exactly `planner group status --json` on the server's state file
    state = requests.get(group_api(site, a, 2), headers=bearer(a["groups"][1]["token"])).json()
    p = run_cli(site["env"], "group", "status", "--group", "Blau", "--game-id", a["game"], *DAY, "--json")
    assert state["status"] == json.loads(p.stdout)
    assert state["last"] == api  # every phone of the group gets the full answer


def test_a_roll_on_the_phone_and_a_position_on_the_command_line_are_one_group(site):
    """The phone's Rot is the command line's Rot: a position set with `planner group position` is the phone's,
    a roll on the phone is in `planner group status`, at the phone's own time (never an older report's)."""
    b = site["b"]
    tok = b["groups"][0]["token"]
    api = group_api(site, b, 1)
    p = run_cli(site["env"], "group", "position", "--group", "gruen", "--game-id", b["game"], "--at", "Baar",
                "--time", "12:21", *DAY, "--json")
    assert p.returncode == 0, p.stderr
    st = requests.get(api, headers=bearer(tok)).json()["status"]
    assert st["position"]["station"] == "Baar" and st["position"]["since"] == "12:21"
    r = requests.post(api + "/rolls", json={"dice": 1, "time": "12:30", "roll_id": "phone-gruen-01"},
                      headers=bearer(tok))
    assert r.status_code == 200, r.text
    ans = r.json()
    assert ans["rolled_at"] == "12:30" and ans["from"] == "Baar" and ans["zugzwang"]["since"] == "12:21"
    p = run_cli(site["env"], "group", "status", "--group", "Gruen", "--game-id", b["game"], *DAY, "--json")
    cli = json.loads(p.stdout)
    assert [(x["seq"], x["time"], x["dice"]) for x in cli["rolls"]] == [(1, "12:30", "1")]
    r = requests.post(api + "/undo", json={}, headers=bearer(tok))
    assert r.json() == {"group": "Gruen", "removed": 1, "removed_position": None}
    p = run_cli(site["env"], "group", "status", "--group", "Gruen", "--game-id", b["game"], *DAY, "--json")
    assert json.loads(p.stdout)["rolls"] == []  # undo is one operation for every interface
    assert requests.post(api + "/undo", json={}, headers=bearer(tok)).json()["removed_position"] == "at Baar at 12:21"


def test_roll_with_trip_and_next_answer_as_the_cli(site):
    a = site["a"]
    tok = a["groups"][0]["token"]
    r = requests.post(group_api(site, a, 1) + "/position", json={"at": "zug", "time": "12:40"}, headers=bearer(tok))
    assert r.status_code == 200 and r.json()["position"]["station"] == "Zug" and r.json()["train"] is None
    trains = requests.get(group_api(site, a, 1) + "/trains", headers=bearer(tok))
    p = run_cli(site["env"], "zugzwang", "--at", "Zug", "--time", "12:40", *DAY, "--json")
    assert trains.status_code == 200 and {k: v for k, v in trains.json().items() if k != "seated"} == \
        json.loads(p.stdout)
    # next answers as `planner next --json`, from the position recorded in the group's day
    nxt = requests.get(group_api(site, a, 1) + "/next?time=12:40", headers=bearer(tok))
    p = run_cli(site["env"], "next", "--group", "Rot", "--game-id", a["game"], "--time", "12:40", *DAY, "--json")
    assert nxt.status_code == 200 and nxt.json() == json.loads(p.stdout)
    assert nxt.json()["obligation"]["kind"] == "roll"
    # a roll without a position in its body starts where the group's day has it, at the roll's own time
    r = requests.post(group_api(site, a, 1) + "/rolls", json={"dice": 3, "time": "12:45"}, headers=bearer(tok))
    assert r.status_code == 200 and r.json()["from"] == "Zug" and r.json()["rolled_at"] == "12:45"
    # undo answers as `planner group undo --json`
    r = requests.post(group_api(site, a, 1) + "/undo", json={}, headers=bearer(tok))
    assert r.json() == {"group": "Rot", "removed": 1, "removed_position": None}
    r = requests.post(group_api(site, a, 1) + "/undo", json={}, headers=bearer(tok))
    assert r.json()["removed"] is None and r.json()["removed_position"] == "at Zug at 12:40"


def test_same_roll_submitted_twice_at_once_is_recorded_once(site):
    a = site["a"]
    tok = a["groups"][2]["token"]
    body = {"dice": 4, "at": "Baar", "time": "13:05", "roll_id": "phone-a-0001"}
    answers: list = []

    def submit():
        answers.append(requests.post(group_api(site, a, 3) + "/rolls", json=body, headers=bearer(tok)))

    threads = [threading.Thread(target=submit) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [r.status_code for r in answers] == [200] * 4, [r.text for r in answers]
    assert {r.json()["seq"] for r in answers} == {1}
    assert len({r.json()["target"] for r in answers}) == 1
    state = requests.get(group_api(site, a, 3), headers=bearer(tok)).json()
    assert len(state["status"]["rolls"]) == 1
    # a retry (the offline queue sending again) answers the recorded roll again, marked as replayed
    r = requests.post(group_api(site, a, 3) + "/rolls", json=body, headers=bearer(tok))
    assert r.json()["replayed"] is True and r.json()["seq"] == 1
    first = [x.json() for x in answers if not x.json().get("replayed")]
    assert len(first) == 1 and {k: v for k, v in r.json().items() if k != "replayed"} == first[0]


# ---- authentication and authorisation ------------------------------------------------------------------

def test_no_or_unknown_token_is_401(site):
    a = site["a"]
    url = group_api(site, a, 1)
    for headers in [{}, bearer("not-a-token"), {"Authorization": "Basic abc"}, {"Authorization": "Bearer "}]:
        r = requests.get(url, headers=headers)
        assert r.status_code == 401, headers
        assert "error" in r.json()
    assert requests.post(url + "/rolls", json={"dice": 1}).status_code == 401
    assert requests.get(f"{site['url']}/games/{a['game']}/groups/1").status_code == 401


def test_a_group_token_cannot_read_or_change_another_group_or_game(site):
    a, b = site["a"], site["b"]
    rot = a["groups"][0]["token"]
    assert requests.get(group_api(site, a, 2), headers=bearer(rot)).status_code == 403
    before = requests.get(group_api(site, a, 2), headers=bearer(a["groups"][1]["token"])).json()
    for path, body in [("/rolls", {"dice": 1, "at": "Zug", "time": "12:40"}), ("/undo", {}),
                       ("/position", {"at": "Zug"})]:
        r = requests.post(group_api(site, a, 2) + path, json=body, headers=bearer(rot))
        assert r.status_code == 403, path
    after = requests.get(group_api(site, a, 2), headers=bearer(a["groups"][1]["token"])).json()
    assert after == before
    assert requests.get(group_api(site, b, 1), headers=bearer(rot)).status_code == 403
    assert requests.get(f"{site['url']}/api/games/{b['game']}/stations", headers=bearer(rot)).status_code == 403
    assert requests.get(f"{site['url']}/games/{a['game']}/groups/2", headers=bearer(rot)).status_code == 403


def test_organiser_routes_need_the_organiser_token(site):
    a, b = site["a"], site["b"]
    url = f"{site['url']}/api/games/{a['game']}"
    assert requests.get(url, headers=bearer(a["groups"][0]["token"])).status_code == 403
    assert requests.get(url, headers=bearer(b["organiser"]["token"])).status_code == 403
    assert requests.get(url).status_code == 401
    r = requests.get(url, headers=bearer(a["organiser"]["token"]))
    assert r.status_code == 200 and [g["group"]["name"] for g in r.json()["groups"]] == ["Rot", "Blau", EVIL]
    page = requests.get(f"{site['url']}/games/{a['game']}", headers=bearer(a["groups"][0]["token"]))
    assert page.status_code == 403
    assert requests.get(f"{site['url']}/games/{a['game']}", headers=bearer(a["organiser"]["token"])).ok


def test_organiser_documents_are_the_clis(site, tmp_path, monkeypatch):
    a = site["a"]
    monkeypatch.chdir(tmp_path)  # the area report in the current folder: the lab command's --out is its bare name
    for doc in ("report", "map"):
        url = f"{site['url']}/games/{a['game']}/{doc}"
        assert requests.get(url, headers=bearer(a["groups"][0]["token"])).status_code == 403
        assert requests.get(url).status_code == 401
    report = requests.get(f"{site['url']}/games/{a['game']}/report", headers=bearer(a["organiser"]["token"]))
    p = run_cli(site["env"], "check-area", *DAY, "--out", "report.html")
    assert report.status_code == 200 and report.text == (tmp_path / "report.html").read_text("utf-8")
    area = requests.get(f"{site['url']}/games/{a['game']}/map", headers=bearer(a["organiser"]["token"]))
    assert area.status_code == 200 and "L.map(" in area.text.replace("L.map (", "L.map(")
    assert p.returncode in (0, 1)


def test_join_link_sets_a_strict_httponly_cookie_and_opens_the_page(site):
    a = site["a"]
    s = requests.Session()
    r = s.get(a["groups"][0]["url"].replace("http://127.0.0.1:8000", site["url"]), allow_redirects=False)
    assert r.status_code == 200
    cookie = r.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie.replace("Strict", "strict") and "Path=/" in cookie
    assert r.headers["Referrer-Policy"] == "no-referrer"
    assert f"/games/{a['game']}/groups/1" in r.text
    page = s.get(f"{site['url']}/games/{a['game']}/groups/1")
    assert page.status_code == 200 and "Rot" in page.text
    assert s.get(group_api(site, a, 1)).status_code == 200
    assert s.get(group_api(site, a, 2)).status_code == 403
    assert requests.get(f"{site['url']}/join?t=forged").status_code == 401


def test_cookie_state_changes_are_safe_against_cross_site_requests(site):
    a = site["a"]
    s = requests.Session()
    s.get(f"{site['url']}/join?t={a['groups'][1]['token']}")
    url = group_api(site, a, 2) + "/position"
    body = {"at": "Baar", "time": "13:00"}
    # what a cross-site form or fetch can send: no custom header, or a foreign Origin / Sec-Fetch-Site
    assert s.post(url, json=body).status_code == 403
    assert s.post(url, data="at=Baar", headers={"X-Planner": "1",
                                                "Content-Type": "application/x-www-form-urlencoded"}).status_code == 415
    assert s.post(url, json=body, headers={"X-Planner": "1", "Origin": "https://evil.example"}).status_code == 403
    assert s.post(url, json=body, headers={"X-Planner": "1", "Sec-Fetch-Site": "cross-site"}).status_code == 403
    ok = s.post(url, json=body, headers={"X-Planner": "1", "Origin": site["url"], "Sec-Fetch-Site": "same-origin"})
    assert ok.status_code == 200 and ok.json()["position"]["station"] == "Baar"


# ---- input -----------------------------------------------------------------------------------------------

def test_bodies_are_size_limited_and_validated_with_clear_422s(site):
    a = site["a"]
    url = group_api(site, a, 1) + "/rolls"
    h = {**bearer(a["groups"][0]["token"]), "Content-Type": "application/json"}
    big = requests.post(url, data=json.dumps({"dice": 1, "at": "x" * 5000}), headers=h)
    assert big.status_code == 413 and "4096" in big.json()["error"]
    chunked = requests.post(url, data=iter([b'{"dice": 1, "at": "', b"x" * 5000, b'"}']), headers=h)
    assert chunked.status_code == 413
    cases = [('{"dice": 1,', "not valid JSON"), ("[1, 2]", "JSON object"), ('{"dice": "2"}', "whole number"),
             ('{"dice": true}', "whole number"), ('{"dice": 2, "colour": "red"}', "unknown field"),
             ('{"at": "Zug"}', "'dice' is required"), ('{"dice": 2, "at": "Zug", "time": "noon"}', "HH:MM"),
             ('{"dice": 9, "at": "Zug", "time": "12:40"}', "roll"), ('{"dice": 2, "at": "Zugg", "time": "12:40"}',
                                                                   "did you mean: Zug"),
             ('{"dice": 2, "at": "Zug", "time": "10:00"}', "dice start at 12:30"),
             ('{"dice": 2, "roll_id": "bad id!"}', "roll_id")]
    for body, msg in cases:
        r = requests.post(url, data=body, headers=h)
        assert r.status_code == 422, body
        assert msg in r.json()["error"], (body, r.json())
        assert "Traceback" not in r.text
    r = requests.post(group_api(site, a, 1) + "/position", data='{"at": "Zug", "trip": "IR99 25:00"}', headers=h)
    assert r.status_code == 422 and r.json()["error"]
    assert requests.get(f"{site['url']}/api/games/{a['game']}/groups/abc", headers=h).status_code == 404
    assert requests.get(f"{site['url']}/api/games/{a['game']}/groups/9", headers=h).status_code == 403


def test_user_text_is_escaped_in_html(site):
    a = site["a"]
    tok = a["groups"][2]["token"]
    page = requests.get(f"{site['url']}/games/{a['game']}/groups/3", headers=bearer(tok))
    assert page.status_code == 200
    assert EVIL not in page.text and "&lt;img src=x onerror=alert(1)&gt;" in page.text
    assert "script-src 'self'" in page.headers["Content-Security-Policy"]
    org = requests.get(f"{site['url']}/games/{a['game']}", headers=bearer(a["organiser"]["token"]))
    assert EVIL not in org.text
    # a station name typed by a user comes back only inside JSON (the pages insert it as text)
    r = requests.post(group_api(site, a, 3) + "/position", json={"at": "<script>x</script>"}, headers=bearer(tok))
    assert r.status_code == 422 and r.headers["content-type"].startswith("application/json")


def test_pages_come_in_the_language_chosen_else_the_servers(site):
    """The language chosen on the page (``?lang=``, its cookie) before the server's (``$PLANNER_LANG``: the suite
    serves English), the game's and the browser's (their order: tests/languages/test_languages.py)."""
    a = site["a"]
    url, h = f"{site['url']}/games/{a['game']}/groups/1", bearer(a["groups"][0]["token"])

    def lang(headers=None, cookies=None, query="") -> str:
        page = requests.get(url + query, headers={**h, **(headers or {})}, cookies=cookies)
        assert page.status_code == 200
        return re.search(r'<html lang="(\w+)"', page.text).group(1) + "/" + page.headers["Content-Language"]

    assert lang() == "en/en"
    assert lang({"Accept-Language": "de-CH,de;q=0.9,en;q=0.8"}) == "en/en"  # the server's before the browser's
    assert lang({"Accept-Language": "de-CH"}, {"planner_lang": "fr"}) == "fr/fr"  # chosen on the page: the cookie
    assert lang({"Accept-Language": "de-CH"}, {"planner_lang": "fr"}, "?lang=de") == "de/de"
    assert lang(None, {"planner_lang": "<script>"}) == "en/en"  # not a language: none chosen


@pytest.fixture(scope="module")
def own_server(tmp_path_factory, session_cache):
    """A server of this module's own, started with no game and ``--rate-limit 1`` (bursts of 6, then 1 a second
    per token) and the pages' own poll intervals: the options the shared one does not have. The module's last test
    stops it (``test_stopping_the_server_stops_its_routing_process``, which must stay last: tests run in file
    order, and a test run alone gets a server of its own)."""
    env = web_env(tmp_path_factory.mktemp("own-server"), cache=session_cache)
    with serve(env, "--rate-limit", "1") as srv:
        yield srv


def test_a_game_created_while_the_server_runs_is_served_at_once(own_server):
    srv, env = own_server, own_server.env
    # the server was started with no game (own_server): it serves anyway
    game = web_game(env, "Rot,Blau", name="Later")
    tok = game["groups"][1]["token"]
    r = requests.get(f"{srv.url}/api/games/{game['game']}/groups/2", headers=bearer(tok))
    assert r.status_code == 200, r.text
    assert r.json()["group"] == {"number": 2, "name": "Blau"} and r.json()["cash"] == 20000
    r = requests.post(f"{srv.url}/api/games/{game['game']}/groups/2/rolls", headers=bearer(tok),
                      json={"dice": 2, "at": "Zug", "time": "12:40"})
    assert r.status_code == 200 and r.json()["target"] == "Wohlen AG"
    # without --poll-interval the pages keep their own defaults
    page = requests.get(f"{srv.url}/games/{game['game']}/groups/2", headers=bearer(tok))
    assert page.status_code == 200 and "data-poll-ms" not in page.text


def test_rate_limit_per_token(own_server):
    srv, env = own_server, own_server.env
    game = web_game(env, "Rot,Blau")
    url = f"{srv.url}/api/games/{game['game']}/groups/"
    codes = [requests.get(url + "1", headers=bearer(game["groups"][0]["token"])).status_code for _ in range(12)]
    assert codes[:6] == [200] * 6 and 429 in codes[6:]
    r = requests.get(url + "1", headers=bearer(game["groups"][0]["token"]))
    assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
    # another token has its own bucket
    assert requests.get(url + "2", headers=bearer(game["groups"][1]["token"])).status_code == 200
    # guessing tokens (or join links) is limited per client address
    guesses = [requests.get(url + "1", headers=bearer(f"guess-{i}")).status_code for i in range(10)]
    assert guesses[:6] == [401] * 6 and 429 in guesses[6:]
    assert requests.get(f"{srv.url}/join?t=guess").status_code == 429


def test_poll_interval_reaches_both_pages_and_is_checked(site):
    """``serve --poll-interval 0.5`` (the shared server's): both pages carry it, the scripts read it."""
    a = site["a"]
    for path, token in ((f"/games/{a['game']}/groups/1", a["groups"][0]["token"]),
                        (f"/games/{a['game']}", a["organiser"]["token"])):
        page = requests.get(site["url"] + path, headers=bearer(token))
        assert page.status_code == 200 and 'data-poll-ms="500"' in page.text, path
    assert "dataset.pollMs" in requests.get(f"{site['url']}/static/api.js").text  # read in one place
    for script in ("group.js", "organiser.js"):
        assert "pollMs(" in requests.get(f"{site['url']}/static/{script}").text
    for bad in ("0", "601", "nan"):
        p = run_cli(site["env"], "serve", "--poll-interval", bad)
        assert p.returncode == 2 and p.stderr.startswith("planner: error: --poll-interval"), p.stderr


def test_app_shell_manifest_and_service_worker(site):
    url = site["url"]
    m = requests.get(url + "/manifest.webmanifest")
    assert m.status_code == 200 and m.headers["content-type"].startswith("application/manifest+json")
    assert m.json()["start_url"] == "/" and m.json()["display"] == "standalone"
    sw = requests.get(url + "/sw.js")
    assert sw.status_code == 200 and "javascript" in sw.headers["content-type"]
    assert sw.headers["Cache-Control"] == "no-cache"  # a new worker is picked up at once
    assert "/join" in sw.text  # join links (tokens) are never cached
    assert "__VERSION__" not in sw.text and re.search(r'"planner-shell-[0-9a-f]{12}"', sw.text)
    for asset in ("/static/group.js", "/static/api.js", "/vendor/leaflet/leaflet.js", "/vendor/basemap.json"):
        assert requests.get(url + asset).status_code == 200, asset
    # the app shell it keeps holds every module the pages import, and each is there (a tunnel after one visit)
    shell = set(re.findall(r'"(/static/[^"]+)"', sw.text))
    modules = {"/static/group.js", "/static/organiser.js"}
    todo = list(modules)
    while todo:
        src = requests.get(url + todo.pop()).text
        for name in re.findall(r'from "\./([\w.]+\.js)"', src):
            if "/static/" + name not in modules:
                modules.add("/static/" + name)
                todo.append("/static/" + name)
    assert len(modules) > 5 and modules <= shell, modules - shell
    assert all(requests.get(url + a).status_code == 200 for a in shell)
    api = requests.get(group_api(site, site["a"], 1), headers=bearer(site["a"]["groups"][0]["token"]))
    # kept by the browser only to be checked again (an unchanged answer: a 304 without a body)
    assert api.headers["Cache-Control"] == "private, no-cache" and api.headers["X-Content-Type-Options"] == "nosniff"
    assert api.headers["ETag"]


def test_group_page_state_lists_the_ledger_messages_it_must_be_told_of(web_server):
    """§13: other groups' purchases reach this group's phones with the state it polls; a purchase recorded on the
    command line is the same group's as on its phone (the commands name the game on the shared server in
    ``$PLANNER_GAME_ID``)."""
    game = web_game(web_server.env, "Rot,Blau,Gelb")
    env = {**web_server.env, "PLANNER_GAME_ID": game["game"]}
    srv = web_server
    for group, station, t in (("Blau", "Baar", "09:30"), ("gelb", "Cham", "09:40")):
        p = run_cli(env, "ledger", "buy", "--group", group, "--station", station, "--time", t, *DAY, "--json")
        assert p.returncode == 0, p.stderr
    api = f"{srv.url}/api/games/{game['game']}/groups/1"
    state = requests.get(api, headers=bearer(game["groups"][0]["token"])).json()
    assert [m["message"] for m in state["messages"]] == ["BlauK 9.30 Baar", "GelbK 9.40 Cham"]
    feed = json.loads(run_cli(env, "ledger", "feed", "--group", "Rot", *DAY, "--json").stdout)
    assert state["messages"] == feed["events"]
    blau = requests.get(f"{srv.url}/api/games/{game['game']}/groups/2/ledger",
                        headers=bearer(game["groups"][1]["token"])).json()
    assert blau["cash"] == 18000 and [s["name"] for s in blau["owned"]["stations"]] == ["Baar"]
    assert [m["message"] for m in blau["messages"]] == ["BlauK 9.30 Baar"]  # its own, to send (§19)


def test_position_in_a_train_by_its_name_alone(site):
    """A group in a train types only the train ("S1 12:36", its time where it got on); the trains the group
    may take next and the next roll work from that position (the remembered train is its trip id, not the
    name, which matches no departure at the stop the train is approaching)."""
    b = site["b"]
    tok = b["groups"][0]["token"]
    api = group_api(site, b, 1)
    assert requests.post(api + "/position", json={"at": "Zug", "time": "12:30"}, headers=bearer(tok)).ok
    ans = requests.post(api + "/rolls", json={"dice": 3, "time": "12:30"}, headers=bearer(tok)).json()
    first = ans["legs"][0]
    assert first["from"] == "Zug"
    # the trains the group may take next, at the phone's time: standing at Zug before its train, seated after
    before = requests.get(api + "/trains?time=12:30", headers=bearer(tok)).json()
    assert before["seated"] is False and before["station"] == "Zug"
    h, m = map(int, first["departure"].split(":"))
    riding = requests.get(api + f"/trains?time={h:02d}:{m + 1:02d}" if m < 59 else api + f"/trains?time={h + 1:02d}:00",
                          headers=bearer(tok)).json()
    assert riding["seated"] is True
    r = requests.post(api + "/position", json={"trip": f"{first['route']} {first['departure']}", "time": "12:50"},
                      headers=bearer(tok))
    assert r.status_code == 200, r.text
    pos = r.json()
    assert pos["position"]["trip_id"] == first["trip_id"] and pos["train"].startswith("in ")
    z = requests.get(api + "/trains", headers=bearer(tok))
    assert z.status_code == 200, z.text
    r = requests.post(api + "/position", json={"time": "12:51"}, headers=bearer(tok))
    assert r.status_code == 422 and "'at' is required" in r.json()["error"]


def test_the_game_store_reports_a_locked_state_file_in_one_line(tmp_path):
    from planner.errors import PlannerError
    from planner.store.state import State

    path = tmp_path / "state.sqlite"
    with State(path) as state:
        state.games.create("Test", ["Rot"], feed=None, game="sbb-monopoly", date="2021-09-11")
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process writing
    try:
        with State(path, timeout=0.1) as state, pytest.raises(PlannerError, match="locked by another"):
            state.games.create("Zwei", ["Blau"], feed=None, game="sbb-monopoly", date="2021-09-11")
    finally:
        other.execute("ROLLBACK")
        other.close()


def test_roll_and_trains_without_a_place_or_a_remembered_position_are_422(site):
    game = web_game(site["env"], "Rot", name="No position yet")  # a new game of the running server's, no position
    tok = game["groups"][0]["token"]
    api = f"{site['url']}/api/games/{game['game']}/groups/1"
    before = requests.get(api, headers=bearer(tok)).json()
    assert before["status"]["position"] is None
    r = requests.post(api + "/rolls", json={"dice": 2, "time": "12:40"}, headers=bearer(tok))
    assert r.status_code == 422
    assert "set its position first" in r.json()["error"]
    r = requests.post(api + "/rolls", json={"dice": 2}, headers=bearer(tok))  # and no time: not today
    assert r.status_code == 422 and "field 'time' is required" in r.json()["error"]
    r = requests.get(api + "/trains", headers=bearer(tok))
    assert r.status_code == 422 and r.json()["error"].endswith("or pass ?at=STATION&time=HH:MM")
    assert requests.get(api, headers=bearer(tok)).json() == before


def test_stopping_the_server_stops_its_routing_process(own_server):
    srv, env = own_server, own_server.env
    game = web_game(env, "Rot")
    try:
        r = requests.post(f"{srv.url}/api/games/{game['game']}/groups/1/rolls", json={"dice": 1, "at": "Zug",
                          "time": "12:40"}, headers=bearer(game["groups"][0]["token"]))
        assert r.status_code == 200
        children = Path(f"/proc/{srv.proc.pid}/task/{srv.proc.pid}/children").read_text().split()
        assert children  # the routing child (and multiprocessing's resource tracker)
    finally:  # stopped as the fixture stops it: by its own pid, SIGTERM
        srv.proc.terminate()
        srv.proc.wait(timeout=20)
    deadline = time.monotonic() + 10
    while any(Path(f"/proc/{c}").exists() for c in children) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not [c for c in children if Path(f"/proc/{c}").exists()]
