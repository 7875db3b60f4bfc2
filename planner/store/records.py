"""The records of a group's day as the state database stores them: rolls, position reports, snapshots.

Plain values (no I/O): the store (:mod:`planner.store.groups`) reads and writes them. A reused roll id must come
with the same inputs (:func:`replay`); group names are stored under a folded key (:func:`group_key`).
"""

from __future__ import annotations

import datetime as dt
import json
import operator
from dataclasses import dataclass
from functools import lru_cache

from planner.errors import DamagedState, InputError, PlannerError
from planner.util.i18n import _
from planner.util.text import fold

KINDS = ("target", "free")

def implicit_id(game: str, date: str) -> str:
    """The id of the implicit game of a game file (by its name) and day: a command-line day without
    ``planner game new`` (a created game's id is 8 hex digits, never holding an ``@``)."""
    return f"{game}@{date}"


def group_key(name: int | str) -> str:
    """The key a group name is stored under: case-, accent- and spacing-insensitive ("Team Rot" = "team  röt"
    is not claimed; "Team Rot" = "team rot" = "TEAM ROT" is)."""
    key = fold(str(name))
    if not key:
        raise InputError(_("group name {name!r} is empty").format(name=str(name)))
    return key


@dataclass(frozen=True)
class Roll:
    """A roll as the caller computed it (input of :meth:`GroupStore.commit_roll` / :meth:`Transaction.add`).

    ``kind`` is ``"target"`` (with ``target`` the assigned station, toll line or tunnel) or ``"free"``
    (with ``free_until`` the end of the free movement, seconds after midnight). ``request`` is the
    canonical text of the inputs (a reused roll id must come with the same), ``answer`` the answer text
    given (returned unchanged on a retry), ``plan`` the itinerary as JSON (for the group's day model).
    """

    time: int
    dice: tuple[int, ...]
    kind: str
    target: str | None = None
    free_until: int | None = None
    position: str | None = None
    roll_id: str | None = None
    request: str | None = None
    answer: str | None = None
    plan: str | None = None

    def __post_init__(self) -> None:
        # Checked here so a bad roll is an InputError, not a SQLite constraint failure.
        if self.kind not in KINDS:
            raise InputError(_("roll kind {kind!r} is not one of {kinds}").format(kind=self.kind, kinds=", ".join(KINDS)))
        if self.kind == "target" and not self.target:
            raise InputError(_("a roll of kind 'target' needs a target name"))
        if self.kind == "free" and self.free_until is None:
            raise InputError(_("a roll of kind 'free' needs free_until"))
        try:
            dice = tuple(operator.index(d) for d in self.dice)  # accepts numpy ints, rejects floats
        except TypeError:
            dice = ()
        if not dice or any(isinstance(d, bool) for d in self.dice):
            raise InputError(_("dice {dice!r} must be one or more whole numbers").format(dice=self.dice))
        object.__setattr__(self, "dice", dice)
        object.__setattr__(self, "time", operator.index(self.time))


@dataclass(frozen=True)
class RollRecord:
    """A recorded roll (output of the store): ``game_id`` and ``group`` (its key) say whose it is."""

    game_id: str
    group: str
    seq: int
    time: int
    dice: tuple[int, ...]
    kind: str
    target: str | None
    free_until: int | None
    position: str | None
    created_at: str
    roll_id: str | None
    request: str | None = None
    answer: str | None = None
    plan: str | None = None


@dataclass(frozen=True)
class PositionRecord:
    """A recorded position report at ``time``: standing at ``station`` since ``since`` (``trip_id`` None), or
    seated in a trip."""

    id: int
    time: int
    since: int
    station: str
    trip_id: str | None
    stop_offset: int | None
    label: str | None
    created_at: str


@dataclass(frozen=True)
class GroupSnapshot:
    """Everything recorded for one group, read at one moment; ``version`` changes with every write."""

    key: str
    name: str
    version: int
    rolls: tuple[RollRecord, ...]
    positions: tuple[PositionRecord, ...]
    number: int = 0  # the group's number in its game (0: not recorded yet)

    def with_roll(self, roll: RollRecord, number: int) -> GroupSnapshot:
        """This snapshot with ``roll`` written after it (the next version; rolls in seq order)."""
        return GroupSnapshot(self.key, self.name, self.version + 1, (*self.rolls, roll), self.positions, number)

    def with_position(self, pos: PositionRecord, number: int) -> GroupSnapshot:
        """This snapshot with the report ``pos`` written after it (the next version; reports in the order a read
        gives them: by time, then id)."""
        return GroupSnapshot(self.key, self.name, self.version + 1, self.rolls,
                             tuple(sorted((*self.positions, pos), key=lambda p: (p.time, p.id))), number)


class StaleGroup(PlannerError):
    """The group changed between the snapshot a roll was computed from and its commit (recompute)."""


ROLL_COLUMNS = ("game_id, grp, seq, time_s, dice, kind, target, free_until, position, created_at, roll_id, "
                "request, answer, plan")
POSITION_COLUMNS = "id, time_s, since_s, station, trip_id, stop_offset, label, created_at"


@lru_cache(maxsize=1 << 14)  # pure, on immutable values: a group's rows are read again after every change
def roll_from_row(row: tuple) -> RollRecord:
    """A rolls row as a record, every column checked (a row edited by hand is a :class:`DamagedState` naming it,
    never a traceback further down)."""
    game_id, grp, seq, time_s, dice, kind, target, free_until, position, created_at, roll_id, *rest = row
    where = f"roll #{str(seq)[:20]} of group {str(grp)[:40]}"
    for name, v in (("game_id", game_id), ("grp", grp), ("created_at", created_at)):
        _check(isinstance(v, str), where, name, v, "is not text")
    for name, v in (("target", target), ("position", position), ("roll_id", roll_id),
                    *zip(("request", "answer", "plan"), rest, strict=False)):
        _check(v is None or isinstance(v, str), where, name, v, "is not text")
    _check(_whole(seq) and seq >= 1, where, "seq", seq, "is not a whole number >= 1")
    _check(_clock(time_s), where, "time_s", time_s, "is not a time of day in seconds")
    _check(free_until is None or _clock(free_until), where, "free_until", free_until, "is not a time in seconds")
    _check(kind in KINDS and (kind == "free" or target) and (kind == "target" or free_until is not None),
           where, "kind", kind, "does not fit its target / free_until")
    faces = _json(dice, where, "dice")
    _check(isinstance(faces, list) and 1 <= len(faces) <= 2 and all(_whole(d) and 1 <= d <= 6 for d in faces),
           where, "dice", dice, "is not one or two dice 1-6")
    answer, plan = ([*rest, None, None, None])[1:3]
    if answer is not None:
        _check(isinstance(_json(answer, where, "answer"), dict), where, "answer", answer, "is not a JSON object")
    if plan is not None:
        _check(_plan_ok(_json(plan, where, "plan")), where, "plan", plan, "is not a roll's itinerary")
    return RollRecord(game_id, grp, seq, time_s, tuple(faces), kind, target, free_until, position, created_at,
                      roll_id, *rest)


@lru_cache(maxsize=1 << 14)  # as roll_from_row
def position_from_row(row: tuple) -> PositionRecord:
    """A positions row as a record, every column checked."""
    pid, t, since, station, trip_id, off, label, created = row
    where = f"position report {str(pid)[:20]}"
    _check(_whole(pid), where, "id", pid, "is not a whole number")
    _check(_clock(t), where, "time_s", t, "is not a time of day in seconds")
    _check(_clock(since), where, "since_s", since, "is not a time of day in seconds")
    _check(isinstance(station, str) and bool(station), where, "station", station, "is not a station id")
    for name, v in (("trip_id", trip_id), ("label", label)):
        _check(v is None or isinstance(v, str), where, name, v, "is not text")
    _check(isinstance(created, str), where, "created_at", created, "is not text")
    _check(off is None or (_whole(off) and off >= 0), where, "stop_offset", off, "is not a stop number")
    return PositionRecord(pid, t, since, station, trip_id, off, label, created)


def group_numbers(row: tuple) -> tuple[int, int]:
    """(version, number) of a stored group, checked."""
    version, number = row
    _check(_whole(version) and version >= 0, "a groups row", "version", version, "is not a whole number")
    _check(_whole(number) and number >= 0, "a groups row", "number", number, "is not a whole number")
    return version, number


def _whole(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _clock(v: object) -> bool:
    return _whole(v) and 0 <= v <= 72 * 3600  # type: ignore[operator]


def _check(ok: object, where: str, column: str, value: object, why: str) -> None:
    if not ok:
        raise DamagedState(f"{where} is damaged: {column} {str(value)[:40]!r} {why}")


def _json(text: object, where: str, column: str) -> object:
    try:
        return json.loads(text)  # type: ignore[arg-type]
    except (TypeError, ValueError, RecursionError):
        raise DamagedState(f"{where} is damaged: {column} {str(text)[:40]!r} is not JSON") from None


def _leg_ok(item: object) -> bool:
    """A stored leg: ``[trip id, board, alight]`` (stop numbers) or ``["walk", from, to, departure, arrival]``."""
    if not isinstance(item, list):
        return False
    if len(item) == 5 and item[0] == "walk":
        return isinstance(item[1], str) and isinstance(item[2], str) and _clock(item[3]) and _clock(item[4])
    return (len(item) == 3 and isinstance(item[0], str) and _whole(item[1]) and _whole(item[2])
            and 0 <= item[1] <= item[2])


def _plan_ok(plan: object) -> bool:
    """The shape :func:`planner.service.read.recorded_day.plan_json` stores (``rides``: planner 0.1's trips only)."""
    if not isinstance(plan, dict):
        return False
    legs = plan.get("legs", plan.get("rides", []))
    origin = plan.get("origin")
    return (isinstance(legs, list) and all(_leg_ok(x) for x in legs)
            and all(plan.get(k) is None or _clock(plan[k]) for k in ("plan_from", "arrival", "reroll_at"))
            and (plan.get("target_station") is None or isinstance(plan["target_station"], str))
            and (origin is None or (isinstance(origin, dict) and isinstance(origin.get("station"), str)
                                    and _clock(origin.get("since"))
                                    and (origin.get("trip_id") is None or isinstance(origin["trip_id"], str))
                                    and (origin.get("offset") is None or (_whole(origin["offset"])
                                                                          and origin["offset"] >= 0)))))


def utc_now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds")


def replay(old: RollRecord, roll: Roll | None) -> RollRecord:
    """The earlier record of a reused roll id (of the same group), after checking the retry asks the same."""
    if roll is not None and tuple(roll.dice) != old.dice:
        raise InputError(_("roll id {roll_id!r} was already recorded with dice {dice}, not {other}").format(
            roll_id=old.roll_id, dice="-".join(map(str, old.dice)), other="-".join(map(str, roll.dice))))
    if roll is not None and roll.request and old.request and roll.request != old.request:
        raise InputError(_("roll id {roll_id!r} was already recorded with other inputs ({request}); use a new roll id "
                           "for a new roll").format(roll_id=old.roll_id, request=old.request))
    return old
