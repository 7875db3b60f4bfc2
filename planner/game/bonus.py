"""Full-hour fee (§6): which trains can the group sit in while they arrive/depart at hh:00 (B: hh:00-01)."""

from __future__ import annotations

import numpy as np

from planner.gamefile.game import Game
from planner.routing.journey import Leg
from planner.routing.network import last_rows
from planner.routing.query import Origin, Query, earliest_boarding, reach
from planner.timetable.model import Timetable
from planner.util.i18n import N_, _
from planner.util.timefmt import fmt_clock


def is_bonus_time(game: Game, t: int) -> bool:
    """True when ``t`` (seconds) falls in a bonus minute of a full hour within the game's hours."""
    return game.bonus.is_bonus_time(t, game.clock)


def bonus_time_between(game: Game, lo: int, hi: int) -> bool:
    """True when some second in ``[lo, hi]`` is a bonus time: no journey within that span can earn it otherwise."""
    return game.bonus.time_between(lo, hi, game.clock)


def _stops_here(tt: Timetable, row: int) -> bool:
    return bool(tt.st_pickup[row] or tt.st_dropoff[row])


def _event_time(tt: Timetable, game: Game, r: int, event: str, real: Timetable | None) -> int | None:
    """The time that earns the bonus at row ``r`` (``event`` arrival or departure): the timetable's, else
    (a game whose bonus counts "effektiv oder nach Fahrplan", variant B §6) the predicted one; None."""
    t = int(tt.st_arr[r] if event == "arrival" else tt.st_dep[r])
    if is_bonus_time(game, t):
        return t
    if real is not None and game.bonus.effective:
        t = int(real.st_arr[r] if event == "arrival" else real.st_dep[r])
        return t if is_bonus_time(game, t) and _stops_here(real, r) else None
    return None


def _bonus_stops(tt: Timetable, game: Game, board: int, alight: int, real: Timetable | None = None
                 ) -> list[tuple[int, str, int]]:
    """``(row, "arrival"|"departure", seconds)`` of every bonus-minute stop riding rows ``board..alight`` of
    one trip: departures from board..alight-1, arrivals at board+1..alight, only where the train stops.
    ``real``: the day on predicted times (a real time in a bonus minute counts where the game says so)."""
    out = []
    for r in range(board, alight + 1):
        if not _stops_here(tt, r):
            continue
        if r > board and (t := _event_time(tt, game, r, "arrival", real)) is not None:
            out.append((r, "arrival", t))
        if r < alight and (t := _event_time(tt, game, r, "departure", real)) is not None:
            out.append((r, "departure", t))
    return out


def leg_bonus_events(tt: Timetable, game: Game, leg: Leg, real: Timetable | None = None) -> list[dict]:
    """Bonus events while riding ``leg``: departures from board..alight-1, arrivals at board+1..alight
    (``real``: predicted times, see :func:`_bonus_stops`; ``effective`` marks an event only they earn)."""
    if leg.is_walk or not game.bonus.pays_more:
        return []
    out = []
    for r, event, t in _bonus_stops(tt, game, leg.board_row, leg.alight_row, real):
        planned = int(tt.st_arr[r] if event == "arrival" else tt.st_dep[r])
        ev = {"station": tt.station_name[tt.stop_station[tt.st_stop[r]]], "event": event, "time": fmt_clock(t),
              "hour": fmt_clock(t // 3600 * 3600), "fee": game.bonus.bonus_fee}
        if t != planned:
            ev["effective"] = True  # earned by the real time, not the timetable's
        out.append(ev)
    return out


def trip_meets_bonus(tt: Timetable, game: Game, trip: int, hour: int) -> bool:
    """True when ``trip`` arrives at or departs from a stop in the bonus minutes of the full hour ``hour``
    (seconds): a group sitting in it then earns the higher full-hour income (§6)."""
    first, last = int(tt.trip_offset[trip]), int(tt.trip_offset[trip + 1]) - 1
    return any(stop[2] // 3600 * 3600 == hour for stop in _bonus_stops(tt, game, first, last))


def _bonus_events(net, game: Game) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every timetable stop event in a bonus minute (:func:`_bonus_stops`' events, on the network's timetable):
    ``(time, row, is_arrival)`` sorted by time; remembered on the network per bonus rule and clock."""
    def compute() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        tt = net.plan
        last = last_rows(tt)
        first = np.zeros(len(last), bool)
        if tt.n_trips:
            first[tt.trip_offset[:-1]] = True
        stops = tt.st_pickup | tt.st_dropoff
        mins = np.array(sorted(game.bonus.minutes))
        times, rows, arrive = [], [], []
        for is_arr, t_all, ok in ((True, tt.st_arr, ~first), (False, tt.st_dep, ~last)):
            cand = np.flatnonzero(ok & stops & np.isin((t_all // 60) % 60, mins))
            keep = [int(r) for r in cand.tolist() if is_bonus_time(game, int(t_all[r]))]
            rows += keep
            times += [int(t_all[r]) for r in keep]
            arrive += [is_arr] * len(keep)
        order = np.argsort(np.asarray(times, np.int64), kind="stable")
        return (np.asarray(times, np.int64)[order], np.asarray(rows, np.int64)[order],
                np.asarray(arrive, np.bool_)[order])

    return net.remembered("_bonus_events", (game.bonus, game.clock), compute, 16)


def bonus_reachable(net, game: Game, first, target: int, arrival: int) -> bool:
    """False when no journey legal from the scan ``first``'s origin (towards ``target``, arriving by ``arrival``)
    can earn the full-hour bonus on the timetable: no trip on board in that scan stops at a bonus minute after
    the earliest row it is boarded at, at a time from which ``target`` can still be reached by ``arrival`` (static
    lower bounds). A journey arriving by then rides only trips that scan has on board, from that row or later."""
    times, rows, arrive = _bonus_events(net, game)
    lo, hi = np.searchsorted(times, [first.start_time, arrival + 1])
    if lo >= hi:
        return False
    t, r, is_arr = times[lo:hi], rows[lo:hi], arrive[lo:hi]
    tt = net.tt
    lb = net.lower_bounds(np.array([target], np.int32))[0]
    ok = t + lb[tt.stop_station[tt.st_stop[r]]].astype(np.int64) <= arrival
    if not ok.any():
        return False
    t, r, is_arr = t[ok], r[ok], is_arr[ok]
    trips = tt.st_trip[r]
    K = first.max_legs
    on = first.lvl[trips] <= K
    if not on.any():
        return False
    r, is_arr, trips = r[on], is_arr[on], trips[on]
    b = first.board[trips]  # rows valid: those trips are on board
    b_rows = np.where(b >= 0, net.c_row[np.maximum(b, 0)], np.iinfo(np.int64).max)
    b_rows = np.where(b == -2, -1, b_rows).min(axis=1)  # (-2: seated from the start, on board everywhere)
    return bool(np.any(np.where(is_arr, r > b_rows, r >= b_rows)))


# a predicted time in a bonus minute may belong to a train planned this much earlier (scan that much further)
_REAL_SLACK = 3600


def next_full_hour(t: int) -> int:
    """The next full hour at or after ``t``."""
    return -(-t // 3600) * 3600


def bonus_chances(net, game: Game, origin: Origin) -> dict:
    """Every train the group can be sitting in at the next full hour while it arrives/departs at that minute.

    For each such event: the trip, the station, arrival or departure, the time, and where/when to board it
    (earliest boarding reachable from ``origin``).
    """
    tt = net.plan  # events by timetable time; on predicted times too where the game counts them (§6 B)
    real = None if net.on_plan or not game.bonus.effective else net.tt
    hour = next_full_hour(origin.time)
    minutes = sorted(game.bonus.minutes)
    out = {"hour": fmt_clock(hour), "minutes": minutes, "fee": game.bonus.bonus_fee, "base_fee": game.bonus.base_fee,
           "chances": []}
    if not game.bonus.pays_more:
        return out
    if not game.bonus.hour_counts(hour, game.clock):
        # the game is over (or not begun) at that hour: nothing is offered past the end (docs/rules.md §3)
        return out | {"note": _("no full-hour fee at {hour}: the game runs {start}-{end}").format(
            hour=fmt_clock(hour), start=fmt_clock(game.clock.start), end=fmt_clock(game.clock.end))}
    lo, hi = hour + minutes[0] * 60, hour + minutes[-1] * 60 + 59
    # on predicted times a train may call later than planned: scan on for it
    res = reach(net, Query(origin, end_time=hi if net.on_plan else hi + _REAL_SLACK))
    # candidate events, vectorised over all stop times (this runs on every bonus question)
    st_trip = tt.st_trip
    first = np.zeros(len(st_trip), bool)
    if tt.n_trips:
        first[tt.trip_offset[:-1]] = True
    last = last_rows(tt)
    stops_here = tt.st_pickup | tt.st_dropoff
    mins = np.array(minutes)
    events = []
    for day in (tt, real) if real is not None else (tt,):
        for ev, times, ok in (("arrival", day.st_arr, ~first), ("departure", day.st_dep, ~last)):
            hit = ok & stops_here & (times >= lo) & (times <= hi) & np.isin((times // 60) % 60, mins)
            if day is real:
                hit &= real.st_pickup | real.st_dropoff
            events += [(int(r), ev, int(times[r])) for r in np.flatnonzero(hit)]
    kept: dict[tuple[int, str], tuple[int, str, int]] = {}
    for e in events:  # the timetable's time first: it is the one shown when both earn it
        kept.setdefault(e[:2], e)
    events = list(kept.values())
    chances = []
    boarding: dict[int, int | None] = {}
    for r, ev, t in sorted(events):
        trip = int(st_trip[r])
        if trip not in boarding:
            boarding[trip] = earliest_boarding(res, trip)
        b = boarding[trip]
        if b is None:
            continue
        if (ev == "departure" and b <= r) or (ev == "arrival" and b < r):
            chances.append({
                "trip_id": tt.trip_id[trip], "route": tt.route_name[tt.trip_route[trip]],
                "headsign": tt.trip_headsign[trip],
                "station": tt.station_name[tt.stop_station[tt.st_stop[r]]], "event": ev, "time": fmt_clock(t),
                "board_at": tt.station_name[tt.stop_station[tt.st_stop[b]]],
                "board_time": fmt_clock(int(tt.st_dep[b])),
                "seated_now": bool(origin.in_trip and trip == origin.trip),
            })
    chances.sort(key=lambda c: (c["time"], c["board_time"], c["route"], c["station"]))
    return out | {"chances": chances}


BONUS_EVENT_WORDS = {"arrival": N_("arrival"), "departure": N_("departure")}


def bonus_event_word(event: str) -> str:
    """A bonus chance's ``event`` ("arrival" or "departure", the answer's key) as a word of the reader's language."""
    word = BONUS_EVENT_WORDS.get(event)
    return _(word) if word else event
