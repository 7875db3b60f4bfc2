"""The command line in German (``--lang de``) on the day to play on (tests/support/play_day.py):
itineraries, dice answers, the change window, a group's state and the ledger read in the catalog's words, and a
bad input is one German line (exit 2, no traceback). The suite runs in English (tests/conftest.py); these tests
ask for German themselves."""

from __future__ import annotations

import pytest

from planner.cli import main
from tests.support import assert_one_line_error

DAY: list[str] = []  # the day's --feed, --date and --game (filled by ``_day``)


@pytest.fixture(scope="module", autouse=True)
def _day(play_argv):
    DAY[:] = play_argv


def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main([*argv, "--lang", "de"])
    cap = capsys.readouterr()
    return rc, cap.out, cap.err


def test_an_itinerary_and_a_dice_answer_are_german(capsys):
    rc, out, err = run(capsys, "route", *DAY, "--from", "Zug", "--to", "Wohlen AG", "--time", "12:40")
    assert rc == 0, err
    assert "Zug → Wohlen AG: ab " in out and ", an " in out and "Umstieg" in out  # "1 Umstieg", "2 Umstiege"
    assert ": aussteigen" in out and "Gl. " in out and "dep " not in out and "get off" not in out
    rc, out, err = run(capsys, "target", *DAY, "--at", "Zug", "--time", "12:40", "--roll", "2")
    assert rc == 0, err
    assert out.startswith("Wurf 2: fahrt nach Wohlen AG, Ankunft ") and "roll 2" not in out


def test_the_change_window_and_a_groups_day_are_german(capsys):
    rc, out, err = run(capsys, "zugzwang", *DAY, "--at", "Zug", "--time", "12:35")
    assert rc == 0, err
    assert "nehmt einen Zug, der bis " in out and "Abfahrt" in out.splitlines()[1]
    assert "Linie" in out and "Gleis" in out and "headsign" not in out
    rc, out, err = run(capsys, "roll", *DAY, "--group", "Blau", "--dice", "2", "--at", "Zug", "--time", "12:40")
    assert rc == 0, err
    assert "Gruppe Blau, Wurf Nr. 1" in out and "Wurf 2: fahrt nach Wohlen AG" in out
    rc, out, err = run(capsys, "group", "status", *DAY, "--group", "Blau", "--time", "12:45")
    assert rc == 0, err
    assert "Würfel" in out and "Würfelziel" in out and "frei bis" in out and "targeted:" not in out
    rc, out, err = run(capsys, "ledger", "buy", *DAY, "--group", "Blau", "--station", "Zug", "--time", "12:41")
    assert rc == 0, err
    assert "Blau -> Bank: " in out and "bank" not in out, out  # who pays whom, in words
    rc, out, err = run(capsys, "ledger", "status", *DAY)
    assert rc == 0, err
    assert "Gruppe" in out and "Bargeld" in out and "freier Parkplatz:" in out and "free parking" not in out
    assert "False" not in out and "True" not in out, out  # "verloren" only for a group that is out


def test_a_bad_input_is_one_german_line(capsys):
    rc, _out, err = run(capsys, "route", *DAY, "--from", "Zug", "--time", "12:40")
    assert_one_line_error(rc, err, "--to ist nötig")
    rc, _out, err = run(capsys, "route", *DAY, "--from", "Zug", "--to", "Baar", "--within", "bald")
    assert_one_line_error(rc, err, "'bald' ist keine Anzahl Minuten")
    rc, _out, err = run(capsys, "ledger", "parking", *DAY, "--group", "Blau", "--empty", "--time", "12:40")
    assert_one_line_error(rc, err, "--empty braucht --dice")


def test_an_undone_position_is_named_in_german(capsys):
    rc, out, err = run(capsys, "group", "position", *DAY, "--group", "Gelb", "--at", "Zug", "--time", "12:40")
    assert rc == 0, err
    rc, out, err = run(capsys, "group", "undo", *DAY, "--group", "Gelb")
    assert rc == 0, err
    assert "in Zug um 12:40" in out and " at " not in out, out


def test_the_help_page_is_german(capsys):
    # argparse's own words and every option's help come from the catalog, in the language asked for
    with pytest.raises(SystemExit) as done:
        main(["route", "--help", "--lang", "de"])
    assert done.value.code == 0
    page = capsys.readouterr().out
    assert page.startswith("Aufruf: planner route") and "Optionen:" in page and "diese Hilfe zeigen" in page
    assert "usage:" not in page and "show this help" not in page and "machine-readable" not in page
    with pytest.raises(SystemExit):
        main(["--help", "--lang", "fr"])  # the command list, in French
    page = capsys.readouterr().out
    assert page.startswith("usage : planner") and "afficher cette aide et quitter" in page
