"""The change-window rule (variant A §4.2, "29-minute rule") for one stop and for a day's log.

Which departures an arrival event may board is decided in one place, :mod:`planner.routing.rule_scan`
(the router uses the same function); what that asks of the group is :meth:`ChangeWindow.deadline`; this
module puts the two together and words the answers. Whether the rule applies and its window are game-file
data (``[zugzwang]``, :attr:`Game.window`); ``window=None`` means the game has no such rule.
"""

from __future__ import annotations

import numpy as np

from planner.game.day import Position
from planner.gamefile.rules import ChangeWindow, Deadline
from planner.routing.journey import Journey
from planner.routing.network import TransitNetwork
from planner.routing.rule_scan import event_boardings
from planner.timetable.model import Mode
from planner.util.i18n import _, ngettext
from planner.util.timefmt import fmt_clock

NEXT_DEPARTURES_MINUTES = 30  # without a change window: the departures of the next half hour are shown


def boardable(net: TransitNetwork, station: int, a: int, window: int, *, stop: int = -1,
              since: int | None = None) -> np.ndarray:
    """Connection indexes a group may board after getting off at ``station`` at ``a`` (seconds).

    ``stop``: the platform it got off at (its change times apply); -1 with ``since`` given: a group standing
    there since ``since`` and asking at ``a`` (no change time); -1 without: platform unknown (a log), the
    station's shortest change time applies.
    """
    w_end = _window_end(a, window, None if stop >= 0 else since)
    if stop >= 0:
        p, ready = int(stop), int(a)
    elif since is not None:
        p, ready = -1, int(a)
    else:
        p, ready = -1, int(a) + net.min_change(station)
    return event_boardings(net.day_arrays, net.rule_arrays(int(window)), int(station), p, ready, w_end)


def _window_end(a: int, window: int, since: int | None) -> int:
    """Last second of the window for a group that got off at ``a``, or (``since`` given) that has stood
    there since ``since`` and asks at ``a`` (a window already over ends now)."""
    return int(a) + window if since is None else max(int(a), int(since) + window)


def _departure(net: TransitNetwork, c: int, catchable: bool) -> dict:
    tt = net.tt
    trip, row = int(net.c_trip[c]), int(net.c_row[c])
    rail = int(tt.route_mode[tt.trip_route[trip]]) == Mode.RAIL  # a bus or tram stop's letter is no track
    out = {"trip_id": tt.trip_id[trip], "route": tt.route_name[tt.trip_route[trip]],
           "headsign": tt.trip_headsign[trip], "platform": tt.stop_platform[tt.st_stop[row]] if rail else "",
           "departure": fmt_clock(int(net.c_plan_dep[c])), "catchable": catchable}
    if not net.on_plan:  # on predicted times: the timetable time (the window's) and the predicted delay
        out["departure_delay_min"] = (int(net.c_dep[c]) - int(net.c_plan_dep[c])) // 60
    return out


def deadline_at(net: TransitNetwork, window: ChangeWindow, pos: Position) -> Deadline | None:
    """The deadline of a group standing at ``pos.station`` since ``pos.since`` (it got off then: the station's
    change time applies): the window's end, or the forced train's departure when none leaves in it."""
    ok = boardable(net, pos.station, pos.since, window.seconds)
    return window.deadline(pos.since, np.sort(net.c_plan_dep[ok]))  # by timetable time (docs/rules.md §3)


def zugzwang(net: TransitNetwork, station: int, t: int, window: ChangeWindow | None, exclude_trip: int = -1,
             stop: int = -1) -> dict:
    """Deadline and the trains a group may take after getting off at ``station`` at ``t`` (at platform
    ``stop`` when known). Every train leaving in the window is listed, ``catchable`` False for one it cannot
    catch (change time); when none is catchable, the forced next one(s) (``forced_next``). ``board_by`` is the
    deadline (:meth:`ChangeWindow.deadline`). ``window=None``: the game has no such rule (``applies`` False):
    the departures there of the next :data:`NEXT_DEPARTURES_MINUTES` the group can catch, no deadline."""
    name = net.tt.station_name[station]
    if window is None:
        ok = boardable(net, station, t, NEXT_DEPARTURES_MINUTES * 60, stop=stop)
        ok = ok[(net.c_trip[ok] != exclude_trip) & (net.stop_station[net.c_from[ok]] == station)]
        ok = ok[np.argsort(net.c_dep[ok], kind="stable")]
        return {"applies": False, "minutes": None, "rule": None, "station": name, "got_off": fmt_clock(t),
                "deadline": None, "board_by": None, "departures": _one_per_train(_departure(net, int(c), True)
                                                                                  for c in ok),
                "forced_next": False}
    w = window.seconds
    ok = boardable(net, station, t, w, stop=stop)
    ok = ok[net.c_trip[ok] != exclude_trip]
    # the window holds trains by timetable departure (docs/rules.md §3 "Real time"): ``ok`` is in predicted order
    dl = window.deadline(t, np.sort(net.c_plan_dep[ok]))
    forced = dl is not None and dl.forced
    if forced:
        deps = [_departure(net, int(c), True) for c in ok]
    else:
        # every train the window holds (timetable departure), also one planned earlier that leaves late
        off, time, conn = net.station_boardings[:3]
        real = net.boarding_times[0][off[station]:off[station + 1]]
        time, cand = time[off[station]:off[station + 1]], conn[off[station]:off[station + 1]]
        cand = cand[(time <= t + w) & ((time >= t) | (real >= t)) & (net.c_trip[cand] != exclude_trip)]
        good = set(ok.tolist())
        deps = [_departure(net, int(c), int(c) in good) for c in cand]
    out = _one_per_train(deps)
    return {"applies": True, "minutes": window.minutes, "rule": window.label, "station": name,
            "got_off": fmt_clock(t), "deadline": fmt_clock(window.closes(t)),
            "board_by": fmt_clock(dl.time) if dl is not None else None, "departures": out, "forced_next": forced}


def _one_per_train(deps) -> list[dict]:
    """The departures, one row per train (its first)."""
    seen, out = set(), []
    for d in deps:
        if d["trip_id"] not in seen:
            seen.add(d["trip_id"])
            out.append(d)
    return out


def journey_log(net: TransitNetwork, journey: Journey) -> list[dict]:
    """An itinerary as the legs ``check_legs`` reads (stations, platforms, times)."""
    tt = net.tt
    return [{"from_station": leg.from_station(tt), "to_station": leg.to_station(tt), "departure": leg.departure(tt),
             "arrival": leg.arrival(tt), "line": i + 1,
             "from_stop": -1 if leg.is_walk else int(tt.st_stop[leg.board_row]),
             "to_stop": -1 if leg.is_walk else int(tt.st_stop[leg.alight_row])}
            for i, leg in enumerate(journey.legs)]


def check_legs(net: TransitNetwork, legs: list[dict], window: ChangeWindow | None, *,
               start: tuple[int, int] | None = None) -> list[dict]:
    """Every violation of §4.1/§4.2 in a day's log: legs as dicts with ``from_station``, ``to_station``,
    ``departure``, ``arrival`` (station indexes, seconds), ``line``, optionally ``from_stop``/``to_stop``
    (platforms: their change times apply). ``start = (since, time)``: the first leg is checked too, for a
    group standing at its first station since ``since`` and asking at ``time``, the earliest it may board (a group
    that got off at ``since`` boards from its change time after it: pass the time
    :func:`planner.service.read.positions.origin_of` gives). ``window=None``: only §4.1."""
    tt = net.tt
    out = []
    if start is not None and legs and window is not None:
        since, t = start
        v = _wait_violation(net, legs[0]["from_station"], t, legs[0], window.seconds, since=since)
        if v:
            out.append({"line": legs[0]["line"], "rule": "4.2", "message": v})
    for prev, cur in zip(legs, legs[1:], strict=False):
        here = prev["to_station"]
        if cur["from_station"] != here:
            out.append({"line": cur["line"], "rule": "4.1",
                        "message": _("left from {left} but arrived at {arrived} (no walking between stations)").format(
                            left=tt.station_name[cur["from_station"]], arrived=tt.station_name[here])})
            continue
        v = _change_violation(net, prev, cur)
        if v:
            out.append({"line": cur["line"], "rule": "4.1", "message": v})
        if window is None:
            continue
        v = _wait_violation(net, here, prev["arrival"], cur, window.seconds, stop=prev.get("to_stop", -1))
        if v:
            out.append({"line": cur["line"], "rule": "4.2", "message": v})
    return out


def _change_violation(net: TransitNetwork, prev: dict, cur: dict) -> str | None:
    """Why the change from ``prev`` to ``cur`` cannot be made (shorter than the feed's change time between the two
    platforms, or a change the feed forbids), or None; only when both platforms are known."""
    a, b = prev.get("to_stop", -1), cur.get("from_stop", -1)
    if a < 0 or b < 0:
        return None
    need, gap = net.change_seconds(a, b), cur["departure"] - prev["arrival"]
    if need >= 0 and gap >= need:
        return None
    tt = net.tt
    where = {"station": tt.station_name[prev["to_station"]], "from_platform": tt.stop_platform[a] or "-",
             "to_platform": tt.stop_platform[b] or "-"}
    if need < 0:
        return _("a change at {station} (pl. {from_platform} -> pl. {to_platform}) the timetable does not "
                 "allow").format(**where)
    return _("a change of {minutes} min at {station} (pl. {from_platform} -> pl. {to_platform}); the timetable "
             "needs {needed} min").format(minutes=gap // 60, needed=need // 60, **where)


def _wait_violation(net: TransitNetwork, here: int, t: int, cur: dict, window: int, *, stop: int = -1,
                    since: int | None = None) -> str | None:
    """Why taking ``cur`` after getting off at ``here`` at ``t`` breaks §4.2, or None when it is allowed."""
    tt = net.tt
    ok = boardable(net, here, t, window, stop=stop, since=since)
    d = cur["departure"]
    at = cur.get("from_stop", -1)
    if len(ok) == 0 or any(int(net.c_plan_dep[c]) == d and (at < 0 or int(net.c_from[c]) == at) for c in ok):
        return None
    deadline = _window_end(t, window, since)
    first = int(ok[np.argmin(net.c_plan_dep[ok])])  # the earliest planned (ok is in predicted order)
    if d <= deadline or d < int(net.c_plan_dep[first]):
        return None  # inside the window (or before anything catchable): a question of change time, not of waiting
    route = tt.route_name[tt.trip_route[net.c_trip[first]]]
    where, t0 = tt.station_name[here], since if since is not None else t
    if int(net.c_plan_dep[first]) <= deadline:
        return ngettext("waited {minutes} min at {station} after {since}; {trains} train left by {deadline}, first "
                        "{route} {departure}",
                        "waited {minutes} min at {station} after {since}; {trains} trains left by {deadline}, first "
                        "{route} {departure}", len(ok)).format(
            minutes=(d - t0) // 60, station=where, since=fmt_clock(t0), trains=len(ok), deadline=fmt_clock(deadline),
            route=route, departure=fmt_clock(int(net.c_plan_dep[first])))
    return _("no train within {window} min of {since} at {station}: the next one ({route} {departure}) had to be "
             "taken").format(window=window // 60, since=fmt_clock(t0), station=where, route=route,
                             departure=fmt_clock(int(net.c_plan_dep[first])))
