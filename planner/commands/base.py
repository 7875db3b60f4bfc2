"""What every command shares: common options, loading the game day, output as JSON or table."""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from planner import config
from planner.commands import argtypes
from planner.errors import PlannerError
from planner.gamefile.game import Game, load_game
from planner.timetable.model import Timetable


def add_common(p: argparse.ArgumentParser, *, date: bool = True, game: bool = True) -> None:
    """``--feed --game --date --json --min-transfer`` (the options every command accepts)."""
    p.add_argument("--feed", type=argtypes.feed, help="GTFS zip, folder or URL (default: $PLANNER_FEED, config, downloaded, demo)")
    if game:
        p.add_argument("--game", help="game name, path to a .toml, or 'none' for the whole feed")
    if date:
        p.add_argument("--date", help="game day YYYY-MM-DD")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--progress", action="store_true", default=None, help="show progress bars")


def add_position(p: argparse.ArgumentParser) -> None:
    """Where the group is: ``--at``/``--from`` a station at ``--time``, or seated in ``--trip``."""
    p.add_argument("--at", "--from", dest="at",
                   help="station where the group stands (or the stop its train is at/approaching, with --trip)")
    p.add_argument("--time", help="HH:MM (default with --trip: the trip's time there)")
    p.add_argument("--trip", help="the train the group sits in: trip id, or line and time as 'IR75 10:03'")
    add_since(p)
    add_routing(p)  # every question from a position is answered by routing


def add_since(p: argparse.ArgumentParser) -> None:
    """``--since``: when a standing group got off at its station (its change window started then)."""
    p.add_argument("--since", metavar="HH:MM", help="the group has been at the station since then (default: "
                                                     "--time); the 29-minute rule counts from it")


def add_roll(p: argparse.ArgumentParser) -> None:
    """``--roll`` and ``--visited`` (dice target questions)."""
    p.add_argument("--roll", type=int, required=True, help="one die 1-6 (variant A) or white*10+coloured (B)")
    p.add_argument("--visited", default="", help='targets already targeted, ";"-separated')


def add_routing(p: argparse.ArgumentParser) -> None:
    """Routing options shared by route/target/zugzwang/bonus/tolls."""
    p.add_argument("--min-transfer", type=argtypes.minutes(0, 60), metavar="M",
                   help="uniform minimum change time in minutes (a slow group)")
    p.add_argument("--no-zugzwang", action="store_true",
                   help="plain timetable routing: ignore the game's change-window (29-minute) rule")


@dataclass
class Context:
    """Resolved feed, game and date for one invocation; loads the game-day timetable lazily."""

    args: argparse.Namespace
    train: str | None = None  # how a named train was understood (echoed in readable answers)

    @cached_property
    def feed(self) -> str:
        """Path of the feed (a URL is downloaded first)."""
        f = getattr(self.args, "feed", None) or config.default_feed()
        if not f:
            raise PlannerError("no feed: pass --feed PATH, set PLANNER_FEED, or run 'planner feed download'")
        if str(f).startswith(("http://", "https://")):
            import hashlib

            from planner.gtfs.download import download

            # into the cache, not feeds/: a feed named for one command must not become every command's default
            folder = config.cache_root() / "url-feeds" / hashlib.sha256(str(f).encode()).hexdigest()[:16]
            return str(download(str(f), out_dir=folder, progress=self.progress))
        return str(f)

    @cached_property
    def game(self) -> Game:
        """The game (file) in force."""
        return load_game(getattr(self.args, "game", None) or config.default_game())

    @cached_property
    def date(self) -> dt.date:
        """The game day."""
        from planner.gtfs.calendar import parse_date

        d = getattr(self.args, "date", None) or config.default_date(self.feed)
        return parse_date(d) if d else dt.date.today()

    @property
    def progress(self) -> bool | None:
        """Progress bars on stderr: forced by --progress, else when stderr is a terminal and not --json."""
        if getattr(self.args, "progress", None):
            return True
        return None if not getattr(self.args, "json", False) else False

    @cached_property
    def pricing(self):
        """With ``--group``: the group's view of the ledger, so itineraries carry its fees; else None."""
        group = getattr(self.args, "group", None)
        if not group:
            return None
        from planner.service.ledger import group_of
        from planner.service.pricing import load_pricing

        return load_pricing(self.day, group_of(self.day, group))

    @cached_property
    def day(self):
        """The loaded game day the use cases answer from (:class:`planner.service.GameDay`)."""
        from planner.service.gameday import GameDay

        return GameDay(self.feed, self.game, self.date, min_transfer_minutes=getattr(self.args, "min_transfer", None),
                       progress=self.progress, plain_timetable=bool(getattr(self.args, "no_zugzwang", False)))

    @property
    def timetable(self) -> Timetable:
        """The game-day timetable, from the cache when possible."""
        return self.day.timetable

    @property
    def network(self):
        """The routing network (change-time policy from --min-transfer and the game file)."""
        return self.day.network

    def station(self, name: str) -> int:
        """Resolve a station name (error with suggestions)."""
        from planner.timetable.stations import find_station

        return find_station(self.timetable, name)

    def clock(self, text: str | None, *, within_game: bool = True) -> int:
        """Parse a time of day (none given: now, when the game day is today); with ``within_game``, it
        must not be after the game's end (the rule is the service's: :meth:`GameDay.clock`)."""
        return self.day.clock(text, within_game=within_game, asked_as="--time HH:MM")

    def trip(self, ref: str, station: int | None = None) -> int:
        """Resolve the train: a trip id running in the area on the day, or ``"IR75 10:03"``."""
        from planner.timetable.trips import find_trip

        return find_trip(self.timetable, ref, station)


def emit(args: argparse.Namespace, data: Any, table: str | None = None) -> None:
    """Print JSON with ``--json``, else the readable table (or JSON when no table is given)."""
    if getattr(args, "json", False) or table is None:
        sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=None if getattr(args, "json", False) else 2))
        sys.stdout.write("\n")
    else:
        sys.stdout.write(table.rstrip("\n") + "\n")
