"""Station lookup: exact, case/accent-insensitive, transliterated, unique prefix; errors with suggestions. On a
timetable written here: one S1 calling at the stations the lookups name (real names and UIC numbers)."""

from __future__ import annotations

import pytest

from planner.errors import StationNotFound
from planner.timetable.stations import find_station
from tests.support.inline_day import inline_day, stop_times_txt, stops_txt

NAMES = ("Luzern", "Emmenbrücke", "Rotkreuz", "Cham", "Zug", "Baar Neufeld", "Baar", "Wohlen AG", "Zürich HB",
         "Zürich Oerlikon")


@pytest.fixture
def tt(tmp_path):
    """The stations of NAMES, each served by one S1 (a minute apart)."""
    return inline_day(tmp_path, stops=stops_txt(*NAMES), trips="route_id,service_id,trip_id\nS1,SA,s1\n",
                      stop_times=stop_times_txt(("s1", [(n, f"10:{i:02d}", f"10:{i:02d}")
                                                        for i, n in enumerate(NAMES)]))).timetable


@pytest.mark.parametrize("query,expected", [
    ("Zürich HB", "Zürich HB"), ("zurich hb", "Zürich HB"), ("Zuerich HB", "Zürich HB"), ("ZÜRICH  hb", "Zürich HB"),
    ("Zürich Oerl", "Zürich Oerlikon"), ("wohlen", "Wohlen AG"), ("Zug", "Zug"), ("8505000", "Luzern"),
    ("emmenbrucke", "Emmenbrücke"),
])
def test_lookup(tt, query, expected):
    assert tt.station_name[find_station(tt, query)] == expected


def test_unknown_suggests_closest(tt):
    with pytest.raises(StationNotFound) as e:
        find_station(tt, "Rotkreutz")
    assert "Rotkreuz" in e.value.suggestions and "did you mean" in str(e.value)


def test_ambiguous_lists_candidates(tt):
    # "Baar" is an exact name (it is also a prefix of "Baar Neufeld"): found; "Ba" is ambiguous
    assert tt.station_name[find_station(tt, "Baar ")] == "Baar"
    with pytest.raises(StationNotFound) as e:
        find_station(tt, "Ba")
    assert "ambiguous" in str(e.value) and "Baar" in e.value.suggestions


def test_empty_name(tt):
    with pytest.raises(StationNotFound):
        find_station(tt, "  ")
