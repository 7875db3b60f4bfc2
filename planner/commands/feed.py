"""``planner feed-info``, ``planner feed download``, ``planner stations``."""

from __future__ import annotations

import argparse

from planner.commands.base import Context, emit
from planner.game.prices import station_table
from planner.gtfs.download import download
from planner.gtfs.feedinfo import feed_info
from planner.gtfs.source import FeedSource
from planner.util.i18n import _
from planner.util.table import format_table


def cmd_feed_info(args: argparse.Namespace) -> int:
    """Print feed version, period and counts (and services/trips on --date)."""
    ctx = Context(args)
    date = ctx.date if args.date else None
    info = feed_info(FeedSource(ctx.feed), date)
    emit(args, info, "\n".join(f"{k:18} {v}" for k, v in info.items()))
    return 0


def cmd_download(args: argparse.Namespace) -> int:
    """Download the official feed (resumable)."""
    path = download(args.url, out_dir=args.out, progress=None if not args.json else False)
    emit(args, {"path": str(path)}, _("feed saved to {path}").format(path=path))
    return 0


def cmd_stations(args: argparse.Namespace) -> int:
    """List the game's stations with their price class (``category``), price and letter."""
    ctx = Context(args)
    rows = station_table(ctx.timetable, ctx.game)
    emit(args, rows, format_table(rows, ["name", "category", "price", "letter", "modes", "station_id"],
                                   [_("name"), _("class"), _("price"), _("letter"), _("modes"), _("station id")]))
    return 0
