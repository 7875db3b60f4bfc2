"""One loaded game day (feed, game, date): timetable, routing network and crossing index, built once.

The CLI makes one per command; a server makes one per game at start-up and answers every group from it.
"""

from __future__ import annotations

import datetime as dt
from functools import cached_property
from typing import TYPE_CHECKING

from planner.errors import InputError
from planner.game.zugzwang import deadline_at
from planner.gamefile.game import Game
from planner.gamefile.rules import ChangeWindow, Deadline
from planner.ledger.rules import LedgerRules, ledger_rules

if TYPE_CHECKING:
    from planner.game.day import Position
    from planner.routing.network import TransitNetwork
    from planner.timetable.model import Timetable

# Routing searches run this long past the game's end: an answer may arrive after it and says so (§3).
SEARCH_HORIZON_AFTER_END = 6 * 3600


class GameDay:
    """The game day every use case answers from (lazy: nothing is loaded before it is needed)."""

    def __init__(self, feed: str, game: Game, date: dt.date, *, min_transfer_minutes: float | None = None,
                 progress: bool | None = False, plain_timetable: bool = False):
        if min_transfer_minutes is not None and not (0 <= min_transfer_minutes <= 60):
            raise InputError(f"--min-transfer {min_transfer_minutes}: expected 0 to 60 minutes")
        self.feed, self.game, self.date = feed, game, date
        self.min_transfer_minutes = min_transfer_minutes
        self.progress = progress
        self.plain_timetable = plain_timetable  # --no-zugzwang: organisers exploring the network
        self._deadlines: dict[tuple[int, int], Deadline | None] = {}
        self._stations: dict[str, int] = {}  # names as typed -> station (the timetable never changes)
        self.models: dict[int, tuple] = {}  # group snapshot id -> (snapshot, its GroupDay): planner.service.day_model

    @property
    def window(self) -> ChangeWindow | None:
        """The change window every itinerary proposed on this day obeys: the game file's rule (variant A §4.2),
        none without one or for plain timetable routing (``--no-zugzwang``)."""
        return None if self.plain_timetable else self.game.window

    @property
    def window_seconds(self) -> int | None:
        """:attr:`window` in seconds, as the routing origins carry it."""
        return None if self.window is None else self.window.seconds

    def deadline_of(self, pos: Position) -> Deadline | None:
        """The change window's deadline for a group standing at ``pos`` since ``pos.since`` (None: no rule);
        remembered per (station, since): a group's state is asked for again and again."""
        if self.window is None:
            return None
        key = (pos.station, pos.since)
        if key not in self._deadlines:
            if len(self._deadlines) > 4096:
                self._deadlines.clear()
            self._deadlines[key] = deadline_at(self.network, self.window, pos)
        return self._deadlines[key]

    @cached_property
    def ledger_rules(self) -> LedgerRules:
        """The money rules of the game (planner/ledger/rules.py), built once."""
        return ledger_rules(self.game)

    @cached_property
    def timetable(self) -> Timetable:
        """The game-day timetable, from the cache when possible."""
        from planner.gtfs.cache import load_or_build

        return load_or_build(self.feed, self.game, self.date, progress=self.progress)

    @cached_property
    def network(self) -> TransitNetwork:
        """The routing network (change-time policy from the uniform minimum and the game file)."""
        from planner.routing.network import TransitNetwork

        mt = self.min_transfer_minutes
        return TransitNetwork(self.timetable, min_transfer=None if mt is None else int(round(mt * 60)),
                              default_change=int(round(self.game.default_change_minutes * 60)))

    @cached_property
    def crossing_index(self):
        """The day's toll-line/tunnel crossings by name, or None without line data."""
        from planner.rail.index import day_crossings

        return day_crossings(self.timetable, self.game)

    @cached_property
    def crossings_by_trip(self) -> dict:
        """The crossing index keyed by trip (what per-leg annotations look up)."""
        from planner.rail.index import by_trip

        return by_trip(self.crossing_index) if self.crossing_index else {}

    def warm(self) -> GameDay:
        """Load everything now (timetable, network, crossing index, compiled routing), so that a server
        answers its first request as fast as the others; returns ``self``."""
        from planner.routing import reach, station_origin

        tt = self.timetable
        _ = self.crossings_by_trip
        if tt.n_stations:
            reach(self.network, station_origin(0, self.game.clock.start if self.game.has_area else 0))
        return self

    @property
    def search_end(self) -> int | None:
        """Latest arrival a routing search considers (None: the whole service day)."""
        return self.game.clock.end + SEARCH_HORIZON_AFTER_END if self.game.clock.bounded else None

    def now(self) -> int | None:
        """The time of day now in Switzerland (seconds, whole minutes) when the game day is today, else None."""
        import datetime as dt
        from zoneinfo import ZoneInfo

        now = dt.datetime.now(ZoneInfo("Europe/Zurich"))
        return now.hour * 3600 + now.minute * 60 if now.date() == self.date else None

    def clock(self, text: str | None, *, within_game: bool = True, asked_as: str = "a time HH:MM") -> int:
        """A time of day as typed (``13:00``, ``13.00``, ``1300``); none given: now, when the game day is today
        (else an error asking for ``asked_as``, the interface's name for it). With ``within_game`` it must not
        be after the game's end."""
        from planner.util.timefmt import parse_clock

        if text:
            t = parse_clock(text)
        else:
            now = self.now()
            if now is None:
                raise InputError(f"{asked_as} is required (the game day {self.date.isoformat()} is not today)")
            t = now
        if within_game:
            self.game.clock.check_asked(t)
        return t

    def status_time(self, text: str | None) -> int:
        """The time a group's state is asked for: the time given, else now on the game day, else 0 (the
        state then shows the group at its latest entry)."""
        if text:
            return self.clock(text, within_game=False)
        now = self.now()
        return 0 if now is None else now

    def station(self, name: str) -> int:
        """Resolve a station name as users type it (error with suggestions)."""
        from planner.timetable.stations import find_station

        s = self._stations.get(name)
        if s is None:
            s = find_station(self.timetable, name)
            if len(self._stations) > 4096:
                self._stations.clear()
            self._stations[name] = s
        return s

    def stations(self, text: str | list[str], what: str = "station list") -> list[int]:
        """Resolve a ``;``-separated list (or a list) of names, every one like :meth:`station`; an unknown
        one is an error naming it and the list."""
        from planner.errors import StationNotFound

        names = [n.strip() for n in (text.split(";") if isinstance(text, str) else text) if n.strip()]
        out = []
        for n in names:
            try:
                out.append(self.station(n))
            except StationNotFound as exc:
                raise StationNotFound(f"{what}: {exc}", exc.suggestions) from None
        return out
