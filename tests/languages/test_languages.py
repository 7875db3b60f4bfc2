"""Languages: the gettext catalogs are complete (every marked text translated into German and French, none shown
as its English message id), the shipped Swiss games answer in German by default, a user's choice (``--lang``, the
locale, the phone's switch) wins, and the rules' sentences take their numbers from the game file. The game day is a
timetable written here (``_zug_day``)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import re

import msgspec
import pytest
import requests
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po
from starlette.requests import Request

from planner.cli import main
from planner.game.day import GroupState, Obligation, Position
from planner.gamefile.rule_texts import TEXTS
from planner.gamefile.rules import JailRule
from planner.service.read.rule_words import board_text, obligation_text, rule_label
from planner.util import i18n
from planner.web.language import request_language
from tests.support import ROOT
from tests.support.inline_day import ROUTES, day_argv, inline_day, line_service, stops_txt
from tests.support.webserver import run_cli

DAY: list[str] = []  # --feed, --date and --game of the day below, for the test running


@pytest.fixture(autouse=True)
def _zug_day(tmp_path):
    """A Zug day written here: the S9 leaves Zug at :02 and reaches Wohlen AG (a 2's target) at :46, both ways."""
    trips, times = line_service("S9", [("Zug", 0), ("Wohlen AG", 44)], [f"{h:02d}:02" for h in range(6, 22)])
    DAY[:] = day_argv(inline_day(
        tmp_path / "day", routes=ROUTES + "S9,sbb,S9,,S-Bahn,106\n", stops=stops_txt("Zug", "Wohlen AG"),
        trips="route_id,service_id,trip_id\n" + trips,
        stop_times="trip_id,arrival_time,departure_time,stop_id,stop_sequence\n" + times))
    yield
    DAY.clear()

PLACEHOLDER = re.compile(r"\{\w+(?:!r)?\}|%\(\w+\)s")
TRANSLATED = ("de", "fr")


def _source_messages() -> dict[str, tuple]:
    """Every text marked in the code, templates and page scripts (as ``make i18n-extract`` finds them)."""
    with (ROOT / "babel.cfg").open() as f:
        method_map, options_map = parse_mapping_cfg(f)
    out = {}
    keywords = {**DEFAULT_KEYWORDS, "N_": None}  # pybabel's, with -k N_ (Makefile: i18n-extract)
    for _file, _line, msg, _comments, _ctx in extract_from_dir(ROOT / "planner", method_map, options_map,
                                                                 keywords=keywords):
        out[msg[0] if isinstance(msg, tuple) else msg] = msg if isinstance(msg, tuple) else (msg,)
    return out


def _catalog(lang: str):
    with i18n.catalog_file(lang, ".po").open("rb") as f:
        return read_po(f, locale=lang)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_marked_text_is_translated(lang):
    source = _source_messages()
    catalog = {(m.id[0] if isinstance(m.id, tuple | list) else m.id): m for m in _catalog(lang) if m.id}
    missing = sorted(set(source) - set(catalog))
    assert not missing, f"not in {lang}'s catalog (make i18n-update, then translate): {missing[:5]}"
    assert not sorted(set(catalog) - set(source)), "obsolete entries: run make i18n-update"
    for msgid, m in catalog.items():
        forms = list(m.string) if isinstance(m.string, tuple | list) else [m.string]
        assert not m.fuzzy and all(forms), f"{lang}: untranslated or fuzzy: {msgid!r}"
        ids = source[msgid]
        for form in forms:
            assert form not in ids, f"{lang}: shown as its English message id: {msgid!r}"
            # every placeholder kept (a plural form may name one once where the English plural names it twice)
            assert set(PLACEHOLDER.findall(form)) == set(PLACEHOLDER.findall(ids[-1])), (lang, msgid, form)


def test_the_catalogs_plural_rules_are_the_languages():
    assert _catalog("de").plural_forms == "nplurals=2; plural=(n != 1);"
    assert _catalog("fr").plural_forms == "nplurals=2; plural=(n > 1);"
    with i18n.use_language("fr"):
        one = i18n.ngettext("waited {minutes} min at {station} after {since}; {trains} train left by {deadline}, "
                            "first {route} {departure}", "waited {minutes} min at {station} after {since}; {trains} "
                            "trains left by {deadline}, first {route} {departure}", 0)
    assert "train est parti" in one  # French: 0 is singular


def test_numbers_dates_and_times_follow_the_locale():
    day = dt.date(2021, 9, 11)
    with i18n.use_language("de"):
        assert (i18n.format_amount(1000), i18n.format_long_date(day)) == ("1'000", "Samstag, 11. September 2021")
        assert i18n.format_clock(25 * 3600 + 600) == "25:10"
    with i18n.use_language("fr"):
        assert i18n.format_long_date(day) == "samedi 11 septembre 2021"
    with i18n.use_language("en"):
        assert i18n.format_amount(12000) == "12,000"


def run(capsys, *argv: str):
    rc = main([*argv, *DAY])
    cap = capsys.readouterr()
    assert rc == 0, cap.err
    return cap.out


@pytest.fixture
def no_language(monkeypatch):
    for key in ("PLANNER_LANG", "LANG", "LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(key, raising=False)
    return monkeypatch


def test_a_swiss_games_answers_are_german_by_default(capsys, no_language):
    run(capsys, "roll", "--group", "A", "--dice", "2", "--at", "Zug", "--time", "12:40")
    nxt = json.loads(run(capsys, "next", "--group", "A", "--time", "12:50", "--json"))
    ob = nxt["obligation"]
    assert ob["text"]["text"] == "unterwegs zum Würfelziel Wohlen AG, Ankunft 13:46"
    assert ob["board"]["text"] == "steigt in einen Zug, der bis 13:09 abfährt (Zugzwang von 29 Minuten)"
    assert ob["rule"] == "Zugzwang von 29 Minuten" and nxt["advice"].startswith("fahrt nach Wohlen AG")
    english = {TEXTS[m["key"]].format(**m["params"]) for m in (ob["text"], ob["board"])}
    assert not english & {ob["text"]["text"], ob["board"]["text"]}  # no English message id shown as is
    text = run(capsys, "next", "--group", "A", "--time", "12:50")
    assert "nächster Wurf: 13:46" in text and "heading for" not in text
    with pytest.raises(SystemExit):  # the same text in the refusal of a roll on the way
        raise SystemExit(main(["roll", "--group", "A", "--dice", "3", "--time", "13:00", *DAY]))
    assert "unterwegs zum Würfelziel Wohlen AG" in capsys.readouterr().err


def test_the_users_choice_wins_over_the_games(capsys, no_language):
    run(capsys, "roll", "--group", "A", "--dice", "2", "--at", "Zug", "--time", "12:40")
    assert "en route vers la cible du dé" in run(capsys, "next", "--group", "A", "--time", "12:50", "--lang", "fr")
    no_language.setenv("LANG", "fr_CH.UTF-8")
    assert "en route vers la cible du dé" in run(capsys, "next", "--group", "A", "--time", "12:50")
    no_language.setenv("LC_ALL", "en_GB.UTF-8")  # LC_ALL before LANG
    assert "heading for Wohlen AG" in run(capsys, "next", "--group", "A", "--time", "12:50")
    no_language.setenv("LC_ALL", "C.UTF-8")  # names no language: the game's
    assert "unterwegs zum Würfelziel" in run(capsys, "next", "--group", "A", "--time", "12:50")
    assert "heading for" in run(capsys, "next", "--group", "A", "--time", "12:50", "--lang", "en")


def _state(kind: str, **ob) -> GroupState:
    return GroupState(13 * 3600, Position(0, 12 * 3600), Obligation(kind, **ob), None, (), None)


def test_the_rules_sentences_take_their_numbers_from_the_game_file(sbb_game, nws_game):
    late7 = dataclasses.replace(sbb_game, jail=JailRule(delay_minutes=7, minutes=20))
    jail = _state("jail", since=12 * 3600, until=12 * 3600 + 1200, target="Zug")
    with i18n.use_language("en"):
        assert obligation_text(late7, jail).text == "in jail here until 12:20 (your train was 7 or more minutes " \
                                                    "late), then on to Zug"
        assert obligation_text(late7, jail).params["delay"] == 7
    with i18n.use_language("de"):
        assert "7 oder mehr Minuten" in obligation_text(late7, jail).text
    standing = _state("free", until=14 * 3600, board_by=12 * 3600 + 29 * 60)
    with i18n.use_language("en"):
        assert board_text(sbb_game, standing).text == "board a train leaving by 12:29 (29-minute rule)"
        # variant B has no change window: no rule, no deadline sentence
        assert rule_label(nws_game) is None and board_text(nws_game, standing) is None


def _page(app, info) -> str:
    return app.page("group.html", {"game": {"id": "g", "name": "G"}, "number": 1, "name": "Rot", "info": info,
                                   "poll_ms": None}, lang="de").body.decode()


def test_the_page_says_the_change_window_counts_from_since_only_where_the_game_has_it(tmp_path):
    from planner.service.answers.group_status import GameInfo
    from planner.web.answers import Answers
    from planner.web.app import WebApp
    from planner.web.days import Days

    app = WebApp(Answers(tmp_path / "s.sqlite", Days(None)))
    info = GameInfo(id="g", name="G", game="x", title="X", date="2021-09-11", dice=1, dice_from="12:30",
                    end="17:55", rule="Zugzwang von 29 Minuten", admissible_extra_minutes=None, language="de")
    assert "ab dieser Zeit zählt der Zugzwang von 29 Minuten" in _page(app, info)
    assert '<html lang="de" ' in _page(app, info)
    page = _page(app, msgspec.structs.replace(info, rule=None))
    assert "zählt" not in page and "counts from it" not in page and "HH:MM (kann leer bleiben)" in page


def _request(query: str = "", cookie: str = "", accept: str = "") -> Request:
    headers = [(b"accept-language", accept.encode())] if accept else []
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    return Request({"type": "http", "method": "GET", "path": "/", "query_string": query.encode(),
                    "headers": headers})


def test_a_web_request_is_answered_in_the_language_it_asks_for_else_the_games(no_language):
    assert request_language(_request(), "de") == "de"
    assert request_language(_request(accept="fr-CH,fr;q=0.9"), "de") == "de"  # the game's before the browser's
    assert request_language(_request(accept="fr-CH,fr;q=0.9"), None) == "fr"
    assert request_language(_request(accept="it-CH"), None) == "en"
    assert request_language(_request("lang=en"), "de") == "en"
    assert request_language(_request(cookie="planner_lang=fr"), "de") == "fr"
    no_language.setenv("PLANNER_LANG", "fr")  # a server for one language
    assert request_language(_request(), "de") == "fr" and request_language(_request("lang=de"), "en") == "de"


def test_the_phone_gets_answers_and_its_scripts_texts_in_its_language(web_server):
    p = run_cli(web_server.env, "game", "new", "--name", "Test day", "--groups", "Rot", *DAY, "--json")
    assert p.returncode == 0, p.stderr
    g = json.loads(p.stdout)
    api = f"{web_server.url}/api/games/{g['game']}/groups/1"
    auth = {"Authorization": f"Bearer {g['groups'][0]['token']}"}
    r = requests.post(api + "/position?lang=fr", json={"at": "Zug", "time": "12:40"}, headers=auth)
    assert r.status_code == 200
    assert r.json()["obligation"]["board"]["text"].startswith("montez dans un train")
    assert requests.get(api, headers=auth).json()["status"]["obligation"]["rule"] == "29-minute rule"  # the server's
    de = requests.get(api + "?lang=de", headers=auth).json()
    assert de["game"]["language"] == "de" and de["status"]["obligation"]["rule"] == "Zugzwang von 29 Minuten"
    catalog = requests.get(f"{web_server.url}/i18n/de.json").json()
    assert catalog["messages"]["free movement"] == "frei bewegen"
    assert all(not k.startswith("--") for k in catalog["messages"])  # only the scripts' texts
    script = requests.get(f"{web_server.url}/i18n/fr.js")
    assert script.headers["content-type"].startswith("text/javascript") and "déplacement libre" in script.text
    assert requests.get(f"{web_server.url}/i18n/it.json").status_code == 404
    page = requests.get(f"{web_server.url}/?lang=fr")
    assert page.cookies.get("planner_lang") == "fr" and '<html lang="fr" ' in page.text
