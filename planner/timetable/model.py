"""Compact, typed-array model of one game day in one area.

Ids are dense ints (index into the arrays), times are int32 seconds after the service day's
midnight (may exceed 24:00). Station = one place (parent station / UIC number); stop = a platform
or boarding point of a station. Trips hold their stop times as contiguous slices (CSR layout).
Nothing here does I/O; ingest (``planner.gtfs``) and the cache fill it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from functools import cached_property

import numpy as np

DEFAULT_CHANGE_SECONDS = 120  # docs/rules.md §3: 2 minutes when the feed says nothing
NO_CHANGE = -1  # transfer_type 3: change impossible


class Mode(IntEnum):
    """Transport mode classified from the (extended) GTFS route_type."""

    RAIL = 0
    BUS = 1
    TRAM = 2
    BOAT = 3
    CABLE = 4  # cable car, gondola, funicular, chair lift
    METRO = 5
    OTHER = 6

    @property
    def label(self) -> str:
        """Lower-case name used in game files and JSON (``rail``, ``bus`` ...)."""
        return self.name.lower()


@dataclass(eq=False)
class Timetable:
    """One game day of one area, as dense arrays. See module docstring for conventions."""

    date: str  # YYYY-MM-DD
    feed_version: str
    # stations
    station_id: list[str]  # canonical id: UIC number when known (e.g. "8503000")
    station_name: list[str]
    station_lat: np.ndarray  # float64
    station_lon: np.ndarray
    station_change: np.ndarray  # int32 default change seconds per station, -1 = none from feed
    # stops (platforms)
    stop_id: list[str]
    stop_station: np.ndarray  # int32 -> station index
    stop_platform: list[str]
    # routes
    route_id: list[str]
    route_name: list[str]  # display name: "IR75", "S26", "IC1", "Bus 3"
    route_type: np.ndarray  # int32, extended GTFS type
    route_mode: np.ndarray  # int8 Mode
    route_category: list[str]  # "IC" | "fast" | "regional" | "bus" | "tram" | ...
    route_agency: list[str]
    # trips
    trip_id: list[str]
    trip_route: np.ndarray  # int32
    trip_headsign: list[str]
    trip_short_name: list[str]
    trip_offset: np.ndarray  # int64, len n_trips+1: stop times of trip t are [off[t], off[t+1])
    # stop times (ordered by trip, then stop_sequence)
    st_stop: np.ndarray  # int32
    st_arr: np.ndarray  # int32 seconds
    st_dep: np.ndarray  # int32 seconds
    st_pickup: np.ndarray  # bool: boarding allowed
    st_dropoff: np.ndarray  # bool: alighting allowed
    # transfers within a station, per stop pair (seconds; NO_CHANGE = forbidden)
    xfer_from: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))
    xfer_to: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))
    xfer_seconds: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))
    # walking links between different stations (only those the game allows), seconds
    link_from: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))
    link_to: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))
    link_seconds: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))
    meta: dict = field(default_factory=dict)

    # ---- sizes -------------------------------------------------------------------------------
    @property
    def n_stations(self) -> int:
        """Number of stations."""
        return len(self.station_id)

    @property
    def n_stops(self) -> int:
        """Number of stops (platforms)."""
        return len(self.stop_id)

    @property
    def n_trips(self) -> int:
        """Number of trips running on the day."""
        return len(self.trip_id)

    @property
    def n_connections(self) -> int:
        """Number of elementary connections (consecutive stop pairs of a trip)."""
        return int(len(self.st_stop) - self.n_trips) if self.n_trips else 0

    # ---- derived indexes (cached) --------------------------------------------------------------
    @cached_property
    def trip_index(self) -> dict[str, int]:
        """trip_id -> dense trip index."""
        return {t: i for i, t in enumerate(self.trip_id)}

    @cached_property
    def station_index(self) -> dict[str, int]:
        """station_id -> dense station index."""
        return {s: i for i, s in enumerate(self.station_id)}

    @cached_property
    def stop_index(self) -> dict[str, int]:
        """stop_id -> dense stop index."""
        return {s: i for i, s in enumerate(self.stop_id)}

    @cached_property
    def st_trip(self) -> np.ndarray:
        """Trip index of every stop-time row."""
        counts = np.diff(self.trip_offset)
        return np.repeat(np.arange(self.n_trips, dtype=np.int32), counts)

    @cached_property
    def station_stops(self) -> tuple[np.ndarray, np.ndarray]:
        """CSR (offsets, stops) listing the stops of each station."""
        order = np.argsort(self.stop_station, kind="stable").astype(np.int32)
        counts = np.bincount(self.stop_station, minlength=self.n_stations)
        off = np.zeros(self.n_stations + 1, np.int64)
        np.cumsum(counts, out=off[1:])
        return off, order

    @cached_property
    def station_modes(self) -> list[set[str]]:
        """Modes serving each station on the day (from the trips that stop there)."""
        modes: list[set[str]] = [set() for _ in range(self.n_stations)]
        route_of_st = self.trip_route[self.st_trip]
        mode_of_st = self.route_mode[route_of_st]
        sta = self.stop_station[self.st_stop]
        pairs = np.unique(np.stack([sta, mode_of_st.astype(np.int32)], axis=1), axis=0)
        for s, m in pairs:
            modes[int(s)].add(Mode(int(m)).label)
        return modes

    @cached_property
    def station_categories(self) -> list[set[str]]:
        """Service categories (``IC``/``fast``/``regional``/``bus``/...) stopping at each station."""
        cats: list[set[str]] = [set() for _ in range(self.n_stations)]
        sta = self.stop_station[self.st_stop]
        rt = self.trip_route[self.st_trip]
        stop_ok = self.st_pickup | self.st_dropoff
        pairs = np.unique(np.stack([sta[stop_ok], rt[stop_ok]], axis=1), axis=0)
        for s, r in pairs:
            cats[int(s)].add(self.route_category[int(r)])
        return cats

    def change_seconds(self, from_stop: int, to_stop: int, uniform: int | None = None,
                       default: int = DEFAULT_CHANGE_SECONDS) -> int:
        """Change time between two stops of one station (docs/rules.md §3); ``NO_CHANGE`` if forbidden.

        The one change-time policy: a forbidden pair stays forbidden; else ``uniform`` (a slow group); else
        the feed's pair time; else the station's own default; else ``default`` (the game file's
        ``transfers.default_minutes``). ``TransitNetwork`` builds its matrices by the same policy.
        """
        pair = self._xfer_pairs.get((from_stop, to_stop))
        if pair is not None and pair == NO_CHANGE:
            return NO_CHANGE
        if uniform is not None:
            return int(uniform)
        if pair is not None:
            return int(pair)
        d = int(self.station_change[self.stop_station[from_stop]])
        return d if d >= 0 else int(default)

    @cached_property
    def _xfer_pairs(self) -> dict[tuple[int, int], int]:
        return {
            (int(a), int(b)): int(s)
            for a, b, s in zip(self.xfer_from, self.xfer_to, self.xfer_seconds, strict=True)
        }

    def trip_stop_times(self, trip: int) -> range:
        """Row range of a trip's stop times."""
        return range(int(self.trip_offset[trip]), int(self.trip_offset[trip + 1]))

    def validate(self) -> None:
        """Check internal consistency (array lengths, index ranges, times ordered); raise ValueError."""
        n_st = len(self.st_stop)
        for name in ("st_arr", "st_dep", "st_pickup", "st_dropoff"):
            if len(getattr(self, name)) != n_st:
                raise ValueError(f"{name} has wrong length")
        if len(self.trip_offset) != self.n_trips + 1 or int(self.trip_offset[-1]) != n_st:
            raise ValueError("trip_offset inconsistent")
        if n_st and (self.st_stop.min() < 0 or self.st_stop.max() >= self.n_stops):
            raise ValueError("stop index out of range")
        if self.n_stops and (self.stop_station.min() < 0 or self.stop_station.max() >= self.n_stations):
            raise ValueError("station index out of range")
        if np.any(self.st_dep < self.st_arr):
            raise ValueError("departure before arrival at a stop")
        same_trip = np.diff(self.st_trip) == 0
        if np.any(self.st_arr[1:][same_trip] < self.st_dep[:-1][same_trip]):
            raise ValueError("a trip goes back in time")
