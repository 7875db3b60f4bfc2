"""Feed summary for ``planner feed-info`` (streams stop_times only when counting trips on a date)."""

from __future__ import annotations

import datetime as dt

import pyarrow as pa
import pyarrow.compute as pc

from planner.gtfs.calendar import feed_period, services_on
from planner.gtfs.csvio import iter_batches, read_table
from planner.gtfs.source import FeedSource
from planner.gtfs.stops import read_stops


def feed_info(src: FeedSource, date: dt.date | None = None) -> dict:
    """``feed_version, start_date, end_date, stops, stations, routes, trips`` (+ ``_on_date`` counts)."""
    start, end, version = feed_period(src)
    stops = read_stops(src)
    n_routes = sum(b.num_rows for _, b in iter_batches(src, "routes.txt", ["route_id"]))
    trips = read_table(src, "trips.txt", ["service_id"], required=["service_id"])
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
        from planner.gtfs.ingest import check_date

        check_date(src, date)
        services = services_on(src, date)
        on = pc.is_in(pc.utf8_trim_whitespace(trips["service_id"]), value_set=pa.array(sorted(services), pa.string()))
        info["services_on_date"] = len(services)
        info["trips_on_date"] = int(pc.sum(on).as_py() or 0)
    return info
