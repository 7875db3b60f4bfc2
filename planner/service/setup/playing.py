"""One loaded game day (feed, game, date): timetable, routing network and crossing index, built once.

The CLI makes one per command; a server makes one per game at start-up and answers every group from it.

One game being played: its loaded day, its record (the groups) and the state it is recorded in.

A game is the one aggregate (issue "one game"): every group command, on the command line or a phone, names a
group of a game, and the group is the same wherever it is used: one day (rolls, positions), one ledger account,
one name in every answer. ``planner game new`` creates a game; without it, a command-line day is the implicit game
of its game file and date, whose groups appear with their first entry."""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass
from functools import cached_property, lru_cache
from zoneinfo import ZoneInfo

from planner import config
from planner.errors import InputError, PlannerError, StationNotFound
from planner.game.day import Position
from planner.game.zugzwang import deadline_at
from planner.gamefile.game import Game
from planner.gamefile.rules import ChangeWindow, Deadline
from planner.gtfs.cache import load_or_build
from planner.ledger.money_rules import LedgerRules, ledger_rules
from planner.rail.index import by_trip, day_crossings
from planner.realtime.load import load_overlay
from planner.routing import Query, reach, station_origin
from planner.routing.network import TransitNetwork
from planner.store.games import GameGroup, GameRecord, check_name
from planner.store.records import group_key, implicit_id
from planner.store.state import State
from planner.timetable.model import Timetable
from planner.timetable.stations import find_station
from planner.util.i18n import _, format_long_date
from planner.util.timefmt import parse_clock

# Routing searches run this long past the game's end: an answer may arrive after it and says so (§3).
SEARCH_HORIZON_AFTER_END = 6 * 3600


def require_feed(feed: str | None) -> str:
    """The feed a door names, else the configured default (``PLANNER_FEED``, ``feeds/``); none is the one error
    every door gives."""
    f = feed or config.default_feed()
    if not f:
        raise PlannerError(_("no feed: pass --feed PATH, set PLANNER_FEED, or run 'planner feed download'"))
    return str(f)


def open_game_day(feed: str | None, game: Game, date: dt.date, *, warm: bool = False, **options) -> GameDay:
    """The one way the command line, the server and the lab make a :class:`GameDay` (``options``: its keyword
    arguments); ``warm``: everything loaded now (:meth:`GameDay.warm`), as a server or a lab worker wants."""
    gd = GameDay(require_feed(feed), game, date, **options)
    return gd.warm() if warm else gd


class GameDay:
    """The game day every use case answers from (lazy: nothing is loaded before it is needed)."""

    def __init__(self, feed: str, game: Game, date: dt.date, *, min_transfer_minutes: float | None = None,
                 progress: bool | None = False, plain_timetable: bool = False, realtime: str | None = None,
                 realtime_key: str | None = None):
        if min_transfer_minutes is not None and not (0 <= min_transfer_minutes <= 60):
            raise InputError(_("--min-transfer {minutes}: expected 0 to 60 minutes").format(
                minutes=min_transfer_minutes))
        self.feed, self.game, self.date = feed, game, date
        self.min_transfer_minutes = min_transfer_minutes
        self.progress = progress
        self.plain_timetable = plain_timetable  # --no-zugzwang: organisers exploring the network
        # --realtime FILE_OR_URL: the overlay of predicted times (planner/realtime/load.py loads it)
        self.realtime_source, self.realtime_key = realtime, realtime_key
        self.realtime_warnings: list[str] = []
        self._deadlines: dict[tuple[int, int], Deadline | None] = {}
        self._stations: dict[str, int] = {}  # names as typed -> station (the timetable never changes)
        self.models: dict[int, tuple] = {}  # group snapshot id -> (snapshot, its GroupDay): planner.service.read.recorded_day
        self.day_events: dict = {}  # a stored roll or position record -> its event in the model (day_model)
        self.station_facts: dict[int, tuple[str, int, str]] = {}  # station -> name, price, letter (service.ledger)

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
            if len(self._deadlines) > 65536:
                self._deadlines.clear()
            self._deadlines[key] = deadline_at(self.network, self.window, pos)
        return self._deadlines[key]

    @cached_property
    def ledger_rules(self) -> LedgerRules:
        """The money rules of the game (planner/ledger/money_rules.py), built once."""
        return ledger_rules(self.game)

    @cached_property
    def timetable(self) -> Timetable:
        """The game-day timetable, from the cache when possible."""
        return load_or_build(self.feed, self.game, self.date, progress=self.progress)

    @cached_property
    def overlay(self):
        """The real-time overlay (:class:`planner.realtime.overlay.Overlay`) of ``--realtime``, or None (none
        given, or its URL did not answer: then ``realtime_warnings`` says so and answers use the timetable)."""
        if not self.realtime_source:
            return None
        return load_overlay(self.realtime_source, self.realtime_key, self.timetable, self.date, self.realtime_warnings)

    def set_overlay(self, overlay) -> None:
        """Route on another overlay from now on (a server's newer feed; None: the timetable)."""
        self.__dict__["overlay"] = overlay
        self.__dict__.pop("_real_network", None)
        self._deadlines.clear()  # worked out on the old network (a cancelled train changes the forced one)

    @property
    def network(self) -> TransitNetwork:
        """The network every proposal routes on: on predicted times when an overlay changes anything, else
        :attr:`plan_network` itself (so that an empty feed gives exactly the timetable's answers)."""
        ov = self.overlay
        if ov is None or not ov.changes_anything:
            return self.plan_network
        cached = self.__dict__.get("_real_network")
        if cached is None or cached[0] is not ov:
            cached = self.__dict__["_real_network"] = (ov, TransitNetwork.on_real_times(self.plan_network,
                                                                                         ov.timetable))
        return cached[1]

    @cached_property
    def plan_network(self) -> TransitNetwork:
        """The routing network on timetable times (change-time policy from the uniform minimum and the game
        file): what the dice target's choice reads (§4.4 "gemäss Fahrplan")."""
        mt = self.min_transfer_minutes
        return TransitNetwork(self.timetable, min_transfer=None if mt is None else int(round(mt * 60)),
                              default_change=int(round(self.game.default_change_minutes * 60)))

    @cached_property
    def crossing_index(self):
        """The day's toll-line/tunnel crossings by name, or None without line data."""
        return day_crossings(self.timetable, self.game)

    @cached_property
    def crossings_by_trip(self) -> dict:
        """The crossing index keyed by trip (what per-leg annotations look up)."""
        return by_trip(self.crossing_index) if self.crossing_index else {}

    def warm(self) -> GameDay:
        """Load everything now (timetable, network, crossing index, compiled routing), so that a server
        answers its first request as fast as the others; returns ``self``."""
        tt = self.timetable
        _ = self.crossings_by_trip
        if tt.n_stations:
            reach(self.network, Query(station_origin(0, self.game.clock.start if self.game.has_area else 0)))
        return self

    @property
    def search_end(self) -> int | None:
        """Latest arrival a routing search considers (None: the whole service day)."""
        return self.game.clock.end + SEARCH_HORIZON_AFTER_END if self.game.clock.bounded else None

    def now(self) -> int | None:
        """The time of day now in Switzerland (seconds, whole minutes) when the game day is today, else None."""
        now = dt.datetime.now(ZoneInfo("Europe/Zurich"))
        return now.hour * 3600 + now.minute * 60 if now.date() == self.date else None

    def clock(self, text: str | None, *, within_game: bool = True, asked_as: str = "a time HH:MM") -> int:
        """A time of day as typed (``13:00``, ``13.00``, ``1300``); none given: now, when the game day is today
        (else an error asking for ``asked_as``, the interface's name for it). With ``within_game`` it must not
        be after the game's end."""
        if text:
            t = parse_clock(text)
        else:
            now = self.now()
            if now is None:
                raise InputError(_("{asked_as} is required (the game day {date} is not today)").format(
                    asked_as=asked_as, date=format_long_date(self.date)))
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
        names = [n.strip() for n in (text.split(";") if isinstance(text, str) else text) if n.strip()]
        out = []
        for n in names:
            try:
                out.append(self.station(n))
            except StationNotFound as exc:
                raise StationNotFound(f"{what}: {exc}", exc.suggestions) from None
        return out


GAME_ID_ENV = "PLANNER_GAME_ID"


@dataclass
class Play:
    """A game being played: ``day`` (the loaded timetable and rules), ``game`` (its record), ``state``."""

    day: GameDay
    game: GameRecord
    state: State

    @property
    def id(self) -> str:
        """The game's id (every row of its state names it)."""
        return self.game.id

    def group(self, ref: str | int) -> GameGroup:
        """The group named (or numbered) ``ref``; in an implicit game a new name is a new group (recorded with
        its first entry); in a created game an unknown one is an error naming its groups."""
        if self.game.implicit and not self.game.groups:
            return _new_group(str(ref))  # nobody recorded yet (a simulated day asks it at every move)
        g = self.game.group(ref)
        if g is not None:
            return g
        if not self.game.implicit:
            return self.game.require_group(ref)
        return _new_group(str(ref))

    def refresh(self) -> Play:
        """The same game re-read (a group added to an implicit game since it was opened)."""
        rec = self.state.games.get(self.game.id)
        return self if rec is None else Play(self.day, rec, self.state)


@lru_cache(maxsize=4096)  # pure: a name is checked and folded once
def _new_group(ref: str) -> GameGroup:
    """A group of an implicit game not recorded yet, named ``ref``."""
    name = check_name(ref.strip(), _("group name"))
    return GameGroup(group_key(name), 0, name)


def implicit_record(state: State, day: GameDay, spec: str) -> GameRecord:
    """The implicit game of the day's game file and date (as recorded, or not yet: no groups)."""
    gid = implicit_id(day.game.name, day.date.isoformat())
    rec = state.games.get(gid)
    return rec if rec is not None else GameRecord(gid, f"{day.game.name} {day.date.isoformat()}", None, spec,
                                                  day.date.isoformat(), True, ())


def chosen_game(state: State, game_id: str | None = None) -> GameRecord | None:
    """The created game a command addresses: ``game_id`` (else ``$PLANNER_GAME_ID``), else the only game the
    state holds; None when it holds none (the implicit game then). Several games and no id: an error."""
    game_id = game_id or os.environ.get(GAME_ID_ENV) or None
    if game_id:
        rec = state.games.get(game_id.strip())
        if rec is None:
            known = ", ".join(g.id for g in state.games.games()) or "none"
            raise InputError(_("no game {game!r} in {state} (games: {known})").format(game=game_id, state=state.path,
                                                                                     known=known))
        return rec
    games = state.games.games()
    if len(games) > 1:
        ids = ", ".join(f"{g.id} ({g.name})" for g in games)
        raise InputError(_("the state holds {count} games: pass --game-id ID or set {env} ({ids})").format(
            count=len(games), env=GAME_ID_ENV, ids=ids))
    return games[0] if games else None
