"""``planner feed-info``, ``planner feed download``, ``planner stations``."""

from __future__ import annotations

import argparse

from planner.commands import argtypes
from planner.commands.base import Context, add_common, emit
from planner.util.table import format_table


def register(sub: argparse._SubParsersAction) -> None:
    """Add the feed commands."""
    p = sub.add_parser("feed-info", help="what a feed holds (and on a date)")
    add_common(p, game=False)
    p.set_defaults(func=cmd_feed_info)

    p = sub.add_parser("feed", help="feed sources: download the official Swiss feed")
    fsub = p.add_subparsers(dest="feed_command", metavar="ACTION")
    d = fsub.add_parser("download", help="download the current official GTFS feed (opentransportdata.swiss)")
    d.add_argument("--url", type=argtypes.url, help="a direct URL of a GTFS zip (default: found from the dataset page)")
    d.add_argument("--out", type=argtypes.out_folder, help="folder (default: feeds/)")
    d.add_argument("--json", action="store_true")
    d.set_defaults(func=cmd_download)

    p = sub.add_parser("export", help="write the pruned game day as a GTFS zip (for other GTFS tools)")
    add_common(p)
    p.add_argument("--out", type=argtypes.out_file, required=True, help="path of the zip to write")
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("stations", help="in-area stations served on the day, with price and letter")
    add_common(p)
    p.set_defaults(func=cmd_stations)


def cmd_feed_info(args: argparse.Namespace) -> int:
    """Print feed version, period and counts (and services/trips on --date)."""
    from planner.gtfs.feedinfo import feed_info
    from planner.gtfs.source import FeedSource

    ctx = Context(args)
    date = ctx.date if args.date else None
    info = feed_info(FeedSource(ctx.feed), date)
    emit(args, info, "\n".join(f"{k:18} {v}" for k, v in info.items()))
    return 0


def cmd_download(args: argparse.Namespace) -> int:
    """Download the official feed (resumable)."""
    from planner.gtfs.download import download

    path = download(args.url, out_dir=args.out, progress=None if not args.json else False)
    emit(args, {"path": str(path)}, f"feed saved to {path}")
    return 0


def cmd_stations(args: argparse.Namespace) -> int:
    """List the game's stations with category, price and letter."""
    from planner.game.prices import station_table

    ctx = Context(args)
    rows = station_table(ctx.timetable, ctx.game)
    emit(args, rows, format_table(rows, ["name", "category", "price", "letter", "modes", "station_id"]))
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    """Write the game day as GTFS (gtfs-kit)."""
    from planner.gtfs.export import write_feed

    ctx = Context(args)
    tt = ctx.timetable
    path = write_feed(tt, args.out)
    emit(args, {"path": str(path), "trips": tt.n_trips, "stations": tt.n_stations},
         f"wrote {tt.n_trips} trips at {tt.n_stations} stations to {path}")
    return 0
