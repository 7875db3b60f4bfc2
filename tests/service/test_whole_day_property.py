"""Whole random game days played through the service layer, held against an independent model of the day
(tests/support/random_days.py says what is checked after every step): 300 days of variant A and 200 of variant B, on
days written here. (50 days on the SYNTHETIC whole board, every target, toll line and tunnel of variant A:
tests/ingest/test_synthetic_area.py.)

Variant A plays the area day around Zug (tests/support/inline_day.py: the demo's S1, S26, IR70 and S9, an S2 with a
full hour at Baar and Zug, an S5, an IR75; dice targets of 1 to 4; the toll line Luzern–Rotkreuz). Variant B plays
Basel - Liestal - Olten and the Laufental (two dice; toll lines and the Adler tunnel as targets, on the SBB line data
of Basel - Liestal; the Waldenburgerbahn, trams and buses; the walks in front of Liestal and Laufen; the 15:30 end).

A failure names its seed: ``pytest tests/service/test_whole_day_property.py -k "seed_<variant>_<n>"`` replays it
(``PLANNER_DAY_SEED=N`` plays that one day only).
"""

from __future__ import annotations

import pytest

from planner.service import GameDay
from tests.support.inline_day import (
    BASEL_LINES,
    ZUG_LINES,
    area_day,
    line_service,
    nws_lines_day,
    walks_txt,
    write_lines,
)
from tests.support.random_days import DAYS_PER_TEST, played, real_days

pytestmark = pytest.mark.long  # one worker runs a module (--dist loadfile); this one early

CHUNKS_A = 12  # 300 days of variant A
CHUNKS_B = 8  # 200 days of variant B


@pytest.fixture(scope="module")
def _cache_and_lines(tmp_path_factory, session_cache):
    """The session's cache and the line data of both days (Zug's piece and Basel - Liestal) while they are made."""
    with pytest.MonkeyPatch.context() as mp:  # (module fixtures come before the tests' own cache)
        mp.setenv("PLANNER_CACHE", str(session_cache))
        mp.setenv("PLANNER_RAIL_CSV", str(write_lines(tmp_path_factory.mktemp("lines"),
                                                      ZUG_LINES + BASEL_LINES.split("\n", 1)[1])))
        yield


@pytest.fixture(scope="module")
def zug_area_day(tmp_path_factory, _cache_and_lines) -> GameDay:
    return area_day(tmp_path_factory.mktemp("area-day")).warm()


@pytest.fixture(scope="module")
def basel_day(tmp_path_factory, _cache_and_lines) -> GameDay:
    hours = range(9, 16)
    lines = [line_service("S3", [("Laufen", 0), ("Dornach-Arlesheim", 14), ("Basel SBB", 25), ("Muttenz", 31),
                                 ("Pratteln", 35), ("Liestal", 42), ("Sissach", 50), ("Olten", 68)],
                          [f"{h:02d}:{m:02d}" for h in hours for m in (2, 32)], platforms=("1", "2")),
             line_service("IR27", [("Basel SBB", 0), ("Liestal", 10), ("Sissach", 17), ("Olten", 30)],
                          [f"{h:02d}:47" for h in hours], platforms=("3", "4")),
             line_service("R19", [("Liestal, Bahnhof", 0), ("Hölstein, Station", 12), ("Niederdorf, Station", 16),
                                  ("Waldenburg, Station", 21)], [f"{h:02d}:{m:02d}" for h in hours for m in (19, 49)]),
             line_service("T10", [("Basel, Bahnhof SBB", 0), ("Basel, Dreispitz", 7), ("Dornach, Bahnhof", 22)],
                          [f"{h:02d}:{m:02d}" for h in hours for m in (3, 33)]),
             line_service("B70", [("Liestal, Bahnhof", 0), ("Ziefen, Zentrum", 18), ("Reigoldswil, Dorfplatz", 26)],
                          [f"{h:02d}:{m:02d}" for h in hours for m in (13, 43)]),
             line_service("B111", [("Laufen, Bahnhof", 0), ("Bretzwil, Dorf", 25)], [f"{h:02d}:12" for h in hours]),
             line_service("B93", [("Bretzwil, Dorf", 0), ("Reigoldswil, Dorfplatz", 15)],
                          [f"{h:02d}:40" for h in hours])]
    walks = walks_txt(("Liestal", "Liestal, Bahnhof", 3), ("Laufen", "Laufen, Bahnhof", 3),
                      ("Dornach-Arlesheim", "Dornach, Bahnhof", 2), ("Basel SBB", "Basel, Bahnhof SBB", 4))
    return nws_lines_day(tmp_path_factory.mktemp("basel-day"), lines, transfers=walks).warm()


@pytest.mark.parametrize("chunk", range(CHUNKS_A), ids=[f"seed_a_{1000 + c * DAYS_PER_TEST}" for c in range(CHUNKS_A)])
def test_random_days_of_variant_a_keep_every_rule(zug_area_day, chunk):
    real_days(played(zug_area_day, 1000 + chunk * DAYS_PER_TEST))


@pytest.mark.parametrize("chunk", range(CHUNKS_B), ids=[f"seed_b_{5000 + c * DAYS_PER_TEST}" for c in range(CHUNKS_B)])
def test_random_days_of_variant_b_keep_every_rule(basel_day, chunk):
    """Two dice, toll lines and a tunnel as targets, walks between a station and its bus stops, the re-roll five
    minutes before the target, the 15:30 end."""
    real_days(played(basel_day, 5000 + chunk * DAYS_PER_TEST))
