"""The pruned game day as GTFS (gtfs-kit): statistics, and an export that reads back identically."""

from __future__ import annotations

import numpy as np

from planner.gamefile.game import load_game
from planner.gtfs.export import stop_stats, write_feed
from planner.gtfs.ingest import build_timetable
from planner.gtfs.source import FeedSource
from tests.conftest import DEMO_DATE


def test_export_round_trip(zug_tt, tmp_path):
    path = write_feed(zug_tt, tmp_path / "day.zip")
    back = build_timetable(FeedSource(path), load_game("sbb-monopoly"), DEMO_DATE, progress=False)
    assert back.station_id == zug_tt.station_id and back.trip_id == zug_tt.trip_id
    assert back.stop_id == zug_tt.stop_id and back.station_name == zug_tt.station_name
    for f in ("st_stop", "st_arr", "st_dep", "st_pickup", "st_dropoff", "trip_offset", "station_change",
              "xfer_from", "xfer_to", "xfer_seconds"):
        assert np.array_equal(getattr(back, f), getattr(zug_tt, f)), f


def test_gtfs_kit_stop_stats(zug_tt):
    s = stop_stats(zug_tt)
    wohlen = s[s.stop_id.str.startswith("8502213")]
    # Wohlen AG is served by the S26 both ways all day; first departure 05:xx, last after 23:00
    assert wohlen.num_trips.sum() > 30
    assert wohlen.start_time.min() < "07:00:00" and wohlen.end_time.max() > "23:00:00"
