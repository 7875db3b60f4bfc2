"""The game's mode filter (allowed modes, excluded routes) is one function: the ingest keeps exactly the
routes the organisers' report counts as kept, and a route_type that is not a number fails both alike.
Small feeds written inline, read through the real loader."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from planner.errors import FeedError
from planner.gamefile.game import load_game
from planner.gtfs.ingest import build_timetable
from planner.gtfs.routes import feed_routes
from planner.gtfs.source import FeedSource
from planner.organiser.feed_facts import route_filter_summary
from tests.support import DEMO_DATE

ROUTES = """route_id,agency_id,route_short_name,route_long_name,route_type
IR,sbb,IR70,,103
S,sbb,S1,,106
T,blt,10,,900
B,pag,3,,700
X,blt,11,,106
"""
FEED = {
    "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nsbb,SBB,https://sbb.invalid,Europe/Zurich\n"
                  "blt,BLT,https://blt.invalid,Europe/Zurich\npag,PostAuto,https://pag.invalid,Europe/Zurich\n",
    "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\n8502204,Zug,47.1736,8.5153\n8502202,Baar,47.1960,8.5263\n",
    "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n"
                    "D,1,1,1,1,1,1,1,20210101,20211231\n",
    "trips.txt": "route_id,service_id,trip_id\n" + "".join(f"{r},D,t{r}\n" for r in ("IR", "S", "T", "B", "X")),
    "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n" + "".join(
        f"t{r},10:0{i}:00,10:0{i}:00,8502204,1\nt{r},10:1{i}:00,10:1{i}:00,8502202,2\n"
        for i, r in enumerate(("IR", "S", "T", "B", "X"))),
}


def _feed(folder: Path, routes: str = ROUTES) -> FeedSource:
    folder.mkdir()
    for name, text in (FEED | {"routes.txt": routes}).items():
        (folder / name).write_text(text, "utf-8")
    return FeedSource(folder)


@pytest.fixture
def game(sbb_game):
    """Variant A (trains only) that also excludes BLT line 11 (a tram run with a rail route_type)."""
    return replace(sbb_game, exclude_routes=(*sbb_game.exclude_routes, ("BLT", "11")))


def test_the_ingest_keeps_what_the_report_counts_as_kept(tmp_path, game):
    src = _feed(tmp_path / "f")
    tt = build_timetable(src, game, DEMO_DATE, progress=False)
    summary = route_filter_summary(src, game)
    assert sorted(tt.route_id) == sorted(r.route_id for r in feed_routes(src, game) if r.verdict == "kept")
    assert sorted(tt.route_id) == ["IR", "S"]
    assert summary["kept_by_mode"] == {"rail": 2} and summary["dropped_by_mode"] == {"bus": 1, "tram": 1}
    assert {"agency": "BLT", "route": "11", "routes": 1} in summary["excluded"]


def test_the_whole_feed_keeps_every_mode(tmp_path):
    src = _feed(tmp_path / "f")
    assert sorted(build_timetable(src, load_game("none"), DEMO_DATE, progress=False).route_id) == [
        "B", "IR", "S", "T", "X"]


@pytest.mark.parametrize("bad, why", [("tram", "is not a whole number"), ("1e3", "is not a whole number"),
                                      ("99999999999", "is out of range"), ("", "empty")])
def test_a_bad_route_type_fails_the_ingest_and_the_report_alike(tmp_path, game, bad, why):
    src = _feed(tmp_path / "f", ROUTES.replace("T,blt,10,,900", f"T,blt,10,,{bad}"))
    with pytest.raises(FeedError) as ingest:
        build_timetable(src, game, DEMO_DATE, progress=False)
    with pytest.raises(FeedError) as report:
        route_filter_summary(src, game)
    assert str(ingest.value) == str(report.value)
    assert f"routes.txt line 4 column route_type: {why if bad == '' else repr(bad) + ' ' + why}" in str(report.value)
