"""The stops of a group's day, as the fees see them (docs/rules.md §3 "Being at a station", §3b "A fee belongs to a
stop").

A stop is where the group's day has it: a station its train stops at, a station it stands at (since it got there),
the end of a walk, a toll line or tunnel its train travels. The day knows them from the group's position reports
(a reported train counts with every stop it makes while the group sits in it) and from the itineraries of its rolls
(followed until the next report). A fee is due once per stop, the stop's time is the fee's time, and no fee is
paid before its stop: :func:`fee_stop` finds the stop a fee is paid for, :func:`fees_due` lists the stops whose
fee is still owed.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

import numpy as np

from planner.errors import InputError
from planner.game.day import GroupDay, Position, PositionEvent, RollEvent
from planner.ledger.fees import TWO_DICE_MAX, TWO_DICE_MIN
from planner.ledger.model import STATION, TUNNEL
from planner.rail.crossings import crossing_kind
from planner.service.read.recorded_day import group_day
from planner.service.setup.playing import GameDay, Play
from planner.util.i18n import _
from planner.util.timefmt import fmt_clock

DAY_END = 48 * 3600  # the whole service day: every stop the day's itineraries plan
AHEAD = 30 * 60  # a fee named this long before its day's next stop there is paid before the stop (refused)
CROSSING_SAME = 15 * 60  # a crossing's fee paid this long after the train passed it is for that crossing


@dataclass(frozen=True, order=True)
class Stop:
    """The group at ``name`` (a station, or a toll line / tunnel it travels: ``kind``) at ``time`` (the train's
    arrival; for a crossing, its arrival at the stop after it: it has passed it then), in train ``trip`` (-1:
    standing, walking)."""

    time: int
    kind: str
    name: str
    trip: int = -1


def day_stops(play: Play, group: str, until: int = DAY_END) -> list[Stop]:
    """The stops of the group's day up to ``until``, in time order (one per presence at a station)."""
    model = group_day(play.day, play.state.groups.snapshot(play.id, play.group(group)))
    return stops_of(play.day, model, until)


def stops_of(day: GameDay, model: GroupDay, until: int) -> list[Stop]:
    """The stops of a group's day model up to ``until`` (see :func:`day_stops`): those of its whole day, worked
    out once per model (a model never changes; each fee and each poll asks again), up to that time."""
    kept = day.__dict__.setdefault("_fee_stops", {})
    hit = kept.get(id(model))
    if hit is None or hit[0] is not model:
        if len(kept) > 1024:
            kept.clear()
        hit = kept[id(model)] = (model, _whole_day(day, model))  # the model is kept with it: its id stays its own
    stops = hit[1]
    return stops[:bisect_right(stops, until, key=lambda s: s.time)]


def _whole_day(day: GameDay, model: GroupDay, until: int = DAY_END) -> list[Stop]:
    # a report at a roll's own time is where the roll was planned from: the roll's itinerary goes on from it
    entries: list[RollEvent | PositionEvent] = sorted([*model.rolls, *model.positions],
                                                      key=lambda x: (x.time, isinstance(x, RollEvent)))
    found: set[Stop] = set()
    for i, entry in enumerate(entries):
        end = min(until, entries[i + 1].time if i + 1 < len(entries) else DAY_END)
        if isinstance(entry, PositionEvent):
            found |= _from(day, entry.position, entry.time, end)
        elif entry.kind == "target" and entry.legs and entry.origin is not None:
            found |= _along(day, entry, end)
        elif entry.origin is not None:
            found |= _from(day, entry.origin, entry.time, end)
    return _one_per_presence(sorted(s for s in found if s.time <= until))


def _from(day: GameDay, pos: Position, reported: int, end: int) -> set[Stop]:
    """Standing: the presence at the station; seated: the stops of the train from the one it is at or nearing,
    and the crossings it travels from the report on (at the times trains run: predicted on real-time data)."""
    tt, real = day.timetable, day.network.tt
    if not pos.seated:
        return {Stop(pos.since, STATION, tt.station_name[pos.station])}
    rows = tt.trip_stop_times(pos.trip)
    out = _rides(day, pos.trip, pos.row, rows.stop - 1, end, first=True)
    for name, first, last in day.crossings_by_trip.get(pos.trip, ()):
        if first >= pos.row - 1 and reported < int(real.st_arr[last]) <= end:
            out.add(_crossing(day, name, int(real.st_arr[last]), pos.trip))
    return out


def _along(day: GameDay, roll: RollEvent, end: int) -> set[Stop]:
    """The stops of a roll's itinerary (from where it started) up to ``end``."""
    tt, real = day.timetable, day.network.tt
    assert roll.origin is not None
    out = set() if roll.origin.seated else {Stop(roll.origin.since, STATION, tt.station_name[roll.origin.station])}
    for i, leg in enumerate(roll.legs):
        if leg.is_walk:
            if leg.walk_arr <= end:
                out.add(Stop(leg.walk_arr, STATION, tt.station_name[leg.walk_to]))
            continue
        out |= _rides(day, leg.trip, leg.board_row, leg.alight_row, end, first=i == 0 and roll.origin.seated)
        for name, first, last in day.crossings_by_trip.get(leg.trip, ()):
            if first >= leg.board_row and last <= leg.alight_row and int(real.st_arr[last]) <= end:
                out.add(_crossing(day, name, int(real.st_arr[last]), leg.trip))
    return out


def _rides(day: GameDay, trip: int, board: int, alight: int, end: int, *, first: bool) -> set[Stop]:
    """The stations ``trip`` stops at after ``board`` (from ``board`` itself when the group sits in it already)
    up to ``alight``, arriving by ``end`` (at the times it runs: predicted on real-time data)."""
    tt = day.timetable
    rows = np.arange(board if first else board + 1, alight + 1)
    arr = day.network.tt.st_arr[rows]
    keep = tt.st_pickup[rows] | tt.st_dropoff[rows]
    keep[-1:] = True  # where it gets off
    rows, arr = rows[keep & (arr <= end)], arr[keep & (arr <= end)]
    names = tt.station_name
    return {Stop(int(a), STATION, names[s], trip) for a, s in zip(arr.tolist(), tt.stop_station[tt.st_stop[rows]].tolist(),
                                                                   strict=True)}


def _crossing(day: GameDay, name: str, time: int, trip: int) -> Stop:
    c = day.game.crossing(name)
    return Stop(time, crossing_kind(day.game, c) if c is not None else TUNNEL, name, trip)


def _one_per_presence(stops: list[Stop]) -> list[Stop]:
    """A station the group is at again with no other station in between is one presence (its first stop): the
    train's arrival and the report of standing there, a change of trains there."""
    out: list[Stop] = []
    last_station: Stop | None = None
    for s in stops:
        if s.kind == STATION:
            if last_station is not None and last_station.name == s.name:
                continue
            last_station = s
        out.append(s)
    return out


def fee_stop(play: Play, group: str, kind: str, name: str, time: int, now: int | None) -> int:
    """The time of the stop a fee of ``name`` paid "at ``time``" is for: the latest stop of the group's day there by
    then whose fee is still owed, however late; else its latest stop there, when that was a little before (the same
    stop paid again from another door: the ledger refuses it) or its day has the group there still; else ``time``
    itself (a stop its day does not know: its word). Refused when the stop lies after ``now``, or its day has the
    group on its way there: a fee is not paid before its stop."""
    if now is not None and time > now + 59:
        raise InputError(_("the stop at {name} is at {time}: its fee cannot be paid before (it is {now})").format(
            name=name, time=fmt_clock(time), now=fmt_clock(now)))
    stops = day_stops(play, group, time + 59)
    last = next((i for i in range(len(stops) - 1, -1, -1) if stops[i].kind == kind and stops[i].name == name), None)
    if last is None:
        _refuse_ahead(play, group, kind, name, time)
        return time
    # a fee still owed for a stop there (the latest first) is paid for that stop, at its time, however late: a
    # late payment counts as paid at the stop, so it never stands in the way of the group's next stops
    owed_at = [s for s in reversed(stops[:last + 1]) if s.kind == kind and s.name == name]
    # the latest stop alone first: it is nearly always the one paid, and the ledger at it is the ledger now (no
    # replay); the earlier ones only when it was paid
    unpaid = _first_unpaid(play, group, owed_at[:1]) or _first_unpaid(play, group, owed_at[1:])
    if unpaid is not None:
        return unpaid.time
    here = stops[last]
    # paid already: a tap soon after is that stop paid again from another door (refused as such); long after,
    # and elsewhere since, another stop there its day does not know (the group's word)
    if (kind == STATION and time - here.time > AHEAD and any(s.kind == STATION for s in stops[last + 1:])
            or kind != STATION and time - here.time > CROSSING_SAME):
        _refuse_ahead(play, group, kind, name, time)
        return time
    return here.time


def _first_unpaid(play: Play, group: str, stops: list[Stop]) -> Stop | None:
    """The first of ``stops`` whose fee the group still owes (as the ledger stood at its time), or None."""
    if not stops:
        return None
    dues = play.state.ledger.owed(play.day.ledger_rules, play.id, play.group(group).name,
                                  [(s.kind, s.name, s.time) for s in stops])
    return next((s for s, due in zip(stops, dues, strict=True) if due is not None), None)


def _refuse_ahead(play: Play, group: str, kind: str, name: str, time: int) -> None:
    """Refuse a fee named while the group's day has it in a train on its way to a stop there (no fee before its
    stop)."""
    model = group_day(play.day, play.state.groups.snapshot(play.id, play.group(group)))
    pos = model.position_at(time)
    if pos is None or not pos.seated:
        return
    ahead = next((s for s in stops_of(play.day, model, time + AHEAD) if s.time > time + 59 and s.kind == kind
                  and s.name == name and s.trip == pos.trip), None)
    if ahead is not None:
        raise InputError(_("the stop at {name} is at {time}: its fee cannot be paid before (it is {now})").format(
            name=name, time=fmt_clock(ahead.time), now=fmt_clock(time)))


def is_stop(play: Play, group: str, kind: str, name: str, time: int) -> bool:
    """True when the group's own day has it at ``name`` at ``time`` (to the minute): a stop of its day."""
    return any(s.kind == kind and s.name == name and s.time // 60 == time // 60
               for s in day_stops(play, group, time + 59))


def tunnel_range(multiplier: int) -> tuple[int, int]:
    """The least and most a tunnel fee of ``multiplier`` x two dice can be."""
    return multiplier * TWO_DICE_MIN, multiplier * TWO_DICE_MAX
