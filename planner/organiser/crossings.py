"""Toll lines and tunnels in the area report: which trips of the day cross each one (on the physical SBB
network, or on the stops when its data is missing), and whether each is found, in the area and served."""

from __future__ import annotations

import re
from collections.abc import Iterable

import numpy as np

from planner.errors import FeedError
from planner.gamefile.area import in_area
from planner.gamefile.game import Crossing, Game
from planner.organiser.feed_facts import FeedStation, place
from planner.rail.crossings import CrossingCheck, check_crossings
from planner.rail.loader import load_rail_network
from planner.rail.trips import crossing_trips
from planner.timetable.model import Timetable
from planner.util.i18n import _
from planner.util.timefmt import fmt_clock


def game_hours(game: Game) -> float:
    """Length of the game day in hours (never 0)."""
    return max((game.clock.end - game.clock.start) / 3600.0, 1e-9)


CrossingIndex = dict[str, list[tuple[int, int, int, float]]]


def crossing_index(tt: Timetable, game: Game) -> tuple[CrossingIndex, dict[str, CrossingCheck], list[str]]:
    """``(trip, first_row, last_row, end_share)`` of every trip crossing each toll line / tunnel, the physical checks
    by name (``planner.rail.CrossingCheck``), and warnings.

    Uses the physical SBB network; when its data file is missing or unreadable (``FeedError``), the
    crossings are decided on the stops by the same rule the network uses for lines off it
    (``planner.rail.crossings``), which misses trains that pass A or B without stopping, and a warning
    says so. Any other error is a bug and is raised.
    """
    names = [c.name for c in (*game.toll_lines, *game.tunnels)]
    if not names:
        return {}, {}, []
    try:
        network = load_rail_network()
    except FeedError as exc:
        warn = _("physical rail network unavailable ({reason}): toll lines and tunnels are checked on stops "
                 "only").format(reason=" ".join(str(exc).split())[:160])
        index = crossing_trips(tt, None, game)
        return {n: index.get(n, []) for n in names}, {}, [warn]
    index = crossing_trips(tt, network, game)
    checks = {c.name: c for c in check_crossings(network, game)}
    return {n: index.get(n, []) for n in names}, checks, []


def crossing_report(tt: Timetable, game: Game, c: Crossing, hits: list[tuple[int, int, int, float]],
                     check: CrossingCheck | None,
                     stations: dict[str, list[FeedStation]] | None) -> dict:
    """One toll line or tunnel of the report: its ends (found, in the area), whether trains cross it in the
    game hours (first, last, per hour, routes) and how it was decided (on the network or on the stops)."""
    ends = [{k: v for k, v in place(tt, game, name, stations).items() if k != "station"} for name in c.between]
    # only a crossing decided on the network is found without its end stations in the feed; one decided on
    # the stops (its line is off the SBB network) needs both ends in the feed
    on_network = check is not None and check.method == "path"
    found = all(e["found"] for e in ends) or on_network
    in_area_ = all(e["in_area"] for e in ends if e["found"]) and any(e["found"] for e in ends)
    if not any(e["found"] for e in ends) and check is not None and on_network:
        in_area_ = _stretch_in_area(game, check)
    dep = np.array([int(tt.st_dep[h[1]]) for h in hits], dtype=np.int64)
    inside = game.clock.in_game_mask(dep) if len(dep) else np.zeros(0, bool)
    trips_in = {hits[i][0] for i in np.flatnonzero(inside)}
    routes_day = route_names(tt, (h[0] for h in hits))
    routes_game = route_names(tt, trips_in)
    out = {
        "name": c.name,
        "kind": c.kind,
        "between": list(c.between),
        "via": list(c.via),
        "ends": ends,
        "found": bool(found),
        # what the problems name: an end station the feed lacks (a crossing found on the line network may miss one)
        "missing_ends": [e["name"] for e in ends if not e["found"]],
        "in_area": bool(in_area_),
        "served": bool(trips_in),
        "first": fmt_clock(int(dep[inside].min())) if inside.any() else None,
        "last": fmt_clock(int(dep[inside].max())) if inside.any() else None,
        "per_hour": round(len(trips_in) / game_hours(game), 1),
        "trains": len(trips_in),
        "routes": routes_day,
        "routes_game_hours": routes_game,
        "method": check.method if check is not None else "stops",
        "length_km": _round_km(check.length_km) if check is not None else None,
        "definition_problems": list(check.problems) if check is not None else [],
    }
    return out


def route_names(tt: Timetable, trips: Iterable[int]) -> list[str]:
    """The display names of the routes of ``trips``, once each, as people read them: IR70 before IR75, S2 before
    S12 (letters, then the number as a number)."""
    return sorted({tt.route_name[int(tt.trip_route[t])] for t in trips}, key=_route_sort_key)


def _route_sort_key(name: str) -> tuple[str, int, str]:
    m = re.match(r"^([A-Za-z]*)\s*(\d*)", name)
    prefix, num = (m.group(1), m.group(2)) if m else ("", "")
    return (prefix, int(num) if num else -1, name)


def _round_km(v) -> float | None:
    if v is None or not np.isfinite(v):
        return None
    return round(float(v), 1)


def _stretch_in_area(game: Game, check: CrossingCheck) -> bool:
    """Whether the whole stretch of a crossing decided on the network lies in the area."""
    net = load_rail_network()  # loaded (and cached) by crossing_index already when there is a check
    idx = [net.node_of[u] for u in check.stretch if u in net.node_of]
    if not idx:
        return False
    return bool(in_area(game, net.lat[idx], net.lon[idx]).all())
