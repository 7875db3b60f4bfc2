"""Readable output for a tired player: 80 columns, no trip ids in tables, tolls and bonus in words on the leg,
warnings once, "already there", and why target and route differ.

On a day written here: the real-time demo's lines (tests/support/inline_day.py: S1 Baar :01 - Zug :06 - Rotkreuz
:19, S26 Rotkreuz :23 - Wohlen AG :50, IR70 Zug :29 - Rotkreuz - Luzern and back from Luzern at :29, S9), an S2 Zug
:52 (pl. 1) - Cham - Hünenberg Zythus :00 - Rotkreuz :07 - Luzern - Emmenbrücke (over the toll line Luzern–Rotkreuz,
decided on Zug's piece of the line data) and an IR75 Zug :50 - Baar - Thalwil :00."""

from __future__ import annotations

import json
import re

import pytest

from planner.cli import main
from tests.support.inline_day import DEMO_ROUTES, day_argv, demo_lines, line_service, lines_day, write_lines

DAY: list[str] = []  # the day's --feed, --date and --game (the fixture below)
# the trip ids of the day ("S2-1252", "IR70-1229-back"), as the Swiss feed's ("...TA...-j21-...") would be caught
TRIP_ID = re.compile(r"\b[A-Z]+\d+-\d{4}\b|\d+\.TA\.|-j21-")


@pytest.fixture(autouse=True)
def _day(tmp_path, monkeypatch):
    monkeypatch.setenv("PLANNER_RAIL_CSV", str(write_lines(tmp_path / "lines")))
    hours = range(6, 22)
    lines = [*demo_lines(),
             line_service("S2", [("Zug", 0), ("Cham", 6), ("Hünenberg Zythus", 8), ("Rotkreuz", 15), ("Luzern", 30),
                                 ("Emmenbrücke", 36)], [f"{h:02d}:52" for h in hours], both_ways=False, dwell=0,
                          platforms=("1", "2")),
             line_service("IR75", [("Zug", 0), ("Baar", 4), ("Thalwil", 10)], [f"{h:02d}:50" for h in hours],
                          both_ways=False)]
    day = lines_day(tmp_path, lines, routes=DEMO_ROUTES + "IR75,sbb,IR75,,InterRegio,103\n")
    monkeypatch.setattr(f"{__name__}.DAY", day_argv(day))


def text(capsys, *argv: str) -> str:
    rc = main(list(argv))
    out = capsys.readouterr().out
    assert rc == 0, out
    return out


def readable(out: str) -> None:
    for line in out.splitlines():
        assert len(line) <= 80, line
        assert not TRIP_ID.search(line), line


def test_every_answer_fits_80_columns_without_trip_ids(capsys):
    outs = [
        text(capsys, "route", *DAY, "--from", "Zug", "--to", "Emmenbrücke", "--time", "12:40", "--within", "20"),
        text(capsys, "target", *DAY, "--at", "Zug", "--time", "12:40", "--roll", "2"),
        text(capsys, "roll", *DAY, "--group", "Rot", "--dice", "3", "--trip", "IR70 12:29", "--at", "Luzern",
             "--time", "12:35"),
        text(capsys, "next", *DAY, "--group", "Rot", "--time", "12:50"),
        text(capsys, "group", "status", *DAY, "--group", "Rot"),
        text(capsys, "group", "list", *DAY),
        text(capsys, "zugzwang", *DAY, "--at", "Wohlen AG", "--time", "13:50"),
        text(capsys, "bonus", *DAY, "--at", "Zug", "--time", "13:30"),
    ]
    for out in outs:
        readable(out)
    with pytest.raises(AssertionError):  # (a trip id of this day is seen)
        readable("in S2-1252")


def test_tolls_and_bonus_in_words_on_their_leg(capsys):
    out = text(capsys, "route", *DAY, "--from", "Zug", "--to", "Emmenbrücke", "--time", "12:40")
    lines = out.splitlines()
    off = next(i for i, ln in enumerate(lines) if "Emmenbrücke, pl. 1: get off" in ln)
    assert "full-hour bonus (8,000): the train calls at Hünenberg Zythus at 13:00" in lines[off + 1]
    assert "crosses the toll line Luzern–Rotkreuz: its owner's fee is due" in lines[off + 2]


def test_already_there_and_why_target_differs_from_route(capsys):
    assert text(capsys, "route", *DAY, "--from", "Zug", "--to", "Zug", "--time", "12:00").strip() \
        == "Zug: already there (12:00)"
    out = text(capsys, "target", *DAY, "--at", "Zug", "--time", "12:40", "--roll", "2")
    assert "why: as fast as the plain fastest way (dep 13:06)" in out
    assert len([ln for ln in out.splitlines() if ln.startswith("warning:")]) == 1  # missing targets: once
    route = json.loads(text(capsys, "route", *DAY, "--from", "Zug", "--to", "Wohlen AG", "--time", "12:40", "--json"))
    target = json.loads(text(capsys, "target", *DAY, "--at", "Zug", "--time", "12:40", "--roll", "2", "--json"))
    assert (route["departure"], target["departure"], route["arrival"]) == ("13:06", "12:52", target["arrival"])
    assert target["why"] and len(target["warnings"]) == 1


def test_bonus_for_a_group_only_on_its_way(capsys):
    text(capsys, "roll", *DAY, "--group", "Blau", "--dice", "2", "--at", "Zug", "--time", "12:40")
    nxt = json.loads(text(capsys, "next", *DAY, "--group", "Blau", "--time", "12:45", "--json"))
    mine = json.loads(text(capsys, "bonus", *DAY, "--group", "Blau", "--time", "12:45", "--json"))
    anyone = json.loads(text(capsys, "bonus", *DAY, "--at", "Zug", "--time", "12:45", "--json"))
    on_way = {leg["trip_id"] for leg in nxt["itinerary"]["legs"]}
    assert mine["chances"] and {c["trip_id"] for c in mine["chances"]} <= on_way
    assert {c["trip_id"] for c in anyone["chances"]} - on_way  # a free group would have had other chances
    assert mine["target"] == "Wohlen AG" and set(anyone) <= set(mine)
