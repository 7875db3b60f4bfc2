"""The phone app's answers, computed from the state database and the loaded game days (no HTTP here).

The server process answers reads with it; its routing child (:mod:`planner.web.worker`) answers the requests
that route (rolls, positions, undo, next, trains) with its own copy. Every answer goes through
:mod:`planner.web.usecases` into the service layer.
"""

from __future__ import annotations

import threading
from pathlib import Path

from planner.errors import PlannerError
from planner.store.games import WebGame, WebStore
from planner.web import usecases
from planner.web.security import CLOCK, ROLL_ID, HttpError, int_field, text_field

MESSAGES_SHOWN = 20  # the latest ledger messages a group page lists (the whole feed: `planner ledger feed`)


class Answers:
    """The loaded games and their days, and one state-database connection per thread."""

    def __init__(self, state: str | Path | None, days: dict[str, usecases.Day]):
        self.state = state
        self.days = days  # game id -> its loaded day
        # Games do not change while the server runs (it loads the games at start-up): kept in memory, so a
        # poll reads only the group's rolls.
        with WebStore(state) as store:
            self.games = {g.id: g for g in store.games() if g.id in days}
        self._local = threading.local()

    def store(self) -> WebStore:
        """This thread's store (one SQLite connection per thread)."""
        s = getattr(self._local, "store", None)
        if s is None:
            s = self._local.store = WebStore(self.state)
        return s

    def game(self, game_id: str) -> tuple[WebGame, usecases.Day]:
        """A loaded game, or 404."""
        day = self.days.get(game_id)
        g = self.games.get(game_id) if day is not None else None
        if g is None:
            raise HttpError(404, f"no game {game_id!r} on this server")
        return g, day

    def group_state(self, g: WebGame, day: usecases.Day, number: int, _query: dict | None = None) -> dict:
        """A group's state now: its position, rolls (as ``group status --json``) and last answer."""
        store = self.store()
        status = usecases.status(day, g.group_key(number))
        last = None
        if status["rolls"]:
            last = store.answer(g.id, number, status["rolls"][-1]["seq"])
        return {"game": {"id": g.id, "name": g.name, **usecases.day_info(day)},
                "group": {"number": number, "name": g.groups[number - 1]},
                "position": store.position(g.id, number), "status": status, "last": last,
                "messages": usecases.messages(day, g.group_key(number))["events"][-MESSAGES_SHOWN:]}

    def position(self, g: WebGame, day: usecases.Day, number: int, body: dict) -> dict:
        """Check and remember the group's position."""
        trip = text_field(body, "trip", hint=" (the train, e.g. \"IR75 12:25\")")
        # in a train, the train is enough: it is matched where the group got on (the group's day knows)
        at = text_field(body, "at", required=not trip, hint=" (the station, e.g. \"Zug\", or the train)")
        time = text_field(body, "time", pattern=CLOCK, hint=" (HH:MM)")
        pos = usecases.set_position(day, g.group_key(number), at, time, trip)
        self.store().set_position(g.id, number, pos)
        return pos

    def where(self, g: WebGame, number: int, at: str | None, time: str | None, trip: str | None,
              how: str) -> tuple[str, str | None, str | None]:
        """The place the request gives, else the group's remembered position (what it gives fills the gaps;
        422 saying ``how`` to give one when there is neither)."""
        if at is not None:
            return at, time, trip
        pos = self.store().position(g.id, number)
        if pos is None:
            raise HttpError(422, f"where are you? set the position first, or {how}")
        return pos["at"], time or pos["time"], trip or pos["trip"]

    def roll(self, g: WebGame, day: usecases.Day, number: int, body: dict) -> dict:
        """Record a roll (from the body's position, else the remembered one) and keep its answer."""
        dice = int_field(body, "dice")
        at = text_field(body, "at")
        time = text_field(body, "time", pattern=CLOCK, hint=" (HH:MM)")
        trip = text_field(body, "trip")
        rid = text_field(body, "roll_id", pattern=ROLL_ID, hint=" (8-64 letters, digits, '-' or '_')")
        store = self.store()
        at, time, trip = self.where(g, number, at, time, trip, "send 'at' (and 'time')")
        key = g.group_key(number)
        # The client's id is scoped to its group: another group cannot collide with (or probe) it.
        roll_id = f"{key}:{rid}" if rid else None
        with day.lock:
            out = usecases.roll(day, key, dice, at, time, trip, roll_id)
            if out.get("replayed"):
                saved = store.answer(g.id, number, out["seq"])
                if saved:
                    return {**saved, "replayed": True}
                # recorded, but the process died before its answer was kept: keep it now
                store.save_answer(g.id, number, out["seq"], {k: v for k, v in out.items() if k != "replayed"})
                return out
            store.save_answer(g.id, number, out["seq"], out)
        return out

    def undo(self, g: WebGame, day: usecases.Day, number: int, _body: dict) -> dict:
        """Remove the group's last roll."""
        return usecases.undo(day, g.group_key(number))

    def next_step(self, g: WebGame, day: usecases.Day, number: int, _q: dict) -> dict:
        """What now: ``planner next --json`` for the group."""
        return usecases.next_step(day, g.group_key(number))

    def next_trains(self, g: WebGame, day: usecases.Day, number: int, q: dict) -> dict:
        """The trains the group may take next, from the query's or the remembered position."""
        at = text_field(q, "at")
        time = text_field(q, "time", pattern=CLOCK, hint=" (HH:MM)")
        trip = text_field(q, "trip")
        at, time, trip = self.where(g, number, at, time, trip, "pass ?at=STATION&time=HH:MM")
        return usecases.next_trains(day, at, time, trip)

    def overview(self, g: WebGame, day: usecases.Day) -> dict:
        """Every group's state (the organiser's table and map)."""
        return {"game": {"id": g.id, "name": g.name, **usecases.day_info(day)},
                "groups": [self.group_state(g, day, n) for n in range(1, len(g.groups) + 1)]}


def load_days(state: str | Path | None = None, *, feed: str | None = None, game: str | None = None,
              date: str | None = None) -> dict[str, usecases.Day]:
    """Every game of the state database with its loaded day (each distinct day once).
    ``feed``/``game``/``date`` fill in what a game left open."""
    with WebStore(state) as store:
        games = store.games()
    if not games:
        raise PlannerError("no game yet: create one with 'planner game new --name NAME --groups \"Rot,Blau\"'")
    loaded: dict[tuple, usecases.Day] = {}
    days = {}
    for g in games:
        key = (g.feed or feed, g.game or game, g.date or date)
        if key not in loaded:
            loaded[key] = usecases.load_day(*key)
        days[g.id] = loaded[key]
    return days
