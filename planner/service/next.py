"""``next``: "what now?" for a group: where it is, what binds it, the itinerary, deadlines, bonus and fees.

The itinerary of a group heading for its target is the one its roll gave (the stored legs, from where the group is
now), as long as the group's reports keep it on that itinerary; a group that reported itself elsewhere gets the
fastest legal way from there.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from planner.errors import InputError
from planner.game.bonus import bonus_chances
from planner.game.day import GroupDay, GroupState, Position
from planner.game.dice import prefer_bonus
from planner.routing import Journey, Origin, best_journey
from planner.service.day_model import station_of
from planner.service.gameday import GameDay
from planner.service.group import GroupStatus, status_and_model
from planner.service.jail import JailPlan, jail_json, paid_out, plan_jails
from planner.service.play import Play
from planner.service.positions import origin_of, train_echo
from planner.service.pricing import Pricing, cheapest, load_pricing
from planner.service.views import journey_json, late_warning
from planner.util.timefmt import fmt_clock, parse_clock


@dataclass(frozen=True)
class NextAnswer:
    """Everything a group needs now; ``itinerary`` is the JSON of the way to its target (heading only)."""

    status: GroupStatus
    itinerary: dict | None = None
    bonus: list[dict] = field(default_factory=list)
    fees: list[dict] = field(default_factory=list)  # what the itinerary costs the group (the ledger's fees)
    fees_total: int = 0
    warnings: list[str] = field(default_factory=list)
    rule: str | None = None  # the change window's name ("29-minute rule"), None without one


def state_json(day: GameDay, name: str, state: GroupState) -> dict:
    """JSON of a group's state (shared by ``group status``, ``group list`` and ``next``)."""
    tt = day.timetable
    pos = state.position
    ob = state.obligation
    p = None
    if pos is not None:
        p = {"station": tt.station_name[pos.station], "since": fmt_clock(pos.since), "seated": pos.seated,
             "trip_id": tt.trip_id[pos.trip] if pos.seated else None,
             "train": train_echo(day, pos.trip, pos.row) if pos.seated else None}
    return {"group": name, "time": fmt_clock(state.time), "position": p,
            "obligation": {"kind": ob.kind, "since": fmt_clock(ob.since), "until": fmt_clock(ob.until),
                           "target": ob.target, "board_by": fmt_clock(ob.board_by), "forced": ob.forced,
                           "rule": day.window.label if day.window else None},
            "next_roll_at": fmt_clock(state.next_roll_at), "targeted": list(state.targeted)}


def status_json(day: GameDay, st: GroupStatus) -> dict:
    """JSON of ``group status``: the state plus the history (``rolls``, ``positions``)."""
    rolls = [{"seq": r.seq, "time": fmt_clock(r.time), "dice": "".join(map(str, r.dice)), "kind": r.kind,
              "target": r.target, "free_until": fmt_clock(r.free_until), "position": r.position} for r in st.rolls]
    tt = day.timetable
    positions = []
    for p in st.positions:
        s = station_of(tt, p.station)
        positions.append({"time": fmt_clock(p.time), "since": fmt_clock(p.since),
                          "station": tt.station_name[s] if s is not None else p.station,
                          "trip_id": p.trip_id, "label": p.label})
    return {**state_json(day, st.name, st.state), "number": st.number, "game": day.game.name,
            "date": day.date.isoformat(), "rolls": rolls, "positions": positions}


def next_step(play: Play, group: str, time: int) -> NextAnswer:
    """The answer to "what now?" at ``time`` (see module docstring)."""
    day = play.day
    st, model = status_and_model(play, group, time)
    state, pos, ob = st.state, st.state.position, st.state.obligation
    rule = day.window.label if day.window else None
    late: list[str] = []
    if ob.board_by is not None and ob.board_by < state.time:
        late = [f"the {rule}'s deadline was {fmt_clock(ob.board_by)}: take the next train, or tell where you are "
                "('planner group position')"]
    if pos is None or ob.kind == "ended" or (ob.kind == "jail" and ob.target is None):
        return NextAnswer(st, warnings=late, rule=rule)
    if ob.kind not in ("heading", "jail"):
        # no target binds the group (before the dice, free movement, a roll due): every full-hour chance on a
        # legal way counts; moving freely, those it can board before that ends (the dice start, the free time's
        # end: the day model's rule, as advise reads it)
        chances = bonus_chances(day.network, day.game, origin_of(day, pos, state.time))["chances"]
        return NextAnswer(st, bonus=[c for c in chances if not ob.moves_freely
                                     or ob.may_board_freely(parse_clock(c["board_time"]))],
                          warnings=late, rule=rule)
    way = way_on(play, st, model)
    if way is None:
        return NextAnswer(st, warnings=[*late, f"{ob.target} cannot be reached from here on the game day"], rule=rule)
    j = way.journey
    it = journey_json(day, j, way.origin, way.target, way.pricing)
    if way.jailed.jails and not way.paid:
        it["jail"] = jail_json(day, way.jailed, st.name)
    arrival = j.arrival(day.timetable) if j is not None else None
    return NextAnswer(st, it, bonus=_itinerary_chances(it), fees=it.get("fees", []),
                      fees_total=it.get("fees_total", 0), warnings=late + late_warning(day, arrival), rule=rule)


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
        raise InputError(f"group {st.name}: position unknown; give --from (or tell it with 'planner group position')")
    roll = model.last_roll(st.state.time)
    heading = st.state.obligation.kind == "heading" and roll is not None
    return origin_of(play.day, pos, st.state.time), (roll.target_station if heading else None)


def _itinerary_chances(it: dict) -> list[dict]:
    """The bonus events on the itinerary the group must take, in the shape of ``bonus`` chances: a group
    heading for its target may earn the bonus only along its way (no detour, no train back)."""
    out = []
    for leg in it.get("legs", []):
        for b in leg.get("bonus", []):
            out.append({"trip_id": leg["trip_id"], "route": leg["route"], "headsign": leg["headsign"],
                        "station": b["station"], "event": b["event"], "time": b["time"], "fee": b["fee"],
                        "board_at": leg["from"], "board_time": leg["departure"]})
    return out


def next_json(day: GameDay, ans: NextAnswer) -> dict:
    """JSON of ``planner next``."""
    out = state_json(day, ans.status.name, ans.status.state)
    out |= {"itinerary": ans.itinerary, "bonus": ans.bonus, "fees": ans.fees, "fees_total": ans.fees_total,
            "warnings": ans.warnings, "advice": advice(ans)}
    return out


def advice(ans: NextAnswer) -> str:
    """What to do, in words."""
    s = ans.status.state
    ob = s.obligation
    board = ""
    if ob.board_by is not None and s.position is not None and not s.position.seated:
        board = (f"; the {ans.rule} binds the train leaving at {fmt_clock(ob.board_by)}" if ob.forced
                 else f"; board a train leaving by {fmt_clock(ob.board_by)} ({ans.rule})")
    if ob.kind == "ended":
        return "the game is over"
    if ob.kind == "before_dice":
        return f"move freely; dice start at {fmt_clock(ob.until)}{board}"
    if ob.kind == "dice_soon":
        return f"the dice rules apply from {fmt_clock(ob.since)}; first roll at {fmt_clock(ob.until)}{board}"
    if ob.kind == "roll":
        return "roll the dice now"
    if ob.kind == "free":
        return f"free movement until {fmt_clock(ob.until)}; roll before it ends{board}"
    if ob.kind == "jail":
        return (f"in jail here until {fmt_clock(ob.until)} (your train was 5 or more minutes late), then head for "
                f"{ob.target}")
    if ans.itinerary and ans.itinerary.get("already_there"):
        return f"you are at {ob.target}: roll again"
    if ans.itinerary and ans.itinerary.get("arrival"):
        return f"go to {ob.target}, arrival {ans.itinerary['arrival']}"
    return f"head for {ob.target}"
