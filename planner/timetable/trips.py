"""Find the train a group sits in (pure): by trip id, or as players name it, "IR70 12:09 [destination]".

A named train matches by line and its time at the stop the group names (``station``: where it stands or the
stop its train is at; its arrival or departure there), else by its departure at its first stop; never by another
stop's time. A line may be given as its category (``IR`` matches IR70 and IR75). Several matches are a
:class:`TrainAmbiguous` listing each (a page asks which one); none is an error listing that line's departures
nearby.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from planner.errors import InputError, TrainAmbiguous
from planner.timetable.model import Timetable
from planner.util.i18n import _, format_long_date
from planner.util.text import fold
from planner.util.timefmt import TIME_PATTERN, fmt_clock, parse_clock

_TRAIN = re.compile(rf"^\s*(?P<route>\S+(?:\s\d+)?)\s+(?P<time>{TIME_PATTERN})(?:\s+(?P<head>.+?))?\s*$")


@dataclass(frozen=True)
class TrainMatch:
    """A train: ``trip`` and the stop-time ``row`` the reference names (its time there or its first stop)."""

    trip: int
    row: int


def describe_train(tt: Timetable, trip: int, row: int | None = None) -> str:
    """``IR70 12:09 Luzern → Zürich HB`` (the departure at ``row``, default the first stop)."""
    rows = tt.trip_stop_times(trip)
    r = rows.start if row is None else row
    first = tt.station_name[tt.stop_station[tt.st_stop[r]]]
    last = tt.station_name[tt.stop_station[tt.st_stop[rows.stop - 1]]]
    return f"{tt.route_name[tt.trip_route[trip]]} {fmt_clock(int(tt.st_dep[r]))} {first} → {last}"


_LINE = re.compile(r"^(?P<kind>[a-z]*)(?P<number>\d+)$")


def _route_matches(query: str, name: str) -> bool:
    q, n = fold(query).replace(" ", ""), fold(name).replace(" ", "")
    return n == q or (n.startswith(q) and n[len(q):].isdigit() and not q[-1:].isdigit())


def _same_number(query: str, name: str) -> bool:
    """The line as the feed numbers it ("70" for the Bus 70, "19" for the R19), or with another category in front
    ("S19"): players read the number off the vehicle, and the train's time decides which one it is."""
    q, n = _LINE.match(fold(query).replace(" ", "")), _LINE.match(fold(name).replace(" ", ""))
    return q is not None and n is not None and int(q["number"]) == int(n["number"])


def line_routes(tt: Timetable, line: str) -> set[int]:
    """The routes a line named by a player means: its name as the planner writes it (``IR75``, ``Bus 70``, a
    category alone: ``IR``), else the feed's own number of it, bus and rail alike (``70``, ``19``, ``S19``)."""
    routes = {r for r, name in enumerate(tt.route_name) if _route_matches(line, name)}
    return routes or {r for r, name in enumerate(tt.route_name) if _same_number(line, name)}


def match_train(tt: Timetable, ref: str, station: int | None = None) -> TrainMatch:
    """Resolve a trip id or ``"LINE HH:MM [DESTINATION]"`` (see module docstring)."""
    ref = (ref or "").strip()
    if ref in tt.trip_index:
        trip = tt.trip_index[ref]
        return TrainMatch(trip, tt.trip_stop_times(trip).start)
    m = _TRAIN.match(ref)
    if not m:
        raise InputError(_("unknown trip id {trip} (not running in the game area on {date}); give a trip id or "
                           "the train as line and time, e.g. {example}").format(
            trip=repr(ref), date=format_long_date(tt.date), example="'IR75 10:03'"))
    line, t = m.group("route"), parse_clock(m.group("time"))
    routes = line_routes(tt, line)
    if not routes:
        raise InputError(_("no line {line} runs in the game area on {date}").format(
            line=repr(line), date=format_long_date(tt.date)))
    head = fold(m.group("head")) if m.group("head") else None
    hits: list[TrainMatch] = []
    nearby: list[tuple[int, int, int]] = []  # (|dt|, trip, row) of this line at the named stops
    for trip in range(tt.n_trips):
        if int(tt.trip_route[trip]) not in routes:
            continue
        rows = tt.trip_stop_times(trip)
        if head and not fold(tt.station_name[tt.stop_station[tt.st_stop[rows.stop - 1]]]).startswith(head) \
                and not fold(tt.trip_headsign[trip]).startswith(head):
            continue
        # its time at the named stop (its arrival or departure there), else its departure at its first stop
        at = [r for r in rows if int(tt.stop_station[tt.st_stop[r]]) == station] if station is not None \
            else [rows.start]
        for r in at:
            times = {int(tt.st_dep[r])} if station is None else {int(tt.st_arr[r]), int(tt.st_dep[r])}
            if any(x // 60 == t // 60 for x in times):
                hits.append(TrainMatch(trip, r))
                break
            nearby.append((min(abs(x - t) for x in times), trip, r))
    if len(hits) == 1:
        return hits[0]
    if not hits:
        near = sorted(x for x in nearby if x[0] <= 30 * 60)[:4]
        nearby_text = "; ".join(describe_train(tt, tr, r) for _, tr, r in near)
        where = {"line": line, "time": fmt_clock(t), "date": format_long_date(tt.date), "nearby": nearby_text}
        if station is None and near:
            raise InputError(_("no {line} leaves its first stop at {time} on {date}; nearby: {nearby}").format(**where))
        if station is None:
            raise InputError(_("no {line} leaves its first stop at {time} on {date}").format(**where))
        where["station"] = tt.station_name[station]
        if near:
            raise InputError(_("no {line} calls at {station} at {time} on {date}; nearby: {nearby}").format(**where))
        raise InputError(_("no {line} calls at {station} at {time} on {date}").format(**where))
    shown = "; ".join(describe_train(tt, h.trip, h.row) for h in hits[:6])
    example = tt.station_name[tt.stop_station[tt.st_stop[tt.trip_stop_times(hits[0].trip)[-1]]]]
    raise TrainAmbiguous(_("'{ref}' matches {n} trains: {shown} (choose one, or add the destination, e.g. "
                           "'{ref} {example}')").format(ref=ref, n=len(hits), shown=shown, example=example),
                         [{"trip_id": tt.trip_id[h.trip], "train": describe_train(tt, h.trip, h.row)} for h in hits])


def find_trip(tt: Timetable, ref: str, station: int | None = None) -> int:
    """The trip index of a trip id or named train (see :func:`match_train`)."""
    return match_train(tt, ref, station).trip
