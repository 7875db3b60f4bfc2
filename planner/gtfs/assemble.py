"""The kept ``stop_times`` rows of the game day, put in order and cut into trips: the :class:`Timetable`.

A trip that leaves the area is cut there into segments (``t``, ``t#2``, ...); a segment with fewer than two
stops is dropped. Times are checked on the kept rows only (file, line and column in every error).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from planner.errors import FeedError
from planner.gamefile.game import Game
from planner.gtfs.routes import FeedRoute, classify_category, display_name
from planner.gtfs.source import FeedSource
from planner.gtfs.stops import StopTable
from planner.gtfs.transfers import read_transfers
from planner.timetable.model import Timetable


@dataclass
class AreaStations:
    """The feed's stations (one per place), their name and position, and which stops lie in the area."""

    keys: np.ndarray  # station key of each station
    of_stop: np.ndarray  # station index of each feed stop
    name: list[str]
    lat: np.ndarray
    lon: np.ndarray
    stop_in: np.ndarray  # bool per feed stop


class RouteColumns:
    """The kept routes as the parallel lists the timetable stores."""

    def __init__(self, kept: list[FeedRoute]) -> None:
        self.ids = [r.route_id for r in kept]
        self.names = [display_name(r.short, r.long, r.desc, r.route_type) for r in kept]
        self.types = [r.route_type for r in kept]
        self.modes = [int(r.mode) for r in kept]
        self.categories = [classify_category(r.route_type, r.desc) for r in kept]
        self.agencies = [r.agency for r in kept]


@dataclass
class FeedDay:
    """What the ingest read: the feed, game and date, the stops, stations, running trips and kept routes."""

    src: FeedSource
    game: Game
    date: dt.date
    version: str
    stops: StopTable
    area: AreaStations
    trips: pa.Table  # running trips of kept routes
    trip_route: pa.Array  # index into ``routes`` of each running trip
    routes: RouteColumns


def assemble(day: FeedDay, cat: dict[str, np.ndarray], gaps: tuple[np.ndarray, np.ndarray]) -> Timetable:
    """The timetable from the kept rows ``cat`` (columns trip, seq, stop, arr, dep, pu, do, line) and the
    ``(trip, stop_sequence)`` of the rows outside the area (``gaps``)."""
    row, seg = _rows_in_order(day, cat, *gaps)
    arr, dep = _checked_times(day.src, cat["arr"][row].astype(np.int32), cat["dep"][row].astype(np.int32), seg,
                              cat["line"][row])
    seg_start = np.ones(len(seg), bool)
    if len(seg):
        seg_start[1:] = seg[1:] != seg[:-1]
    seg_first = np.flatnonzero(seg_start)
    seg_trip = cat["trip"][row[seg_first]].astype(np.int64)
    t_ids, t_heads, t_shorts = _segment_names(day.trips, seg_trip)
    t_routes = day.trip_route.to_numpy(zero_copy_only=False)[seg_trip].astype(np.int64)
    # dense stops and stations actually used (np.unique by marking: stop indexes are small)
    st_stop_feed = cat["stop"][row].astype(np.int64)
    stops, area = day.stops, day.area
    mark = np.zeros(len(stops.stop_id), bool)
    mark[st_stop_feed] = True
    used_stops = np.flatnonzero(mark)
    used_sta, stop_station = np.unique(area.of_stop[used_stops], return_inverse=True)
    x = read_transfers(day.src, day.game, stops, area.of_stop, used_stops, used_sta)
    used_routes, trip_route = np.unique(t_routes, return_inverse=True)
    ur = [int(r) for r in used_routes]
    rc = day.routes
    tt = Timetable(
        date=day.date.isoformat(), feed_version=day.version,
        station_id=[str(area.keys[k]) for k in used_sta], station_name=[area.name[k] for k in used_sta],
        station_lat=area.lat[used_sta].astype(float), station_lon=area.lon[used_sta].astype(float),
        station_change=x.station_change,
        stop_id=[str(stops.stop_id[f]) for f in used_stops], stop_station=stop_station.astype(np.int32),
        stop_platform=[str(stops.platform[f]) for f in used_stops],
        route_id=[rc.ids[r] for r in ur], route_name=[rc.names[r] for r in ur],
        route_type=np.array([rc.types[r] for r in ur], np.int32),
        route_mode=np.array([rc.modes[r] for r in ur], np.int8),
        route_category=[rc.categories[r] for r in ur], route_agency=[rc.agencies[r] for r in ur],
        trip_id=t_ids, trip_route=trip_route.astype(np.int32), trip_headsign=t_heads, trip_short_name=t_shorts,
        trip_offset=np.append(seg_first, len(seg)).astype(np.int64),
        st_stop=((np.cumsum(mark) - 1)[st_stop_feed]).astype(np.int32), st_arr=arr, st_dep=dep,
        st_pickup=cat["pu"][row].astype(bool), st_dropoff=cat["do"][row].astype(bool),
        xfer_from=x.pair_from, xfer_to=x.pair_to, xfer_seconds=x.pair_seconds, link_from=x.link_from,
        link_to=x.link_to, link_seconds=x.link_seconds, meta={"feed": day.src.label, "game": day.game.name},
    )
    tt.validate()
    return tt


def _rows_in_order(day: FeedDay, cat: dict[str, np.ndarray], g_trip: np.ndarray,
                   g_seq: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Indexes into ``cat`` in trip and stop order, and each one's segment (a run of in-area rows of one
    trip; segments of fewer than two stops dropped)."""
    n = len(cat["trip"])
    trip = np.concatenate([cat["trip"].astype(np.int64), g_trip.astype(np.int64)])
    seq = np.concatenate([cat["seq"].astype(np.int64), g_seq.astype(np.int64)])
    is_gap = np.concatenate([np.zeros(n, bool), np.ones(len(g_trip), bool)])
    if len(trip) and not len(g_trip) and _sorted_by(trip, seq):
        order = np.arange(len(trip))  # what the (stable) lexsort gives for rows already in order
    else:
        order = np.lexsort((seq, trip))
    trip, seq, is_gap = trip[order], seq[order], is_gap[order]
    same = (trip[1:] == trip[:-1]) & (seq[1:] == seq[:-1])
    if same.any():
        j = int(np.flatnonzero(same)[0])
        raise FeedError(f"feed {day.src.label}: stop_times.txt column stop_sequence: trip "
                        f"{day.trips['trip_id'][int(trip[j])].as_py()!r} has stop_sequence {int(seq[j])} twice")
    new_seg = np.ones(len(trip), bool)
    if len(trip):
        new_seg[1:] = (trip[1:] != trip[:-1]) | is_gap[:-1]
    seg = np.cumsum(new_seg) - 1
    real = ~is_gap
    row = order[real] if n else np.zeros(0, np.int64)
    seg = seg[real]
    del trip, seq, is_gap, order, same, new_seg, real  # large temporaries (national feed: tens of MB each)
    if len(seg):
        ok = np.bincount(seg)[seg] >= 2  # seg is non-decreasing and small
        row, seg = row[ok], seg[ok]
    return row, seg


def _checked_times(src: FeedSource, arr: np.ndarray, dep: np.ndarray, seg: np.ndarray,
                   lines: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Arrival and departure of each row (a missing one is the other), checked to run forwards."""
    def fail(j: int, column: str, why: str) -> FeedError:
        return FeedError(f"feed {src.label}: stop_times.txt line {int(lines[j])} column {column}: {why}")

    both = (arr < 0) & (dep < 0)
    if both.any():
        raise fail(int(np.flatnonzero(both)[0]), "arrival_time",
                   "no arrival or departure time (untimed stops are not supported)")
    arr = np.where(arr < 0, dep, arr)
    dep = np.where(dep < 0, arr, dep)
    if (dep < arr).any():
        raise fail(int(np.flatnonzero(dep < arr)[0]), "departure_time", "departure before arrival")
    same_seg = seg[1:] == seg[:-1] if len(seg) else np.zeros(0, bool)
    back = same_seg & (arr[1:] < dep[:-1])
    if back.any():
        raise fail(int(np.flatnonzero(back)[0]) + 1, "arrival_time", "arrives before the previous stop's departure")
    return arr, dep


def _segment_names(trips: pa.Table, seg_trip: np.ndarray) -> tuple[list[str], list[str], list[str]]:
    """Trip id, headsign and short name of each segment; a trip's second segment is ``id#2`` (segments of
    a trip are adjacent)."""
    take = pa.array(seg_trip)
    first_of_trip = np.ones(len(seg_trip), bool)
    first_of_trip[1:] = seg_trip[1:] != seg_trip[:-1]
    start = np.flatnonzero(first_of_trip)
    occurrence = np.arange(len(seg_trip)) - np.repeat(start, np.diff(np.append(start, len(seg_trip))))
    ids = [t.strip() if k == 0 else f"{t.strip()}#{k + 1}"
           for t, k in zip(trips["trip_id"].take(take).to_pylist(), occurrence.tolist(), strict=True)]
    heads = [(h or "").strip() for h in trips["trip_headsign"].take(take).to_pylist()]
    shorts = [(h or "").strip() for h in trips["trip_short_name"].take(take).to_pylist()]
    return ids, heads, shorts


def _sorted_by(trip: np.ndarray, seq: np.ndarray) -> bool:
    """True when rows are ordered by trip, then stop_sequence (the usual file order)."""
    dt_ = np.diff(trip)
    return bool((dt_ >= 0).all() and (seq[1:][dt_ == 0] >= seq[:-1][dt_ == 0]).all())
