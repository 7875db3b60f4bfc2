"""§17 jail in the answers (real-time data only): an itinerary whose train arrives 5+ minutes late at a stop
ends there, the group is in jail until 30 minutes later, and the rest is planned from the jail's end (again
and again: once per train). Variant A may pay out of it (the ledger's ``parking_payments.jail``): the answer
offers that way too, planned from the jail stop at once. The rule itself is :mod:`planner.game.jail`."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from planner.errors import InputError
from planner.game.jail import Jail, first_jail, until_jail
from planner.ledger.model import Event
from planner.routing import Journey, Origin, best_journey, station_origin
from planner.routing.journey import Leg
from planner.service.read.recorded_day import group_day
from planner.service.setup.playing import GameDay, Play
from planner.util.i18n import _
from planner.util.timefmt import fmt_clock

MAX_JAILS = 4  # jails planned in one itinerary at the most (each costs 30 minutes)


@dataclass(frozen=True)
class JailPlan:
    """An itinerary with the jails on it: ``journey`` (legs to each jail, then on from its end), the jails,
    and (variant A) the arrival when paying out of the first one."""

    journey: Journey | None
    jails: tuple[Jail, ...]
    pay_arrival: int | None = None


def _after(day: GameDay, station: int, t: int, target: int) -> Journey | None:
    """The way on from ``station`` for a group free there at ``t`` (its change window starts then)."""
    return best_journey(day.network, station_origin(station, t, since=t, window=day.window_seconds), target,
                        end_time=day.search_end)


def plan_jails(day: GameDay, origin: Origin, target: int, journey: Journey | None) -> JailPlan:
    """``journey`` with the jails its late trains give (unchanged without real-time data or late trains)."""
    ov = day.overlay if day.realtime_source else None
    if ov is None or journey is None or not journey.legs:
        return JailPlan(journey, ())
    rule, real = day.game.jail, day.network.tt
    jails: list[Jail] = []
    legs: tuple = ()
    rest: Journey | None = journey
    seated = origin.row if origin.in_trip else -1
    pay_arrival = None
    while rest is not None and rest.legs and len(jails) < MAX_JAILS:
        jail = first_jail(rest, rule, real, day.timetable, ov.arr_known, seated_at=seated,
                          spent=frozenset(j.trip for j in jails))
        if jail is None:
            break
        legs += until_jail(rest, jail)
        if not jails and "jail" in day.game.ledger.parking_payments:
            paid = _after(day, jail.station, jail.arrival, target)
            pay_arrival = paid.arrival(real) if paid is not None else None
        jails.append(jail)
        seated = -1
        rest = None if jail.station == target else _after(day, jail.station, jail.until, target)
    if not jails:
        return JailPlan(journey, ())
    full = Journey(journey.origin_station, target, journey.start_time, legs + (rest.legs if rest else ()))
    if rest is None and jails[-1].station != target:
        full = None  # no way on after the jail
    return JailPlan(full, tuple(jails), pay_arrival)


def jail_json(day: GameDay, plan: JailPlan, group: str | None = None) -> dict | None:
    """``jail: {station, from, until, trip_id, route, delay_min, pay, more}`` of the first jail (None: none);
    ``pay`` (variant A): the amount into the free parking, the arrival that way and the ledger command."""
    if not plan.jails:
        return None
    tt = day.timetable
    j = plan.jails[0]
    amount = day.game.ledger.parking_payments.get("jail")
    pay = None
    if amount:
        cmd = (f"planner ledger parking --group {group or 'G'} --time {fmt_clock(j.arrival)} --reason jail")
        pay = {"amount": amount, "arrival": fmt_clock(plan.pay_arrival), "ledger": cmd}
    return {"station": tt.station_name[j.station], "from": fmt_clock(j.arrival), "until": fmt_clock(j.until),
            "trip_id": tt.trip_id[j.trip], "route": tt.route_name[tt.trip_route[j.trip]],
            "delay_min": j.delay // 60, "pay": pay,
            "more": [{"station": tt.station_name[x.station], "from": fmt_clock(x.arrival), "until": fmt_clock(x.until)}
                     for x in plan.jails[1:]]}


def jail_now(day: GameDay, model, t: int) -> Jail | None:
    """The jail a group is in at ``t`` by the real-time data (None: none, or no data): its train, the one it
    reported sitting in or the one of its roll's itinerary, arrived 5+ minutes late at a stop by ``t`` and
    ``t`` is before the jail's end. ``model``: its :class:`planner.game.day.GroupDay`."""
    jail = train_jail(day, model, t)
    return jail if jail is not None and jail.arrival <= t < jail.until else None


def train_jail(day: GameDay, model, t: int) -> Jail | None:
    """The jail of the train the group's day has it in (or last had it in) at ``t`` by the real-time data, whether
    it began by ``t`` or not (None: none, or no data)."""
    ov = day.overlay if day.realtime_source else None
    if ov is None:
        return None
    report = next((p for p in reversed(model.positions) if p.time <= t), None)
    roll = model.last_roll(t)
    if report is not None and (roll is None or report.time > roll.time):
        if not report.position.seated:
            return None
        pos = report.position
        last = day.timetable.trip_stop_times(pos.trip).stop - 1
        journey = Journey(pos.station, -1, report.time, (Leg(pos.trip, pos.row, last),))
        seated = pos.row
    elif roll is not None and (rides := tuple(leg for leg in roll.legs if not leg.is_walk)):
        journey = Journey(-1, -1, roll.plan_from, rides)
        seated = rides[0].board_row if roll.origin is not None and roll.origin.seated else -1
    else:
        return None
    return first_jail(journey, day.game.jail, day.network.tt, day.timetable, ov.arr_known, seated_at=seated)


PAY_SLACK = 15 * 60  # a payment shortly before the predicted arrival pays for that jail (predictions move)


def paid_out(play: Play, group: str, jail: Jail) -> bool:
    """Whether ``group`` (its name) paid its way out of ``jail`` (variant A, §17): a standing ``parking`` event
    for the jail from shortly before the jail began until its end. A paid jail is no jail: the group goes on."""
    standing = [r.event for r in play.state.ledger.events(play.day.ledger_rules, play.id) if not r.voided]
    return jail_payment(standing, group, jail) is not None


def pays_for(jail: Jail, t: int) -> bool:
    """Whether a payment at ``t`` pays for ``jail``: from :data:`PAY_SLACK` before it begins until its end."""
    return jail.arrival - PAY_SLACK <= t < jail.until


def jail_payment(events: Iterable[Event], group: str, jail: Jail) -> Event | None:
    """The payment among standing ``events`` that paid ``group`` out of ``jail`` (see :func:`paid_out`), or None."""
    return next((e for e in events if e.kind == "parking" and e.reason == "jail" and e.group == group
                 and pays_for(jail, e.time)), None)


def check_jail_payment(play: Play, group: str, event: Event, events: list[Event]) -> None:
    """Refuse paying out of a jail the group paid its way out of already (two phones of a group tapping at once,
    or a payment made anew): by the real-time data the payment is for the jail of the group's train
    (:func:`pays_for`), and a standing payment for it is among ``events``. Without real-time data, or for no
    known jail, the payment is the group's word (recorded)."""
    if not play.day.realtime_source:
        return
    g = play.group(group)
    jail = train_jail(play.day, group_day(play.day, play.state.groups.snapshot(play.id, g)), event.time)
    paid = jail_payment(events, g.name, jail) if jail is not None and pays_for(jail, event.time) else None
    if paid is not None:
        tt = play.day.timetable
        raise InputError(_("group {group} paid its way out of the jail at {station} ({start}-{end}) at {time} "
                           "already: it is not paid twice").format(
            group=g.name, station=tt.station_name[jail.station], start=fmt_clock(jail.arrival),
            end=fmt_clock(jail.until), time=fmt_clock(paid.time)))
