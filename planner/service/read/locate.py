"""Where are we? The station a group most likely stands at, or the train it most likely sits in, from where its
phone is (a WGS84 point) at a time: a proposal the players confirm, never a position by itself.

Pure computation over the day's timetable (its stations' coordinates and its trips' times): a train is placed
where its timetable has it at that time, on the straight line between the stop it left and the stop it approaches,
in proportion to the time between them (standing at a stop while it dwells there). The coordinates are an
argument of one call: nothing here keeps or writes them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from planner.errors import InputError
from planner.timetable.model import Timetable
from planner.timetable.trips import describe_train
from planner.util.i18n import _
from planner.util.timefmt import fmt_clock

EARTH_RADIUS_M = 6_371_000.0
# A station's point is its middle: the end of a long platform (or the station square) lies up to a few hundred
# metres from it, and a phone's fix is off by some tens of metres more.
STATION_RADIUS_M = 400
# A train's place is interpolated along the straight line between two stops while the track curves, and trains
# keep to their timetable only within a minute or two: a few hundred metres either way at 100 km/h.
TRAIN_RADIUS_M = 2000


@dataclass(frozen=True)
class TrainNearby:
    """A train where its timetable has it near the phone: ``trip``, the stop-time ``row`` it stands at or
    approaches, and how far its timetable place is from the phone."""

    trip: int
    row: int
    distance_m: float


@dataclass(frozen=True)
class Whereabouts:
    """The proposal: the station the group is at (``station``, within :data:`STATION_RADIUS_M`), else the train it
    is in (``train``, within :data:`TRAIN_RADIUS_M`); ``nearest``/``nearest_m``: the day's nearest station however
    far (to say so when nothing is near)."""

    time: int
    station: int | None
    station_m: float | None
    train: TrainNearby | None
    nearest: int
    nearest_m: float

    @property
    def proposal(self) -> str | None:
        """``station``, ``train`` or None (nothing of the day near the phone)."""
        if self.station is not None:
            return "station"
        return "train" if self.train is not None else None


def distances_m(lat: float, lon: float, lats: np.ndarray, lons: np.ndarray) -> np.ndarray:
    """Great-circle distances in metres from one point to many (haversine)."""
    p1, p2 = np.radians(lat), np.radians(lats)
    h = np.sin((p2 - p1) / 2) ** 2 + np.cos(p1) * np.cos(p2) * np.sin(np.radians(lons - lon) / 2) ** 2
    return 2 * EARTH_RADIUS_M * np.arcsin(np.minimum(1.0, np.sqrt(h)))


def check_point(lat: float, lon: float) -> None:
    """Refuse a point that is not a WGS84 latitude and longitude (one line)."""
    if not (np.isfinite(lat) and np.isfinite(lon) and -90 <= lat <= 90 and -180 <= lon <= 180):
        raise InputError(_("({lat}, {lon}) is not a place: latitude -90..90 and longitude -180..180 degrees").format(
            lat=lat, lon=lon))


def trains_at(tt: Timetable, t: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every train's timetable place at ``t``: (row it stands at or approaches, latitude, longitude), one entry
    per trip running then (between its first departure and its last arrival)."""
    sta = tt.stop_station[tt.st_stop]
    lat, lon = tt.station_lat[sta], tt.station_lon[sta]
    dwell = np.flatnonzero((tt.st_arr <= t) & (t <= tt.st_dep))  # standing at a stop
    same = tt.st_trip[:-1] == tt.st_trip[1:]
    moving = np.flatnonzero(same & (tt.st_dep[:-1] < t) & (t < tt.st_arr[1:]))  # between row i and i + 1
    span = (tt.st_arr[moving + 1] - tt.st_dep[moving]).astype(np.float64)
    f = (t - tt.st_dep[moving]) / span
    rows = np.concatenate([dwell, moving + 1])
    lats = np.concatenate([lat[dwell], lat[moving] + f * (lat[moving + 1] - lat[moving])])
    lons = np.concatenate([lon[dwell], lon[moving] + f * (lon[moving + 1] - lon[moving])])
    return rows, lats, lons


def locate(tt: Timetable, lat: float, lon: float, t: int) -> Whereabouts:
    """The station or train near ``(lat, lon)`` at ``t`` (seconds of the service day); see :class:`Whereabouts`."""
    check_point(lat, lon)
    if tt.n_stations == 0:
        raise InputError(_("the game day has no stations"))
    d = distances_m(lat, lon, tt.station_lat, tt.station_lon)
    nearest = int(np.argmin(d))
    station = nearest if d[nearest] <= STATION_RADIUS_M else None
    train = None
    if station is None:  # at a station the group stands there, or sits in a train it may name in words
        rows, lats, lons = trains_at(tt, t)
        if len(rows):
            dt = distances_m(lat, lon, lats, lons)
            best = int(np.argmin(dt))
            if dt[best] <= TRAIN_RADIUS_M:
                row = int(rows[best])
                train = TrainNearby(int(tt.st_trip[row]), row, float(dt[best]))
    return Whereabouts(t, station, float(d[nearest]) if station is not None else None, train, nearest,
                       float(d[nearest]))


def whereabouts_json(tt: Timetable, w: Whereabouts) -> dict:
    """JSON of a proposal: ``proposal``, ``station`` {name, distance_m}, ``train`` {trip (its id, for the position
    request), name, next_stop, next_time, distance_m}, ``nearest`` {name, distance_m}, ``distance_m`` (of the
    proposal), ``time``."""
    train = None
    if w.train is not None:
        tr = w.train
        train = {"trip": tt.trip_id[tr.trip], "name": describe_train(tt, tr.trip),
                 "next_stop": tt.station_name[tt.stop_station[tt.st_stop[tr.row]]],
                 "next_time": fmt_clock(int(tt.st_arr[tr.row])), "distance_m": round(tr.distance_m)}
    station = None if w.station is None else {"name": tt.station_name[w.station], "distance_m": round(w.station_m)}
    chosen = station if w.proposal == "station" else train
    return {"time": fmt_clock(w.time), "proposal": w.proposal, "station": station, "train": train,
            "distance_m": chosen["distance_m"] if chosen else None,
            "nearest": {"name": tt.station_name[w.nearest], "distance_m": round(w.nearest_m)}}
