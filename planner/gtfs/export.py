"""The pruned game day as a GTFS feed (a ``gtfs_kit.Feed``), for ``planner export`` and other GTFS tools.

gtfs-kit loads whole tables into pandas, so it is used here, on the pruned day (thousands of rows), never
on the national feed. Every file and column written is one of the schema table's
(:mod:`planner.gtfs.schema`), in its order. One station becomes a ``location_type`` 1 stop
(``Parent<UIC>``); platforms keep their ids. The exported zip reads back into the same timetable (tested).
"""

from __future__ import annotations

import datetime as dt
import os
import tempfile
from pathlib import Path

import gtfs_kit as gk
import numpy as np
import pandas as pd

from planner.gtfs.schema import FILES
from planner.timetable.model import Timetable
from planner.util.atomic import public_mode


def _hms(sec: np.ndarray) -> list[str]:
    return [f"{s // 3600:02d}:{s % 3600 // 60:02d}:{s % 60:02d}" for s in sec.tolist()]


def _table(name: str, columns: dict) -> pd.DataFrame:
    """A frame of the schema's file ``name``: the given columns in the schema's order (an undeclared
    column is a programming error: :meth:`GtfsFile.column` raises)."""
    spec = FILES[name]
    for c in columns:
        spec.column(c)
    return pd.DataFrame({c: columns[c] for c in spec.names() if c in columns})


def to_feed(tt: Timetable) -> gk.Feed:
    """The timetable as a ``gtfs_kit.Feed`` with one service (``day``) running on ``tt.date``."""
    ymd = tt.date.replace("-", "")
    parents = _table("stops.txt", {
        "stop_id": [f"Parent{s}" for s in tt.station_id], "stop_name": tt.station_name,
        "stop_lat": tt.station_lat, "stop_lon": tt.station_lon, "location_type": 1, "parent_station": "",
        "platform_code": "",
    })
    platforms = _table("stops.txt", {
        "stop_id": tt.stop_id, "stop_name": [tt.station_name[s] for s in tt.stop_station],
        "stop_lat": tt.station_lat[tt.stop_station], "stop_lon": tt.station_lon[tt.stop_station],
        "location_type": 0, "parent_station": [f"Parent{tt.station_id[s]}" for s in tt.stop_station],
        "platform_code": tt.stop_platform,
    })
    agencies = sorted(set(tt.route_agency))
    aid = {a: f"a{i}" for i, a in enumerate(agencies)}
    routes = _table("routes.txt", {
        "route_id": tt.route_id, "agency_id": [aid[a] for a in tt.route_agency], "route_short_name": tt.route_name,
        "route_long_name": "", "route_type": tt.route_type,
    })
    # segments of one feed trip cut by the area ("id#2") become trips of their own
    trips = _table("trips.txt", {
        "route_id": [tt.route_id[r] for r in tt.trip_route], "service_id": "day", "trip_id": tt.trip_id,
        "trip_headsign": tt.trip_headsign, "trip_short_name": tt.trip_short_name,
    })
    seq = np.arange(len(tt.st_stop)) - np.repeat(tt.trip_offset[:-1], np.diff(tt.trip_offset))
    stop_times = _table("stop_times.txt", {
        "trip_id": [tt.trip_id[t] for t in tt.st_trip], "arrival_time": _hms(tt.st_arr),
        "departure_time": _hms(tt.st_dep), "stop_id": [tt.stop_id[s] for s in tt.st_stop],
        "stop_sequence": seq + 1, "pickup_type": np.where(tt.st_pickup, 0, 1),
        "drop_off_type": np.where(tt.st_dropoff, 0, 1),
    })
    pairs = _table("transfers.txt", {
        "from_stop_id": [tt.stop_id[a] for a in tt.xfer_from], "to_stop_id": [tt.stop_id[b] for b in tt.xfer_to],
        "transfer_type": np.where(tt.xfer_seconds < 0, 3, 2),
        "min_transfer_time": np.where(tt.xfer_seconds < 0, 0, tt.xfer_seconds),
    })
    # a station's default change time, as the Swiss feed writes it: station stop -> each platform
    with_default = np.flatnonzero(tt.station_change[tt.stop_station] >= 0)
    defaults = _table("transfers.txt", {
        "from_stop_id": [f"Parent{tt.station_id[tt.stop_station[p]]}" for p in with_default],
        "to_stop_id": [tt.stop_id[p] for p in with_default], "transfer_type": 2,
        "min_transfer_time": tt.station_change[tt.stop_station[with_default]],
    })
    transfers = pd.concat([pairs, defaults], ignore_index=True)
    d = dt.date.fromisoformat(tt.date)
    return gk.Feed(
        dist_units="km",
        agency=_table("agency.txt", {"agency_id": [aid[a] for a in agencies], "agency_name": agencies,
                             "agency_url": "https://opentransportdata.swiss", "agency_timezone": "Europe/Zurich"}),
        stops=pd.concat([parents, platforms], ignore_index=True), routes=routes, trips=trips,
        stop_times=stop_times, transfers=transfers,
        calendar_dates=_table("calendar_dates.txt", {"service_id": ["day"], "date": [ymd], "exception_type": [1]}),
        feed_info=_table("feed_info.txt", {"feed_publisher_name": ["sbb-planner (pruned from opentransportdata.swiss)"],
                                "feed_publisher_url": ["https://opentransportdata.swiss"], "feed_lang": ["de"],
                                "feed_start_date": [ymd], "feed_end_date": [ymd],
                                "feed_version": [f"{tt.feed_version} {tt.meta.get('game', '')} {d}"]}),
    )


def write_feed(tt: Timetable, path: str | Path) -> Path:
    """Write the pruned day as a GTFS zip (written to a temporary name, then renamed)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.stem}.", suffix=".zip", dir=path.parent)
    os.fchmod(fd, public_mode())  # an export is for people and other tools, not 0600
    os.close(fd)
    try:
        to_feed(tt).to_file(Path(tmp))
        os.replace(tmp, path)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError) and exc.filename in (None, tmp, str(tmp)):  # named as the file asked for
            raise OSError(exc.errno, exc.strerror or type(exc).__name__, str(path)) from exc
        raise
    return path
