"""Station lookup: exact, case/accent-insensitive, transliterated, unique prefix; errors with suggestions."""

from __future__ import annotations

import pytest

from planner.errors import StationNotFound
from planner.timetable.stations import find_station


@pytest.mark.parametrize("query,expected", [
    ("Zürich HB", "Zürich HB"), ("zurich hb", "Zürich HB"), ("Zuerich HB", "Zürich HB"), ("ZÜRICH  hb", "Zürich HB"),
    ("Zürich Oerl", "Zürich Oerlikon"), ("wohlen", "Wohlen AG"), ("Zug", "Zug"), ("8505000", "Luzern"),
    ("emmenbrucke", "Emmenbrücke"),
])
def test_lookup(zug_tt, query, expected):
    assert zug_tt.station_name[find_station(zug_tt, query)] == expected


def test_unknown_suggests_closest(zug_tt):
    with pytest.raises(StationNotFound) as e:
        find_station(zug_tt, "Rotkreutz")
    assert "Rotkreuz" in e.value.suggestions and "did you mean" in str(e.value)


def test_ambiguous_lists_candidates(zug_tt):
    # "Baar" is an exact name (it is also a prefix of "Baar Neufeld"): found; "Ba" is ambiguous
    assert zug_tt.station_name[find_station(zug_tt, "Baar ")] == "Baar"
    with pytest.raises(StationNotFound) as e:
        find_station(zug_tt, "Ba")
    assert "ambiguous" in str(e.value) and "Baar" in e.value.suggestions


def test_empty_name(zug_tt):
    with pytest.raises(StationNotFound):
        find_station(zug_tt, "  ")
