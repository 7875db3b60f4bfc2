"""The pruned game day as GTFS (gtfs-kit): an export that reads back identically, written in the schema's
files and columns. The day is the real-time demo's (tests/support/inline_day.py) with feed transfers at Zug and
Rotkreuz (their stations' change times); it has no transfers between platforms, which the Zug extract's day had."""

from __future__ import annotations

import csv
import io
import zipfile

import numpy as np
import pytest

from planner.gamefile.game import load_game
from planner.gtfs.export import write_feed
from planner.gtfs.ingest import build_timetable
from planner.gtfs.schema import FILES
from planner.gtfs.source import FeedSource
from tests.support.inline_day import STATIONS, demo_day

TRANSFERS = "from_stop_id,to_stop_id,transfer_type,min_transfer_time\n" + "".join(
    f"{STATIONS[n][0]},{STATIONS[n][0]},2,{secs}\n" for n, secs in (("Zug", 180), ("Rotkreuz", 240)))


@pytest.fixture
def zug_tt(tmp_path):
    tt = demo_day(tmp_path / "day", transfers=TRANSFERS).timetable
    assert (tt.station_change >= 0).sum() == 2 and tt.n_trips > 100  # the two stations' own change times
    return tt


def test_export_round_trip(zug_tt, tmp_path, demo_date):
    path = write_feed(zug_tt, tmp_path / "day.zip")
    back = build_timetable(FeedSource(path), load_game("sbb-monopoly"), demo_date, progress=False)
    assert back.station_id == zug_tt.station_id and back.trip_id == zug_tt.trip_id
    assert back.stop_id == zug_tt.stop_id and back.station_name == zug_tt.station_name
    for f in ("st_stop", "st_arr", "st_dep", "st_pickup", "st_dropoff", "trip_offset", "station_change",
              "xfer_from", "xfer_to", "xfer_seconds"):
        assert np.array_equal(getattr(back, f), getattr(zug_tt, f)), f


def test_export_writes_the_schema_files_and_columns_in_order(zug_tt, tmp_path):
    with zipfile.ZipFile(write_feed(zug_tt, tmp_path / "day.zip")) as z:
        headers = {n: next(csv.reader(io.TextIOWrapper(z.open(n), "utf-8-sig"))) for n in z.namelist()}
    assert set(headers) <= set(FILES)
    assert {"stops.txt", "routes.txt", "trips.txt", "stop_times.txt", "transfers.txt"} <= set(headers)
    for name, cols in headers.items():
        declared = FILES[name].names()
        assert cols == [c for c in declared if c in cols], name  # declared columns only, in schema order
        assert set(FILES[name].required(declared)) <= set(cols), name
