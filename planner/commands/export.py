"""``planner export``: the game day written as GTFS. A module of its own because gtfs-kit, which the export
writes with, imports folium and geopandas: 225 ms of start-up (``python -X importtime``) that ``stations`` and
``feed-info`` never need."""

from __future__ import annotations

import argparse

from planner.commands.base import Context, emit
from planner.gtfs.export import write_feed
from planner.util.i18n import _


def cmd_export(args: argparse.Namespace) -> int:
    """Write the game day as GTFS (gtfs-kit)."""
    tt = Context(args).timetable
    path = write_feed(tt, args.out)
    emit(args, {"path": str(path), "trips": tt.n_trips, "stations": tt.n_stations},
         _("wrote {trips} trips at {stations} stations to {path}").format(trips=tt.n_trips, stations=tt.n_stations,
                                                                            path=path))
    return 0
