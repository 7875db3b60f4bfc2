"""The real-time overlay: predicted times per stop-time row, cancelled trips and skipped stops, beside the
immutable game-day :class:`~planner.timetable.model.Timetable` (nigiri's ``rt_timetable`` over its static
timetable is the model: nothing is re-ingested, the timetable's arrays are never written).

GTFS-RT semantics applied (the reference's "propagation" rules): a stop-time update gives an arrival and/or a
departure as a ``delay`` or an absolute ``time``; a missing departure takes the arrival's delay, a stop
without an update takes the delay of the last update before it in the trip, stops before the first update
have no prediction (the timetable is used, the delay is unknown). ``SKIPPED`` stops are not served (no
boarding, no getting off) and pass the delay on; ``NO_DATA`` stops end the propagation (unknown until the
next update). A ``CANCELED``/``DELETED`` trip is not used at all. Predicted times are made non-decreasing
along each trip (a feed can contradict itself; a train cannot arrive before it left).

Matching: a trip update's ``trip_id``, else its ``original_trip_id`` (Swiss profile), against the day's
trip ids, for its ``start_date`` (none given: the game day). A stop-time update's ``stop_id`` names the
platform; a platform the timetable does not plan there (a platform change) is matched by its station, the UIC
number before the id's first ``:``.
Updates with only a ``stop_sequence`` cannot be placed (the game day keeps no sequence numbers) and are
counted; so are predicted times implausibly far from the timetable (:data:`planner.realtime.match.LATEST_DELAY`),
which are dropped. Nothing here fails on bad content: unknown trips, other dates, unplaced stops are counted.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field, replace
from functools import cached_property
from zoneinfo import ZoneInfo

import numpy as np

from planner.realtime import match
from planner.realtime.feed import FeedData
from planner.timetable.model import Timetable

ZURICH = ZoneInfo("Europe/Zurich")
STALE_SECONDS = 300  # older data than this is shown as stale (the feed is refreshed about every 30 s)

# Timetable caches valid for the predicted copy too (they depend on ids and stops, not on times)
_SHARED_CACHES = ("trip_index", "station_index", "stop_index", "st_trip", "station_stops", "_xfer_pairs")


def service_day_start(date: dt.date) -> int:
    """POSIX seconds of the game day's "noon minus 12 h" in Swiss time (GTFS times count from it)."""
    noon = dt.datetime(date.year, date.month, date.day, 12, tzinfo=ZURICH)
    return int(noon.timestamp()) - 12 * 3600


@dataclass(frozen=True, eq=False)
class Overlay:
    """Predicted times of one game day (see the module docstring); ``source``/``timestamp`` say where from."""

    source: str
    timestamp: int  # the feed header's POSIX seconds (0: none)
    date: dt.date
    arr: np.ndarray  # int32 predicted arrival per stop-time row (the timetable's where unknown)
    dep: np.ndarray
    arr_known: np.ndarray  # bool: the feed predicts this row's arrival
    dep_known: np.ndarray
    skipped: np.ndarray  # bool per row
    cancelled: np.ndarray  # bool per trip
    counts: dict = field(default_factory=dict)  # trips_matched, trips_unknown, trips_other_date, ...
    base: Timetable | None = None

    @cached_property
    def changes_anything(self) -> bool:
        """True when some time differs from the timetable or some trip or stop is not served (once: every
        routing question asks)."""
        tt = self.base
        return bool(self.cancelled.any() or self.skipped.any()
                    or (tt is not None and (np.any(self.arr != tt.st_arr) or np.any(self.dep != tt.st_dep))))

    def arrival_delay(self, row: int) -> int | None:
        """Predicted minus timetable arrival at ``row`` in seconds (None: no prediction)."""
        return int(self.arr[row] - self.base.st_arr[row]) if self.arr_known[row] else None

    def departure_delay(self, row: int) -> int | None:
        """Predicted minus timetable departure at ``row`` in seconds (None: no prediction)."""
        return int(self.dep[row] - self.base.st_dep[row]) if self.dep_known[row] else None

    def age(self, at: int) -> int | None:
        """Seconds between the feed's timestamp and POSIX time ``at`` (None: the feed has no timestamp)."""
        return int(at - self.timestamp) if self.timestamp else None

    def summary(self, at: int) -> dict:
        """``{source, age_s, stale, trips_matched, trips_unknown, ...}`` as answers carry it (``at``: the POSIX
        time the answer is for: now on the game day, else the asked time on the game day)."""
        age = self.age(at)
        return {"source": self.source, "age_s": age, "stale": age is None or abs(age) > STALE_SECONDS,
                "timestamp": self.timestamp or None, **self.counts}

    @cached_property
    def timetable(self) -> Timetable:
        """The game day on predicted times: the same arrays but times, with cancelled trips and skipped stops
        neither boarding nor alighting (what the real-time network routes on)."""
        tt = self.base
        off_rows = self.skipped | np.repeat(self.cancelled, np.diff(tt.trip_offset))
        out = replace(tt, st_arr=self.arr, st_dep=self.dep, st_pickup=tt.st_pickup & ~off_rows,
                      st_dropoff=tt.st_dropoff & ~off_rows)
        for name in _SHARED_CACHES:
            if name in tt.__dict__:
                out.__dict__[name] = tt.__dict__[name]
        return out


class _Ids:
    """The day's trip, stop and station ids as byte buffers with offsets, and a hash table of the trip ids:
    what :func:`planner.realtime.match.apply_updates` compares feed bytes with (built once per timetable)."""

    def __init__(self, tt: Timetable):
        self.trip = _packed(tt.trip_id)
        self.stop = _packed(tt.stop_id)
        self.station = _packed(tt.station_id)
        self.trip_table = match.build_table(*self.trip)
        self.stop = (*self.stop, match.hashes(*self.stop)[tt.st_stop])  # the hash of each row's stop
        self.station = (*self.station, match.hashes(*self.station))


def _packed(ids: list[str]) -> tuple[np.ndarray, np.ndarray]:
    raw = [s.encode() for s in ids]
    off = np.zeros(len(raw) + 1, np.int64)
    np.cumsum([len(b) for b in raw], out=off[1:])
    return np.frombuffer(b"".join(raw), np.uint8) if raw else np.zeros(0, np.uint8), off


def _ids(tt: Timetable) -> _Ids:
    ids = tt.__dict__.get("_rt_ids")
    if ids is None:
        ids = tt.__dict__["_rt_ids"] = _Ids(tt)
    return ids


def apply(tt: Timetable, feed: FeedData, date: dt.date) -> Overlay:
    """The overlay of ``feed`` on the game day ``tt`` of ``date`` (module docstring); never fails on content."""
    ids = _ids(tt)
    n = len(tt.st_stop)
    arr, dep = tt.st_arr.copy(), tt.st_dep.copy()
    arr_known, dep_known, skipped = np.zeros(n, bool), np.zeros(n, bool), np.zeros(n, bool)
    cancelled = np.zeros(tt.n_trips, bool)
    c = np.zeros(match.N_COUNTS, np.int64)
    day = np.frombuffer(date.strftime("%Y%m%d").encode(), np.uint8)
    trips = match.match_trips(feed.buf, feed.tu, day, ids.trip_table, *ids.trip, c)
    match.apply_updates(feed.buf, feed.tu, feed.su, trips, np.argsort(trips, kind="stable"), *ids.stop, *ids.station,
                        tt.st_stop, tt.stop_station, tt.trip_offset, tt.st_arr, tt.st_dep,
                        np.int64(service_day_start(date)), arr, dep, arr_known, dep_known, skipped, cancelled, c)
    counts = {"trip_updates": int(len(feed.tu)), "trips_matched": int(c[match.C_MATCHED]),
              "trips_unknown": int(c[match.C_UNKNOWN]), "trips_other_date": int(c[match.C_OTHER_DATE]),
              "trips_cancelled": int(c[match.C_CANCELLED]), "trips_unsupported": int(c[match.C_UNSUPPORTED]),
              "stop_updates": int(len(feed.su)), "stops_unplaced": int(c[match.C_UNPLACED]),
              "times_implausible": int(c[match.C_IMPLAUSIBLE]),
              "stops_skipped": int(np.count_nonzero(skipped))}
    return Overlay(feed.source, feed.timestamp, date, arr, dep, arr_known, dep_known, skipped, cancelled,
                   counts, tt)
