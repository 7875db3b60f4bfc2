"""Game files: both shipped variants load; malformed files give one-line errors naming file and key."""

from __future__ import annotations

import tomllib
from importlib import resources

import pytest

from planner.errors import GameFileError
from planner.gamefile.game import builtin_games, load_game, parse_game


def test_both_variants_ship():
    assert {"sbb-monopoly", "nordwestschweiz"} <= set(builtin_games())


def test_variant_a_rules(sbb_game):
    g = sbb_game
    assert (g.clock.start, g.clock.dice_from, g.clock.end) == (9 * 3600, 12 * 3600 + 1800, 17 * 3600 + 55 * 60)
    assert g.modes == {"rail"} and g.dice.count == 1
    assert g.dice.target_for(4).stations == ("Laufen", "Brugg AG", "Reiden", "Affoltern am Albis")
    assert [t.name for t in g.toll_lines] == ["Delémont–Laufen", "Olten–Aarau", "Brugg–Baden", "Luzern–Rotkreuz"]
    assert [t.name for t in g.tunnels] == ["Hauenstein", "Heitersberg"]
    assert g.bonus.minutes == (0,) and g.bonus.bonus_fee == 8000
    assert ("Baselland Transport", "10") in g.exclude_routes


def test_variant_b_rules(nws_game):
    g = nws_game
    assert g.dice.count == 2 and g.dice.admissible_extra_minutes == 20
    assert g.dice.target_for(21).stations == ("Bretzwil, Dorf",)
    assert g.dice.target_for(53).toll_line == "Hölstein–Niederdorf"
    assert g.dice.target_for(56).tunnel == "Hauenstein-Basistunnel"
    assert g.bonus.minutes == (0, 1)
    assert {"rail", "bus", "tram"} == g.modes


def _doc():
    return tomllib.loads((resources.files("planner") / "games" / "sbb-monopoly.toml").read_text("utf-8"))


def test_unknown_key_names_file_and_key(tmp_path):
    p = tmp_path / "mine.toml"
    text = (resources.files("planner") / "games" / "sbb-monopoly.toml").read_text("utf-8")
    p.write_text(text.replace("[clock]\n", "[clock]\nlunch = \"12:00\"\n"), "utf-8")
    with pytest.raises(GameFileError) as e:
        load_game(p)
    msg = str(e.value)
    assert str(p) in msg and "clock.lunch" in msg and "\n" not in msg


@pytest.mark.parametrize("mutate,key", [
    (lambda d: d["clock"].update(end="25:99"), "clock.end"),
    (lambda d: d["modes"].update(allowed=["rail", "hovercraft"]), "modes.allowed"),
    (lambda d: d.pop("dice"), "dice"),
    (lambda d: d["dice"]["targets"].append({"number": 1, "stations": ["X"]}), "number"),
    (lambda d: d.update(extra={}), "extra"),
    (lambda d: d["area"].update(ring=[]), "area"),
])
def test_malformed_game_docs(mutate, key):
    d = _doc()
    mutate(d)
    with pytest.raises(GameFileError, match=key):
        parse_game(d, source="test.toml")


def test_unknown_game_name():
    with pytest.raises(GameFileError, match="unknown game"):
        load_game("monopoly-deluxe")


def test_invalid_toml(tmp_path):
    p = tmp_path / "bad.toml"
    p.write_text("[game\nname=", "utf-8")
    with pytest.raises(GameFileError, match="not valid TOML"):
        load_game(p)


def test_game_file_texts_come_in_the_readers_language_else_the_games():
    """A card title given per language shows in the reader's; one the file does not give falls back to the game's
    language; a plain text (the game's language) stays valid and shows as it is in every language."""
    from planner.ledger.money_rules import ledger_rules
    from planner.util.i18n import use_language

    d = _doc()
    d["ledger"]["cards"][0]["title"] = {"de": "Austritt aus dem Gefängnis", "fr": "Sortie de prison"}
    d["ledger"]["cards"][1]["title"] = "Geburtstag"
    rules = ledger_rules(parse_game(d, source="test.toml"))
    first, second = (rules.cards[c["key"]].title for c in d["ledger"]["cards"][:2])
    with use_language("fr"):
        assert (f"{first}", str(second)) == ("Sortie de prison", "Geburtstag")
    with use_language("en"):
        assert str(first) == "Austritt aus dem Gefängnis"  # no English given: the game's language (de)


@pytest.mark.parametrize("title", [{}, {"it": "Compleanno"}, {"fr": ""}])
def test_a_game_text_table_names_known_languages_and_holds_text(title):
    d = _doc()
    d["ledger"]["cards"][0]["title"] = title
    with pytest.raises(GameFileError, match="ledger.cards"):
        parse_game(d, source="test.toml")
