"""The phone app's answers: each request's game read from the state, its day from :class:`Days`, and the answer from
the service layer, exactly as the command line's (the web keeps no copy of a group's position or answers: the
group's day and the ledger are the one store). No requests or responses here: a missing game or group is an
:class:`HttpError` with its status, which the app turns into the response.

The server process answers reads with it; its routing child (:mod:`planner.web.worker`) answers the requests that
route (rolls, positions, undo, next, trains, ledger events) with its own copy.
"""

from __future__ import annotations

import threading
from pathlib import Path

import msgspec

from planner.errors import PlannerError
from planner.lab.advise import next_with_advice, top_advice
from planner.ledger.kinds import WEB, request_fields, told, told_by
from planner.service import PlaceRequest, Play, position_answer, status, undo_answer
from planner.service import status_json as group_status_json
from planner.service.answers.group_status import (
    GameInfo,
    GroupRef,
    NextAnswer,
    PositionAnswer,
    RealtimeBanner,
    UndoAnswer,
)
from planner.service.answers.money import LedgerPage, Owned, RecordedEvent
from planner.service.answers.page import GroupPageAnswer, OrganiserAnswer, WhereaboutsAnswer
from planner.service.answers.questions import TrainsAnswer
from planner.service.answers.rolls import RollAnswer, stored_roll
from planner.service.change.group_day import RollRequest, roll
from planner.service.change.ledger_events import (
    LedgerRequest,
    end,
    feed,
    mark_sent,
    own_events,
    record_event,
    void,
)
from planner.service.change.ledger_events import status as ledger_status
from planner.service.questions.ledger_now import ledger_now, organiser_ledger
from planner.service.read.decisions import trains_after_getting_off
from planner.service.read.ledger_views import recorded_event
from planner.service.read.locate import locate, whereabouts_json
from planner.service.read.rule_words import rule_label
from planner.service.setup.new_game import area_warning
from planner.store.games import GameGroup, GameRecord
from planner.store.state import State
from planner.timetable.trips import find_trip
from planner.util.i18n import N_, language
from planner.util.timefmt import fmt_clock, parse_clock
from planner.web.days import Day, Days, realtime_banner
from planner.web.security import (
    CLOCK,
    EVENT_ID,
    ROLL_ID,
    HttpError,
    int_field,
    number_field,
    reads,
    said,
    text_field,
)

MESSAGES_SHOWN = 20  # the latest ledger messages a group page lists (the whole feed: `planner ledger feed`)
EVENTS_SHOWN = 40  # the game's latest ledger events the organiser's page lists (to void one by its number)
LEDGER_EVENTS = set(told_by(WEB))  # the one declaration: planner/ledger/kinds.py


class Answers:
    """The games of the state file, their days, and one state connection per thread."""

    def __init__(self, state: str | Path | None, days: Days):
        self.state_path = state
        self.days = days
        self._local = threading.local()

    def state(self) -> State:
        """This thread's state (one SQLite connection per thread)."""
        s = getattr(self._local, "state", None)
        if s is None:
            s = self._local.state = State(self.state_path)
        return s

    def record(self, game_id: str) -> GameRecord:
        """A game of the state (read per request: a game created while the server runs is served at once), or 404."""
        rec = self.state().games.get(game_id)
        if rec is None or rec.implicit:
            raise HttpError(404, N_("no game '{game}' on this server"), params={"game": game_id})
        return rec

    def play(self, game_id: str) -> tuple[Play, Day]:
        """The game being played, with its loaded day."""
        rec = self.record(game_id)
        day = self.days.of(rec)
        return Play(day.day, rec, self.state()), day

    def language(self, game_id: str) -> str | None:
        """The game's language (``[game] language``), or None (a game file without one)."""
        return self.days.of(self.record(game_id)).day.game.language

    def group(self, game_id: str, number: int) -> GameGroup:
        """Group ``number`` of the game, or 404."""
        g = next((g for g in self.record(game_id).groups if g.number == number), None)
        if g is None:
            raise HttpError(404, N_("game {game} has no group {number}"), params={"game": game_id, "number": number})
        return g

    def changes(self, game_id: str) -> str:
        """What the game's state is known by now: its change count and the real-time data's version (a phone asks
        its answers again when it differs from the one it saw)."""
        rec = self.record(game_id)
        rt = realtime_banner(self.days.of(rec))
        return f"{self.state().games.changes(game_id)}.{rt['version'] if rt else 0}"

    # ---- a group's answers (each gets the game id, the group's number and the request's input) ------------
    def group_state(self, game_id: str, number: int, query: dict | None = None) -> GroupPageAnswer:
        """A group's state at the phone's time (``?time=HH:MM``; else now, or its latest entry): its day (``planner
        group status --json``), the last roll's answer, its money and the latest messages it must be told of."""
        play, day = self.play(game_id)
        g = self.group(game_id, number)
        with day.lock:
            st = status(play, g.key, self._status_time(play, query or {}))
            buy = top_advice(play, g.key, st.state.time)  # the game lab's best station to buy now
            out = group_status_json(play.day, st)
        last = stored_roll(st.rolls[-1].answer) if st.rolls and st.rolls[-1].answer else None
        money = ledger_status(play, g.key)
        page = GroupPageAnswer(game=self.game_info(play), group=GroupRef(number=g.number, name=g.name), status=out,
                               last=last, cash=money.cash, capital=money.capital,
                               messages=feed(play, g.key).events[-MESSAGES_SHOWN:], buy_advice=buy)
        if (rt := realtime_banner(day)) is not None:
            page.realtime = msgspec.convert(rt, RealtimeBanner)
        return page

    @reads("at", "time", "trip", "since", "late")
    def position(self, game_id: str, number: int, body: dict) -> PositionAnswer:
        """"We got off at X (at T, there since S)" or "we are in the IR75 12:25": the group's day records it."""
        play, day = self.play(game_id)
        g = self.group(game_id, number)
        trip = text_field(body, "trip", hint=N_("the train, e.g. \"IR75 12:25\""))
        at = text_field(body, "at", required=not trip, hint=N_("the station, e.g. \"Zug\", or the train"))
        t = self._time(play, body, "time")
        since = self._time(play, body, "since", required=False)
        late = _number(body, "late", 0, 600)
        with day.lock:
            return position_answer(play, g.key, PlaceRequest(at, t, trip, since), t, late=late)

    @reads("dice", "at", "time", "trip", "since", "roll_id", "card")
    def roll(self, game_id: str, number: int, body: dict) -> RollAnswer:
        """Record a roll at the phone's time (where the body says, else where the group's day has it): exactly
        the answer of ``planner roll --json`` (``replayed`` when the roll id was recorded before)."""
        play, day = self.play(game_id)
        g = self.group(game_id, number)
        dice = int_field(body, "dice")
        at = text_field(body, "at")
        trip = text_field(body, "trip")
        rid = text_field(body, "roll_id", pattern=ROLL_ID, hint=N_("8-64 letters, digits, '-' or '_'"))
        t = self._time(play, body, "time")
        since = self._time(play, body, "since", required=False)
        req = RollRequest(g.key, dice, t, PlaceRequest(at, None, trip, since), rid, text_field(body, "card") or "")
        with day.lock:
            res = roll(play, req)  # a kept card turns the roll into a 6 (played with it)
        return msgspec.structs.replace(res.answer, replayed=True) if res.replayed else res.answer

    @reads()
    def undo(self, game_id: str, number: int, _body: dict) -> UndoAnswer:
        """Remove the group's latest entry: the answer of ``planner group undo --json``."""
        play, day = self.play(game_id)
        g = self.group(game_id, number)
        with day.lock:
            return undo_answer(play, g.key)

    def next_step(self, game_id: str, number: int, query: dict) -> NextAnswer:
        """What now at the phone's time (``?time=HH:MM``): the answer of ``planner next --json``."""
        play, day = self.play(game_id)
        g = self.group(game_id, number)
        with day.lock:
            return next_with_advice(play, g.key, self._status_time(play, query))

    def next_trains(self, game_id: str, number: int, q: dict) -> TrainsAnswer:
        """The trains the change window lets the group take next (``planner zugzwang --json``): where the query
        says, else from where the group's day has it at the phone's time (``?time=HH:MM``; standing since it got
        off; seated: at the next stop)."""
        play, day = self.play(game_id)
        g = self.group(game_id, number)
        gd = play.day
        at, trip = text_field(q, "at"), text_field(q, "trip")
        with day.lock:
            if at:
                s = gd.station(at)
                t = self._time(play, q, "time")
                return trains_after_getting_off(gd, s, t, find_trip(gd.timetable, trip, s) if trip else -1)
            now = self._status_time(play, q)
            st = status(play, g.key, now).state  # at the phone's time
            pos = st.position
            if pos is None:
                raise HttpError(422, N_("where are you? set the position first, or pass ?at=STATION&time=HH:MM"))
            if pos.seated:  # the trains after getting off at the stop it approaches
                out = trains_after_getting_off(gd, pos.station, pos.since, pos.trip, seated=True)
            else:
                # (without a change window: the next departures from the phone's time); in jail (§17) the group
                # gets off when it ends: the change window counts from then, as the jail's end says
                since = st.obligation.until if st.obligation.kind == "jail" else pos.since
                out = trains_after_getting_off(gd, pos.station, since, now=now, seated=False)
            return out

    @reads("lat", "lon", "time")
    def where_are_we(self, game_id: str, number: int, body: dict) -> WhereaboutsAnswer:
        """"Where are we?": the station the group is at, or the train it is in, from the phone's place
        (``lat``, ``lon``) at its time; a proposal to confirm with the position request. The place is used for
        this answer only: never stored, never logged."""
        play, _day = self.play(game_id)
        self.group(game_id, number)
        lat, lon = number_field(body, "lat"), number_field(body, "lon")
        t = self._time(play, body, "time")
        tt = play.day.timetable
        return msgspec.convert(whereabouts_json(tt, locate(tt, lat, lon, t)), WhereaboutsAnswer)

    def ledger(self, game_id: str, number: int, query: dict | None = None) -> LedgerPage:
        """The group's money: cash, capital, what it owns, the messages of its own events (to send, §19) and those
        it must be told of, and what the money rules offer it now (``now``, at the phone's ``?time=HH:MM``)."""
        play, _day = self.play(game_id)
        g = self.group(game_id, number)
        money = ledger_status(play, g.key)
        return LedgerPage(group=g.name, cash=money.cash, capital=money.capital,
                          owned=Owned(stations=money.stations, toll_lines=money.toll_lines, tunnels=money.tunnels),
                          letter_groups=money.letter_groups, redeem_due=money.redeem_due,
                          must_mortgage=money.must_mortgage, out=money.out, parking=money.parking,
                          messages=own_events(play, g.key)[-MESSAGES_SHOWN:],
                          told=feed(play, g.key).events[-MESSAGES_SHOWN:],
                          now=ledger_now(play, g.key, self._status_time(play, query or {})))

    @reads("event", "time", "event_id", "now", *request_fields(WEB))
    def ledger_event(self, game_id: str, number: int, body: dict) -> RecordedEvent:
        """Record a money event of the group (the rules refuse with a 422 naming why): the recorded event with
        its §19 message."""
        play, day = self.play(game_id)
        g = self.group(game_id, number)
        kind = text_field(body, "event", required=True)
        if kind not in LEDGER_EVENTS:
            raise HttpError(422, N_("field {field} must be one of {choices}"),
                            params={"field": "'event'", "choices": ", ".join(map(repr, sorted(LEDGER_EVENTS)))})
        kind = told(kind, empty=_flag(body, "empty"))
        now = self._time(play, body, "now", required=False)
        req = LedgerRequest(group=g.key, kind=kind, time=self._time(play, body, "time"),
                            station=text_field(body, "station"), toll_line=text_field(body, "toll_line"),
                            tunnel=text_field(body, "tunnel"), dice=_dice(body), houses=_houses(body),
                            bonus=_flag(body, "bonus"), trip=text_field(body, "trip"),
                            reason=text_field(body, "reason") or "", card=text_field(body, "card") or "",
                            deck=text_field(body, "deck") or "", to=text_field(body, "to") or "",
                            amount=_number(body, "amount", 0, 10_000_000),
                            offer=_number(body, "offer", 1, 10**9) or 0,
                            now=now if now is not None else play.day.now(),
                            event_id=text_field(body, "event_id", pattern=EVENT_ID,
                                                hint=N_("8-64 letters, digits, '-' or '_'")))
        with day.lock:
            res = record_event(play, req)
        return res.answer()

    @reads("time", path=("seq",))
    def message_sent(self, game_id: str, number: int, body: dict) -> RecordedEvent:
        """§13: the group shared the message of its event ``seq`` at ``time`` (the phone's clock; default now): the
        event as it stands (a late message costs the penalty)."""
        play, _day = self.play(game_id)
        g = self.group(game_id, number)
        seq = int_field(body, "seq", lo=1, hi=10**9)
        return mark_sent(play, g.key, seq, self._time(play, body, "time"))

    # ---- the organiser's answers (each gets the game id and the request's input) ---------------------------
    def overview(self, game_id: str, _query: dict | None = None) -> OrganiserAnswer:
        """Every group's state, cash and capital (the organiser's table and map), the ranking, and the game's latest
        ledger events with their numbers (to void one)."""
        play, _day = self.play(game_id)
        groups = [self.group_state(game_id, g.number) for g in play.game.groups]
        events = sorted((e for g in play.game.groups for e in own_events(play, g.key)), key=lambda e: e.seq)
        return OrganiserAnswer(game=self.game_info(play), groups=groups, ranking=end(play),
                               events=events[-EVENTS_SHOWN:], ledger=organiser_ledger(play))

    def area_warning(self, game_id: str) -> str | None:
        """check-area's verdict on the game's day in one line when it is INVALID (None when valid), worked out once
        per day and language (the organiser's page shows it as a banner)."""
        _play, day = self.play(game_id)
        key = f"area_warning:{language()}"
        if key not in day.documents:
            with day.lock:
                day.documents[key] = area_warning(day.day) or ""
        return day.documents[key] or None

    @reads("seq", "reason", "time")
    def void_event(self, game_id: str, body: dict) -> RecordedEvent:
        """Void a ledger event (``planner ledger void``): it stays in the log, marked; every group is told."""
        play, day = self.play(game_id)
        seq = int_field(body, "seq", lo=1, hi=10**9)
        reason = text_field(body, "reason", required=True, hint=N_("why: every group is told"))
        with day.lock:
            rec = void(play, seq, reason or "", self._time(play, body, "time"))
        return recorded_event(rec)

    # ---- helpers ---------------------------------------------------------------------------------------
    @staticmethod
    def game_info(play: Play) -> GameInfo:
        """What a page needs to know of the game: id, name, game file, dice, dice start, end, the change window, the
        language its answers are given in."""
        g = play.day.game
        return GameInfo(id=play.id, name=play.game.name, game=g.name, title=g.title, date=play.day.date.isoformat(),
                        dice=g.dice.count, dice_from=fmt_clock(g.clock.dice_from) if g.clock.bounded else None,
                        end=fmt_clock(g.clock.end) if g.clock.bounded else None, rule=rule_label(g),
                        admissible_extra_minutes=g.dice.admissible_extra_minutes, language=language())

    @staticmethod
    def _status_time(play: Play, query: dict) -> int:
        """The time a state is asked for: ``time`` given (HH:MM), else now on the game day, else the latest entry."""
        text = text_field(query, "time", pattern=CLOCK, hint=N_("a time HH:MM, e.g. 13:05"))
        try:
            return play.day.status_time(text)
        except PlannerError as exc:
            raise said(422, exc) from None

    @staticmethod
    def _time(play: Play, body: dict, key: str, *, required: bool = True) -> int | None:
        """A time the phone sent (its own clock); without one, now on the game day (else a 422)."""
        text = text_field(body, key, pattern=CLOCK, hint=N_("a time HH:MM, e.g. 13:05"))
        if text is None and not required:
            return None
        try:
            return parse_clock(text) if text else play.day.clock(None, within_game=False, asked_as=f"field '{key}'")
        except PlannerError as exc:
            raise said(422, exc) from None


def _number(body: dict, key: str, lo: int, hi: int) -> int | None:
    """An optional whole number in ``lo..hi`` (None: not given)."""
    return None if body.get(key) is None else int_field(body, key, lo=lo, hi=hi)


def _flag(body: dict, key: str) -> bool:
    v = body.get(key, False)
    if not isinstance(v, bool):
        raise HttpError(422, N_("field {field} must be true or false"), params={"field": repr(key)})
    return v


def _dice(body: dict) -> tuple[int, ...]:
    dice = body.get("dice") or []
    if not isinstance(dice, list) or len(dice) > 2 or not all(isinstance(d, int) and not isinstance(d, bool)
                                                              and 1 <= d <= 6 for d in dice):
        raise HttpError(422, N_("field {field} must be a list of two dice, each 1-6"), params={"field": "'dice'"})
    return tuple(dice)


def _houses(body: dict) -> tuple[tuple[str, str], ...]:
    houses = body.get("houses") or {}
    if not isinstance(houses, dict) or len(houses) > 20 or not all(
            isinstance(k, str) and isinstance(v, str | int) and not isinstance(v, bool) for k, v in houses.items()):
        raise HttpError(422, N_("field {field} must be an object like {example}"),
                        params={"field": "'houses'", "example": '{"Station": 2, "Station B": "hotel"}'})
    return tuple((k, str(v)) for k, v in houses.items())


def stations(day: Day) -> list[dict]:
    """Every station of the day with its coordinates (the search field's list and the map's points)."""
    tt = day.day.timetable
    return [{"name": str(tt.station_name[i]), "lat": round(float(tt.station_lat[i]), 6),
             "lon": round(float(tt.station_lon[i]), 6)} for i in range(tt.n_stations)]
