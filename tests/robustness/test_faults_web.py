"""Faults of the phone app against a real ``planner serve`` over loopback: the routing process killed
mid-burst, the health endpoint, a deeply nested body, X-Forwarded-For, and map tooltips in headless Chromium; the
games play on the day written in tests/support/play_day.py."""

from __future__ import annotations

import json
import os
import re
import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests
from playwright.sync_api import expect

from planner.cli import main
from tests.support import ROOT
from tests.support.webserver import free_port, process_gone, routing_child, run_cli, serve, web_env, web_game

pytestmark = pytest.mark.long  # one worker runs a module (--dist loadfile); this one early

GROUPS = 32
EVIL = "<img src=x onerror=alert(1)>"  # a group name a browser would run as markup


@pytest.fixture(scope="module")
def site(tmp_path_factory, session_cache, play_argv):
    folder = tmp_path_factory.mktemp("faultweb")
    env = web_env(folder, cache=session_cache)
    port = free_port()
    game = web_game(env, ",".join(f"G{i}" for i in range(1, GROUPS + 1)), base=f"http://127.0.0.1:{port}",
                    day=play_argv)
    with serve(env, port=port) as srv:
        yield {"env": env, "game": game, "url": srv.url, "proc": srv.proc}


def _api(site, n: int, what: str = "") -> str:
    return f"{site['url']}/api/games/{site['game']['game']}/groups/{n}{what}"


def _auth(site, n: int) -> dict:
    return {"Authorization": f"Bearer {site['game']['groups'][n - 1]['token']}"}


def _roll(site, n: int, *, roll_id: str | None = None) -> requests.Response:
    body = {"dice": 2, "at": "Zug", "time": "12:40", **({"roll_id": roll_id} if roll_id else {})}
    return requests.post(_api(site, n, "/rolls"), json=body, headers=_auth(site, n), timeout=300)


def _rolls_of(site, n: int) -> list[dict]:
    r = requests.get(_api(site, n), headers=_auth(site, n), timeout=60)
    assert r.status_code == 200, r.text
    return r.json()["status"]["rolls"]


def test_routing_process_killed_mid_burst_keeps_every_roll_and_heals(site):
    """kill -9 of the routing child while a burst of rolls is queued: every acknowledged roll is kept once, the
    rolls in flight are answered by the new child (sent again under their roll id), later rolls succeed; the
    server stays up and /health says it restarted."""
    assert requests.get(site["url"] + "/health", timeout=60).json() == {"ok": True, "worker": {"restarts": 0}}
    first = list(range(1, 25))
    acked: list[int] = []
    lock = threading.Lock()

    def one(n: int) -> tuple[int, requests.Response]:
        r = _roll(site, n, roll_id=f"burst-{n:04d}")
        with lock:
            acked.append(n)
        return n, r

    child = routing_child(site["proc"].pid)
    with ThreadPoolExecutor(len(first)) as pool:
        futures = [pool.submit(one, n) for n in first]
        while len(acked) < 2:
            time.sleep(0.002)
        os.kill(child, signal.SIGKILL)  # what the OOM killer does
        with lock:
            at_kill = len(acked)
        answers = dict(f.result() for f in futures)
    assert at_kill < len(first), "the burst was over before the kill: nothing was in flight"
    assert {n: r.status_code for n, r in answers.items()} == dict.fromkeys(first, 200), \
        {n: r.text for n, r in answers.items() if r.status_code != 200}
    assert site["proc"].poll() is None  # the server itself never went down
    assert routing_child(site["proc"].pid) != child
    for n in first:  # kept once each, as acknowledged
        rolls = _rolls_of(site, n)
        assert [r["seq"] for r in rolls] == [answers[n].json()["seq"]] == [1], (n, rolls)
    # a client that missed the answer sends again: the first roll comes back, nothing is added
    for n in first[:4]:
        again = _roll(site, n, roll_id=f"burst-{n:04d}")
        assert again.status_code == 200 and again.json()["replayed"] is True
        assert again.json()["target"] == answers[n].json()["target"]
        assert len(_rolls_of(site, n)) == 1
    # later rolls (also without a roll id) succeed
    for n in range(25, 29):
        r = _roll(site, n)
        assert r.status_code == 200, r.text
        assert len(_rolls_of(site, n)) == 1
    health = requests.get(site["url"] + "/health", timeout=60)
    assert health.status_code == 200 and health.json()["worker"]["restarts"] == 1


def test_a_position_after_the_routing_process_died_idle_is_answered(site):
    """Killed while idle: the next request never reached the dead child, so it goes to a new one (a
    position report is not sent twice when it might have been computed: then 503, send again)."""
    child = routing_child(site["proc"].pid)
    os.kill(child, signal.SIGKILL)
    while not process_gone(child):
        time.sleep(0.01)
    n = 29
    for _attempt in range(2):
        r = requests.post(_api(site, n, "/position"), json={"at": "Baar", "time": "13:00"}, headers=_auth(site, n),
                          timeout=300)
        if r.status_code != 503:
            break
        assert r.headers["Retry-After"] == "1" and "send it again" in r.json()["error"]
    assert r.status_code == 200, r.text
    assert r.json()["position"]["station"] == "Baar"
    assert requests.get(site["url"] + "/health", timeout=60).status_code == 200


def test_a_body_nested_2000_deep_is_a_422(site):
    n = 30
    body = b"[" * 2000 + b"]" * 2000
    assert len(body) <= 4096
    r = requests.post(_api(site, n, "/rolls"), data=body, headers={**_auth(site, n),
                                                                    "Content-Type": "application/json"}, timeout=60)
    assert r.status_code == 422 and "nested too deeply" in r.json()["error"]


def test_rotating_x_forwarded_for_does_not_reset_the_limit_on_guessed_tokens(site):
    """Without --trusted-proxy the header is not believed: 150 guesses from one address meet the limit."""
    codes = []
    for i in range(150):
        r = requests.get(f"{site['url']}/api/games/{site['game']['game']}", timeout=60,
                         headers={"Authorization": f"Bearer guess{i}", "X-Forwarded-For": f"10.0.{i // 250}.{i % 250}"})
        codes.append(r.status_code)
    assert set(codes) <= {401, 429} and 429 in codes, codes


def test_serve_refuses_a_trusted_proxy_that_is_not_an_address(capsys):
    assert main(["serve", "--trusted-proxy", "proxy.example"]) == 2
    assert "--trusted-proxy" in capsys.readouterr().err


# ---- tooltips are text ------------------------------------------------------------------------------

def test_the_organiser_maps_tooltip_shows_a_group_name_as_text(web_server, browser, play_argv):
    """On the organiser's map (a game of its own on the process's shared server, conftest's web_server)."""
    game = web_game(web_server.env, f"Rot,{EVIL}", base=web_server.url, day=play_argv)
    token = game["groups"][1]["token"]
    r = requests.post(f"{web_server.url}/api/games/{game['game']}/groups/2/position",
                      json={"at": "Zug", "time": "12:40"}, headers={"Authorization": f"Bearer {token}"}, timeout=120)
    assert r.status_code == 200, r.text
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(game["organiser"]["url"])
    page.wait_for_url(re.compile(rf"/games/{game['game']}$"))
    marker = page.locator("#map path.leaflet-interactive[stroke='#c60018']")
    expect(marker).to_have_count(1, timeout=15000)
    marker.hover()
    tooltip = page.locator(".leaflet-tooltip")
    expect(tooltip).to_have_text(f"{EVIL}: Zug")  # the group and where it is, one label
    assert tooltip.locator("img").count() == 0  # the markup is text, not an element
    ctx.close()


def test_the_area_maps_tooltips_are_text(tmp_path, browser, play_argv):
    """A game title with markup and a template-literal ``${...}``: neither runs nor becomes elements (in the
    tooltips, the page title, the legend)."""
    title = "${window.pwned = 1}</title><img id=evil src=x>"
    game = tmp_path / "game.toml"
    text = (ROOT / "planner" / "games" / "sbb-monopoly.toml").read_text("utf-8")
    game.write_text(text.replace('title = "SBB-Monopoly"', f'title = "{title}"', 1), "utf-8")
    out = tmp_path / "site" / "area.html"
    feed, date = play_argv[1], play_argv[3]  # (its --feed and --date; the game is this one)
    assert main(["map", "area", "--feed", feed, "--date", date, "--game", str(game), "--out", str(out)]) == 0
    ctx = browser.new_context()
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(out.resolve().as_uri())
    page.wait_for_function("() => Object.values(window).some((v) => v instanceof L.Map)")
    opened = page.evaluate("""() => {
        const map = Object.values(window).find((v) => v instanceof L.Map);
        let n = 0;
        map.eachLayer((l) => { if (l.getTooltip && l.getTooltip()) { l.openTooltip(); n++; } });
        return n;
    }""")
    assert opened > 0
    assert page.evaluate("() => window.pwned") is None
    assert page.locator("#evil").count() == 0
    texts = page.locator(".leaflet-tooltip").all_inner_texts()
    assert f"game area: {title}" in texts, texts[:5]
    assert page.title().startswith(title)
    assert errors == []
    ctx.close()


def test_the_server_exits_non_zero_when_no_new_routing_process_starts(tmp_path, play_argv):
    """The feed is gone when the routing child dies: no new child can load the day, so the request is a 503
    and the server stops with exit 1 (a supervisor's Restart=on-failure starts it again)."""
    feed = tmp_path / "day.zip"
    feed.write_bytes(Path(play_argv[1]).read_bytes())
    env = web_env(tmp_path)
    port = free_port()
    p = run_cli(env, "game", "new", "--name", "own feed", "--groups", "Rot", "--feed", str(feed), "--date",
                "2021-09-11", "--base-url", f"http://127.0.0.1:{port}", "--json")
    assert p.returncode == 0, p.stderr
    own = json.loads(p.stdout)
    with serve(env, port=port) as srv:
        feed.unlink()
        child = routing_child(srv.proc.pid)
        os.kill(child, signal.SIGKILL)
        while not process_gone(child):
            time.sleep(0.01)
        r = requests.post(f"{srv.url}/api/games/{own['game']}/groups/1/rolls", timeout=300,
                          json={"dice": 2, "at": "Zug", "time": "12:40"},
                          headers={"Authorization": f"Bearer {own['groups'][0]['token']}"})
        assert r.status_code == 503 and "could not be restarted" in r.json()["error"]
        assert srv.proc.wait(timeout=120) == 1
        log = Path(env["PLANNER_STATE"]).with_suffix(f".serve-{port}.log").read_text()
        assert "planner: error: serve stopped: the routing process died and could not be restarted" in log
