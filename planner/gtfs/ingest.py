"""Build the game-day :class:`~planner.timetable.Timetable` from a feed, pruning while reading.

Order (partridge-style): calendar -> services of the date; routes -> allowed modes; trips -> running trips
of allowed routes; stops -> stations in the area; then ``stop_times.txt`` is streamed in blocks and only
rows of running trips at in-area stops are kept. The whole ``stop_times`` never sits in memory.
"""

from __future__ import annotations

import datetime as dt
import sys
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from tqdm import tqdm

from planner.errors import FeedError
from planner.gamefile.area import in_area
from planner.gamefile.game import Game
from planner.gtfs.assemble import AreaStations, FeedDay, RouteColumns, assemble
from planner.gtfs.calendar import feed_period, services_on
from planner.gtfs.csvio import iter_batches, read_table
from planner.gtfs.routes import KEPT, feed_routes
from planner.gtfs.schema import FILES, Where, convert
from planner.gtfs.source import FeedSource
from planner.gtfs.stops import StopTable, read_stops
from planner.timetable.model import Mode, Timetable
from planner.util.i18n import _


@dataclass
class IngestStats:
    """What pruning kept (for logs and benchmarks)."""

    services: int = 0
    trips_running: int = 0
    stop_times_read: int = 0
    stop_times_kept: int = 0


def check_date(src: FeedSource, date: dt.date) -> str:
    """Raise :class:`FeedError` when ``date`` is outside the feed's period; return the feed version."""
    start, end, version = feed_period(src)
    if start and end and not (start <= date <= end):
        raise FeedError(_("date {date} is outside the feed {feed} ({first}..{last})").format(
            date=date.isoformat(), feed=src.label, first=start.isoformat(), last=end.isoformat()))
    return version


def build_timetable(src: FeedSource, game: Game, date: dt.date, *, progress: bool | None = None,
                    stats: IngestStats | None = None) -> Timetable:
    """Read ``src`` and return the timetable of ``game``'s area on ``date`` (see module docstring)."""
    stats = stats or IngestStats()
    version = check_date(src, date)
    services = services_on(src, date)
    if not services:  # an empty calendar (or a day it leaves out): nothing could be played, so no empty answers
        raise FeedError(_("feed {feed}: no service runs on {date} (its calendar has none that day)").format(
            feed=src.label, date=date.isoformat()))
    stats.services = len(services)
    routes = RouteColumns([r for r in feed_routes(src, game) if r.verdict == KEPT])
    trips, t_route = _running_trips(src, routes, services)
    stats.trips_running = trips.num_rows
    stops = read_stops(src)
    area = _area_stations(src, game, stops)
    cat, gaps = _stream_stop_times(src, trips, stops, area.stop_in, progress, stats)
    day = FeedDay(src, game, date, version, stops, area, trips, t_route, routes)
    return assemble(day, cat, gaps)


def _running_trips(src: FeedSource, routes: RouteColumns, services: set[str]) -> tuple[pa.Table, pa.Array]:
    """Trips running on the date on kept routes, and the index of each one's route."""
    trips = read_table(src, "trips.txt")
    t_route = pc.index_in(pc.utf8_trim_whitespace(trips["route_id"]), value_set=pa.array(routes.ids, pa.string()))
    t_serv = pc.is_in(pc.utf8_trim_whitespace(trips["service_id"]), value_set=pa.array(sorted(services), pa.string()))
    keep = pc.and_(t_route.is_valid(), t_serv)
    trips = trips.filter(keep)
    t_route = t_route.filter(keep)
    _no_duplicates(src, "trips.txt", "trip_id", pc.utf8_trim_whitespace(trips["trip_id"]))
    return trips, t_route


def _no_duplicates(src: FeedSource, file: str, column: str, values: pa.Array | pa.ChunkedArray) -> None:
    vc = pc.value_counts(values)
    if len(vc) and pc.max(vc.field("counts")).as_py() > 1:
        d = vc.filter(pc.greater(vc.field("counts"), 1))[0]["values"].as_py()
        raise FeedError(f"feed {src.label}: {file} column {column}: {d!r} appears more than once")


def _area_stations(src: FeedSource, game: Game, stops: StopTable) -> AreaStations:
    keys, of_stop = np.unique(stops.station.astype(str), return_inverse=True)
    n = len(keys)
    lat, lon, name = np.full(n, np.nan), np.full(n, np.nan), [""] * n
    # station coordinates/name: the station row when present, else the first member with coordinates
    order = np.lexsort((~stops.is_station_row, of_stop))
    for i in order[::-1]:
        k = of_stop[i]
        if np.isfinite(stops.lat[i]):
            lat[k], lon[k] = stops.lat[i], stops.lon[i]
        if stops.name[i]:
            name[k] = stops.name[i]
    _no_duplicates(src, "stops.txt", "stop_id", pa.array(stops.stop_id.astype(str).tolist(), pa.string()))
    return AreaStations(keys, of_stop, name, lat, lon, in_area(game, lat, lon, list(keys))[of_stop])


def _stream_stop_times(src: FeedSource, trips: pa.Table, stops: StopTable, stop_in: np.ndarray, progress,
                       stats: IngestStats) -> tuple[dict[str, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """Rows of running trips at in-area stops (columns trip, seq, stop, arr, dep, pu, do, line), and the
    (trip, stop_sequence) of rows outside the area, where a trip is cut."""
    spec = FILES["stop_times.txt"]
    bar = _progress(src, progress)
    kept: dict[str, list[np.ndarray]] = {k: [] for k in ("trip", "seq", "stop", "arr", "dep", "pu", "do", "line")}
    gap_trip: list[np.ndarray] = []
    gap_seq: list[np.ndarray] = []
    # Lookups by dict on each batch's distinct values: pc.index_in would rebuild a hash table of all
    # running trips for every block of stop_times.
    trip_pos = {t: i for i, t in enumerate(pc.utf8_trim_whitespace(trips["trip_id"]).to_pylist())}
    stop_pos = {t: i for i, t in enumerate(stops.stop_id.astype(str).tolist())}
    try:
        for line0, batch in iter_batches(src, "stop_times.txt", progress=bar):
            stats.stop_times_read += batch.num_rows
            ti = _lookup(batch.column("trip_id"), trip_pos)
            idx = np.flatnonzero(ti >= 0)
            if not len(idx):
                continue
            sub = batch.take(pa.array(idx))
            where = Where(src.label, "stop_times.txt", line0 + idx)
            tix = ti[idx]
            six = _lookup(sub.column("stop_id"), stop_pos)
            if (six < 0).any():
                j = int(np.flatnonzero(six < 0)[0])
                raise where.error(j, "stop_id", f"{sub.column('stop_id')[j].as_py()!r} is not in stops.txt")
            seq = convert(sub.column("stop_sequence"), spec, "stop_sequence", where)
            inside = stop_in[six]
            if (~inside).any():
                gap_trip.append(tix[~inside])
                gap_seq.append(seq[~inside])
            w = np.flatnonzero(inside)
            if not len(w):
                continue
            sub = sub.take(pa.array(w))
            wh = Where(src.label, "stop_times.txt", where.lines[w])
            conv = {c: convert(sub.column(c), spec, c, wh)
                    for c in ("arrival_time", "departure_time", "pickup_type", "drop_off_type")}
            for k, v in (("trip", tix[w]), ("seq", seq[w]), ("stop", six[w]), ("arr", conv["arrival_time"]),
                         ("dep", conv["departure_time"]), ("pu", conv["pickup_type"] != 1),
                         ("do", conv["drop_off_type"] != 1), ("line", wh.lines)):
                kept[k].append(v)
    finally:
        if bar is not None:
            bar.close()
    cat: dict[str, np.ndarray] = {}
    for k in list(kept):  # concatenate one column at a time, dropping its pieces (lower peak memory)
        parts = kept.pop(k)
        cat[k] = np.concatenate(parts) if parts else np.zeros(0, np.int64)
        del parts
    stats.stop_times_kept = len(cat["trip"])
    g_trip = np.concatenate(gap_trip) if gap_trip else np.zeros(0, np.int32)
    g_seq = np.concatenate(gap_seq) if gap_seq else np.zeros(0, np.int64)
    return cat, (g_trip, g_seq)


def _lookup(col: pa.Array, pos: dict[str, int]) -> np.ndarray:
    """Index in ``pos`` of every (blank-trimmed) value of ``col``; -1 when absent or null."""
    enc = pc.dictionary_encode(col)
    keys = pc.utf8_trim_whitespace(enc.dictionary).to_pylist()
    codes = np.array([pos.get(k, -1) if k is not None else -1 for k in keys] + [-1], np.int32)
    ix = enc.indices.fill_null(len(keys)).to_numpy(zero_copy_only=False)
    return codes[ix]


def _progress(src: FeedSource, progress: bool | None):
    if progress is None:
        progress = sys.stderr.isatty()
    if not progress:
        return None
    return tqdm(total=src.size("stop_times.txt"), unit="B", unit_scale=True, desc="stop_times", file=sys.stderr,
                leave=False)


__all__ = ["build_timetable", "check_date", "IngestStats", "Mode"]
