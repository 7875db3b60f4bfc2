"""Find the train a group sits in (pure): by trip id, or as players know it, "IR75 10:03"."""

from __future__ import annotations

import re

from planner.errors import InputError
from planner.timetable.model import Timetable
from planner.util.text import fold
from planner.util.timefmt import fmt_clock, parse_clock

_TRAIN = re.compile(r"^\s*(?P<route>\S+(?:\s\d+)?)\s+(?P<time>\d{1,2}:\d{2})(?:\s+(?P<head>.+?))?\s*$")


def find_trip(tt: Timetable, ref: str, station: int | None = None) -> int:
    """Resolve a trip id, or ``"ROUTE HH:MM [HEADSIGN]"``: the train of that line (``IR75``, ``S26``) that
    arrives at or departs from a station at that time, optionally towards HEADSIGN; when several match,
    the ones that stop at ``station`` after that time.

    Unknown or ambiguous references raise :class:`InputError` naming the candidates.
    """
    ref = (ref or "").strip()
    if ref in tt.trip_index:
        return tt.trip_index[ref]
    m = _TRAIN.match(ref)
    if not m:
        raise InputError(f"unknown trip id {ref!r} (not running in the game area on {tt.date}); "
                         "give a trip id or the train as 'IR75 10:03'")
    route, t = fold(m.group("route")).replace(" ", ""), parse_clock(m.group("time"), allow_past_midnight=True)
    routes = {r for r, name in enumerate(tt.route_name) if fold(name).replace(" ", "") == route}
    if not routes:
        raise InputError(f"no line {m.group('route')!r} runs in the game area on {tt.date}")
    cands = []
    for trip in range(tt.n_trips):
        if int(tt.trip_route[trip]) not in routes:
            continue
        if m.group("head") and not fold(tt.trip_headsign[trip]).startswith(fold(m.group("head"))):
            continue
        rows = tt.trip_stop_times(trip)
        hit = [r for r in rows if int(tt.st_arr[r]) // 60 == t // 60 or int(tt.st_dep[r]) // 60 == t // 60]
        if hit:
            cands.append((trip, hit[0]))
    if station is not None and cands:
        # the group is at or approaching `station`: the train must come there at or after the named time
        at = [(c, r0) for c, r0 in cands if any(int(tt.stop_station[tt.st_stop[r]]) == station
                                                for r in range(r0, tt.trip_offset[c + 1]))]
        if not at:
            raise InputError(f"no {m.group('route')} of {fmt_clock(t)} comes to {tt.station_name[station]} "
                             "after that time")
        cands = at
    cands = [c for c, _ in cands]
    if len(cands) == 1:
        return cands[0]
    if not cands:
        raise InputError(f"no {m.group('route')} stops anywhere in the game area at {fmt_clock(t)} on {tt.date}")
    shown = "; ".join(f"{tt.trip_id[c]} to {tt.trip_headsign[c]}" for c in cands[:5])
    raise InputError(f"{ref!r} is ambiguous: {shown} (add the destination, e.g. '{ref} "
                     f"{tt.trip_headsign[cands[0]]}', or give the trip id)")


def train_time(ref: str) -> str | None:
    """The ``HH:MM`` of a ``"ROUTE HH:MM [HEADSIGN]"`` reference (None for a trip id)."""
    m = _TRAIN.match(ref or "")
    return m.group("time") if m else None
