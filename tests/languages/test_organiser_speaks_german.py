"""The organisers' outputs speak the game's language: ``check-area``'s report, the handout's rules card and station
list and the web area map are in German with ``--lang de``, and in the game's ``[game] language`` (German for both
shipped games) when nothing else chose one (docs/i18n.md). The tests run in English (conftest sets PLANNER_LANG=en);
here the language is chosen explicitly, or the environment's choice is taken away. The day is written in
tests/support/play_day.py, with its line network (no ../shared)."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from planner.cli import main
from planner.util.i18n import use_language
from tests.support.play_day import rail_csv

DAY: list[str] = []  # the day's --feed, --date and --game (filled by ``german_report``)


@pytest.fixture(autouse=True)
def _line_network(tmp_path, monkeypatch):
    monkeypatch.setenv("PLANNER_RAIL_CSV", rail_csv(tmp_path))


@pytest.fixture(scope="module")
def german_report(tmp_path_factory, play_argv) -> tuple[dict, str, str]:
    """``check-area --lang de`` of the day (variant A: invalid, most dice targets are not in it): the JSON,
    the HTML page and the text the terminal shows."""
    DAY[:] = play_argv
    out = tmp_path_factory.mktemp("area-de") / "report.html"
    import contextlib
    import io

    buf = io.StringIO()
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PLANNER_RAIL_CSV", rail_csv(out.parent))
        with contextlib.redirect_stdout(buf):
            rc = main(["check-area", *DAY, "--lang", "de", "--json", "--out", str(out)])
        assert rc == 1
        text = io.StringIO()
        with contextlib.redirect_stdout(text):
            main(["check-area", *DAY, "--lang", "de"])
    return json.loads(buf.getvalue()), out.read_text("utf-8"), text.getvalue()


@pytest.fixture(scope="module")
def day_tt(play_argv):
    """The day's timetable."""
    from planner.gamefile.game import load_game
    from planner.service.setup.playing import GameDay

    return GameDay(play_argv[1], load_game(play_argv[5]), dt.date.fromisoformat(play_argv[3])).timetable


def test_the_area_report_is_german(german_report):
    rep, page, text = german_report
    assert "Würfelziel 1 Sissach: nicht im Fahrplan gefunden" in rep["problems"]
    assert any(p.startswith("Gebühren-Strecke ") or p.startswith("Gebühren-Tunnel ") for p in rep["problems"])
    assert not any("not found in the feed" in p or "outside the game area" in p for p in rep["problems"])
    assert "<html lang='de'>" in page
    assert "Der Spielbereich ist NICHT gültig: 20 Probleme." in page
    assert "Samstag, 11. September 2021" in page
    for heading in ("Würfelziele", "Gebühren-Strecken", "Baugruppen", "Käufliche Bahnhöfe", "Probleme"):
        assert f"<h2>{heading}</h2>" in page, heading
    for english in ("The game area is NOT valid", "Dice targets", "Buyable stations", "Letter groups",
                    "not found in the feed", "game hours", "Source:", "rail network", "operating point"):
        assert english not in page, english
    assert "UNGÜLTIG" in text.splitlines()[0] and "Samstag, 11. September 2021" in text.splitlines()[0]
    assert "Würfelziele" in text and "Dice targets" not in text and "problem:" not in text
    assert "rail network" not in text and "Quelle: opentransportdata.swiss" in page


def test_the_game_chooses_german_when_nothing_else_does(monkeypatch, capsys, german_report):
    for var in ("PLANNER_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    rc = main(["check-area", *DAY, "--json"])  # sbb-monopoly.toml: [game] language = "de"
    assert rc == 1
    problems = json.loads(capsys.readouterr().out)["problems"]
    assert "Würfelziel 1 Sissach: nicht im Fahrplan gefunden" in problems
    rc = main(["check-area", *DAY, "--json", "--lang", "en"])  # --lang before the game's
    assert "target 1 Sissach: not found in the feed" in json.loads(capsys.readouterr().out)["problems"]


def test_the_rules_card_and_station_list_are_german(day_tt, sbb_game):
    from planner.maps.handout import station_lines
    from planner.maps.rules_card import card

    with use_language("de"):
        sections = card(day_tt, sbb_game)
        heads = [str(v) for k, v in station_lines(day_tt, sbb_game) if k == "head"]
    titles = [s.title for s in sections]
    assert titles[:6] == ["Zeiten", "Würfel", "Gebühren-Strecken", "Gebühren-Tunnel", "Bahnhöfe: Bauen und Gebühren",
                          "Volle Stunde (Honorar)"]
    words = " ".join(p for s in sections for p in s.paragraphs)
    assert "Spiel 09:00–17:55 am Samstag, 11. September 2021; Würfeln ab 12:30" in words
    assert "4'000" in words and "Honorar" in words and "Gebühr" in words
    assert "Every full hour" not in words and "Roll two dice" not in words and " on 2021-09-11" not in words
    by_name = {s.title: s for s in sections}
    assert by_name["Gebühren-Strecken"].header == ("Gebühren-Strecke", "Zwischen", "Kaufpreis")
    assert ("6", "60 Minuten frei bewegen") in by_name["Würfel"].rows
    assert "Z – 4 Bahnhöfe, 1 Baugruppe" in heads and "A – 1 Bahnhof, keine Baugruppe (braucht 3)" in heads
    assert not any("station" in h for h in heads)


def test_the_web_area_map_is_german(tmp_path, capsys, german_report):
    out = tmp_path / "area.html"
    rc = main(["map", "area", *DAY, "--lang", "de", "--standalone", "--out", str(out)])
    assert rc == 0
    page = out.read_text("utf-8")
    assert "Spielbereich (Ring)" in page and "Würfelziel (Zahl)" in page and "Gebühren-Strecke" in page
    assert "game area (ring)" not in page and "dice target (number)" not in page and "toll line" not in page
    # Leaflet's own words (its credit's title, the zoom buttons) too, not Leaflet's English defaults
    def js(text: str) -> str:  # as the page's script holds it (Jinja's tojson: \u00fc for ü)
        return json.dumps(text)

    assert js("Eine JavaScript-Bibliothek für interaktive Karten")[1:-1] in page
    assert "zoomInTitle: " + js("Vergrössern") in page and "zoomOutTitle: " + js("Verkleinern") in page
    assert "<title>SBB-Monopoly: Spielbereich Samstag, 11. September 2021</title>" in page  # the day in words


def test_variant_bs_price_classes_are_named_in_the_readers_language():
    """check-area's station counts of variant B ("bus stop 16, listed 11, station 42") in the reader's words."""
    from planner.game.prices import category_label
    from planner.util.i18n import use_language

    with use_language("de"):
        assert [category_label(c) for c in ("listed", "station", "bus stop")] == [
            "gelisteter Bahnhof", "Bahnhof", "Haltestelle"]
    with use_language("fr"):
        assert [category_label(c) for c in ("listed", "station", "bus stop")] == ["gare listée", "gare", "arrêt"]
