"""``next``: "what now?" for a group: where it is, what binds it, the itinerary, deadlines, bonus and fees.

The itinerary of a group heading for its target is the one its roll gave (the stored legs, from where the group is
now), as long as the group's reports keep it on that itinerary; a group that reported itself elsewhere gets the
fastest legal way from there.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import msgspec

from planner.errors import InputError
from planner.game.bonus import bonus_chances
from planner.game.day import GroupDay, Position
from planner.game.dice import prefer_bonus
from planner.routing import Journey, Origin, best_journey
from planner.service.answers.group_status import Chance, NextAnswer
from planner.service.answers.itinerary import Fee, Itinerary
from planner.service.change.group_day import GroupStatus, status_and_model
from planner.service.questions.group_states import state_fields
from planner.service.read.jail_plans import JailPlan, paid_out, plan_jails
from planner.service.read.ledger_views import playing
from planner.service.read.positions import origin_of
from planner.service.read.pricing import Pricing, cheapest, load_pricing
from planner.service.read.rule_words import board_text, message, obligation_text, rule_label
from planner.service.read.views import jail_answer, journey_json, late_warning
from planner.service.setup.playing import GameDay, Play
from planner.util.i18n import _
from planner.util.timefmt import fmt_clock, parse_clock


@dataclass(frozen=True)
class NextStep:
    """Everything a group needs now (``next``): its status, the way to its target (heading only), the bonus
    chances, the fees ahead, warnings."""

    status: GroupStatus
    itinerary: Itinerary | None = None
    bonus: list[Chance] = field(default_factory=list)
    fees: list[Fee] = field(default_factory=list)  # what the itinerary costs the group (the ledger's fees)
    fees_total: int | float = 0
    warnings: list[str] = field(default_factory=list)


def next_step(play: Play, group: str, time: int) -> NextStep:
    """The answer to "what now?" at ``time`` (see module docstring)."""
    day = play.day
    st, model = status_and_model(play, group, time)
    playing(play, st.name)
    state, pos, ob = st.state, st.state.position, st.state.obligation
    rule = rule_label(day.game)
    late: list[str] = []
    if ob.board_by is not None and ob.board_by < state.time and rule is not None:
        late = [_("the {rule}'s deadline was {board_by}: take the next train, or tell where you are ('planner "
                  "group position')").format(rule=rule, board_by=fmt_clock(ob.board_by))]
    if pos is None or ob.kind == "ended" or (ob.kind == "jail" and ob.target is None):
        return NextStep(st, warnings=late)
    if ob.kind not in ("heading", "jail"):
        # no target binds the group (before the dice, free movement, a roll due): every full-hour chance on a
        # legal way counts; moving freely, those it can board before that ends (the dice start, the free time's
        # end: the day model's rule, as advise reads it)
        chances = bonus_chances(day.network, day.game, origin_of(day, pos, state.time))["chances"]
        return NextStep(st, bonus=[msgspec.convert(c, Chance) for c in chances if not ob.moves_freely
                                   or ob.may_board_freely(parse_clock(c["board_time"]))], warnings=late)
    way = way_on(play, st, model)
    if way is None:
        return NextStep(st, warnings=[*late, _("{target} cannot be reached from here on the game day").format(
            target=ob.target)])
    j = way.journey
    it = journey_json(day, j, way.origin, way.target, way.pricing)
    if way.jailed.jails and not way.paid:
        it = msgspec.structs.replace(it, jail=jail_answer(day, way.jailed, st.name))
    arrival = j.arrival(day.timetable) if j is not None else None
    return NextStep(st, it, bonus=_itinerary_chances(it), fees=it.fees or [],
                    fees_total=it.fees_total or 0, warnings=late + late_warning(day, arrival))


@dataclass(frozen=True)
class Way:
    """The way on of a group a target binds: from ``origin`` to the ``target`` station, ``journey`` (None: no
    legal way gets there), the jails ahead on real times (``paid``: it paid out of the first), priced for it."""

    origin: Origin
    target: int
    journey: Journey | None
    jailed: JailPlan
    paid: bool
    pricing: Pricing


def way_on(play: Play, st: GroupStatus, model: GroupDay) -> Way | None:
    """The itinerary a group heading for its target (or in jail on the way, §17) must follow from where it is at
    its state's time: the one its roll gave while its reports keep it on it, else the roll's choice again from
    here; what ``next`` shows. None when no target binds the group, or its target is not on the game day."""
    day, state = play.day, st.state
    pos, ob = state.position, state.obligation
    if pos is None or ob.kind not in ("heading", "jail") or ob.target is None:
        return None
    roll = model.last_roll(state.time)
    if roll is None or roll.target_station is None:
        return None
    if ob.kind == "jail":  # (§17, real-time data) the way on starts when the jail ends, its change window then
        origin = origin_of(day, Position(pos.station, int(ob.until)), int(ob.until), got_off=False)
    else:
        origin = origin_of(day, pos, state.time)
    pricing = load_pricing(play, st.name)
    if model.on_plan(roll, state.time) and not day.realtime_source and ob.kind != "jail":
        j: Journey | None = Journey(pos.station, roll.target_station, state.time, model.rest_of_plan(roll, state.time))
    else:  # off its itinerary, or on real times (a late train, a missed change, a jail): re-planned from here
        j = _replan(day, origin, roll.target_station, pricing)
    jailed = plan_jails(day, origin, roll.target_station, j)  # §17 ahead: a late train of the way there
    paid = bool(jailed.jails) and paid_out(play, st.name, jailed.jails[0])
    # paid out of it: the way on real times, without the 30 minutes
    return Way(origin, roll.target_station, j if paid else jailed.journey, jailed, paid, pricing)


def _replan(day: GameDay, origin: Origin, target: int, pricing) -> Journey | None:
    """The roll's choice again from a new position: fastest, of equally fast one with the bonus, the cheapest."""
    j = best_journey(day.network, origin, target, end_time=day.search_end)
    if j is not None:
        j = prefer_bonus(day.network, day.game, origin, target, j)
    return cheapest(day, pricing, origin, j)


def group_origin(play: Play, group: str, time: int) -> tuple[Origin, int | None]:
    """Where a group's way starts at ``time`` (its position in its day) as a routing origin, and the station of
    its target when it is heading for one (None otherwise)."""
    st, model = status_and_model(play, group, time)
    pos = st.state.position
    if pos is None:
        raise InputError(_("group {group}: position unknown; give --from (or tell it with 'planner group "
                           "position')").format(group=st.name),
                         phone=_("group {group}: position unknown; tell where you are first").format(group=st.name))
    roll = model.last_roll(st.state.time)
    heading = st.state.obligation.kind == "heading" and roll is not None
    return origin_of(play.day, pos, st.state.time), (roll.target_station if heading else None)


def _itinerary_chances(it: Itinerary) -> list[Chance]:
    """The bonus events on the itinerary the group must take, as ``bonus`` chances: a group heading for its
    target may earn the bonus only along its way (no detour, no train back)."""
    return [Chance(trip_id=leg.trip_id or "", route=leg.route, headsign=leg.headsign, station=b.station,
                   event=b.event, time=b.time, fee=b.fee, board_at=leg.from_, board_time=leg.departure)
            for leg in it.legs for b in leg.bonus]


def next_json(day: GameDay, ans: NextStep) -> NextAnswer:
    """``planner next``: the group's state, the way on and what to do now."""
    return NextAnswer(**state_fields(day, ans.status.name, ans.status.state), itinerary=ans.itinerary,
                      bonus=ans.bonus, fees=ans.fees, fees_total=ans.fees_total, warnings=ans.warnings,
                      advice=advice(day, ans))


def advice(day: GameDay, ans: NextStep) -> str:
    """What to do, in words: what binds the group (for one heading for its target: where to go, and when it
    arrives), and the change window's deadline when it stands at a station."""
    state = ans.status.state
    ob = state.obligation
    said = obligation_text(day.game, state)
    it = ans.itinerary
    if ob.kind == "heading" and it is not None and it.already_there is True:
        said = message("advice.there", target=ob.target)
    elif ob.kind == "heading" and it is not None and it.arrival:
        said = message("advice.go", target=ob.target, arrival=it.arrival)
    board = board_text(day.game, state) if ob.moves_freely else None
    return said.text if board is None else f"{said.text}; {board.text}"
