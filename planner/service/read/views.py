"""The answers' itineraries and dice answers as typed values (:mod:`planner.service.answers`; the CLI's ``--json``
and the web API encode the same): itineraries with per-leg toll lines, tunnels and bonus events, delays and the
group's fees, and dice answers. The itinerary and the target are decided before; what each leg crosses, earns
and costs is added here by the modules that know it (:mod:`planner.service.read.pricing`,
:mod:`planner.service.read.realtime`, :mod:`planner.service.read.pricing`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

import msgspec

from planner.routing.journey import Leg
from planner.service.answers.base import UNSET
from planner.service.answers.itinerary import Itinerary, Jail, Realtime, Zugzwang
from planner.service.answers.rolls import Candidate, DiceAnswer
from planner.service.read.jail_plans import jail_json
from planner.service.read.pricing import Pricing, add_fees, annotate
from planner.service.read.realtime import add_delays, realtime_json, realtime_warnings
from planner.service.read.rule_words import message
from planner.service.setup.playing import GameDay
from planner.util.i18n import _, format_amount
from planner.util.timefmt import fmt_clock

if TYPE_CHECKING:
    from planner.game.dice import DiceAnswer as Decided
    from planner.routing import Journey, Origin

A = TypeVar("A", bound=msgspec.Struct)


def zugzwang_json(origin: Origin) -> Zugzwang:
    """What an answer applied: ``applies``, ``minutes``, ``since`` (when the standing group's window started; None
    when seated or without the rule)."""
    applies = origin.window is not None
    return Zugzwang(applies=applies, minutes=origin.window // 60 if applies else None,
                    since=fmt_clock(origin.got_off) if applies and not origin.in_trip else None)


def late_warning(day: GameDay, arrival: int | None) -> list[str]:
    """The warning for an answer arriving after the game's end (the end ends every obligation, §3)."""
    clock = day.game.clock
    if arrival is None or not clock.over(arrival):
        return []
    return [_("arrival {arrival} is not before the end of the game ({end}): the game ends on the way").format(
        arrival=fmt_clock(arrival), end=fmt_clock(clock.end))]


def with_realtime(day: GameDay, ans: A, t: int) -> A:
    """``ans`` with what it says of the real-time data for time of day ``t`` (``realtime``, and its warnings added
    to ``warnings``); unchanged without ``--realtime``."""
    info = realtime_json(day, t)
    if info is None:
        return ans
    warnings = realtime_warnings(day, info)
    changes: dict = {"realtime": msgspec.convert(info, Realtime)}
    if warnings:
        kept = getattr(ans, "warnings", UNSET)
        changes["warnings"] = [*(kept if kept is not UNSET else []), *warnings]
    return msgspec.structs.replace(ans, **changes)


def jail_answer(day: GameDay, plan, group: str | None) -> Jail | None:
    """The first jail of ``plan`` as answers carry it (None: none)."""
    out = jail_json(day, plan, group)
    if out is None:
        return None
    jail = msgspec.convert(out, Jail)
    said = {"station": jail.station, "since": jail.from_, "until": jail.until, "route": jail.route,
            "delay": jail.delay_min}
    jail.text = (message("jail.late_pay", **said, amount=format_amount(jail.pay.amount), arrival=jail.pay.arrival or "-")
                 if jail.pay is not None else message("jail.late", **said))
    return jail


def journey_json(day: GameDay, j: Journey | None, origin: Origin, target: int,
                 pricing: Pricing | None = None) -> Itinerary:
    """One itinerary (``arrival`` None and a ``reason`` when there is none); with ``pricing``, the group's fees on
    it (planner/service/read/pricing.py)."""
    tt = day.timetable
    if j is None:
        return Itinerary(from_=tt.station_name[origin.station], to=tt.station_name[target], departure=None,
                         arrival=None, changes=None, legs=[],
                         reason=_("no connection on the game day from this position (after this time, in the area)"))
    d = j.to_dict(tt)
    d["from"] = tt.station_name[origin.station]
    if not j.legs:
        d["already_there"] = True
    annotate(day, j, d)
    add_delays(day, j, d)
    add_fees(day, pricing, j, d, seated=origin.in_trip)
    _seated_start(day, j, d)
    return msgspec.convert(d, Itinerary)


def _seated_start(day: GameDay, j: Journey, d: dict) -> None:
    """A seated group that gets off at the stop its train approaches (the routing's zero-length first leg): the
    itinerary starts with the ride it sits in, from the stop before (``seated``: the stops behind it count for
    nothing), or without it when the train has not left its first stop; ``changes`` as the legs show."""
    first = j.legs[0] if j.legs else None
    if first is None or first.is_walk or first.board_row != first.alight_row:
        return
    tt = day.timetable
    row = first.board_row
    if row > int(tt.trip_offset[first.trip]):
        ride = Leg(first.trip, row - 1, row).to_dict(tt)
        d["legs"][0] |= {k: ride[k] for k in ("from", "from_platform", "departure")} | {"seated": True}
    else:
        d["legs"] = d["legs"][1:]
    d["changes"] = max(0, sum(1 for ld in d["legs"] if ld["route"] != "walk") - 1)


def dice_json(day: GameDay, ans: Decided, origin: Origin, pricing: Pricing | None = None, *,
              rolled_at: int | None = None, plan_from: int | None = None) -> DiceAnswer:
    """A dice answer (``planner target``); with ``pricing``, the group's fees. ``rolled_at``: when the roll was made,
    ``plan_from``: when its itinerary is planned from (both default to the origin's time)."""
    tt = day.timetable
    it = None
    if ans.journey is not None:
        it = journey_json(day, ans.journey, origin, ans.journey.target_station, pricing)
    fees = {k: getattr(it, k) for k in ("fees", "fees_total", "fees_min", "fees_max", "pricing")} if it else {}
    rolled = origin.time if rolled_at is None else rolled_at
    out = DiceAnswer(
        roll=ans.roll, kind=ans.kind, target=ans.target, arrival=fmt_clock(ans.arrival),
        departure=it.departure if it else None, changes=it.changes if it else None, legs=it.legs if it else [],
        already_there=bool(it and not it.legs), candidates=[msgspec.convert(c, Candidate) for c in ans.candidates],
        free_until=fmt_clock(ans.free_until),
        admissible=[_reached(journey_json(day, j, origin, j.target_station, pricing), ans.reached(j, tt))
                    for j in ans.admissible],
        bonus=it.bonus if it and it.bonus is not UNSET else [],
        crossings=it.crossings if it and it.crossings is not UNSET else [], **fees,
        reroll_at=fmt_clock(ans.reroll_at), why=ans.why, warnings=ans.warnings + late_warning(day, ans.arrival),
        from_=tt.station_name[origin.station], rolled_at=fmt_clock(rolled),
        plan_from=fmt_clock(rolled if plan_from is None else plan_from), zugzwang=zugzwang_json(origin))
    if ans.kind == "free":
        out.free = message("dice.free", until=out.free_until)
    if ans.jail is not None:
        out.jail = jail_answer(day, ans.jail, pricing.group if pricing is not None else None)
    return with_realtime(day, out, origin.time)


def _reached(way: Itinerary, reached: int | None) -> Itinerary:
    """An admissible way with the time its target is reached (a toll line or tunnel: where the train passes it)."""
    way.reached = fmt_clock(reached)
    return way
