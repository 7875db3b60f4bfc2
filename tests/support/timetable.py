"""Tiny hand-built timetables for routing tests: stations with platforms, trips, transfers, links.

Example::

    b = TimetableBuilder()
    b.station("A", platforms=("1", "2"))
    b.station("B")
    b.trip([("A", None, "10:00"), ("B", "10:10", None)], route="S1")
    b.transfer(("A", "1"), ("A", "2"), 60)     # feed min_transfer_time
    b.transfer(("A", "2"), ("A", "1"), None)   # transfer_type 3
    tt = b.build()

A stop is named by the station name (its first platform) or ``(station, platform)``. Times are
``"HH:MM"`` / ``"HH:MM:SS"`` strings (may exceed 24:00) or int seconds; ``None`` copies the other time
of the same stop. Each stop of a trip is ``(stop, arr, dep)`` or ``(stop, arr, dep, pickup, dropoff)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from planner.routing.journey import Journey
from planner.routing.network import TransitNetwork
from planner.routing.query import Origin
from planner.timetable.model import NO_CHANGE, Mode, Timetable
from planner.util.timefmt import parse_clock

StopRef = str | tuple[str, str] | int
Time = str | int | None


def secs(t: str | int) -> int:
    """``"10:03"`` -> 36180 (ints pass through)."""
    return int(t) if isinstance(t, int | np.integer) else parse_clock(t)


@dataclass
class _Trip:
    rows: list[tuple[int, int, int, bool, bool]]  # stop, arr, dep, pickup, dropoff
    route: str
    trip_id: str


@dataclass
class TimetableBuilder:
    """Collects stations, platforms, trips, transfers and links; :meth:`build` returns a Timetable."""

    date: str = "2021-09-11"
    stations: list[str] = field(default_factory=list)
    station_change: list[int] = field(default_factory=list)
    stops: list[tuple[int, str]] = field(default_factory=list)  # (station, platform)
    trips: list[_Trip] = field(default_factory=list)
    transfers: dict[tuple[int, int], int] = field(default_factory=dict)
    links: list[tuple[int, int, int]] = field(default_factory=list)

    def station(self, name: str, platforms: tuple[str, ...] = ("1",), change: int | None = None) -> int:
        """Add a station with its platforms; ``change`` = the feed's station default (seconds)."""
        self.stations.append(name)
        self.station_change.append(-1 if change is None else int(change))
        s = len(self.stations) - 1
        for p in platforms:
            self.stops.append((s, p))
        return s

    def station_index(self, name: str) -> int:
        """Index of the station called ``name``."""
        return self.stations.index(name)

    def stop(self, ref: StopRef) -> int:
        """Stop index of a reference (station name = its first platform, or ``(station, platform)``)."""
        if isinstance(ref, int):
            return ref
        name, plat = (ref, None) if isinstance(ref, str) else ref
        s = self.station_index(name)
        for i, (st, p) in enumerate(self.stops):
            if st == s and (plat is None or p == plat):
                return i
        raise KeyError(f"no platform {plat!r} at {name!r}")

    def trip(self, stops: list[tuple], route: str = "S1", trip_id: str | None = None) -> int:
        """Add a trip: ``[(stop, arr, dep[, pickup, dropoff]), ...]``; returns its index."""
        rows = []
        for item in stops:
            ref, a, d = item[0], item[1], item[2]
            pick = bool(item[3]) if len(item) > 3 else True
            drop = bool(item[4]) if len(item) > 4 else True
            a = secs(d if a is None else a)
            d = secs(a if d is None else d)
            rows.append((self.stop(ref), a, d, pick, drop))
        self.trips.append(_Trip(rows, route, trip_id or f"t{len(self.trips)}"))
        return len(self.trips) - 1

    def transfer(self, a: StopRef, b: StopRef, seconds: int | None) -> None:
        """Feed transfer between two platforms: seconds (type 2), or ``None`` for transfer_type 3."""
        self.transfers[(self.stop(a), self.stop(b))] = NO_CHANGE if seconds is None else int(seconds)

    def link(self, a: str, b: str, seconds: int, both_ways: bool = True) -> None:
        """Walking link between two stations (what the game allows)."""
        sa, sb = self.station_index(a), self.station_index(b)
        self.links.append((sa, sb, int(seconds)))
        if both_ways:
            self.links.append((sb, sa, int(seconds)))

    def build(self) -> Timetable:
        """The Timetable (validated)."""
        routes = sorted({t.route for t in self.trips})
        rix = {r: i for i, r in enumerate(routes)}
        rows = [r for t in self.trips for r in t.rows]
        off = np.zeros(len(self.trips) + 1, np.int64)
        np.cumsum([len(t.rows) for t in self.trips], out=off[1:])
        xf = sorted(self.transfers.items())
        n_st = len(self.stations)
        tt = Timetable(
            date=self.date, feed_version="test",
            station_id=[f"85{i:05d}" for i in range(n_st)], station_name=list(self.stations),
            station_lat=np.full(n_st, 47.0), station_lon=np.linspace(8.0, 8.5, n_st),
            station_change=np.array(self.station_change, np.int32),
            stop_id=[f"85{s:05d}:0:{p}" for s, p in self.stops],
            stop_station=np.array([s for s, _ in self.stops], np.int32),
            stop_platform=[p for _, p in self.stops],
            route_id=routes, route_name=routes, route_type=np.full(len(routes), 106, np.int32),
            route_mode=np.full(len(routes), int(Mode.RAIL), np.int8), route_category=["regional"] * len(routes),
            route_agency=["test"] * len(routes),
            trip_id=[t.trip_id for t in self.trips], trip_route=np.array([rix[t.route] for t in self.trips], np.int32),
            trip_headsign=[self.stations[self.stops[t.rows[-1][0]][0]] for t in self.trips],
            trip_short_name=[""] * len(self.trips), trip_offset=off,
            st_stop=np.array([r[0] for r in rows], np.int32), st_arr=np.array([r[1] for r in rows], np.int32),
            st_dep=np.array([r[2] for r in rows], np.int32), st_pickup=np.array([r[3] for r in rows], bool),
            st_dropoff=np.array([r[4] for r in rows], bool),
            xfer_from=np.array([k[0] for k, _ in xf], np.int32), xfer_to=np.array([k[1] for k, _ in xf], np.int32),
            xfer_seconds=np.array([v for _, v in xf], np.int32),
            link_from=np.array([a for a, _, _ in self.links], np.int32),
            link_to=np.array([b for _, b, _ in self.links], np.int32),
            link_seconds=np.array([w for _, _, w in self.links], np.int32),
        )
        tt.validate()
        return tt


def assert_feasible(net: TransitNetwork, origin: Origin, journey: Journey) -> None:
    """Check an itinerary against the timetable alone (independent of the engine's labels).

    Times never go back; every ride's trip exists, boards where pickup is allowed (except the seated
    first leg) and alights where drop-off is allowed; every change within a station meets
    ``net.change_seconds`` and is not forbidden; walks only along links with their exact duration (a walk may
    end the journey: the group is at a linked station when it arrives on foot); the first leg starts at the origin (station at/after the start time, or the origin trip at its row).
    """
    tt = net.tt
    assert journey.target_station >= 0
    if not journey.legs:
        assert not origin.in_trip and origin.station == journey.target_station, "no legs but not already there"
        return
    pos_station = -1 if origin.in_trip else origin.station
    pos_stop = -1  # stop where the previous ride ended (for the change time)
    t = int(tt.st_arr[origin.row]) if origin.in_trip else origin.time
    prev_walk = False
    for i, leg in enumerate(journey.legs):
        if leg.is_walk:
            assert not prev_walk, "two walks in a row"
            assert leg.walk_from == pos_station, "walk does not start where the group is"
            w = net.link_seconds(leg.walk_from, leg.walk_to)
            assert w is not None, f"walk {leg.walk_from}->{leg.walk_to} without a link"
            assert leg.walk_dep >= t and leg.walk_arr == leg.walk_dep + w
            t, pos_station, pos_stop, prev_walk = leg.walk_arr, leg.walk_to, -1, True
            continue
        assert 0 <= leg.trip < tt.n_trips, "leg on a trip that does not exist"
        rows = tt.trip_stop_times(leg.trip)
        assert leg.board_row in rows and leg.alight_row in rows
        seated = i == 0 and origin.in_trip
        if seated:
            assert leg.trip == origin.trip and leg.board_row == origin.row, "seated leg is not the origin trip"
            assert leg.alight_row >= leg.board_row
        else:
            assert leg.alight_row > leg.board_row, "empty or backward ride"
            assert tt.st_pickup[leg.board_row], "boarding where pickup is not allowed"
            b_stop = int(tt.st_stop[leg.board_row])
            assert int(tt.stop_station[b_stop]) == pos_station, "boarding away from where the group is"
            dep = int(tt.st_dep[leg.board_row])
            if pos_stop >= 0 and not prev_walk:
                ct = net.change_seconds(pos_stop, b_stop)
                assert ct >= 0, "forbidden change (transfer_type 3)"
                assert dep >= t + ct, f"change {pos_stop}->{b_stop} too short: {t}+{ct} > {dep}"
            else:
                assert dep >= t, "boarding before the group is there"
        assert tt.st_dropoff[leg.alight_row], "alighting where drop-off is not allowed"
        a = int(tt.st_arr[leg.alight_row])
        assert t <= leg.departure(tt) <= leg.arrival(tt) == a, "a leg's times go backwards"
        t, pos_stop, prev_walk = a, int(tt.st_stop[leg.alight_row]), False
        pos_station = int(tt.stop_station[pos_stop])
    assert pos_station == journey.target_station, "journey does not end at the target"
    assert journey.departure(tt) <= journey.arrival(tt) == t


def mini_timetable(trips: list[tuple[Mode, list[tuple[str, str]]]]) -> Timetable:
    """A timetable of a few trips given as (mode, [(uic, name), ...]); one stop per station."""
    stations: dict[str, str] = {}
    for _, stops in trips:
        stations.update(dict(stops))
    ids = list(stations)
    n_st = len(ids)
    route_type = {Mode.RAIL: 106, Mode.TRAM: 900, Mode.BUS: 700}
    st_stop, offsets = [], [0]
    for _, stops in trips:
        st_stop += [ids.index(u) for u, _ in stops]
        offsets.append(len(st_stop))
    n = len(st_stop)
    times = np.arange(n, dtype=np.int32) * 120 + 9 * 3600
    return Timetable(
        date="2025-06-14", feed_version="test", station_id=ids, station_name=[stations[u] for u in ids],
        station_lat=np.zeros(n_st), station_lon=np.zeros(n_st), station_change=np.full(n_st, -1, np.int32),
        stop_id=ids, stop_station=np.arange(n_st, dtype=np.int32), stop_platform=[""] * n_st,
        route_id=[f"r{i}" for i in range(len(trips))], route_name=[m.label for m, _ in trips],
        route_type=np.array([route_type[m] for m, _ in trips], np.int32),
        route_mode=np.array([int(m) for m, _ in trips], np.int8), route_category=["regional"] * len(trips),
        route_agency=["BLT"] * len(trips), trip_id=[f"t{i}" for i in range(len(trips))],
        trip_route=np.arange(len(trips), dtype=np.int32), trip_headsign=[""] * len(trips),
        trip_short_name=[""] * len(trips), trip_offset=np.array(offsets, np.int64),
        st_stop=np.array(st_stop, np.int32), st_arr=times, st_dep=times,
        st_pickup=np.ones(n, bool), st_dropoff=np.ones(n, bool),
    )
