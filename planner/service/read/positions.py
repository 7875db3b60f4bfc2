"""Where the group is, from what it types: a station at a time, or a train ("IR75 12:25") (use case input).

Rules that live here: a named train matches at the given stop or its first stop; with a time, the group
is where that train is at that time (nothing departs before it); without, at the stop it names.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from planner.errors import InputError, TrainAmbiguous
from planner.game.day import GroupDay, Position
from planner.routing import station_origin, trip_origin
from planner.service.setup.playing import GameDay
from planner.timetable.stations import exact_station
from planner.timetable.trips import describe_train, match_train
from planner.util.i18n import _
from planner.util.timefmt import fmt_clock

# A seated group "at" a stop whose train time is up to this much before the asked time is still there
# (the train stands in the station for its dwell; minute-rounded times).
SEATED_STOP_TOLERANCE = 60


@dataclass(frozen=True)
class PlaceRequest:
    """What the group typed: ``at`` a station (or the stop its train is at/approaching), ``time`` in
    seconds (None: the train's time there), ``trip`` a trip id or a named train; ``since`` (standing): when it
    got there (its change window started then; None: at ``time``)."""

    at: str | None = None
    time: int | None = None
    trip: str | None = None
    since: int | None = None


@dataclass(frozen=True)
class Place:
    """The resolved position and, when seated, how the train was understood (echoed to the group)."""

    position: Position
    train: str | None = None


def resolve_place(day: GameDay, req: PlaceRequest, hints: tuple[int, ...] = ()) -> Place:
    """Resolve a :class:`PlaceRequest` (errors are one-line :class:`InputError`).

    ``hints``: stations where the group stood or boarded lately (:func:`train_hints`); a train named without
    ``at`` is matched by its departure there first, as players name it ("S1 12:36" where they got on)."""
    tt = day.timetable
    if req.trip:
        s = day.station(req.at) if req.at else None
        m = _match_named(tt, req.trip, s, hints)
        rows = tt.trip_stop_times(m.trip)
        if req.time is not None:
            # the group's position in the train at that time: the stop it is at or approaching, by the later of
            # the timetable's and the predicted departure (a late train is still on its way; docs/rules.md §3)
            real = day.overlay.timetable if day.overlay is not None else tt  # (no network built for it)
            cand = [r for r in rows
                    if max(int(tt.st_dep[r]), int(real.st_dep[r])) >= req.time - SEATED_STOP_TOLERANCE]
            if s is not None:
                at_s = [r for r in cand if int(tt.stop_station[tt.st_stop[r]]) == s]
                cand = at_s or cand
            if not cand:
                raise InputError(_("{train} has arrived at its last stop by {time}").format(
                    train=describe_train(tt, m.trip), time=fmt_clock(req.time)))
            row = cand[0]
        elif s is not None:
            later = [r for r in rows if r >= m.row and int(tt.stop_station[tt.st_stop[r]]) == s]
            if not later:
                raise InputError(_("{train} does not call at {station}").format(train=describe_train(tt, m.trip),
                                                                                   station=tt.station_name[s]))
            row = later[0]
        else:
            row = m.row
        return Place(Position(int(tt.stop_station[tt.st_stop[row]]), int(tt.st_arr[row]), m.trip, row),
                     train_echo(day, m.trip, row))
    if not req.at:
        raise InputError(_("--at STATION (or --trip TRAIN) is required"),
                         phone=_("give the station (or the train you are in)"))
    if req.time is None:
        raise InputError(_("--time HH:MM is required"), phone=_("give the time (HH:MM)"))
    if req.since is not None and req.since > req.time:
        raise InputError(_("--since {since} is after --time {time}").format(since=fmt_clock(req.since),
                                                                            time=fmt_clock(req.time)),
                         phone=_("since {since} is after the time {time}").format(since=fmt_clock(req.since),
                                                                                 time=fmt_clock(req.time)))
    return Place(Position(day.station(req.at), int(req.time) if req.since is None else int(req.since)))


def _match_named(tt, ref: str, station: int | None, hints: tuple[int, ...]):
    """The train ``ref`` by its time at ``station``; without one, at the first hint it matches at (the group's
    station first), else at its first stop (as the answers' echo names a train): a time is read at the group's
    station before any other stop, so a train leaving there is never taken for another one leaving elsewhere at that
    minute (the error is the first hint's: it names that station). Several trains at the first stop it matches at:
    :class:`TrainAmbiguous` (the page asks)."""
    if station is not None or not hints:
        return match_train(tt, ref, station)
    first_error: InputError | None = None
    for h in (*hints, None):
        try:
            return match_train(tt, ref, h)
        except TrainAmbiguous:
            raise
        except InputError as e:
            first_error = first_error or e
    raise first_error  # type: ignore[misc]


def named_train(day: GameDay, model: GroupDay, ref: str, t: int, at: str | None = None) -> int:
    """The trip a group means by ``ref`` at ``t`` (a trip id, or "S3 13:01 [destination]" by its time at ``at``,
    else at the station its day has it at then: see :func:`_match_named`)."""
    return _match_named(day.timetable, ref, day.station(at) if at else None, train_hints(model, t)).trip


def train_hints(model: GroupDay, t: int) -> tuple[int, ...]:
    """Stations a group at ``t`` most likely names a train from: where it stands (or the stop its train is at),
    where its latest roll's itinerary boards (latest first), where it last reported standing."""
    out: list[int] = []
    pos = model.position_at(t)
    if pos is not None:  # standing there, or seated in a train at (or approaching) that stop
        out.append(pos.station)
    roll = model.last_roll(t)
    if roll is not None:
        tt = model.tt
        out += [leg.from_station(tt) for leg in reversed(roll.legs) if not leg.is_walk]
        if roll.origin is not None and not roll.origin.seated:
            out.append(roll.origin.station)
    out += [p.position.station for p in reversed(model.positions) if p.time <= t and not p.position.seated]
    return tuple(dict.fromkeys(out))


def train_echo(day: GameDay, trip: int, row: int) -> str:
    """``in IR70 12:09 Luzern → Zürich HB, next stop Zug 12:28`` (the stop the group is at or approaching)."""
    tt = day.timetable
    st = tt.station_name[tt.stop_station[tt.st_stop[row]]]
    return _("in {train}, next stop {station} {time}").format(train=describe_train(tt, trip), station=st,
                                                               time=fmt_clock(int(tt.st_arr[row])))


def origin_of(day: GameDay, pos: Position, time: int | None = None, *, got_off: bool = True):
    """The routing origin of a position asked at ``time`` (default: the position's own time), bound by the
    day's change window: a standing group got off at ``pos.since`` (docs/rules.md §3 "Legal itinerary") and boards
    from the change time after it; ``got_off=False``: a plain "we stand at S at T" (already on the platform)."""
    window = day.window_seconds
    if pos.seated:
        return trip_origin(day.network, pos.trip, pos.row, window=window, time=time)
    t = pos.since if time is None else max(int(time), pos.since)
    if got_off:
        # it got off at ``since``: it boards from the change time after it (docs/rules.md "Legal itinerary"); the
        # platform it got off at is not known here, so the station's shortest change time (never too strict)
        t = max(t, pos.since + day.network.min_change(pos.station))
    return station_origin(pos.station, t, since=pos.since, window=window)


def examples(day: GameDay) -> tuple[str, str]:
    """A station and a train of this game's own day, as a player types them (``Liestal``, ``S3 11:34``): the
    examples the phone's fields show, so a variant-B game never shows variant A's (the first dice target the
    timetable has, its first departure from the dice's start)."""
    tt = day.timetable
    names = [n for e in sorted(day.game.dice.targets, key=lambda e: e.number) for n in e.stations]
    station = next((s for s in (exact_station(tt, n) for n in names) if s is not None), 0 if tt.n_stations else None)
    if station is None:
        return "", ""
    rows = np.flatnonzero((tt.stop_station[tt.st_stop] == station) & (tt.st_dep >= day.game.clock.dice_from))
    if not len(rows):
        return tt.station_name[station], ""
    row = int(rows[np.argmin(tt.st_dep[rows])])
    trip = int(tt.st_trip[row])
    return tt.station_name[station], f"{tt.route_name[tt.trip_route[trip]]} {fmt_clock(int(tt.st_dep[row]))}"
