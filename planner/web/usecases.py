"""The one door from the web app into the planner's use cases (planner/service/).

Every call the web layer makes into game logic goes through this module, and this module only delegates to the
service layer, exactly as the CLI's group commands do (planner/commands/group.py): a roll answers byte for byte
what ``planner roll --json`` answers, a state what ``planner group status --json`` answers, next what
``planner next --json`` answers. The web app adds no rule of its own.

A :class:`Day` is one game day loaded once (timetable, routing network, numba kernels warmed) and then answered
from memory. Its lock serialises the routing and the roll transactions of one server process: the routing
arrays are shared, and a roll's answer is saved right after its transaction, so a retried submit finds it.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field

from planner import config
from planner.errors import PlannerError
from planner.gamefile.game import load_game
from planner.service import GameDay, PlaceRequest, RollRequest
from planner.store.groups import GroupStore
from planner.util.timefmt import fmt_clock


@dataclass
class Day:
    """One loaded game day (feed, game file, date) and the lock its answers are computed under."""

    day: GameDay
    lock: threading.RLock = field(default_factory=threading.RLock)
    documents: dict[str, str] = field(default_factory=dict)  # organiser's pages, made on first request


def load_day(feed: str | None, game: str | None, date: str | None) -> Day:
    """Load the game day (from the cache when possible), build the network and warm the routing kernels."""
    from planner.game.dice import decide
    from planner.gtfs.calendar import parse_date
    from planner.routing import station_origin

    feed = feed or config.default_feed()
    if not feed:
        raise PlannerError("no feed: pass --feed PATH, set PLANNER_FEED, or run 'planner feed download'")
    d = date or config.default_date(feed)
    if not d:
        raise PlannerError("no game day: pass --date YYYY-MM-DD")
    gd = GameDay(str(feed), load_game(game or config.default_game()), parse_date(d), progress=False).warm()
    # The first dice answer builds lazy indexes: do one now (nothing recorded), not on the first phone's roll.
    g = gd.game
    try:
        decide(gd.network, g, station_origin(0, g.clock.dice_from if g.has_area else 12 * 3600), 1, [])
    except PlannerError:
        pass  # a day on which that station cannot roll still serves; the warm-up only saves time
    return Day(gd)


def day_info(day: Day) -> dict:
    """What a page needs to know about the day: game, date, number of dice, dice start, end."""
    g = day.day.game
    return {"game": g.name, "title": g.title, "date": day.day.date.isoformat(), "dice": g.dice.count,
            "dice_from": fmt_clock(g.clock.dice_from) if g.has_area else None,
            "end": fmt_clock(g.clock.end) if g.has_area else None}


def stations(day: Day) -> list[dict]:
    """Every station of the day with its coordinates (the search field's list and the map's points)."""
    tt = day.day.timetable
    return [{"name": str(tt.station_name[i]), "lat": round(float(tt.station_lat[i]), 6),
             "lon": round(float(tt.station_lon[i]), 6)} for i in range(tt.n_stations)]


def set_position(day: Day, group: str, at: str | None, time: str | None, trip: str | None) -> dict:
    """"We got off at X at T" / "we are in the IR75 12:25": recorded in the group's day (as ``planner group
    position``); returns the position with the station's full name and the time it resolves to."""
    from planner.service import set_position as record

    gd = day.day
    t = gd.clock(time, within_game=False)
    with day.lock, GroupStore() as store:
        st = record(gd, store, group, PlaceRequest(at, t, trip), t)
    pos = st.state.position
    station = str(gd.timetable.station_name[pos.station]) if pos is not None else at
    # the trip id, not the typed name: "S1 12:36" names the train at the stop it was boarded, and ``at`` is now
    # the stop it is at or approaching, where that name matches no departure (the roll and /trains reuse both)
    seated = pos is not None and pos.seated
    return {"at": station, "time": fmt_clock(t), "trip": str(gd.timetable.trip_id[pos.trip]) if seated else None,
            "train": st.train}


def roll(day: Day, group: str, dice: int, at: str | None, time: str | None, trip: str | None,
         roll_id: str | None) -> dict:
    """Record a roll: exactly the answer of ``planner roll --group G --dice N --at/--time/--trip --json``
    (``replayed`` is added when the roll id was recorded before)."""
    from planner.service import roll as record

    gd = day.day
    t = gd.clock(time, within_game=False)
    req = RollRequest(group, dice, t, PlaceRequest(at, t if trip and time else None, trip), roll_id)
    with day.lock, GroupStore() as store:
        res = record(gd, store, req)
    out = json.loads(res.answer_text)
    return {**out, "replayed": True} if res.replayed else out


def status(day: Day, group: str, time: str | None = None) -> dict:
    """The group's state and history: the answer of ``planner group status --json``."""
    from planner.service import status as group_status
    from planner.service import status_json

    with GroupStore() as store:
        return status_json(day.day, group_status(day.day, store, group, day.day.status_time(time)))


def undo(day: Day, group: str) -> dict:
    """Remove the group's latest entry: the answer of ``planner group undo --json``."""
    from planner.service import undo as remove

    with day.lock, GroupStore() as store:
        res = remove(day.day, store, group)
    return {"group": group, "removed": res.removed, "removed_position": res.position}


def next_step(day: Day, group: str, time: str | None = None) -> dict:
    """What now: the answer of ``planner next --group G --json``."""
    from planner.service import next_json
    from planner.service import next_step as what_now

    with day.lock, GroupStore() as store:
        return next_json(day.day, what_now(day.day, store, group, day.day.status_time(time)))


def next_trains(day: Day, at: str, time: str | None, trip: str | None) -> dict:
    """The trains a group may take after getting off at ``at`` at ``time``: ``planner zugzwang --json``."""
    from planner.service.rules import trains_after_getting_off
    from planner.timetable.trips import find_trip

    gd = day.day
    with day.lock:
        s = gd.station(at)
        return trains_after_getting_off(gd, s, gd.clock(time), find_trip(gd.timetable, trip, s) if trip else -1)


def messages(day: Day, group: str, since: int = 0) -> dict:
    """The ledger's events the group must be told of (§13): the answer of ``planner ledger feed --json``."""
    from planner.service.ledger import feed

    return feed(day.day, group, since)


def area_map_html(day: Day) -> str:
    """The organiser's area map (as ``planner map area --standalone``), made once per day."""
    if "area_map" not in day.documents:
        from planner.maps import web

        with day.lock:
            m, _warnings = web.area_map(day.day.timetable, day.day.game)
            day.documents["area_map"] = web.render(m, standalone=True)
    return day.documents["area_map"]


def check_area_html(day: Day) -> str:
    """The check-area report (as ``planner check-area --out report.html``), made once per day."""
    if "check_area" not in day.documents:
        from planner.gtfs.source import FeedSource
        from planner.organiser.area_check import check_area
        from planner.organiser.render import render_html

        gd = day.day
        with day.lock:
            rep = check_area(gd.timetable, gd.game, gd.network, FeedSource(gd.feed), progress=False)
            day.documents["check_area"] = render_html(rep)
    return day.documents["check_area"]


__all__ = ["area_map_html", "check_area_html", "Day", "day_info", "load_day", "messages", "next_step", "next_trains", "roll",
           "set_position", "stations", "status", "undo"]
