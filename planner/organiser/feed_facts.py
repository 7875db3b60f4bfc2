"""Feed-wide facts for the area report (light passes over the whole feed, not only the game day): the
feed's stations by name, where a game file's station name lies, and the routes the game's mode filter drops."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from planner.gamefile.area import in_area
from planner.gamefile.game import Game
from planner.gtfs.routes import DROPPED_MODE, EXCLUDED, KEPT, feed_routes
from planner.gtfs.source import FeedSource
from planner.gtfs.stops import read_stops
from planner.timetable.model import Timetable
from planner.timetable.stations import exact_station
from planner.util.text import fold


@dataclass(frozen=True)
class FeedStation:
    """A station of the whole feed (not only the game day): key (UIC), name and position."""

    key: str
    name: str
    lat: float
    lon: float


def feed_stations(src: FeedSource) -> dict[str, list[FeedStation]]:
    """Folded station name -> the feed's stations of that name (one ``stops.txt`` pass)."""
    stops = read_stops(src)
    best: dict[str, FeedStation] = {}
    # station rows first: their name and position stand for the station
    order = np.lexsort((~stops.is_station_row,))
    for i in order:
        key = str(stops.station[i])
        if key in best and np.isfinite(best[key].lat):
            continue
        name = str(stops.name[i])
        if not name:
            continue
        best[key] = FeedStation(key, best[key].name if key in best else name, float(stops.lat[i]),
                                float(stops.lon[i]))
    out: dict[str, list[FeedStation]] = {}
    for fs in best.values():
        out.setdefault(fold(fs.name), []).append(fs)
    return out


def route_filter_summary(src: FeedSource, game: Game) -> dict:
    """Routes of the whole feed the game drops: by mode (counts) and by the game's exclusion list.

    The ingest's own mode filter (:func:`planner.gtfs.routes.feed_routes`) over the whole ``routes.txt``;
    exclusions that match no route are reported (a typo in the game file would otherwise silently keep a
    tram line in the game).
    """
    routes = feed_routes(src, game)
    by_mode = Counter(r.mode.label for r in routes if r.verdict == DROPPED_MODE)
    kept_by_mode = Counter(r.mode.label for r in routes if r.verdict == KEPT)
    hits = Counter(r.excluded_by for r in routes if r.verdict == EXCLUDED)
    return {
        "feed_routes": len(routes),
        "kept_by_mode": dict(sorted(kept_by_mode.items())),
        "dropped_by_mode": dict(sorted(by_mode.items())),
        "excluded": [{"agency": a, "route": r, "routes": hits.get((a, r), 0)} for a, r in game.exclude_routes],
    }


def place(tt: Timetable, game: Game, name: str, stations: dict[str, list[FeedStation]] | None) -> dict:
    """Resolve a station name: found in the feed (exactly one station), in the area, in the day's timetable."""
    s = exact_station(tt, name)
    cands = stations.get(fold(name), []) if stations is not None else []
    keys = sorted({c.key for c in cands})
    if stations is None:  # no feed-wide pass: the game-day timetable is all we know
        found = s is not None
        inside = s is not None
    else:
        found = len(keys) == 1 or s is not None
        inside = False
        if cands:
            fs = cands[0] if s is None else next((c for c in cands if c.key == tt.station_id[s]), cands[0])
            inside = bool(in_area(game, np.array([fs.lat]), np.array([fs.lon]), [fs.key])[0])
        if s is not None:
            inside = True  # the timetable only holds in-area stations
    return {"name": name, "found": bool(found), "in_area": bool(inside), "station": s,
            "ambiguous": keys if len(keys) > 1 and s is None else []}
