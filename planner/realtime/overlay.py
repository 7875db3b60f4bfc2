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
platform; a platform the timetable does not plan there (a platform change) is matched by its station.
Updates with only a ``stop_sequence`` cannot be placed (the game day keeps no sequence numbers) and are
counted. Nothing here fails on bad content: unknown trips, other dates, unplaced stops are counted.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field, replace
from functools import cached_property
from zoneinfo import ZoneInfo

import numpy as np

from planner.realtime import wire
from planner.realtime.feed import FeedData
from planner.timetable.model import Timetable

ZURICH = ZoneInfo("Europe/Zurich")
STALE_SECONDS = 300  # older data than this is shown as stale (the feed is refreshed about every 30 s)

REL_SCHEDULED, REL_SKIPPED, REL_NO_DATA = 0, 1, 2
TRIP_CANCELED, TRIP_DELETED = 3, 7
TRIP_KEPT = (0, 5)  # SCHEDULED, REPLACEMENT: the trip as planned, with predictions
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

    @property
    def changes_anything(self) -> bool:
        """True when some time differs from the timetable or some trip or stop is not served."""
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


def empty_overlay(tt: Timetable, date: dt.date, source: str = "none", timestamp: int = 0,
                  counts: dict | None = None) -> Overlay:
    """An overlay that predicts nothing (every time as planned)."""
    n = len(tt.st_stop)
    return Overlay(source, timestamp, date, tt.st_arr, tt.st_dep, np.zeros(n, bool), np.zeros(n, bool),
                   np.zeros(n, bool), np.zeros(tt.n_trips, bool), dict(counts or {}), tt)


class _Index:
    """Sorted byte-string ids of a timetable (trip ids, stop ids, station ids, (trip, stop) rows), built once
    per timetable (cached on it) so that one feed is matched with vectorised searches."""

    def __init__(self, tt: Timetable):
        self.trip = _sorted_ids(tt.trip_id)
        self.stop = _sorted_ids(tt.stop_id)
        self.station = _sorted_ids(tt.station_id)
        st_trip = tt.st_trip.astype(np.int64)
        rows = np.arange(len(tt.st_stop), dtype=np.int64)
        stop_key = st_trip * max(1, tt.n_stops) + tt.st_stop
        sta_key = st_trip * max(1, tt.n_stations) + tt.stop_station[tt.st_stop]
        # first row per key (a trip calling twice at one stop: its first call)
        o = np.lexsort((rows, stop_key))
        self.stop_key, self.stop_row = stop_key[o], rows[o]
        o = np.lexsort((rows, sta_key))
        self.sta_key, self.sta_row = sta_key[o], rows[o]


def _sorted_ids(ids: list[str]) -> tuple[np.ndarray, np.ndarray]:
    arr = np.array([s.encode() for s in ids], dtype=bytes) if ids else np.zeros(0, "S1")
    order = np.argsort(arr, kind="stable")
    return arr[order], order


def _lookup(index: tuple[np.ndarray, np.ndarray], keys: np.ndarray) -> np.ndarray:
    """Positions of ``keys`` in a sorted id index (-1: absent)."""
    ids, order = index
    if not len(ids) or not len(keys):
        return np.full(len(keys), -1, np.int64)
    k = keys.astype(ids.dtype) if keys.dtype.itemsize <= ids.dtype.itemsize else keys
    pos = np.minimum(np.searchsorted(ids, k), len(ids) - 1)
    hit = ids[pos] == keys
    return np.where(hit, order[pos], -1).astype(np.int64)


def _key_lookup(keys_sorted: np.ndarray, rows_sorted: np.ndarray, keys: np.ndarray) -> np.ndarray:
    if not len(keys_sorted):
        return np.full(len(keys), -1, np.int64)
    pos = np.minimum(np.searchsorted(keys_sorted, keys), len(keys_sorted) - 1)
    return np.where(keys_sorted[pos] == keys, rows_sorted[pos], -1)


def _index(tt: Timetable) -> _Index:
    idx = tt.__dict__.get("_rt_index")
    if idx is None:
        idx = tt.__dict__["_rt_index"] = _Index(tt)
    return idx


def apply(tt: Timetable, feed: FeedData, date: dt.date) -> Overlay:
    """The overlay of ``feed`` on the game day ``tt`` of ``date`` (module docstring); never fails on content."""
    idx = _index(tt)
    tu, su = feed.tu, feed.su
    day = date.strftime("%Y%m%d").encode()
    live = tu[:, wire.TU_DELETED] == 0 if len(tu) else np.zeros(0, bool)
    dated = (feed.start_date == b"") | (feed.start_date == day)
    trip = _lookup(idx.trip, feed.trip_id)
    orig = _lookup(idx.trip, feed.original_trip_id)
    trip = np.where((trip < 0) & (feed.original_trip_id != b""), orig, trip)
    rel = tu[:, wire.TU_REL] if len(tu) else np.zeros(0, np.int64)
    ok = live & dated & (trip >= 0)
    cancel_tu = ok & ((rel == TRIP_CANCELED) | (rel == TRIP_DELETED))
    timed_tu = ok & np.isin(rel, TRIP_KEPT)
    cancelled = np.zeros(tt.n_trips, bool)
    cancelled[trip[cancel_tu]] = True
    counts = {"trip_updates": int(len(tu)), "trips_matched": int(np.count_nonzero(ok)),
              "trips_unknown": int(np.count_nonzero(live & dated & (trip < 0))),
              "trips_other_date": int(np.count_nonzero(live & ~dated)),
              "trips_cancelled": int(np.count_nonzero(cancel_tu)),
              "trips_unsupported": int(np.count_nonzero(ok & ~cancel_tu & ~timed_tu))}
    arr, dep, arr_known, dep_known, skipped, placed = _predict(tt, idx, feed, trip, timed_tu, date)
    counts["stop_updates"] = int(len(su))
    counts["stops_unplaced"] = int(placed[1])
    counts["stops_skipped"] = int(np.count_nonzero(skipped))
    return Overlay(feed.source, feed.timestamp, date, arr, dep, arr_known, dep_known, skipped, cancelled,
                   counts, tt)


def _predict(tt: Timetable, idx: _Index, feed: FeedData, trip: np.ndarray, timed_tu: np.ndarray,
             date: dt.date):
    """Predicted times per row from the stop-time updates of the trips in ``timed_tu`` (propagated)."""
    su = feed.su
    n = len(tt.st_stop)
    base = service_day_start(date)
    sched = np.empty(2 * n, np.int64)  # slots: 2r = arrival at row r, 2r + 1 = departure
    sched[0::2], sched[1::2] = tt.st_arr, tt.st_dep
    vals = np.zeros(2 * n, np.int64)
    known = np.zeros(2 * n, bool)
    nodata = np.zeros(2 * n, bool)
    skipped = np.zeros(n, bool)
    unplaced = 0
    if len(su):
        t_of = su[:, wire.SU_TU]
        use = timed_tu[t_of]
        t = trip[t_of]
        stop = _lookup(idx.stop, feed.stop_id)
        row = _key_lookup(idx.stop_key, idx.stop_row, np.where(stop >= 0, t * max(1, tt.n_stops) + stop, -1))
        # a platform not planned there (or unknown): its station (the stop's, or the UIC number before ':')
        sta = np.where(stop >= 0, tt.stop_station[np.maximum(stop, 0)], -1)
        uic = np.char.partition(feed.stop_id, b":")[:, 0] if len(feed.stop_id) else feed.stop_id
        sta = np.where(sta >= 0, sta, _lookup(idx.station, uic))
        by_sta = _key_lookup(idx.sta_key, idx.sta_row, np.where(sta >= 0, t * max(1, tt.n_stations) + sta, -1))
        row = np.where(row >= 0, row, by_sta)
        unplaced = int(np.count_nonzero(use & (row < 0)))
        m = use & (row >= 0)
        r = row[m]
        s = su[m]
        srel = s[:, wire.SU_REL]
        skipped[r[srel == REL_SKIPPED]] = True
        nd = r[srel == REL_NO_DATA]
        for slot, d_col in ((0, wire.SU_ARR_DELAY), (1, wire.SU_DEP_DELAY)):
            has_t = (s[:, d_col + 3] == 1) & (srel == REL_SCHEDULED)
            has_d = (s[:, d_col + 1] == 1) & (srel == REL_SCHEDULED) & ~has_t
            k = 2 * r + slot
            # an absolute time wins over a delay (it is what the delay was computed from)
            vals[k[has_t]] = s[has_t, d_col + 2] - base - sched[k[has_t]]
            vals[k[has_d]] = s[has_d, d_col]
            known[k[has_t | has_d]] = True
            known[2 * nd + slot] = True
            nodata[2 * nd + slot] = True
    # a trip-level delay alone (no stop-time update of that trip): from its first stop on
    tu = feed.tu
    if len(tu):
        alone = timed_tu & (tu[:, wire.TU_HAS_DELAY] == 1) & (tu[:, wire.TU_STU0] == tu[:, wire.TU_STU1])
        first = 2 * tt.trip_offset[trip[alone]]
        vals[first] = tu[alone, wire.TU_DELAY]
        known[first] = True
    # propagate forward within each trip: each slot takes the last known slot at or before it in its trip
    src = np.where(known, np.arange(2 * n), -1)
    np.maximum.accumulate(src, out=src)
    trip_start = 2 * np.repeat(tt.trip_offset[:-1], np.diff(tt.trip_offset))
    valid = src >= np.repeat(trip_start, 2)
    srcc = np.maximum(src, 0)
    has = valid & ~nodata[srcc]
    delay = np.where(has, vals[srcc], 0)
    pred = sched + delay
    # non-decreasing along each trip (offset each trip above the one before, running maximum, offset back)
    if n:
        lift = np.repeat(np.arange(tt.n_trips, dtype=np.int64), 2 * np.diff(tt.trip_offset)) * (1 << 32)
        pred = np.maximum.accumulate(pred - pred.min() + lift) - lift + pred.min()
    arr = pred[0::2].astype(np.int32)
    dep = pred[1::2].astype(np.int32)
    return arr, dep, has[0::2], has[1::2], skipped, (0, unplaced)
