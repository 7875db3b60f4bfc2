"""The facts of the game day a simulated group moves by: the rides it may take now (the change window's own
function decides which) and what happens along an itinerary (the stops it is at, the crossings it travels).

Nothing here is a rule of its own: boarding is :func:`planner.game.zugzwang.boardable`, the stops a group is at
are :func:`planner.service.read.pricing.leg_stops` (the fee rule's), the crossings :func:`planner.rail.index.leg_stretches`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from planner.game.prices import station_category, station_price
from planner.game.zugzwang import boardable
from planner.lab.strategies import MAX_RIDE_SECONDS, Ride
from planner.rail.index import leg_stretches
from planner.routing import Journey, Leg
from planner.service.read.pricing import leg_stops
from planner.service.setup.playing import GameDay

FREE_HORIZON = 45 * 60  # without a change window (variant B) a free group looks at the trains of the next 45 min
REGION_ROWS, REGION_COLS = ("N", "", "S"), ("W", "", "E")


@dataclass(frozen=True)
class Along:
    """Something on the way at ``time``: a ``stop`` at station ``name``, or a crossing (``toll_line``/``tunnel``)."""

    time: int
    kind: str
    name: str


class Board:
    """What the lab needs of one game day, built once: station names, price categories and prices, regions."""

    def __init__(self, day: GameDay):
        self.day = day
        tt = day.timetable
        self.names = [str(n) for n in tt.station_name]
        self.category = [station_category(tt, s, day.game) for s in range(tt.n_stations)]
        self.price = [station_price(day.game, tt, s, self.category[s]) for s in range(tt.n_stations)]

    @cached_property
    def region(self) -> list[str]:
        """Each station's part of the area: the 3 x 3 grid over the stations' box (``NW`` ... ``C`` ... ``SE``)."""
        tt = self.day.timetable
        lat = [float(x) for x in tt.station_lat]
        lon = [float(x) for x in tt.station_lon]
        ok = [i for i in range(len(lat)) if lat[i] == lat[i] and lon[i] == lon[i]]
        if not ok:
            return ["C"] * len(lat)
        la0, la1 = min(lat[i] for i in ok), max(lat[i] for i in ok)
        lo0, lo1 = min(lon[i] for i in ok), max(lon[i] for i in ok)

        def third(v: float, lo: float, hi: float) -> int:
            return 1 if hi <= lo else min(2, int(3 * (v - lo) / (hi - lo)))

        out = []
        for i in range(len(lat)):
            if i not in ok:
                out.append("C")
                continue
            name = REGION_ROWS[2 - third(lat[i], la0, la1)] + REGION_COLS[third(lon[i], lo0, lo1)]
            out.append(name or "C")
        return out

    @cached_property
    def starts(self) -> list[int]:
        """Stations a group may start at: every station some train leaves from during the game."""
        net, clock = self.day.network, self.day.game.clock
        return sorted({int(net.stop_station[net.c_from[c]]) for c in range(net.n_connections)
                       if net.c_pick[c] and clock.in_game(int(net.c_dep[c]))})


def rides_from(day: GameDay, station: int, got_off: int, *, stop: int = -1, since: int | None = None,
               now: int | None = None) -> list[Ride]:
    """The rides a group standing at ``station`` may take: every train the change window lets it board (got
    off at ``got_off`` at platform ``stop``, or standing there since ``since`` and asking at ``got_off``) that
    leaves at ``now`` or later, to each later stop within :data:`MAX_RIDE_SECONDS` where it may get off. Trains
    leaving after the game's end are not offered."""
    # the times the group rides at (predicted on real-time data, where a skipped stop lets nobody off) on the rows of
    # the day's timetable
    net, tt, clock = day.network, day.network.tt, day.game.clock
    window = day.window.seconds if day.window is not None else FREE_HORIZON
    conns = boardable(net, station, got_off, window, stop=stop, since=since)
    out, seen = [], set()
    for c in conns.tolist():
        trip, dep = int(net.c_trip[c]), int(net.c_dep[c])
        if trip in seen or clock.over(dep) or now is not None and dep < now:
            continue
        seen.add(trip)
        board = int(net.c_row[c])
        for r in range(board + 1, tt.trip_stop_times(trip).stop):
            if int(tt.st_arr[r]) > dep + MAX_RIDE_SECONDS:
                break
            to = int(tt.stop_station[tt.st_stop[r]])
            if tt.st_dropoff[r] and to != station:
                out.append(Ride(trip, board, r, dep, int(tt.st_arr[r]), to))
    return out


def along(day: GameDay, legs: tuple[Leg, ...], *, seated: bool) -> list[Along]:
    """The stops a group is at and the crossings it travels on ``legs`` (``seated``: it starts in the first leg's
    train, before the stop it approaches), in time order, at the times it rides at (predicted on real-time data)."""
    if not legs:
        return []
    tt = day.network.tt
    j = Journey(legs[0].from_station(tt), legs[-1].to_station(tt), legs[0].departure(tt), legs)
    out = []
    for leg, ls in zip(legs, leg_stops(day, j, [[] for _ in legs], seated, times_on=tt), strict=True):
        out += [Along(int(t), "station", name) for name, t in zip(ls.stops, ls.times, strict=True)]
        if leg.is_walk:
            continue
        for name, _first, last in leg_stretches(day.crossings_by_trip, leg.trip, leg.board_row, leg.alight_row):
            c = day.game.crossing(name)
            if c is not None:
                out.append(Along(int(tt.st_arr[last]), c.kind, name))
    out.sort(key=lambda a: a.time)
    return out
