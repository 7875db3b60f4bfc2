"""A group's recorded day as the model (:class:`~planner.game.day.GroupDay`), and a roll's plan as it is stored.

The store keeps station and trip ids (stable across timetable builds); the model works with the day's indexes.
"""

from __future__ import annotations

import json

from planner.game.day import GroupDay, Position, PositionEvent, RollEvent
from planner.routing import Journey, Leg
from planner.service.setup.playing import GameDay
from planner.store.records import GroupSnapshot, PositionRecord, RollRecord
from planner.timetable.model import Timetable
from planner.timetable.stations import exact_station

# a roll's stored position label: "Zug", or "Zürich HB (in IR70 12:09 Luzern → Zürich HB)" for a seated group
SEATED_LABEL = " (in "


def label_station(label: str) -> str:
    """The station name of a roll's stored position label (the stop a seated group's train is at or nearing)."""
    return label.split(SEATED_LABEL)[0]


def station_of(tt: Timetable, ref: str | None) -> int | None:
    """The station a stored reference names: its station id (what is stored), else its exact name."""
    if not ref:
        return None
    s = tt.station_index.get(ref)
    return s if s is not None else exact_station(tt, ref)


def station_name_of(tt: Timetable, ref: str) -> str:
    """The name of the station a stored reference names (the reference itself when the day has no such station)."""
    s = station_of(tt, ref)
    return tt.station_name[s] if s is not None else ref


def position_json(day: GameDay, pos: Position) -> dict:
    """A position as stored in a roll's plan (ids, the trip's stop by its number)."""
    tt = day.timetable
    d: dict = {"station": tt.station_id[pos.station], "since": pos.since}
    if pos.seated:
        d |= {"trip_id": tt.trip_id[pos.trip], "offset": pos.row - tt.trip_stop_times(pos.trip).start}
    return d


def position_from(day: GameDay, d: dict | None) -> Position | None:
    """The inverse of :func:`position_json` (None: not on this day's timetable)."""
    if not d:
        return None
    tt = day.timetable
    s = station_of(tt, d["station"])
    if s is None:
        return None
    trip = tt.trip_index.get(d.get("trip_id") or "", -1)
    rows = tt.trip_stop_times(trip) if trip >= 0 else range(0)
    if trip < 0 or not 0 <= int(d.get("offset") or 0) < len(rows):  # a stored offset past the trip: standing
        return Position(s, int(d["since"]))
    return Position(s, int(d["since"]), trip, rows.start + int(d["offset"] or 0))


def plan_json(day: GameDay, plan_from: int, origin: Position, journey: Journey | None, arrival: int | None,
              reroll_at: int | None) -> str:
    """A roll's itinerary as stored (what the group's day model reads back)."""
    tt = day.timetable
    legs: list[list] = []
    for leg in journey.legs if journey is not None else ():
        if leg.is_walk:
            legs.append(["walk", tt.station_id[leg.walk_from], tt.station_id[leg.walk_to], leg.walk_dep, leg.walk_arr])
        else:
            start = tt.trip_stop_times(leg.trip).start
            legs.append([tt.trip_id[leg.trip], leg.board_row - start, leg.alight_row - start])
    return json.dumps({"plan_from": plan_from, "origin": position_json(day, origin), "arrival": arrival,
                       "reroll_at": reroll_at,
                       "target_station": tt.station_id[journey.target_station] if journey is not None else None,
                       "legs": legs}, ensure_ascii=False)


def _legs(tt: Timetable, stored: list) -> tuple[Leg, ...]:
    """The stored legs on this timetable (a trip or station no longer in it ends the itinerary there)."""
    out = []
    for item in stored:
        if item and item[0] == "walk":
            a, b = station_of(tt, item[1]), station_of(tt, item[2])
            if a is None or b is None:
                break
            out.append(Leg(-1, -1, -1, a, b, int(item[3]), int(item[4])))
            continue
        trip = tt.trip_index.get(item[0])
        if trip is None or not 0 <= int(item[1]) <= int(item[2]) < len(tt.trip_stop_times(trip)):
            break
        start = tt.trip_stop_times(trip).start
        out.append(Leg(trip, start + int(item[1]), start + int(item[2])))
    return tuple(out)


def group_day(day: GameDay, snap: GroupSnapshot) -> GroupDay:
    """The model of a recorded group day on this game day's timetable (shared: built once per snapshot, which the
    group store keeps while the group is unchanged; nothing changes a model once built)."""
    kept = day.models.get(id(snap))
    if kept is not None and kept[0] is snap:
        return kept[1]
    model = _group_day(day, snap)
    if len(day.models) > 1024:
        day.models.clear()
    day.models[id(snap)] = (snap, model)  # the snapshot is kept with it, so its id is not reused meanwhile
    return model


def _group_day(day: GameDay, snap: GroupSnapshot) -> GroupDay:
    events = day.day_events  # record -> its event (records are immutable, and read again after every change)
    if len(events) > 1 << 14:
        events.clear()
    rolls = []
    for r in snap.rolls:
        ev = events.get(r)
        if ev is None:
            ev = events[r] = _roll_event(day, r)
        rolls.append(ev)
    positions = []
    for p in snap.positions:
        ev = events.get(p, False)
        if ev is False:
            ev = events[p] = _position_event(day, p)
        if ev is not None:
            positions.append(ev)
    return GroupDay(day.timetable, day.game, rolls, positions, deadline_of=day.deadline_of if day.window else None)


def _roll_event(day: GameDay, r: RollRecord) -> RollEvent:
    tt = day.timetable
    plan = json.loads(r.plan) if r.plan else {}
    ts = station_of(tt, plan.get("target_station"))
    # "rides" (trips only) is how planner 0.1 stored an itinerary
    return RollEvent(r.seq, r.time, r.kind, r.target, ts, r.free_until, plan.get("plan_from", r.time),
                     position_from(day, plan.get("origin")), plan.get("arrival"), plan.get("reroll_at"),
                     _legs(tt, plan.get("legs", plan.get("rides", []))))


def _position_event(day: GameDay, p: PositionRecord) -> PositionEvent | None:
    pos = position_from(day, {"station": p.station, "since": p.since, "trip_id": p.trip_id, "offset": p.stop_offset})
    return None if pos is None else PositionEvent(p.id, p.time, pos)
