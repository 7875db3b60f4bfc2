"""The phone speaks German: a Swiss game's pages in Debian's headless chromium at 390 x 844, on a server of its own
that has no ``$PLANNER_LANG`` (the suite's English is the shared server's), opened by a phone whose browser is
English (en-US): the game's language (German) wins over the browser's.

The group's page: a position and a roll of the day written in tests/support/play_day.py; its answers, labels and buttons are the German catalog's;
no visible text (nor an input's placeholder, title or label) is an English text of the catalog that has its own
German translation, on the first screen and with every folded section opened; every time in every input is a
24-hour one; nothing is wider than the phone, no table is scrolled sideways. The organiser's page likewise (its
banner of an INVALID area included). With ``$PLANNER_SCREENSHOTS`` set (``PLANNER_SCREENSHOTS=docs``) both pages
are written as the README's screenshots (docs/phone-group.png, docs/phone-organiser.png), else into a temporary
folder. A refusal (an old join link's page, the API's) is in the request's language.

The English texts looked for are computed from planner/locale/de/LC_MESSAGES/messages.po: every message id of at
least two words whose German differs from it, or is still empty or fuzzy (then listed as "(untranslated)": the
catalog's to fill, not the page's to fix).
"""

from __future__ import annotations

import json
import os
import re
from functools import cache
from pathlib import Path

import pytest
import requests
from babel.messages.pofile import read_po
from playwright.sync_api import expect

from planner.util.i18n import _, catalog_file, use_language
from tests.support.browser import PHONE, page_width, roll, tell_position, unfold
from tests.support.webserver import run_cli, serve, web_env, web_game

pytestmark = pytest.mark.long  # one worker runs a module (--dist loadfile); this one early

POLL_MS = 15000
ANSWER_MS = 120000  # the first answer of a fresh server compiles the router
FOLDS = ("where-box", "roll-box", "trains-box", "money", "send-box", "history-box", "messages-box")
PLACEHOLDER = re.compile(r"\{\w+\}|%\(\w+\)s")
WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")

# every text the page shows to a reader: what is rendered, and the inputs' placeholders, titles and labels
_SHOWN = """() => {
  const out = [document.body.innerText];
  for (const el of document.querySelectorAll("[placeholder], [title], [aria-label]")) {
    if (el.closest("[hidden]")) continue;
    for (const a of ["placeholder", "title", "aria-label"]) if (el.getAttribute(a)) out.push(el.getAttribute(a));
  }
  return out.join("\\n");
}"""


@cache
def english_texts() -> tuple[tuple[str, re.Pattern, bool], ...]:
    """The catalog's English texts that German says otherwise (its msgstr differs from the msgid, or is still
    empty) and that are at least two words long without their parameters: each with the pattern that finds it
    shown (a parameter stands for any text on the same line, markup is dropped) and whether German has it yet."""
    with catalog_file("de", ".po").open("rb") as f:
        cat = read_po(f, locale="de")
    out = []
    for m in cat:
        if not m.id:
            continue
        ids = list(m.id) if isinstance(m.id, tuple | list) else [m.id]
        strings = list(m.string) if isinstance(m.string, tuple | list) else [m.string]
        done = all(strings) and not m.fuzzy  # gettext uses neither an empty nor a fuzzy msgstr
        for i, msgid in enumerate(ids):
            de = strings[min(i, len(strings) - 1)] if strings else ""
            if done and de == msgid:  # the same in German
                continue
            text = re.sub(r"<[^>]+>", "", msgid)
            parts = PLACEHOLDER.split(text)
            if sum(len(WORD.findall(p)) for p in parts) < 2:
                continue
            pattern = r"[^\n]*?".join(re.escape(p.strip()) if p.strip() else "" for p in parts)
            out.append((msgid, re.compile(r"(?<![A-Za-z])" + pattern + r"(?![A-Za-z])"), done))
    return tuple(out)


def english_shown(p) -> list[str]:
    """The English texts of the catalog (that German says otherwise) the page shows; one that has no German yet
    (its msgstr is empty or fuzzy: the translators' to fill) marked "(untranslated)"."""
    shown = p.evaluate(_SHOWN)
    return sorted({msgid if done else msgid + " (untranslated)" for msgid, pattern, done in english_texts()
                   if pattern.search(shown)})


def de(msgid: str, **params) -> str:
    with use_language("de"):
        return _(msgid).format(**params)


def no_am_pm(p) -> None:
    """Every time in an input is HH:MM (24-hour), none written with AM/PM; the browser's own time pickers are not
    used (an English browser would show them in 12 hours)."""
    assert p.locator("input[type=time]").count() == 0
    values = p.evaluate("() => [...document.querySelectorAll('input')].map((i) => i.value)")
    for v in values:
        assert not re.search(r"\b(AM|PM)\b", v, re.IGNORECASE), v
        if re.fullmatch(r"\d{1,2}[:.]\d{2}", v):
            assert re.fullmatch(r"([01]\d|2[0-9]):[0-5]\d", v), v
    assert not re.search(r"\d{1,2}:\d\d\s?(AM|PM)\b", p.evaluate("document.body.innerText"))


def sideways(p) -> list[str]:
    """The tables shown that are wider than their place on the phone (the reader would scroll them sideways)."""
    return p.evaluate("""() => [...document.querySelectorAll(".table-wrap")]
      .filter((w) => w.offsetParent !== null && w.scrollWidth > w.clientWidth + 1)
      .map((w) => `${w.querySelector("table").id}: ${w.scrollWidth} > ${w.clientWidth}`)""")


@pytest.fixture(scope="module")
def site(tmp_path_factory, session_cache, play_argv):
    """A server without ``$PLANNER_LANG`` (each request in the language it asks for, else the game's) and a game
    on it: Rot and Blau, on the day to play on (tests/support/play_day.py)."""
    env = web_env(tmp_path_factory.mktemp("german-web"), cache=session_cache)
    env.pop("PLANNER_LANG", None)
    with serve(env, "--poll-interval", "0.5") as srv:
        game = web_game(env, "Rot,Blau", name="Samstag", base=srv.url, day=play_argv)
        yield {"env": env, "game": game, "url": srv.url, "day": play_argv}


def cli(site, *args: str) -> dict:
    p = run_cli(site["env"], *args, "--game-id", site["game"]["game"], *site["day"], "--json")
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def german_phone(browser, errors: list):
    """A phone whose browser speaks English (en-US, 12-hour clock) in Zurich's time zone, at 12:40 of the day."""
    ctx = browser.new_context(**PHONE, locale="en-US", timezone_id="Europe/Zurich")
    p = ctx.new_page()
    p.clock.set_fixed_time("2021-09-11T12:40:00+02:00")
    p.on("console", lambda m: m.type == "error" and errors.append(m.text))
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.on("dialog", lambda d: (errors.append("dialog: " + d.message), d.dismiss()))
    return ctx, p


def test_a_group_plays_a_roll_in_german_on_a_phone_and_the_organiser_follows_in_german(site, browser, tmp_path):
    game = site["game"]
    errors: list = []
    ctx, p = german_phone(browser, errors)
    p.goto(game["groups"][0]["url"])
    p.wait_for_url(re.compile(r"/groups/1$"))
    assert p.evaluate("document.documentElement.lang") == "de"  # the game's, not the browser's (en-US)
    expect(p.locator("header .sub")).to_contain_text("Samstag, 11. September 2021")  # the day in words, not ISO
    expect(p.locator("#languages button[lang=de]")).to_have_attribute("aria-pressed", "true")
    expect(p.locator("#time")).to_have_value("12:40")  # the phone's clock, 12:40 PM for en-US: 24-hour here
    no_am_pm(p)

    cli(site, "ledger", "buy", "--group", "Blau", "--station", "Rotkreuz", "--time", "09:25")  # a message for Rot
    tell_position(p, "Zug", "12:40")
    expect(p.locator("#position")).to_have_text("Zug 12:40", timeout=POLL_MS)
    roll(p, "2")
    expect(p.locator("#message")).to_have_text(de("Recorded: roll {dice} at {time}.", dice="2", time="12:40"),
                                               timeout=ANSWER_MS)
    want = cli(site, "group", "status", "--group", "Rot")
    target = want["rolls"][0]["target"]
    expect(p.locator("#target")).to_have_text(target)
    german = run_cli({**site["env"], "PLANNER_LANG": "de"}, "group", "status", "--group", "Rot",
                     "--game-id", game["game"], *site["day"], "--json")
    said = json.loads(german.stdout)["obligation"]["text"]["text"]  # the command line's words, as a headline
    expect(p.locator("#obligation")).to_have_text(said[0].upper() + said[1:])
    for label in ("Roll", "Money", "History", "Messages", "Trains you may take next", "Target", "Cash", "Capital"):
        assert de(label) in p.evaluate("document.body.innerText"), label

    found = {"first screen": english_shown(p)}
    unfold(p, "money")  # a purchase on the phone: its message to send, what the group owns, its buttons
    expect(p.locator("#buy-offers button")).to_have_text([de("Buy {name}", name="Zug")], timeout=POLL_MS)
    p.click("#buy-offers button")
    expect(p.locator("#money-message")).to_contain_text("RotK 12.40 Zug", timeout=POLL_MS)
    expect(p.locator("#owned tbody tr")).to_have_count(1)
    expect(p.locator("#own-messages li")).to_have_count(1)
    for fold in FOLDS + ("candidates-box",):
        if fold == "candidates-box" and not p.locator("#candidates-box").is_visible():
            continue
        unfold(p, fold)
        p.wait_for_timeout(300)
        found[fold] = english_shown(p)
    expect(p.locator("#history tbody tr")).to_have_count(1)
    expect(p.locator("#messages")).to_contain_text("BlauK 9.25 Rotkreuz", timeout=POLL_MS)
    no_am_pm(p)
    assert page_width(p) <= 390
    assert sideways(p) == []
    assert errors == []

    org = ctx.new_page()
    org.on("pageerror", lambda e: errors.append(str(e)))
    org.goto(game["organiser"]["url"])
    org.wait_for_url(re.compile(rf"/games/{game['game']}$"))
    assert org.evaluate("document.documentElement.lang") == "de"
    expect(org.locator("#groups tbody tr")).to_have_count(2, timeout=POLL_MS)
    expect(org.locator("#events tbody tr")).to_have_count(2, timeout=POLL_MS)
    expect(org.locator("#area-warning")).to_be_visible()  # the day's area is INVALID: said in German
    for label in ("Groups", "Ranking", "Void the event"):
        assert de(label) in org.evaluate("document.body.innerText"), label
    found["organiser"] = english_shown(org)
    no_am_pm(org)
    assert page_width(org) <= 390
    assert errors == []

    shots = Path(os.environ.get("PLANNER_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    p.reload()  # as a phone opens it: the first screen, the rest folded
    expect(p.locator("#target")).to_have_text(target)
    expect(p.locator("#first-leg .leg-card")).to_be_visible()
    p.screenshot(path=str(shots / "phone-group.png"), full_page=True, scale="css")
    org.screenshot(path=str(shots / "phone-organiser.png"), full_page=True, scale="css")
    assert all(0 < (shots / n).stat().st_size < 1_000_000 for n in ("phone-group.png", "phone-organiser.png"))

    ctx.close()
    # a German page shows no English text of the catalog (where the German is still missing, its msgstr is to fill)
    first = {}  # each text where it showed first
    for where, texts in found.items():
        for text in texts:
            first.setdefault(text, where)
    shown = [f"{where}: {text}" for text, where in first.items()]
    assert shown == [], "English on the German pages:\n" + "\n".join(shown)


def test_a_refusal_is_in_the_language_of_the_request(site):
    """An old join link's page and an API refusal are worded in the request's language (the browser's where
    nothing else chose one), not in English whatever was asked."""
    page = requests.get(site["url"] + "/join?t=no-such-token", headers={"Accept-Language": "de-CH,de;q=0.9"},
                        timeout=60)
    assert page.status_code == 401 and '<html lang="de"' in page.text
    assert de("This link is not valid (any more).") in page.text
    api = requests.get(f"{site['url']}/api/games/{site['game']['game']}/groups/1?lang=de",
                       headers={"Authorization": "Bearer no-such-token"}, timeout=60)
    assert api.status_code == 401 and api.json()["error"] == de("unknown token")
    other = site["game"]["groups"][1]["token"]  # Blau's token asks for Rot's group: the game's German
    own = requests.get(f"{site['url']}/api/games/{site['game']['game']}/groups/2",
                       headers={"Authorization": f"Bearer {other}"}, timeout=60)
    assert own.status_code == 200 and own.json()["game"]["language"] == "de"
    refused = requests.get(f"{site['url']}/api/games/{site['game']['game']}/groups/1",
                           headers={"Authorization": f"Bearer {other}"}, timeout=60)
    assert refused.status_code == 403 and refused.json()["error"] == de("this token belongs to another group")
