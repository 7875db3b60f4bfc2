"""Rule questions: the full-hour bonus chances, the trains the change window allows, the check of a day's log,
the toll lines and tunnels of a trip."""

from __future__ import annotations

import msgspec

from planner.service.answers.base import UNSET, Answer, Message, Opt
from planner.service.answers.group_status import Chance
from planner.service.answers.itinerary import Realtime, Zugzwang


class BonusAnswer(Answer, kw_only=True):
    """``planner bonus``: the chances at the next full hour (``hour``) for ``fee`` instead of ``base_fee``; for a
    group of a game, what binds it (``obligation``, ``target``); ``note`` when no fee is paid at that hour."""

    hour: str
    minutes: list[int]
    fee: int
    base_fee: int
    chances: list[Chance]
    note: str | Opt = UNSET
    obligation: str | Opt = UNSET
    target: str | None | Opt = UNSET
    group: str | Opt = UNSET
    zugzwang: Zugzwang | Opt = UNSET
    train: str | Opt = UNSET
    realtime: Realtime | Opt = UNSET
    warnings: list[str] | Opt = UNSET


class Departure(Answer, kw_only=True):
    """A train leaving in the window (``catchable`` False: the change time is too short for it)."""

    trip_id: str
    route: str
    headsign: str
    platform: str
    departure: str
    catchable: bool
    departure_delay_min: int | Opt = UNSET


class TrainsAnswer(Answer, kw_only=True):
    """``planner zugzwang`` (the phone's next trains): after getting off at ``station`` at ``got_off``, the
    window's end (``deadline``), the deadline that binds (``board_by``: the forced train's departure when none
    leaves in the window) and the departures; ``applies`` False in a game without the rule. ``excluded``: the
    train just left; ``seated`` (web): asked for the stop the group's train approaches."""

    applies: bool
    minutes: int | None
    rule: str | None
    station: str
    got_off: str
    deadline: str | None
    board_by: str | None
    departures: list[Departure]
    forced_next: bool
    excluded: list[Departure] | Opt = UNSET
    seated: bool | Opt = UNSET
    realtime: Realtime | Opt = UNSET
    warnings: list[str] | Opt = UNSET
    text: Message | None = None  # the change window here in one sentence (planner/service/read/rule_words.py)


class Violation(Answer, kw_only=True):
    """A broken rule in a day's log: the line, the rule (§4.1, §4.2) and why."""

    line: int
    rule: str
    message: str


class LogCheckAnswer(Answer, kw_only=True):
    """``planner zugzwang --check``: every violation of §4.1/§4.2 in a day's log."""

    legs: int
    violations: list[Violation]
    ok: bool
    zugzwang: Zugzwang


class TollCrossing(Answer, kw_only=True):
    """A toll line or tunnel a trip crosses, its owner and the fee (in words too)."""

    name: str
    kind: str
    between: list[str]
    owner: str | None
    fee: int | None
    fee_text: str | None


class TollsAnswer(Answer, kw_only=True):
    """``planner tolls``: what a trip crosses between two of its stops."""

    trip_id: str
    route: str
    from_: str = msgspec.field(name="from")
    to: str
    crossings: list[TollCrossing]
