"""``next``: "what now?" for a group: where it is, what binds it, the itinerary, deadlines, bonus and fees."""

from __future__ import annotations

from dataclasses import dataclass, field

from planner.game.day import GroupState, Position
from planner.service.gameday import GameDay
from planner.service.group import GroupStatus, station_of, status_and_model
from planner.service.positions import origin_of, train_echo
from planner.service.pricing import cheapest, load_pricing
from planner.service.views import journey_json, late_warning
from planner.store.groups import GroupStore
from planner.store.ledger import LedgerStore
from planner.util.timefmt import fmt_clock


@dataclass(frozen=True)
class NextAnswer:
    """Everything a group needs now; ``itinerary`` is the JSON of the way to its target (heading only)."""

    status: GroupStatus
    itinerary: dict | None = None
    bonus: list[dict] = field(default_factory=list)
    fees: list[dict] = field(default_factory=list)  # what the itinerary costs the group (the ledger's fees)
    fees_total: int = 0
    warnings: list[str] = field(default_factory=list)


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
                           "target": ob.target, "board_by": fmt_clock(ob.board_by)},
            "next_roll_at": fmt_clock(state.next_roll_at), "targeted": list(state.targeted)}


def status_json(day: GameDay, st: GroupStatus) -> dict:
    """JSON of ``group status``: the state plus the history (``rolls``, ``positions``)."""
    rolls = [{"seq": r.seq, "time": fmt_clock(r.time), "dice": "".join(map(str, r.dice)), "kind": r.kind,
              "target": r.target, "free_until": fmt_clock(r.free_until), "position": r.position} for r in st.rolls]
    tt = day.timetable
    positions = []
    for p in st.positions:
        s = station_of(tt, p.station)
        positions.append({"time": fmt_clock(p.time), "station": tt.station_name[s] if s is not None else p.station,
                          "trip_id": p.trip_id, "label": p.label})
    return {**state_json(day, st.name, st.state), "game": day.game.name, "date": day.date.isoformat(),
            "rolls": rolls, "positions": positions}


def next_step(day: GameDay, store: GroupStore, group: str, time: int) -> NextAnswer:
    """The answer to "what now?" at ``time`` (see module docstring)."""
    from planner.game.bonus import bonus_chances
    from planner.game.dice import prefer_bonus
    from planner.routing import best_journey

    st, model = status_and_model(day, store, group, time)
    state, pos, ob = st.state, st.state.position, st.state.obligation
    late: list[str] = []
    if ob.board_by is not None and ob.board_by < state.time:
        late = [f"the 29-minute deadline was {fmt_clock(ob.board_by)}: take the next train, or tell where you are "
                "('planner group position')"]
    if pos is None or ob.kind in ("ended", "roll", "before_dice", "dice_soon"):
        return NextAnswer(st, warnings=late)
    if ob.kind == "jail":  # (§17) the way on starts when the jail ends, its change window then
        if ob.target is None:
            return NextAnswer(st, warnings=late)
        origin = origin_of(day, Position(pos.station, int(ob.until)), int(ob.until))
    else:
        origin = origin_of(day, pos, state.time)
    if ob.kind == "free":
        # free movement: any train may be taken, so every bonus chance of the next full hour counts
        chances = bonus_chances(day.network, day.game, origin)["chances"]
        return NextAnswer(st, bonus=[c for c in chances if _by(c, ob.until)], warnings=late)
    roll = model.last_roll(state.time)
    if roll is None or roll.target_station is None:
        return NextAnswer(st, warnings=[*late, f"{ob.target} cannot be reached from here on the game day"])
    j = best_journey(day.network, origin, roll.target_station, end_time=day.search_end)
    # the same choice as the roll's answer: of equally fast ways, one with the bonus, then the cheapest
    if j is not None:
        j = prefer_bonus(day.network, day.game, origin, roll.target_station, j)
    with LedgerStore(groups=store) as ledger:  # the same connection
        pricing = load_pricing(day, st.name, ledger)
    j = cheapest(day, pricing, origin, j)
    from planner.service.jail import jail_json, plan_jails

    jailed = plan_jails(day, origin, roll.target_station, j)  # §17 ahead: a late train of the way there
    j = jailed.journey
    it = journey_json(day, j, origin, roll.target_station, pricing)
    if jailed.jails:
        it["jail"] = jail_json(day, jailed, st.name)
    arrival = j.arrival(day.timetable) if j is not None else None
    return NextAnswer(st, it, bonus=_itinerary_chances(it), fees=it.get("fees", []),
                      fees_total=it.get("fees_total", 0), warnings=late + late_warning(day, arrival))


def group_origin(day: GameDay, store: GroupStore, group: str, time: int):
    """Where a group's way starts at ``time`` (its position in its day) as a routing origin, and the
    station of its target when it is heading for one (None otherwise)."""
    from planner.errors import InputError

    st, model = status_and_model(day, store, group, time)
    pos = st.state.position
    if pos is None:
        raise InputError(f"group {group}: position unknown; give --from (or tell it with 'planner group position')")
    roll = model.last_roll(st.state.time)
    heading = st.state.obligation.kind == "heading" and roll is not None
    return origin_of(day, pos, st.state.time), (roll.target_station if heading else None)


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


def _by(chance: dict, until: int | None) -> bool:
    from planner.util.timefmt import parse_clock

    return until is None or parse_clock(chance["board_time"]) <= until


def next_json(day: GameDay, ans: NextAnswer) -> dict:
    """JSON of ``planner next``."""
    out = state_json(day, ans.status.name, ans.status.state)
    out |= {"itinerary": ans.itinerary, "bonus": ans.bonus, "fees": ans.fees, "fees_total": ans.fees_total,
            "warnings": ans.warnings,
            "advice": advice(ans)}
    return out


def advice(ans: NextAnswer) -> str:
    """What to do, in words."""
    s = ans.status.state
    ob = s.obligation
    if ob.kind == "ended":
        return "the game is over"
    if ob.kind == "before_dice":
        return f"move freely; dice start at {fmt_clock(ob.until)}"
    if ob.kind == "dice_soon":
        return f"the dice rules apply from {fmt_clock(ob.since)}; first roll at {fmt_clock(ob.until)}"
    if ob.kind == "roll":
        return "roll the dice now"
    if ob.kind == "free":
        return f"free movement until {fmt_clock(ob.until)}; roll before it ends"
    if ob.kind == "jail":
        return (f"in jail here until {fmt_clock(ob.until)} (your train was 5 or more minutes late), then head for "
                f"{ob.target}")
    if ans.itinerary and ans.itinerary.get("already_there"):
        return f"you are at {ob.target}: roll again"
    if ans.itinerary and ans.itinerary.get("arrival"):
        return f"go to {ob.target}, arrival {ans.itinerary['arrival']}"
    return f"head for {ob.target}"
