"""Itineraries: legs on trips (or short walks), with the fields players read."""

from __future__ import annotations

from dataclasses import dataclass, field

from planner.timetable.model import Mode, Timetable
from planner.util.timefmt import fmt_clock


@dataclass(frozen=True)
class Leg:
    """One leg: ride ``trip`` from stop-time row ``board_row`` to ``alight_row`` (or walk, ``trip`` = -1)."""

    trip: int
    board_row: int
    alight_row: int
    walk_from: int = -1  # station indexes for a walk leg
    walk_to: int = -1
    walk_dep: int = 0
    walk_arr: int = 0

    @property
    def is_walk(self) -> bool:
        """True for a walk between two stations (variant B: station and its bus stops)."""
        return self.trip < 0

    def departure(self, tt: Timetable) -> int:
        """Departure time (seconds)."""
        if self.is_walk:
            return self.walk_dep
        if self.board_row == self.alight_row:
            # seated group getting off at the stop it is approaching: no ride, it is there on arrival
            return int(tt.st_arr[self.board_row])
        return int(tt.st_dep[self.board_row])

    def arrival(self, tt: Timetable) -> int:
        """Arrival time (seconds)."""
        return self.walk_arr if self.is_walk else int(tt.st_arr[self.alight_row])

    def from_station(self, tt: Timetable) -> int:
        """Station index where the leg starts."""
        return self.walk_from if self.is_walk else int(tt.stop_station[tt.st_stop[self.board_row]])

    def to_station(self, tt: Timetable) -> int:
        """Station index where the leg ends."""
        return self.walk_to if self.is_walk else int(tt.stop_station[tt.st_stop[self.alight_row]])

    def to_dict(self, tt: Timetable) -> dict:
        """JSON shape of a leg (the CLI interface). ``mode``: ``rail``, ``bus``, ``tram``... or ``walk``;
        platforms are a railway's tracks (a bus or tram stop's letter is none: left empty)."""
        if self.is_walk:
            return {"trip_id": None, "route": "walk", "mode": "walk", "headsign": "",
                    "from": tt.station_name[self.walk_from], "to": tt.station_name[self.walk_to], "from_platform": "",
                    "to_platform": "", "departure": fmt_clock(self.walk_dep), "arrival": fmt_clock(self.walk_arr)}
        r = int(tt.trip_route[self.trip])
        mode = Mode(int(tt.route_mode[r]))
        tracks = mode == Mode.RAIL
        return {
            "trip_id": tt.trip_id[self.trip],
            "route": tt.route_name[r],
            "mode": mode.label,
            "headsign": tt.trip_headsign[self.trip],
            "from": tt.station_name[self.from_station(tt)],
            "to": tt.station_name[self.to_station(tt)],
            "from_platform": tt.stop_platform[tt.st_stop[self.board_row]] if tracks else "",
            "to_platform": tt.stop_platform[tt.st_stop[self.alight_row]] if tracks else "",
            "departure": fmt_clock(self.departure(tt)),
            "arrival": fmt_clock(self.arrival(tt)),
        }


@dataclass(frozen=True)
class Journey:
    """A whole itinerary from a position to a station. No legs = already there."""

    origin_station: int
    target_station: int
    start_time: int
    legs: tuple[Leg, ...] = field(default_factory=tuple)

    @property
    def changes(self) -> int:
        """Number of changes between trips (walks are not trips)."""
        rides = sum(1 for leg in self.legs if not leg.is_walk)
        return max(0, rides - 1)

    def departure(self, tt: Timetable) -> int:
        """Departure of the first leg (start time when already there)."""
        return self.legs[0].departure(tt) if self.legs else self.start_time

    def arrival(self, tt: Timetable) -> int:
        """Arrival at the target."""
        return self.legs[-1].arrival(tt) if self.legs else self.start_time

    def signature(self) -> tuple:
        """Identity of the itinerary (for de-duplication)."""
        return tuple((leg.trip, leg.board_row, leg.alight_row, leg.walk_from, leg.walk_to) for leg in self.legs)

    def to_dict(self, tt: Timetable) -> dict:
        """JSON shape: from, to, departure, arrival, changes, legs."""
        return {
            "from": tt.station_name[self.origin_station] if self.origin_station >= 0 else None,
            "to": tt.station_name[self.target_station],
            "departure": fmt_clock(self.departure(tt)),
            "arrival": fmt_clock(self.arrival(tt)),
            "changes": self.changes,
            "legs": [leg.to_dict(tt) for leg in self.legs],
        }
