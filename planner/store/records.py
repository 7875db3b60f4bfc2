"""The records of a group's day as the state database stores them: rolls, position reports, snapshots.

Plain values (no I/O): the store (:mod:`planner.store.groups`) reads and writes them. A reused roll id must come
with the same inputs (:func:`replay`); group names are stored under a folded key (:func:`group_key`).
"""

from __future__ import annotations

import datetime as dt
import json
import operator
from dataclasses import dataclass

from planner.errors import InputError, PlannerError
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
        raise InputError(f"group name {str(name)!r} is empty")
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
            raise InputError(f"roll kind {self.kind!r} is not one of {', '.join(KINDS)}")
        if self.kind == "target" and not self.target:
            raise InputError("a roll of kind 'target' needs a target name")
        if self.kind == "free" and self.free_until is None:
            raise InputError("a roll of kind 'free' needs free_until")
        try:
            dice = tuple(operator.index(d) for d in self.dice)  # accepts numpy ints, rejects floats
        except TypeError:
            dice = ()
        if not dice or any(isinstance(d, bool) for d in self.dice):
            raise InputError(f"dice {self.dice!r} must be one or more whole numbers")
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


class StaleGroup(PlannerError):
    """The group changed between the snapshot a roll was computed from and its commit (recompute)."""


ROLL_COLUMNS = ("game_id, grp, seq, time_s, dice, kind, target, free_until, position, created_at, roll_id, "
                "request, answer, plan")
POSITION_COLUMNS = "id, time_s, since_s, station, trip_id, stop_offset, label, created_at"


def roll_from_row(row: tuple) -> RollRecord:
    """A rolls row as a record (a row edited into nonsense is a one-line error naming it)."""
    game_id, grp, seq, time_s, dice, kind, target, free_until, position, created_at, roll_id, *rest = row
    try:
        return RollRecord(game_id, grp, int(seq), int(time_s), tuple(int(d) for d in json.loads(dice)), kind,
                          target, None if free_until is None else int(free_until), position, created_at, roll_id,
                          *rest)
    except (ValueError, TypeError) as exc:
        raise PlannerError(f"roll #{seq} of group {grp} is damaged in the state file ({exc}); restore a backup "
                           "or undo it") from None


def position_from_row(row: tuple) -> PositionRecord:
    """A positions row as a record."""
    pid, t, since, station, trip_id, off, label, created = row
    try:
        return PositionRecord(int(pid), int(t), int(since), station, trip_id, None if off is None else int(off),
                              label, created)
    except (ValueError, TypeError) as exc:
        raise PlannerError(f"position report {pid} is damaged in the state file ({exc}); restore a backup") from None


def utc_now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds")


def replay(old: RollRecord, roll: Roll | None) -> RollRecord:
    """The earlier record of a reused roll id (of the same group), after checking the retry asks the same."""
    if roll is not None and tuple(roll.dice) != old.dice:
        raise InputError(f"roll id {old.roll_id!r} was already recorded with dice "
                         f"{'-'.join(map(str, old.dice))}, not {'-'.join(map(str, roll.dice))}")
    if roll is not None and roll.request and old.request and roll.request != old.request:
        raise InputError(f"roll id {old.roll_id!r} was already recorded with other inputs ({old.request}); "
                         "use a new roll id for a new roll")
    return old
