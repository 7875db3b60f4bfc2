"""The organiser's generated documents on the web: the check-area report and the area map (each made once per day
and language, as ``planner check-area --out`` and ``planner map area --standalone`` make them)."""

from __future__ import annotations

from planner.gtfs.source import FeedSource
from planner.maps import web
from planner.organiser.area_check import check_area
from planner.organiser.lab_link import game_spec_of, lab_pointer
from planner.organiser.render import render_html
from planner.util.i18n import language
from planner.web.days import Day


def area_map_html(day: Day) -> str:
    """The organiser's area map, made on first request (in each language asked for)."""
    key = f"area_map:{language()}"
    if key not in day.documents:
        with day.lock:
            m, _warnings = web.area_map(day.day.timetable, day.day.game)
            day.documents[key] = web.render(m, standalone=True)
    return day.documents[key]


def check_area_html(day: Day) -> str:
    """The check-area report, made on first request (in each language asked for: its problems are worded when
    they are found)."""
    key = f"check_area:{language()}"
    if key not in day.documents:
        gd = day.day
        with day.lock:
            rep = check_area(gd.timetable, gd.game, gd.network, FeedSource(gd.feed), progress=False)
            rep["lab"] = lab_pointer(gd.feed, game_spec_of(gd.game.source), gd.game.name, gd.date, None)
            day.documents[key] = render_html(rep)
    return day.documents[key]
