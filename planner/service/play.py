"""One game being played: its loaded day, its record (the groups) and the state it is recorded in.

A game is the one aggregate (issue "one game"): every group command, on the command line or a phone, names a
group of a game, and the group is the same wherever it is used: one day (rolls, positions), one ledger account,
one name in every answer. ``planner game new`` creates a game; without it, a command-line day is the implicit game
of its game file and date, whose groups appear with their first entry.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache

from planner.errors import InputError
from planner.service.gameday import GameDay
from planner.store.games import GameGroup, GameRecord, check_name
from planner.store.records import group_key, implicit_id
from planner.store.state import State
from planner.util.i18n import _

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
