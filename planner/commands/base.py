"""What every command handler shares: the invocation's context (feed, game, day, the game a group plays in) and
output as JSON or a readable table."""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import os
import sys
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import msgspec

from planner import config
from planner.errors import InputError
from planner.gamefile.game import Game, load_game
from planner.realtime.feed import api_key, is_url
from planner.service.answers import base as contract
from planner.service.read.pricing import Pricing, load_pricing
from planner.service.setup.playing import (
    GameDay,
    Play,
    chosen_game,
    implicit_record,
    open_game_day,
    require_feed,
)
from planner.store.games import GameRecord
from planner.store.state import State
from planner.timetable.model import Timetable
from planner.timetable.trips import find_trip
from planner.util.i18n import _, default_language
from planner.util.timefmt import parse_date


@dataclass
class Context:
    """Resolved feed, game and date for one invocation; loads the game-day timetable lazily.

    ``game_scope``: a group command. Its groups belong to a game: a created one (``--game-id``, ``$PLANNER_GAME_ID``
    or the only one in the state), whose feed, game file and date it then plays on, else the implicit game of the
    game file and date.
    """

    args: argparse.Namespace
    game_scope: bool = False
    train: str | None = None  # how a named train was understood (echoed in readable answers)
    played: GameRecord | None = None  # the game an organiser's file names (handout --links): its feed, file, day


    @cached_property
    def state(self) -> State:
        """The state database (``$PLANNER_STATE``), opened on first use; read-only unless the command records
        (``writes_state`` in the grammar)."""
        return State(read_only=not getattr(self.args, "writes_state", False))

    @cached_property
    def record(self) -> GameRecord | None:
        """The created game a group command addresses (or the ``played`` one given), or None (the implicit game)."""
        if self.played is not None:
            return self.played
        if not self.game_scope:
            return None
        return chosen_game(self.state, getattr(self.args, "game_id", None))

    def _given(self, key: str, value: str | None) -> str | None:
        """The game's own setting for ``key`` where the command gave none; a different one given is an error."""
        rec = self.record
        mine = getattr(self.args, key, None)
        if rec is None:
            return mine
        theirs = getattr(rec, key)
        if mine and theirs and not _same(key, str(mine), str(theirs)):
            raise InputError(_("--{option} {value}: game {game} ({name}) is played with {option} {theirs}").format(
                option=key, value=mine, game=rec.id, name=rec.name, theirs=theirs))
        return theirs or mine or value

    @cached_property
    def feed(self) -> str:
        """Path of the feed (a URL is downloaded first)."""
        f = require_feed(self._given("feed", None))
        if str(f).startswith(("http://", "https://")):
            # imported here: requests and urllib3 are 45 ms of every command's start (python -X importtime)
            from planner.gtfs.download import download

            # into the cache, not feeds/: a feed named for one command must not become every command's default
            folder = config.cache_root() / "url-feeds" / hashlib.sha256(str(f).encode()).hexdigest()[:16]
            return str(download(str(f), out_dir=folder, progress=self.progress))
        return str(f)

    @cached_property
    def game_spec(self) -> str:
        """The game file as given (a shipped name or a path)."""
        return self._given("game", None) or config.default_game()

    @cached_property
    def game(self) -> Game:
        """The game (file) in force; its language is the command's unless one was chosen (--lang, the locale)."""
        game = load_game(self.game_spec)
        default_language(game.language)
        return game

    @cached_property
    def date(self) -> dt.date:
        """The game day."""
        d = self._given("date", None) or config.default_date(self.feed)
        return parse_date(d) if d else dt.date.today()

    @property
    def progress(self) -> bool | None:
        """Progress bars on stderr: forced by --progress, else when stderr is a terminal and not --json."""
        if getattr(self.args, "progress", None):
            return True
        return None if not getattr(self.args, "json", False) else False

    @cached_property
    def day(self) -> GameDay:
        """The loaded game day the use cases answer from (``--realtime``: with its real-time overlay)."""
        key = getattr(self.args, "realtime_key_env", None)
        if key:
            key = api_key(key)
        return open_game_day(self.feed, self.game, self.date, min_transfer_minutes=getattr(self.args, "min_transfer", None),
                             progress=self.progress, plain_timetable=bool(getattr(self.args, "no_zugzwang", False)),
                             realtime=getattr(self.args, "realtime", None), realtime_key=key)

    @cached_property
    def play(self) -> Play:
        """The game the group command plays in (see the class docstring)."""
        rec = self.record or implicit_record(self.state, self.day, self.game_spec)
        return Play(self.day, rec, self.state)

    @cached_property
    def pricing(self) -> Pricing | None:
        """With ``--group``: the group's view of the ledger, so itineraries carry its fees; else None."""
        group = getattr(self.args, "group", None)
        if not group:
            return None
        return load_pricing(self.play, self.play.group(group).name)

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
        return self.day.station(name)

    def clock(self, text: str | None, *, within_game: bool = True) -> int:
        """Parse a time of day (none given: now, when the game day is today); with ``within_game``, it
        must not be after the game's end (the rule is the service's: :meth:`GameDay.clock`)."""
        return self.day.clock(text, within_game=within_game, asked_as="--time HH:MM")

    def optional_clock(self, text: str | None, what: str) -> int | None:
        """A further time option (``--since``), None when not given; errors name the option."""
        if not text:
            return None
        try:
            return self.day.clock(text)
        except InputError as exc:
            raise InputError(f"{what}: {exc}") from None

    def trip(self, ref: str, station: int | None = None) -> int:
        """Resolve the train: a trip id running in the area on the day, or ``"IR75 10:03"``."""
        return find_trip(self.timetable, ref, station)

    def close(self) -> None:
        """Close the state database if it was opened."""
        if "state" in self.__dict__:
            self.state.close()


def _same(key: str, mine: str, theirs: str) -> bool:
    """Whether an option given names the game's own setting: a feed path by the file it resolves to (the game
    keeps the absolute path; the organiser types it relative, or through a link), anything else as text."""
    if mine == theirs:
        return True
    if key != "feed" or is_url(mine) or is_url(theirs):
        return False
    try:
        return os.path.samefile(mine, theirs)
    except OSError:  # one of them is gone or unreadable: the paths as they resolve
        return os.path.realpath(mine) == os.path.realpath(theirs)


def emit(args: argparse.Namespace, data: Any, table: str | None = None) -> None:
    """Print the answer as JSON with ``--json`` (encoded once: :func:`planner.service.answers.base.encode`), else
    the readable table (or indented JSON when no table is given)."""
    if getattr(args, "json", False) or table is None:
        raw = contract.encode(data)
        sys.stdout.write((raw if getattr(args, "json", False) else msgspec.json.format(raw, indent=2)).decode())
        sys.stdout.write("\n")
    else:
        sys.stdout.write(table.rstrip("\n") + "\n")
