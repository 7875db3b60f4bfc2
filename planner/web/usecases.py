"""The one door from the web app into the planner's use cases.

Every call the web layer makes into game logic goes through this module, and this module only delegates: the
answers are built by the same functions as the CLI's ``--json`` (``planner roll``, ``group status``, ``group
undo``, ``zugzwang``), so the web app answers exactly what the CLI answers and adds no rule of its own. When the
service layer (``planner/service/``) lands, only this module is re-wired to it.

A :class:`Day` is one game day loaded once (timetable, routing network, numba kernels warmed) and then answered
from memory. Its lock serialises the routing and the roll transactions of one server process: the routing
arrays are shared, and a roll's answer is saved right after its transaction, so a retried submit finds it.
"""

from __future__ import annotations

import argparse
import threading
from dataclasses import dataclass, field
from types import SimpleNamespace

from planner.commands.base import Context
from planner.commands.route import resolve_origin
from planner.commands.rules import decide_roll, group_status_answer, group_undo_answer, roll_answer
from planner.errors import PlannerError
from planner.util.timefmt import fmt_clock


@dataclass
class Day:
    """One loaded game day (feed, game file, date) and the lock its answers are computed under."""

    ctx: Context
    lock: threading.RLock = field(default_factory=threading.RLock)
    documents: dict[str, str] = field(default_factory=dict)  # organiser's pages, made on first request


def load_day(feed: str | None, game: str | None, date: str | None) -> Day:
    """Load the game day (from the cache when possible), build the network and warm the routing kernels."""
    ctx = Context(argparse.Namespace(feed=feed, game=game, date=date, json=True, progress=False, min_transfer=None))
    tt = ctx.timetable
    ctx.network  # noqa: B018 - built now, not on the first phone's request
    # The first dice answer loads numba's machine code and builds lazy indexes: do one now (nothing recorded).
    g = ctx.game
    at = SimpleNamespace(at=str(tt.station_name[0]), time=fmt_clock(g.dice_from if g.has_area else 12 * 3600),
                         trip=None)
    try:
        decide_roll(ctx, at, 1, [])
    except PlannerError:
        pass  # a day on which that station cannot roll still serves; the warm-up only saves time
    return Day(ctx)


def day_info(day: Day) -> dict:
    """What a page needs to know about the day: game, date, number of dice, dice start, end."""
    g = day.ctx.game
    return {"game": g.name, "title": g.title, "date": day.ctx.date.isoformat(), "dice": g.dice_count,
            "dice_from": fmt_clock(g.dice_from) if g.has_area else None,
            "end": fmt_clock(g.end) if g.has_area else None}


def stations(day: Day) -> list[dict]:
    """Every station of the day with its coordinates (the search field's list and the map's points)."""
    tt = day.ctx.timetable
    return [{"name": str(tt.station_name[i]), "lat": round(float(tt.station_lat[i]), 6),
             "lon": round(float(tt.station_lon[i]), 6)} for i in range(tt.n_stations)]


def locate(day: Day, at: str, time: str | None, trip: str | None) -> dict:
    """Check a position as ``planner roll`` reads ``--at/--time/--trip`` and return it with the station's
    full name and the time it resolves to."""
    with day.lock:
        origin = resolve_origin(day.ctx, at, time, trip)
        return {"at": str(day.ctx.timetable.station_name[origin.station]), "time": fmt_clock(origin.time),
                "trip": trip or None}


def roll(day: Day, group: str, dice: int, at: str | None, time: str | None, trip: str | None,
         roll_id: str | None) -> dict:
    """Record a roll: exactly the answer of ``planner roll --group G --dice N --at/--time/--trip --json``."""
    args = SimpleNamespace(group=group, dice=dice, at=at, time=time, trip=trip, roll_id=roll_id)
    with day.lock:
        return roll_answer(day.ctx, args)


def status(day: Day, group: str) -> dict:
    """The group's rolls and targeted stations: the answer of ``planner group status --json``."""
    return group_status_answer(day.ctx, group)


def undo(day: Day, group: str) -> dict:
    """Remove the group's last roll: the answer of ``planner group undo --json``."""
    with day.lock:
        return group_undo_answer(day.ctx, group)


def next_trains(day: Day, at: str, time: str | None, trip: str | None) -> dict:
    """The trains the group may take next from where it got off: ``planner zugzwang --at --time --trip --json``."""
    from planner.game.zugzwang import zugzwang

    ctx = day.ctx
    with day.lock:
        s = ctx.station(at)
        t = ctx.clock(time)
        return zugzwang(ctx.network, s, t, ctx.trip(trip) if trip else -1)


def area_map_html(day: Day) -> str:
    """The organiser's area map (as ``planner map area --standalone``), made once per day."""
    if "area_map" not in day.documents:
        from planner.maps import web

        with day.lock:
            m, _warnings = web.area_map(day.ctx.timetable, day.ctx.game)
            day.documents["area_map"] = web.render(m, standalone=True)
    return day.documents["area_map"]


def check_area_html(day: Day) -> str:
    """The check-area report (as ``planner check-area --out report.html``), made once per day."""
    if "check_area" not in day.documents:
        from planner.gtfs.source import FeedSource
        from planner.report import check_area, render_html

        ctx = day.ctx
        with day.lock:
            rep = check_area(ctx.timetable, ctx.game, ctx.network, FeedSource(ctx.feed), progress=False)
            day.documents["check_area"] = render_html(rep)
    return day.documents["check_area"]


__all__ = ["area_map_html", "check_area_html", "Day", "day_info", "load_day", "locate", "next_trains", "roll", "stations", "status", "undo"]
