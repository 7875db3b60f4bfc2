"""The answers' itineraries and dice answers as typed values (:mod:`planner.service.answers`; the CLI's ``--json``
and the web API encode the same): itineraries with per-leg toll lines, tunnels and bonus events, delays and the
group's fees, and dice answers. The itinerary and the target are decided before; what each leg crosses, earns
and costs is added by the module that knows it (:mod:`planner.service.read.pricing`); what an answer says of the
real-time overlay (``realtime: {source, age_s, trips_matched, trips_unknown, ...}``, the legs' delays, the
warnings) is made here, from the overlay the game day holds."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

import msgspec

from planner.realtime.overlay import STALE_SECONDS, service_day_start
from planner.routing.journey import Leg
from planner.service.answers.base import UNSET
from planner.service.answers.itinerary import Itinerary, Jail, Realtime, Zugzwang
from planner.service.answers.rolls import Candidate, DiceAnswer
from planner.service.read.jail_plans import jail_json
from planner.service.read.pricing import Pricing, add_fees, annotate
from planner.service.read.rule_words import message
from planner.service.setup.playing import GameDay
from planner.util.i18n import _, format_amount
from planner.util.timefmt import fmt_clock

if TYPE_CHECKING:
    from planner.game.dice import DiceAnswer as Decided
    from planner.routing import Journey, Origin

A = TypeVar("A", bound=msgspec.Struct)


def posix(day: GameDay, t: int) -> int:
    """POSIX seconds of time of day ``t`` (seconds) on the game day."""
    return service_day_start(day.date) + int(t)


def realtime_json(day: GameDay, t: int) -> dict | None:
    """What an answer for time of day ``t`` says of the real-time data (None without ``--realtime``): on the
    game day itself the age counts to now, else to ``t`` on the game day."""
    if not day.realtime_source:
        return None
    ov = day.overlay
    if ov is None:
        return {"source": str(day.realtime_source), "available": False, "age_s": None, "stale": True,
                "trips_matched": 0, "trips_unknown": 0}
    now = day.now()
    at = posix(day, now) if now is not None else posix(day, t)
    return {"available": True, **ov.summary(at)}


def realtime_warnings(day: GameDay, info: dict | None) -> list[str]:
    """Warnings an answer carries about its real-time data: missing (the timetable is used) or stale."""
    if info is None:
        return []
    out = list(day.realtime_warnings)
    if info.get("available") and info.get("stale"):
        age = info.get("age_s")
        if age is None:
            said = _("the real-time data has no time stamp (stale after {stale} min): delays may have changed")
        elif age >= 0:
            said = _("the real-time data is {minutes} min old (stale after {stale} min): delays may have changed")
        else:
            said = _("the real-time data is {minutes} min ahead (stale after {stale} min): delays may have changed")
        out.append(said.format(minutes=abs(int(age or 0)) // 60, stale=STALE_SECONDS // 60))
    return out


def _minutes(seconds: int | None) -> int | None:
    # whole minutes as the boards show them (a train 30 s late is "+0'", 90 s "+1'")
    return None if seconds is None else int(seconds) // 60 if seconds >= 0 else -((-int(seconds)) // 60)


def add_delays(day: GameDay, journey: Journey, d: dict) -> None:
    """Per leg ``departure_delay_min``/``arrival_delay_min`` (predicted minus timetable, None when the feed
    says nothing) and the answer's own (its first departure, its arrival); nothing without an overlay."""
    if not day.realtime_source:
        return
    ov = day.overlay
    for leg, ld in zip(journey.legs, d.get("legs", []), strict=True):
        if leg.is_walk or ov is None:
            ld["departure_delay_min"] = ld["arrival_delay_min"] = None
            continue
        dep = ov.arrival_delay(leg.board_row) if leg.board_row == leg.alight_row else ov.departure_delay(leg.board_row)
        ld["departure_delay_min"] = _minutes(dep)
        ld["arrival_delay_min"] = _minutes(ov.arrival_delay(leg.alight_row))
    legs = d.get("legs") or []
    d["departure_delay_min"] = legs[0]["departure_delay_min"] if legs else None
    d["arrival_delay_min"] = legs[-1]["arrival_delay_min"] if legs else None


def late_mark(delay_min: int | None) -> str:
    """``+4'`` beside a late time in readable output (``-1'`` early; nothing when on time or unknown)."""
    if not delay_min:
        return ""
    return f" +{delay_min}'" if delay_min > 0 else f" {delay_min}'"



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
