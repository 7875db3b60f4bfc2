"""Timetable adapters: the crossings of the day's trips (rows of a ``Timetable``), and the report view.

Rides are given as stop-time rows (``Leg.board_row`` / ``Leg.alight_row``), never as positions within the
trip: one unit, so a number cannot be read two ways. Hits carry positions within the whole trip.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from planner.gamefile.game import Game
from planner.rail.crossings import CrossingHit, crossings
from planner.timetable.model import Mode, Timetable

if TYPE_CHECKING:  # a type only: the network's module imports pandas and networkx (300 ms of a roll's start)
    from planner.rail.network import RailNetwork

_RAIL_MODES = frozenset({int(Mode.RAIL), int(Mode.TRAM), int(Mode.METRO)})


def ride_rows(tt: Timetable, trip: int, board_row: int | None = None, alight_row: int | None = None) -> range:
    """The stop-time rows a ride in ``trip`` covers, from ``board_row`` to ``alight_row`` (both included).

    Both are stop-time rows of the trip (``Leg.board_row``/``alight_row``); None means its first / last
    stop. A number outside the trip's rows raises ``IndexError`` (a position within the trip is not a row).
    """
    lo, hi = int(tt.trip_offset[trip]), int(tt.trip_offset[trip + 1])

    def check(row: int | None, default: int) -> int:
        if row is None:
            return default
        if not lo <= int(row) < hi:
            raise IndexError(f"row {int(row)} is not a stop-time row of trip {tt.trip_id[trip]} (rows {lo}..{hi - 1})")
        return int(row)

    a, b = check(board_row, lo), check(alight_row, hi - 1)
    if b < a:
        raise IndexError(f"ride in trip {tt.trip_id[trip]} ends (row {b}) before it starts (row {a})")
    return range(a, b + 1)


def _trip_stops(tt: Timetable, network: RailNetwork | None, rows: range) -> tuple[list[str], list[str]]:
    uics, names = [], []
    for r in rows:
        s = int(tt.stop_station[tt.st_stop[r]])
        uic, name = tt.station_id[s], tt.station_name[s]
        if network is not None and uic not in network:
            # a renumbered or differently keyed station: its exact station name still finds it
            uic = network.station_point(name) or uic
        uics.append(uic)
        names.append(name)
    return uics, names


def _is_rail_trip(tt: Timetable, trip: int) -> bool:
    return int(tt.route_mode[tt.trip_route[trip]]) in _RAIL_MODES


def trip_crossings(tt: Timetable, network: RailNetwork | None, game: Game, trip_index: int,
                   board_row: int | None = None, alight_row: int | None = None) -> list[CrossingHit]:
    """Crossings of a timetable trip, or of the part of it a leg rides (``board_row``..``alight_row``).

    The ride is given in stop-time rows (see :func:`ride_rows`); the hits' ``leg_start``/``leg_end`` are
    positions within the whole trip. Without a network (``None``) crossings are decided on the stops.
    Buses, boats and cable cars cross nothing (toll lines and tunnels are railway).
    """
    if not _is_rail_trip(tt, trip_index) or not (game.toll_lines or game.tunnels):
        return []
    rows = ride_rows(tt, trip_index, board_row, alight_row)
    offset = rows.start - int(tt.trip_offset[trip_index])
    uics, names = _trip_stops(tt, network, rows)
    hits = _cached_crossings(network, game, tuple(uics), tuple(names))
    if not offset:
        return list(hits)
    return [CrossingHit(h.name, h.kind, h.between, h.leg_start + offset, h.leg_end + offset, h.method,
                        h.forward, h.points, h.end_share) for h in hits]


def _cached_crossings(network: RailNetwork | None, game: Game, uics: tuple[str, ...],
                      names: tuple[str, ...]) -> tuple[CrossingHit, ...]:
    if network is None:
        return tuple(crossings(None, game, uics, names))
    # many trips of a day share one stop pattern: decide each pattern once
    cache = network.pattern_cache
    key = (game.digest, game.name, uics, names)
    hit = cache.get(key)
    if hit is None:
        if len(cache) > 50_000:
            cache.clear()
        hit = cache[key] = tuple(crossings(network, game, uics, names))
    return hit


Stretch = tuple[int, int, int, float]
"""A trip's crossing: ``(trip, first_row, last_row, end_share)`` (see :func:`crossing_trips`)."""


def crossing_trips(tt: Timetable, network: RailNetwork | None, game: Game) -> dict[str, list[Stretch]]:
    """For every toll line and tunnel: the trips of the day crossing it, as ``(trip, first_row, last_row,
    end_share)``.

    ``first_row`` is the stop-time row of the last stop before the crossing (board there or earlier),
    ``last_row`` the row of the first stop after it (stay on board until there); ``end_share``: how far
    (by track km) along the ride from the stop before ``last_row`` to it the train has passed the crossing
    (:func:`passing_time`).
    """
    out: dict[str, list[Stretch]] = {c.name: [] for c in (*game.toll_lines, *game.tunnels)}
    if not out:
        return out
    for t in range(tt.n_trips):
        hits = trip_crossings(tt, network, game, t)
        lo = int(tt.trip_offset[t])
        for h in hits:
            out[h.name].append((t, lo + h.leg_start, lo + h.leg_end + 1, round(h.end_share, 4)))
    return out


def passing_time(tt: Timetable, last_row: int, end_share: float) -> int:
    """When the train has passed a crossing that ends ``end_share`` of the way (by track km) from the stop
    before ``last_row`` to it: the time interpolated between the departure there and the arrival at
    ``last_row`` (docs/rules.md §2: a toll line or tunnel target is reached there), in whole minutes (rounded up:
    the train has passed it by then)."""
    dep, arr = int(tt.st_dep[last_row - 1]), int(tt.st_arr[last_row])
    t = dep + max(0.0, min(1.0, float(end_share))) * (arr - dep)
    return min(arr, -(-int(round(t)) // 60) * 60)
