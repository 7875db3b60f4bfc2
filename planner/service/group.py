"""Use cases of a group's day: roll, undo, set position, status, list groups (the CLI and the web app call these).

Each reads the group's recorded day from the store, builds its :class:`~planner.game.day.GroupDay`, lets the
model check the change, computes the answer **outside** any write transaction, and records it with a
version check (:meth:`GroupStore.commit_roll`): a group changed in between is recomputed, never overwritten.
Results are typed; their ``to_json()`` is the CLI's ``--json`` shape.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field

from planner.errors import InputError, PlannerError
from planner.game.day import GroupDay, GroupState, Position, PositionEvent, Ride, RollEvent
from planner.service.gameday import GameDay
from planner.service.positions import Place, PlaceRequest, origin_of, resolve_place, train_echo, train_hints
from planner.service.pricing import cheapest_answer, load_pricing
from planner.service.views import dice_json
from planner.store.groups import (
    GroupSnapshot,
    GroupStore,
    PositionRecord,
    Roll,
    RollRecord,
    StaleGroup,
    group_key,
)
from planner.store.ledger import LedgerStore
from planner.store.records import replay
from planner.timetable.stations import exact_station
from planner.timetable.trips import describe_train
from planner.util.text import fold
from planner.util.timefmt import fmt_clock

MAX_RECOMPUTE = 8  # commits retried after a concurrent change of the same group

# a roll's stored position label: "Zug", or "Zürich HB (in IR70 12:09 Luzern → Zürich HB)" for a seated group
SEATED_LABEL = " (in "


def label_station(label: str) -> str:
    """The station name of a roll's stored position label (the stop a seated group's train is at or nearing)."""
    return label.split(SEATED_LABEL)[0]



# ---- the recorded day as a model ------------------------------------------------------------------

def station_of(tt, ref: str | None) -> int | None:
    """The station a stored reference names: its station id (what is stored), else its exact name."""
    if not ref:
        return None
    s = tt.station_index.get(ref)
    return s if s is not None else exact_station(tt, ref)


def _pos_json(day: GameDay, pos: Position) -> dict:
    tt = day.timetable
    d: dict = {"station": tt.station_id[pos.station], "since": pos.since}
    if pos.seated:
        d |= {"trip_id": tt.trip_id[pos.trip], "offset": pos.row - tt.trip_stop_times(pos.trip).start}
    return d


def _pos_from(day: GameDay, d: dict | None) -> Position | None:
    if not d:
        return None
    tt = day.timetable
    s = station_of(tt, d["station"])
    if s is None:
        return None
    trip = tt.trip_index.get(d.get("trip_id") or "", -1)
    rows = tt.trip_stop_times(trip) if trip >= 0 else range(0)
    if trip < 0 or not 0 <= int(d.get("offset") or 0) < len(rows):  # (a stored offset past the trip: standing)
        return Position(s, int(d["since"]))
    return Position(s, int(d["since"]), trip, rows.start + int(d["offset"] or 0))


def group_day(day: GameDay, snap: GroupSnapshot) -> GroupDay:
    """The model of a recorded group day on this game day's timetable."""
    tt = day.timetable
    rolls = []
    for r in snap.rolls:
        plan = json.loads(r.plan) if r.plan else {}
        rides = []
        for trip_id, b, a in plan.get("rides", []):
            trip = tt.trip_index.get(trip_id)
            if trip is not None and a < len(tt.trip_stop_times(trip)):  # a ride past its trip's end: not kept
                start = tt.trip_stop_times(trip).start
                rides.append(Ride(trip, start + b, start + a))
        ts = station_of(tt, plan.get("target_station"))
        rolls.append(RollEvent(r.seq, r.time, r.kind, r.target, ts, r.free_until, plan.get("plan_from", r.time),
                               _pos_from(day, plan.get("origin")), plan.get("arrival"), plan.get("reroll_at"),
                               tuple(rides)))
    positions = []
    for p in snap.positions:
        pos = _pos_from(day, {"station": p.station, "since": p.time, "trip_id": p.trip_id, "offset": p.stop_offset})
        if pos is not None:
            positions.append(PositionEvent(p.id, p.time, pos))
    return GroupDay(tt, day.game, rolls, positions, deadline_of=day.deadline_of if day.window else None)


# ---- typed requests and results ---------------------------------------------------------------------

@dataclass(frozen=True)
class RollRequest:
    """A roll: ``dice`` (one die 1-6, or white*10+coloured) at ``time`` (seconds); ``place`` where the group
    is (or, during free movement, will be at its end; empty: where the model has it); ``roll_id`` makes a
    retry idempotent."""

    group: str
    dice: int
    time: int
    place: PlaceRequest = field(default_factory=PlaceRequest)
    roll_id: str | None = None

    def canonical(self) -> str:
        """The inputs as one text: a reused roll id must come with the same."""
        p = self.place
        return json.dumps({"group": group_key(self.group), "dice": self.dice, "time": self.time,
                           "at": fold(p.at) if p.at else None, "trip": (p.trip or "").strip() or None},
                          sort_keys=True)


@dataclass(frozen=True)
class RollResult:
    """The recorded roll: ``answer_text`` is exactly what was stored (a retry returns the same bytes)."""

    seq: int
    answer_text: str
    replayed: bool

    def to_json(self) -> dict:
        """The answer (``planner roll --json``)."""
        return json.loads(self.answer_text)


@dataclass(frozen=True)
class GroupStatus:
    """A group's state now plus its history (``group status``)."""

    name: str
    key: str
    state: GroupState
    rolls: tuple[RollRecord, ...]
    positions: tuple[PositionRecord, ...]
    train: str | None = None


def _checked_answer(day: GameDay, model: GroupDay, req: RollRequest):
    """Check the roll, resolve where it is planned from, and decide it (pure computation, no writes)."""
    from planner.game.dice import validate_roll
    from planner.service.rules import decide_at

    validate_roll(day.game, req.dice)
    given: Place | None = None
    if req.place.at or req.place.trip:
        given = resolve_place(day, PlaceRequest(req.place.at, req.place.time if req.place.trip else req.time,
                                                req.place.trip), train_hints(model, req.time))
    plan = model.check_roll(req.time, given.position if given else None)
    if plan.position is None:
        raise InputError("where is the group? give --at STATION (or --trip TRAIN)")
    pos = plan.position
    if pos.seated:
        pos = model.advance(pos, plan.plan_from)
    # standing: the itinerary starts at the roll and ``since`` stays when the group got there, so the change
    # window binds (during free movement too: RULES.md §3 "A group's day")
    origin = origin_of(day, pos, plan.plan_from)
    ans = decide_at(day, origin, req.dice, list(model.targeted()))
    return ans, origin, plan, pos, given


def roll(day: GameDay, store: GroupStore, req: RollRequest) -> RollResult:
    """Record a roll for a group and answer it (see module docstring)."""
    request = req.canonical()
    if req.roll_id is not None and (old := store.find_roll(req.roll_id)) is not None:
        replay(old, day.game.name, day.date.isoformat(), group_key(req.group), Roll(
            time=req.time, dice=tuple(int(c) for c in str(req.dice)), kind=old.kind, target=old.target,
            free_until=old.free_until, request=request))
        if old.answer is not None:
            return RollResult(old.seq, old.answer, True)
    tt = day.timetable
    for _ in range(MAX_RECOMPUTE):
        snap = store.snapshot(day.game.name, day.date, req.group)
        model = group_day(day, snap)
        ans, origin, plan, pos, given = _checked_answer(day, model, req)
        with LedgerStore(groups=store) as ledger:  # the same connection
            pricing = load_pricing(day, snap.name, ledger)
        ans = cheapest_answer(day, pricing, origin, ans)  # a roll is always priced for its group (§9.3)
        out = dice_json(day, ans, origin, pricing)
        if plan.free_until is not None and ans.kind == "target":
            out["warnings"].append(
                f"rolled during free movement (until {fmt_clock(plan.free_until)}): {ans.target} is the target "
                "from then on (§4.5); this is the earliest legal arrival from now"
                + (f" under the {day.window.label}" if day.window else ""))
        if pos.seated:  # always say which train the answer starts in
            out["train"] = given.train if given is not None and given.train else train_echo(day, pos.trip, pos.row)
        seq = len(snap.rolls) + 1
        targeted = list(model.targeted())
        if ans.kind == "target" and ans.target and ans.target not in targeted:
            targeted.append(ans.target)
        out |= {"group": snap.name, "seq": seq, "targeted": targeted, "time": fmt_clock(req.time),
                "plan_from": fmt_clock(plan.plan_from)}
        text = json.dumps(out, ensure_ascii=False)
        j = ans.journey
        plan_json = {"plan_from": plan.plan_from, "origin": _pos_json(day, pos), "arrival": ans.arrival,
                     "reroll_at": ans.reroll_at,
                     "target_station": tt.station_id[j.target_station] if j is not None else None,
                     "rides": [[tt.trip_id[leg.trip], leg.board_row - tt.trip_stop_times(leg.trip).start,
                                leg.alight_row - tt.trip_stop_times(leg.trip).start]
                               for leg in (j.legs if j is not None else ()) if not leg.is_walk]}
        label = tt.station_name[pos.station] + (f"{SEATED_LABEL}{describe_train(tt, pos.trip)})" if pos.seated else "")
        record = Roll(time=req.time, dice=tuple(int(c) for c in str(req.dice)), kind=ans.kind,
                      target=ans.target if ans.kind == "target" else None, free_until=ans.free_until,
                      position=label, roll_id=req.roll_id, request=request, answer=text,
                      plan=json.dumps(plan_json, ensure_ascii=False))
        try:
            rec = store.commit_roll(day.game.name, day.date, req.group, record, snap.version)
        except StaleGroup:
            continue
        return RollResult(rec.seq, rec.answer or text, rec.answer is not None and rec.answer != text)
    raise PlannerError(f"group {req.group} changed {MAX_RECOMPUTE} times while its roll was computed; try again")


def set_position(day: GameDay, store: GroupStore, group: str, place: PlaceRequest, time: int) -> GroupStatus:
    """Record "we got off at X at T" or "we are in the IR75 12:25" (checked by the model)."""
    tt = day.timetable
    for _ in range(MAX_RECOMPUTE):
        snap = store.snapshot(day.game.name, day.date, group)
        model = group_day(day, snap)
        resolved = resolve_place(day, PlaceRequest(place.at, time, place.trip), train_hints(model, time))
        model.check_position(time)
        pos = resolved.position
        offset = pos.row - tt.trip_stop_times(pos.trip).start if pos.seated else None
        label = resolved.train or f"at {tt.station_name[pos.station]}"
        try:
            rec = store.add_position(day.game.name, day.date, group, time, tt.station_id[pos.station],
                                     tt.trip_id[pos.trip] if pos.seated else None, offset, label,
                                     expected_version=snap.version)
        except StaleGroup:
            continue
        # the day as written: the snapshot it was checked against plus this report (no second read)
        written = dataclasses.replace(snap, version=snap.version + 1, positions=tuple(
            sorted((*snap.positions, rec), key=lambda p: (p.time, p.id))))
        st = _status_of(day, written, time)[0]
        now = st.state.position
        # the echo names the stop the group's day has it at (one rule: GroupDay.advance), not the matched row
        echo = train_echo(day, now.trip, now.row) if now is not None and now.seated else resolved.train
        return GroupStatus(st.name, st.key, st.state, st.rolls, st.positions, echo)
    raise PlannerError(f"group {group} changed {MAX_RECOMPUTE} times while its position was recorded; try again")


@dataclass(frozen=True)
class UndoResult:
    """What undo removed: a roll (``seq``) or a position report (``position``), or nothing."""

    group: str
    removed: int | None
    position: str | None = None


def undo(day: GameDay, store: GroupStore, group: str) -> UndoResult:
    """Remove the group's latest entry (a mistyped roll or report)."""
    rec = store.undo_last(day.game.name, day.date, group)
    if rec is None:
        return UndoResult(group, None)
    if isinstance(rec, RollRecord):
        return UndoResult(group, rec.seq)
    return UndoResult(group, None, f"{rec.label or rec.station} at {fmt_clock(rec.time)}")


def status_and_model(day: GameDay, store: GroupStore, group: str, time: int) -> tuple[GroupStatus, GroupDay]:
    """The group's state at ``time`` and its history, with the model it was read from (one snapshot, so a
    use case needing both never reads the group twice nor sees two versions of it)."""
    return _status_of(day, store.snapshot(day.game.name, day.date, group), time)


def _status_of(day: GameDay, snap: GroupSnapshot, time: int) -> tuple[GroupStatus, GroupDay]:
    model = group_day(day, snap)
    last = model.last_time
    if last is not None and time < last:
        time = last  # a status asked for an earlier time shows the latest state (times never run backwards)
    return GroupStatus(snap.name, snap.key, model.state_at(time), snap.rolls, snap.positions), model


def status(day: GameDay, store: GroupStore, group: str, time: int) -> GroupStatus:
    """The group's state at ``time`` and its history."""
    return status_and_model(day, store, group, time)[0]


def list_groups(day: GameDay, store: GroupStore, time: int) -> list[GroupStatus]:
    """Every group with an entry on the day, with its state at ``time``."""
    return [status(day, store, key, time) for key in store.groups(day.game.name, day.date)]
