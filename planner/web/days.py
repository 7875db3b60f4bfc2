"""The game days a server answers from: each (feed, game file, date) loaded once, on the first request of a game
that plays on it (a game created while the server runs is served at once), then answered from memory.

A day's lock serialises the use cases of one process on it: the routing arrays and lazy indexes are shared.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from planner import config
from planner.errors import PlannerError
from planner.gamefile.game import load_game
from planner.routing import station_origin
from planner.service.read.decisions import decide_at
from planner.service.read.realtime import banner, refresh_overlay
from planner.service.setup.playing import GameDay, open_game_day, require_feed
from planner.store.games import GameRecord
from planner.util.i18n import _
from planner.util.timefmt import parse_date


def refresh(gd: GameDay) -> None:
    """Apply the newest published real-time feed, if it changed (nothing without ``serve --realtime``)."""
    if gd.realtime_source:
        refresh_overlay(gd)


def realtime_banner(day: Day) -> dict | None:
    """What the phone shows about the real-time data (None without it)."""
    return banner(day.day) if day.day.realtime_source else None


@dataclass
class Day:
    """One loaded game day and the lock its answers are computed under; documents are made on first request."""

    day: GameDay
    lock: threading.RLock = field(default_factory=threading.RLock)
    documents: dict[str, str] = field(default_factory=dict)


def load_day(feed: str | None, game: str | None, date: str | None, realtime: str | None = None) -> Day:
    """Load the game day (from the cache when possible), build the network and warm the routing kernels;
    ``realtime``: the file ``serve --realtime`` publishes the feed to (:func:`refresh`)."""
    feed = require_feed(feed)
    d = date or config.default_date(feed)
    if not d:
        raise PlannerError(_("no game day: the game has no date"))
    gd = open_game_day(feed, load_game(game or config.default_game()), parse_date(d), progress=False,
                       realtime=realtime)
    refresh(gd)
    gd.warm()
    # The first dice answer builds lazy indexes: do one now (nothing recorded), not on the first phone's roll.
    clock = gd.game.clock
    try:
        decide_at(gd, station_origin(0, clock.dice_from if clock.bounded else 12 * 3600), 1, [])
    except PlannerError:
        pass  # a day on which that station cannot roll still serves; the warm-up only saves time
    return Day(gd)


class Days:
    """The loaded days of one process, by what they are played on; ``feed`` fills in a game created without one."""

    def __init__(self, feed: str | None = None, realtime: str | None = None):
        self.feed, self.realtime = feed, realtime
        self._days: dict[tuple, Day] = {}
        self._lock = threading.Lock()

    def of(self, game: GameRecord) -> Day:
        """The day ``game`` is played on (loaded now when it is the first game on it)."""
        key = (game.feed or self.feed, game.game, game.date)
        with self._lock:  # one load per day, even when two phones of a new game ask at once
            if key not in self._days:
                self._days[key] = load_day(*key, realtime=self.realtime)
            day = self._days[key]
        with day.lock:  # (serve --realtime) the newest feed, fetched once for every process; not mid-answer
            refresh(day.day)
        return day

    def warm(self, games: list[GameRecord]) -> None:
        """Load the days of ``games`` now (at start-up: the first phones need not wait)."""
        for g in games:
            self.of(g)
