"""Feed summary for ``planner feed-info`` (streams stop_times only when counting trips on a date)."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from planner.gtfs.calendar import feed_period, services_on
from planner.gtfs.csvio import iter_batches, read_table
from planner.gtfs.ingest import check_date
from planner.gtfs.schema import FILES, Where, convert
from planner.gtfs.source import FeedSource
from planner.gtfs.stops import read_stops

_TIMES = ["trip_id", "arrival_time", "departure_time", "stop_id", "stop_sequence"]


def feed_info(src: FeedSource, date: dt.date | None = None) -> dict:
    """``feed_version, start_date, end_date, stops, stations, routes, trips`` (+ ``_on_date`` counts)."""
    start, end, version = feed_period(src)
    check_stop_times(src)
    stops = read_stops(src)
    n_routes = sum(b.num_rows for _, b in iter_batches(src, "routes.txt", ["route_id"]))
    trips = read_table(src, "trips.txt", ["service_id"])
    info = {
        "feed_version": version,
        "start_date": start.isoformat() if start else None,
        "end_date": end.isoformat() if end else None,
        "stops": int(len(stops.stop_id)),
        "stations": int(len(set(stops.station.tolist()))),
        "routes": int(n_routes),
        "trips": int(trips.num_rows),
    }
    if date is not None:
        check_date(src, date)
        services = services_on(src, date)
        on = pc.is_in(pc.utf8_trim_whitespace(trips["service_id"]), value_set=pa.array(sorted(services), pa.string()))
        info["services_on_date"] = len(services)
        info["trips_on_date"] = int(pc.sum(on).as_py() or 0)
    return info


def check_stop_times(src: FeedSource) -> None:
    """Stream ``stop_times.txt`` once and raise :class:`FeedError` (file, line, column) when it is missing,
    lacks a column, or holds a time that is not H:MM:SS or out of range: a summary of a broken feed
    must not look like a good one."""
    for line0, batch in iter_batches(src, "stop_times.txt", _TIMES):
        where = Where(src.label, "stop_times.txt", np.arange(line0, line0 + batch.num_rows))
        for col in ("arrival_time", "departure_time"):
            convert(batch.column(col), FILES["stop_times.txt"], col, where)
