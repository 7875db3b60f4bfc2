"""The router: a :class:`Query` (where the group is, towards which stations, until when) goes to :func:`reach`,
which runs the scan and returns its :class:`~planner.routing.result.ReachResult`; and the questions built on it:
best journey, journeys within X minutes, equally fast ones.

The origin (:mod:`planner.routing.origin`) says where the group is and which change window binds it; the scans
are :mod:`planner.routing.csa` (plain) and :mod:`planner.routing.rule_scan` (under the window), which take the
network's arrays and the query's as structures (:mod:`planner.routing.arrays`); the results and their journeys are
:mod:`planner.routing.result`.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from planner.routing.arrays import Compiled, ScanSpec, label_views
from planner.routing.csa import INF, scan
from planner.routing.journey import Journey, Leg
from planner.routing.network import TransitNetwork
from planner.routing.origin import DEFAULT_MAX_LEGS, Origin, station_origin, trip_origin
from planner.routing.result import ReachResult, RuleReachResult
from planner.routing.rule_scan import rule_scan

_SCAN, _RULE_SCAN = Compiled(scan), Compiled(rule_scan)

__all__ = ["DEFAULT_MAX_LEGS", "Origin", "Query", "ReachResult", "RuleReachResult", "best_journey",
           "earliest_boarding", "equally_fast", "journey_riding", "journeys_within", "obeys_window",
           "plain_best_journey", "reach", "reach_targets", "station_origin", "trip_origin"]


@dataclass(frozen=True)
class Query:
    """One routing question: from ``origin`` (under its change window, if any), towards the stations ``target``
    (one index, several, or none: every station), for departures until ``end_time`` (default: the end of the
    service day), with at most ``max_legs`` trips; ``arrive_by`` (with targets): only arrivals there by then are
    wanted (later ones may be missing). Only the targets' labels (and journeys to them) are final: the scan may
    stop after the latest of their best arrivals, and under the rule drops what cannot beat them."""

    origin: Origin
    target: int | Sequence[int] = -1
    end_time: int | None = None
    max_legs: int = DEFAULT_MAX_LEGS
    arrive_by: int | None = None
    targets: tuple[int, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        t = self.target
        many = () if isinstance(t, int | np.integer) and int(t) < 0 else (
            (int(t),) if isinstance(t, int | np.integer) else tuple(int(x) for x in t))
        object.__setattr__(self, "targets", many)


def reach(net: TransitNetwork, query: Query) -> ReachResult:
    """Route ``query`` on ``net``: one-to-many earliest arrival from its origin, under the origin's change window
    when it has one (see :class:`Query`)."""
    origin = query.origin
    start = origin.time
    end = int(query.end_time) if query.end_time is not None else int(INF) - 1
    tt = net.tt
    target = query.targets[0] if len(query.targets) == 1 else (list(query.targets) or -1)
    targets, is_target, last = net.target_arrays(target)
    arrive_by = query.arrive_by
    if len(targets) and not is_target[origin.station]:
        end = min(end, last)  # nothing departing later can arrive there
        if arrive_by is not None:
            end = min(end, int(arrive_by))  # (nor by then)
        joined = net.station_reach[origin.station]
        if not any(joined[t] for t in query.targets):
            end = -1  # not even the static network joins them: nothing to scan
    if origin.in_trip:
        o_stop = int(tt.st_stop[origin.row])
        o_arr = max(int(tt.st_arr[origin.row]), int(origin.time))  # a train standing there: get off now
        o_drop = bool(tt.st_dropoff[origin.row])
        o_station = -1
    else:
        o_stop, o_arr, o_drop, o_station = -1, 0, False, origin.station
    if origin.window is not None:
        # lower bounds pay where they prune much: an arrive-by bound from the start, or several targets (the
        # scan runs on until the farthest is final); one target alone ends soon after it is reached
        prune = arrive_by is not None or len(targets) > 1
        lb = net.lower_bounds(targets) if prune else net.no_bounds
    elif len(targets) > 1:
        # the plain scan is cheap: its lower bounds pay for several targets, and for an arrive-by probe only when
        # they are at hand already (a cold one-to-one probe would spend more on them than they save)
        lb = net.lower_bounds(targets)
    elif arrive_by is not None:
        lb = net.lower_bounds(targets, compute=False)
    else:
        lb = net.no_bounds
    window = 0 if origin.window is None else int(origin.window)
    # (tuple.__new__: a named tuple's own constructor costs more than the scan of a small day's short query)
    spec = tuple.__new__(ScanSpec, (end, tt.n_trips, int(query.max_legs), o_station, int(start), int(origin.got_off),
                                    window, int(origin.trip), int(origin.row), o_arr, o_stop, o_drop, targets, is_target, lb,
                                    int(INF) if arrive_by is None else int(arrive_by)))
    n_stops, n_trips, K = tt.n_stops, tt.n_trips, int(query.max_legs)
    if origin.window is not None:
        big, small = _RULE_SCAN(net.day_arrays, net.rule_arrays(window), spec)
        n = net.n_connections
        arr, arr_conn, arr_lvl, board, alo, lvl, mark_from, mark = label_views(big, small, n_stops, n_trips, K, n, n,
                                                                               False)
        return RuleReachResult(net, origin, int(start), arr, arr_conn, arr_lvl, None, board, alo, lvl, mark, mark_from)
    big, small = _SCAN(net.day_arrays, spec)
    arr, arr_conn, arr_lvl, board, alo, lvl, ready_from, _ = label_views(big, small, n_stops, n_trips, K,
                                                                         n_stops * (K + 1), 0, True)
    return ReachResult(net, origin, int(start), arr, arr_conn, arr_lvl, ready_from, board, alo, lvl)


def _later_starts(net: TransitNetwork, origin: Origin, until: int) -> list[int]:
    """The standing group's possible later first departures up to ``until`` (legal ones under its rule)."""
    if origin.in_trip:
        return []
    deps = net.station_departures[origin.station]
    until = min(int(until), origin.first_departure_limit(net))
    return [int(d) for d in deps[(deps > origin.time) & (deps <= until)]]


def best_journey(net: TransitNetwork, origin: Origin, target: int, *, end_time: int | None = None,
                 max_legs: int = DEFAULT_MAX_LEGS, reached: ReachResult | None = None) -> Journey | None:
    """The fastest journey to station ``target``: earliest arrival, then fewest changes, then latest
    departure; legal under the origin's change window when it has one (every proposal goes through here).
    ``reached``: a scan from this same origin whose labels at ``target`` are final (a one-to-many scan, or one
    towards several targets including this one): it saves the first scan."""
    if not net.station_reach[origin.station, target]:
        return None  # not even the static network connects them
    return _best_journey_of(net, origin, target, end_time, max_legs, reached)


def _best_journey_of(net: TransitNetwork, origin: Origin, target: int, end_time: int | None, max_legs: int,
                     reached: ReachResult | None) -> Journey | None:
    if origin.window is not None and (reached is None or reached.origin.window is None):
        # The plain answer first (a plain scan is cheaper): if the timetable's best journey obeys the window,
        # it is the rule's best journey too (a legal journey best among all is best among the legal ones:
        # same arrival, same changes; its departure is searched only up to the latest the group may leave,
        # and no legal journey leaves later than that latest of all). Most do (measured: docs/measured.md).
        j = plain_best_journey(net, origin, target, end_time=end_time, max_legs=max_legs, reached=reached)
        if j is None or not j.legs or obeys_window(net, origin, j):
            return j  # (none without the rule: none with it)
        # the rule-aware scans decide; the plain arrival bounds the legal one from below
        reached = _rule_reach(net, origin, [target], j.arrival(net.tt), end_time=end_time, max_legs=max_legs)
    return _best_journey(net, origin, target, end_time, max_legs, reached, int(INF))


def _rule_reach(net: TransitNetwork, origin: Origin, targets: list[int], at_least: int, *,
                end_time: int | None = None, max_legs: int = DEFAULT_MAX_LEGS) -> ReachResult:
    """A rule-aware scan towards ``targets`` whose labels there are final, for targets that the group cannot
    reach before ``at_least`` (their plain arrival). Legal arrivals are mostly as early as the plain ones
    (another itinerary obeys the rule) or a little later, so first ask only for arrivals by ``at_least``, then
    by 30 min later (``arrive_by``: the scan drops what cannot arrive by then, which saves most of a long
    scan); a target reached by then has its final labels (nothing dropped could have reached it by then).
    Otherwise the whole scan."""
    for slack in (0, 1800):
        by = int(at_least) + slack
        res = reach(net, Query(origin, end_time=end_time, max_legs=max_legs, target=targets, arrive_by=by))
        arrivals = [res.station_arrival(s) for s in targets]
        if all(a is not None and a <= by for a in arrivals):
            return res
    return reach(net, Query(origin, end_time=end_time, max_legs=max_legs, target=targets))


def plain_best_journey(net: TransitNetwork, origin: Origin, target: int, *, end_time: int | None = None,
                       max_legs: int = DEFAULT_MAX_LEGS, reached: ReachResult | None = None) -> Journey | None:
    """The timetable's fastest journey for a group bound by a change window, ignoring the window except that
    it leaves no later than the group may (:meth:`Origin.first_departure_limit`): :func:`best_journey`'s first
    try (``reached``: a plain scan from this origin, or None)."""
    return _best_journey(net, replace(origin, window=None), target, end_time, max_legs, reached,
                         origin.first_departure_limit(net))


def _best_journey(net: TransitNetwork, origin: Origin, target: int, end_time: int | None, max_legs: int,
                  reached: ReachResult | None, latest_start: int) -> Journey | None:
    """:func:`best_journey` by ``origin``'s own scans, the latest departure searched up to ``latest_start``
    (for the plain answer to a group under the rule: the latest it may leave)."""
    res = reached or reach(net, Query(origin, end_time=end_time, max_legs=max_legs, target=target))
    j = res.journey_to(target)
    if j is None or not j.legs or origin.in_trip:
        return j
    a = j.arrival(net.tt)
    rides = sum(1 for leg in j.legs if not leg.is_walk)
    # Latest departure with the same arrival and no more rides: the predicate is monotone in the
    # start time (later starts allow a subset of itineraries), so it holds on a prefix of the later
    # starts. Most often that prefix is empty or short, so gallop from its front (1, 2, 4, ... starts:
    # one scan when the first is already too late), then bisect the last step.
    cands = _later_starts(net, origin, min(a, latest_start))
    first = j.departure(net.tt)  # the predicate holds there already: search only later starts
    cands = cands[bisect.bisect_right(cands, first):]

    def holds(i: int) -> ReachResult | None:
        # only "by ``a`` with at most ``rides`` trips?" is asked: fewer levels make the scan cheaper
        r2 = reach(net, Query(origin.later(cands[i]), end_time=a, max_legs=rides, target=target, arrive_by=a))
        a2 = r2.station_arrival(target, rides)
        return r2 if a2 is not None and a2 <= a else None

    best, lo, hi, step = res, 0, len(cands) - 1, 1  # the answer's index is in [lo - 1, hi]
    while lo <= hi:
        i = min(lo + step - 1, hi)
        r2 = holds(i)
        if r2 is None:
            hi = i - 1
            break
        best, lo, step = r2, i + 1, step * 2
    while lo <= hi:
        mid = (lo + hi) // 2
        r2 = holds(mid)
        if r2 is not None:
            best, lo = r2, mid + 1
        else:
            hi = mid - 1
    out = best.journey_to(target, rides)
    assert out is not None
    return Journey(origin.station, target, origin.time, out.legs)


def obeys_window(net: TransitNetwork, origin: Origin, journey: Journey) -> bool:
    """A sufficient test that a timetable-feasible ``journey`` from ``origin`` (a plain scan's) is legal under
    the origin's change window (variant A §4.2): the standing group may take its first departure
    (:meth:`Origin.first_departure_limit`) and every change leaves within the window after getting off (any
    catchable train there may be boarded). A journey with a walk, or with a change only the forced-next-train
    clause could allow, gets False: the rule-aware scan decides those."""
    tt = net.tt
    legs = journey.legs
    if origin.window is None or not legs:
        return True
    if any(leg.is_walk for leg in legs):
        return False
    if not origin.in_trip and legs[0].departure(tt) > origin.first_departure_limit(net):
        return False
    w = origin.window
    plan = net.plan  # on predicted times the window holds a train by its timetable departure (docs/rules.md §3)
    if not net.on_plan and not origin.in_trip and legs[0].departure(plan) > origin.window_end:
        return False  # (only the forced-train clause could allow it: the rule-aware scan decides)
    return all(nxt.departure(plan) <= prev.arrival(tt) + w for prev, nxt in zip(legs, legs[1:], strict=False))


def reach_targets(net: TransitNetwork, origin: Origin, targets: Sequence[int]) -> dict[int, ReachResult]:
    """Per target, a scan whose best labels there (earliest arrival, then fewest changes) are exact under the
    origin's change window, for :func:`best_journey`'s ``reached``. Under the rule one plain scan towards all of
    them comes first: a target whose fastest plain journey obeys the window (:func:`obeys_window`) has the
    rule's labels in it (see :func:`best_journey`); one rule-aware scan towards the others decides those."""
    targets = list(dict.fromkeys(int(s) for s in targets))
    if origin.window is None:
        res = reach(net, Query(origin, target=targets))
        return dict.fromkeys(targets, res)
    plain = reach(net, Query(replace(origin, window=None), target=targets))
    out: dict[int, ReachResult] = {}
    for s in targets:
        j = plain.journey_to(s)
        if j is None or obeys_window(net, origin, j):
            out[s] = plain  # unreachable without the rule: unreachable with it
    rest = [s for s in targets if s not in out]
    if rest:
        ruled = _rule_reach(net, origin, rest, max(int(plain.station_arrival(s)) for s in rest))
        out.update(dict.fromkeys(rest, ruled))
    return out


def journeys_within(net: TransitNetwork, origin: Origin, target: int, extra_minutes: float, *,
                    max_legs: int = DEFAULT_MAX_LEGS, fastest: Journey | None = None) -> list[Journey]:
    """Pareto set over (departure later, arrival earlier, fewer changes) of journeys arriving within
    ``extra_minutes`` of the earliest arrival: every sensible way to get there, no dominated duplicates
    (legal ones only, under the origin's change window)."""
    tt = net.tt
    first = fastest or best_journey(net, origin, target, max_legs=max_legs)  # callers often have it already
    if first is None:
        return []
    limit = first.arrival(tt) + int(round(extra_minutes * 60))
    found: dict[tuple, Journey] = {first.signature(): first}
    for s in [origin.time, *_later_starts(net, origin, limit)]:
        o = origin if s == origin.time else origin.later(s)
        # no target pruning: later arrivals with fewer legs are wanted too (up to ``limit``)
        res = reach(net, Query(o, end_time=limit, max_legs=max_legs))
        for k in res.pareto_levels(target):
            jk = res.journey_to(target, k)
            if jk is None or jk.arrival(tt) > limit:
                continue
            jk = Journey(origin.station, target, origin.time, jk.legs)
            found.setdefault(jk.signature(), jk)
    items = list(found.values())
    keys = [(j.departure(tt), j.arrival(tt), j.changes) for j in items]
    keep = []
    for i, (d, a, c) in enumerate(keys):
        dominated = any(
            (d2 >= d and a2 <= a and c2 <= c) and (d2, a2, c2) != (d, a, c) for k2, (d2, a2, c2) in enumerate(keys)
            if k2 != i)
        if not dominated:
            keep.append(i)
    # identical (dep, arr, changes) with different trips: keep one, the first found (fastest search order)
    seen: set[tuple] = set()
    out = []
    for i in sorted(keep, key=lambda i: (keys[i][1], keys[i][2], -keys[i][0])):
        if keys[i] in seen:
            continue
        seen.add(keys[i])
        out.append(items[i])
    return out


def earliest_boarding(res: ReachResult, trip: int) -> int | None:
    """Earliest stop-time row of ``trip`` at which the group can be on board (None = cannot board)."""
    if res.origin.in_trip and trip == res.origin.trip:
        return res.origin.row
    rows = [int(res.net.c_row[b]) for b in (res.boarded(trip, lv) for lv in range(res.max_legs + 1)) if b >= 0]
    return min(rows) if rows else None


def journey_riding(res: ReachResult, trip: int, alight_row: int, board_by: int | None = None) -> Journey | None:
    """Journey that rides ``trip`` to ``alight_row``, boarding it at or before row ``board_by`` (default: anywhere
    before ``alight_row``) with the fewest legs (the arrival is the trip's: fewest changes decide, docs/rules.md §3
    "Fastest"); with as many legs, the earliest boarding the scan found."""
    net = res.net
    tt = net.tt
    limit = alight_row - 1 if board_by is None else min(int(board_by), alight_row - 1)
    if res.origin.in_trip and trip == res.origin.trip:
        if alight_row < res.origin.row:
            return None
        return Journey(res.origin.station, int(tt.stop_station[tt.st_stop[alight_row]]), res.start_time,
                       (Leg(trip, res.origin.row, alight_row),))
    best = None
    for lv in range(1, res.max_legs + 1):  # boarding rows: the earliest reachable with at most ``lv`` legs
        b = res.boarded(trip, lv)
        if b >= 0 and int(net.c_row[b]) <= limit:
            best = (b, lv)
            break
    if best is None:
        return None
    b, lv = best
    board_row = int(net.c_row[b])
    legs = (*res.legs_before(b, lv), Leg(trip, board_row, int(alight_row)))
    return Journey(res.origin.station, int(tt.stop_station[tt.st_stop[alight_row]]), res.start_time, legs)


def equally_fast(net: TransitNetwork, origin: Origin, target: int, arrival: int, *,
                 max_legs: int = DEFAULT_MAX_LEGS, later_needed: Callable[[ReachResult], bool] | None = None
                 ) -> list[Journey]:
    """Every distinct journey (one per start departure and leg count: the Pareto set over departure and changes)
    reaching ``target`` at ``arrival``, legal under the origin's window, without dominance filtering: lets a
    rule prefer one of equally fast itineraries (a bonus, the cheapest for the group). ``later_needed``: given
    the first scan (from the origin's time), False when no journey from a later start can be one the caller
    keeps (every such journey is legal from the origin's time too, so its trips are on board in that scan):
    the later starts are then not scanned, and only the first scan's journeys are returned."""
    tt = net.tt
    found: dict[tuple, Journey] = {}
    # a later start allows a subset of itineraries: the starts that still arrive by ``arrival`` are a prefix,
    # and each of them is scanned anyway, so scan in order and stop at the first that is too late
    for s in [origin.time, *_later_starts(net, origin, arrival)]:
        o = origin if s == origin.time else origin.later(s)
        res = reach(net, Query(o, end_time=arrival, max_legs=max_legs, target=target, arrive_by=arrival))
        a2 = res.station_arrival(target)
        if a2 is None or a2 > arrival:
            break
        # one journey per level of this scan that reaches ``arrival`` (more changes, other stations)
        for k in res.pareto_levels(target):
            j = res.journey_to(target, k)
            if j is not None and j.legs and j.arrival(tt) == arrival:
                found.setdefault(j.signature(), Journey(origin.station, target, origin.time, j.legs))
        if s == origin.time and later_needed is not None and not later_needed(res):
            break
    return list(found.values())
