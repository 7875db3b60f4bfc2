"""Earliest arrival under the change-window rule (variant A §4.2, "29-minute rule"), numba.

The rule, per arrival event: a group that got off at platform ``p`` of station ``s`` at time ``a`` may
board only departures at ``s`` (any platform ``q``) with ``a + change(p, q) <= d <= a + W``; when no such
departure exists, only the first one after the window that it could catch (``d >= a + change(p, q)``),
together with every other catchable one in that same minute. A group standing at its origin at ``T``
(there since ``S <= T``) may board departures ``T <= d <= max(T, S + W)`` (no change time), else the first
ones after. A seated group is bound by nothing until it gets off: riding on is free.

Why the plain scan is not enough: its labels are FIFO ("arriving earlier is never worse"). Under the rule an
earlier arrival closes its window earlier, so it can be worse, and one label per stop loses itineraries.

Algorithm (a connection scan over *arrival events*, the arrival events being the unit of state instead of
stops). Each station's boardable departures are one array sorted by time (``TransitNetwork.station_boardings``;
a platform with forbidden changes boards from its own *group*, the same array without the platforms it may not
change to, so its window is still one interval). An
arrival event ``e`` = (stop, time, level ``j`` = trips so far) has a fixed set ``B(e)`` of departures it may
board, which depends on nothing but the event; the scan *marks* them: ``mark[c] = min(mark[c], j)`` for each
departure connection ``c`` in ``B(e)``, ``mark_from[c] = e``. Connections are scanned in departure order;
trip ``t`` is on board at level ``lvl[t]`` (lowest number of trips with which the group can sit in it at the
current row); at connection ``c`` of ``t`` with pickup it boards at level ``mark[c] + 1`` when that is lower;
every connection of a boarded trip with drop-off produces an arrival event at its level, which marks its
``B``. ``B(e)`` is an index interval of the station's array found by two binary searches (plus the
forced-minute interval when the window is empty); platform-specific change times and walking links are
checked per departure inside it. Where a station's change time is uniform the interval is exact, and the
part of it already marked at that level by an earlier event there (``cover``) is skipped: events at a station
come roughly in time order, so windows overlap and each departure is marked about once per level.

Correctness. (1) An event only marks departures at ``d >= a >= `` the current scan time, so every mark is
set before its connection is scanned, except with a zero change time and a zero-minute ride at the same
instant; then the scan rewinds to the earliest re-marked connection and replays (levels per row then come
from ``board``, as in :mod:`planner.routing.csa`). (2) The only dominance used is the trip one: being on
board of trip ``t`` at row ``r`` with ``j`` trips dominates being on board at a later row or with more trips,
because staying seated binds nothing, so every arrival event reachable from the later boarding is reachable
from the earlier one with no more trips. Arrival events are never merged across times, so no FIFO property
is assumed; an event whose departures are all marked at its level already changes nothing. (3) Hence, by
induction over levels, ``lvl``/``board`` hold exactly the legal (trip, row, trips) states and ``arr[j, q]`` is
the earliest legal arrival at ``q`` with at most ``j`` trips, which gives "earliest, then fewest changes"
exactly, as in the plain scan. The latest legal departure is found by the caller (binary search over the
origin's legal first departures, keeping ``S``: the set of itineraries with first departure ``>= T'`` shrinks
as ``T'`` grows). For one target the scan stops at the first departure after the best arrival there.

Pruning for one-to-few queries (exact for the targets' labels): static lower bounds on the ride time to each
target (:meth:`TransitNetwork.lower_bounds`) let an event that cannot beat every target's best arrival so far,
nor arrive by the caller's ``arrive_by``, mark nothing. Most rule-aware questions never get here:
:func:`planner.routing.query.best_journey` answers from the plain scan when its journey obeys the window.

The networkx graph :class:`planner.routing.te_rule.RuleGraph` models the same rule independently (explicit
transfer arcs per arrival event) and the tests compare the two.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from planner.routing.csa import INF, _row_level
from planner.routing.targets import _hopeless, _targets_each


@nb.njit(cache=True, nogil=True, inline="always")
def _lower(arr, lo, hi, x):
    """First index in ``arr[lo:hi]`` (sorted) with ``arr[k] >= x``."""
    while lo < hi:
        m = (lo + hi) >> 1
        if arr[m] < x:
            lo = m + 1
        else:
            hi = m
    return lo


@nb.njit(cache=True, nogil=True, inline="always")
def _mark(c, lv, e, cur, mark, mark_from, rew):
    if lv < mark[c]:
        mark[c] = lv
        mark_from[c] = e
        if c <= cur and c < rew:
            return c
    return rew


@nb.njit(cache=True, nogil=True)
def _mark_range(k0, k1, lv, e, cur, sd_conn, mark, mark_from, rew):
    for k in range(k0, k1 + 1):
        rew = _mark(sd_conn[k], lv, e, cur, mark, mark_from, rew)
    return rew


@nb.njit(cache=True, nogil=True)
def _mark_interval(s, k0, k1, lv, e, cur, sd_conn, mark, mark_from, rew, cover):
    """Mark ``[k0, k1]`` of station ``s`` at level ``lv``, skipping what ``cover`` says is marked already:
    the covers of lower levels (marked with fewer trips: nothing to improve there) clip the interval's ends,
    the own level's cover is extended."""
    for j in range(lv):
        c0, c1 = cover[j, s, 0], cover[j, s, 1]
        if c0 <= k0 <= c1:
            k0 = c1 + 1
        if c0 <= k1 <= c1:
            k1 = c0 - 1
    if k1 < k0:
        return rew
    c0, c1 = cover[lv, s, 0], cover[lv, s, 1]
    if c0 <= k0 <= c1 + 1:
        if k1 > c1:
            rew = _mark_range(c1 + 1, k1, lv, e, cur, sd_conn, mark, mark_from, rew)
            cover[lv, s, 1] = k1
    elif c0 - 1 <= k1 <= c1:
        rew = _mark_range(k0, c0 - 1, lv, e, cur, sd_conn, mark, mark_from, rew)
        cover[lv, s, 0] = k0
    else:
        rew = _mark_range(k0, k1, lv, e, cur, sd_conn, mark, mark_from, rew)
        cover[lv, s, 0] = k0
        cover[lv, s, 1] = k1
    return rew


# long: one numba kernel (csa.py measured a split into inline helpers as 50% slower); a split of this
# one has not been measured, so it stays whole
@nb.njit(cache=True, nogil=True)
def _event(s, p, a, w_end, lv, e, e_walk, cur, sd_off, sd_time, sd_conn, sd_ct, stop_group, c_from, sta_off,
           stop_local, mat_off, mat, link_off, link_to, link_sec, mark, mark_from, rew, cover, ct_lo, ct_hi):
    """Mark the departures an arrival event may board (see the module docstring); returns the rewind index.

    ``p = -1``: the origin (no change time, the station's group). Else the arrival platform's boarding group
    ``g`` (the station, or only the platforms ``p`` may change to when some are forbidden): ``sd_ct[g] >= 0``:
    every allowed change takes that long, so the event's departures are one index interval ``[k0, k1]`` of the
    group's array; ``cover[lv, g]`` is an interval already marked at level ``lv`` (events at a station come
    roughly in time order, so their windows overlap and only the new part is marked). ``-1``:
    platform-specific, each departure checked on its own.
    """
    g = s if p < 0 else stop_group[p]
    lo, hi = sd_off[g], sd_off[g + 1]
    uni = sd_ct[g]
    if (p < 0 or uni >= 0) and link_off[s] == link_off[s + 1]:
        k0 = _lower(sd_time, lo, hi, a + (0 if p < 0 else uni))
        k1 = _lower(sd_time, k0, hi, w_end + 1) - 1
        if k1 < k0:  # nothing in the window: the forced minute
            if k0 == hi:
                return rew
            k1 = _lower(sd_time, k0, hi, (sd_time[k0] // 60) * 60 + 60) - 1
        return _mark_interval(g, k0, k1, lv, e, cur, sd_conn, mark, mark_from, rew, cover)
    n = sta_off[s + 1] - sta_off[s]
    base = mat_off[s] + stop_local[p] * n if p >= 0 else 0
    if p >= 0 and ct_hi[p] >= 0 and link_off[s] == link_off[s + 1]:
        # platform-specific change times (the forbidden ones are not in the group): check the departures before
        # a + longest change one by one, the rest of the window is one interval (with its cover)
        k = _lower(sd_time, lo, hi, a + ct_lo[p])
        k_body = _lower(sd_time, k, hi, a + ct_hi[p])
        k1 = _lower(sd_time, k_body, hi, w_end + 1) - 1
        head = False
        while k < k_body and sd_time[k] <= w_end:
            c = sd_conn[k]
            if sd_time[k] >= a + mat[base + stop_local[c_from[c]]]:
                head = True
                rew = _mark(c, lv, e, cur, mark, mark_from, rew)
            k += 1
        if head or k1 >= k_body:
            return _mark_interval(g, k_body, k1, lv, e, cur, sd_conn, mark, mark_from, rew, cover)
        # nothing in the window: the general search below finds the forced minute
    found = False
    forced = INF
    k = _lower(sd_time, lo, hi, a)
    k_f = hi
    while k < hi:
        d = sd_time[k]
        c = sd_conn[k]
        ok = True
        if p >= 0:
            ct = mat[base + stop_local[c_from[c]]]
            ok = ct >= 0 and d >= a + ct
        if ok:
            if d <= w_end:
                found = True
                rew = _mark(c, lv, e, cur, mark, mark_from, rew)
            else:
                forced = d
                k_f = k
                break
        k += 1
    for li in range(link_off[s], link_off[s + 1]):
        s2 = link_to[li]
        lo2, hi2 = sd_off[s2], sd_off[s2 + 1]
        k = _lower(sd_time, lo2, hi2, a + link_sec[li])
        while k < hi2 and sd_time[k] <= w_end:
            found = True
            rew = _mark(sd_conn[k], lv, e_walk, cur, mark, mark_from, rew)
            k += 1
        if k < hi2 and sd_time[k] < forced:
            forced = sd_time[k]
    if found or forced == INF:
        return rew
    # nothing in the window: the first catchable departure(s), every one in that same minute
    last = (forced // 60) * 60 + 59
    k = k_f
    while k < hi and sd_time[k] <= last:
        c = sd_conn[k]
        ok = True
        if p >= 0:
            ct = mat[base + stop_local[c_from[c]]]
            ok = ct >= 0 and sd_time[k] >= a + ct
        if ok:
            rew = _mark(c, lv, e, cur, mark, mark_from, rew)
        k += 1
    for li in range(link_off[s], link_off[s + 1]):
        s2 = link_to[li]
        lo2, hi2 = sd_off[s2], sd_off[s2 + 1]
        k = _lower(sd_time, lo2, hi2, max(forced, a + link_sec[li]))
        while k < hi2 and sd_time[k] <= last:
            rew = _mark(sd_conn[k], lv, e_walk, cur, mark, mark_from, rew)
            k += 1
    return rew


# long: one numba kernel (csa.py measured a split into inline helpers as 50% slower); a split of this
# one has not been measured, so it stays whole
@nb.njit(cache=True, nogil=True)
def rule_scan(c_dep, c_arr, c_from, c_to, c_trip, c_row, c_pick, c_drop, start_idx, end_time,
              stop_station, sta_off, sta_stops, stop_local, mat_off, mat, link_off, link_to, link_sec,
              sd_off, sd_time, sd_conn, sd_ct, stop_group, ev_k0, ev_k1, ct_lo, ct_hi, n_trips, K, W, origin_station,
              start_time, since,
              origin_trip, origin_row, origin_arr, origin_stop, origin_drop, targets, is_target, lb, arrive_by):
    """Scan under the rule; returns ``arr, arr_conn, arr_lvl, board, mark, mark_from`` (module docstring).

    ``mark_from[c]``: the arrival connection whose event let the group board ``c``, ``-2`` the standing
    origin, ``-3`` a walk from it, ``-4`` the seated origin getting off at its stop. ``targets`` (station
    indexes, ``is_target`` their mask): stop after the latest of their best arrivals (their labels are final
    then); none: the whole day. ``lb[i, s]``: a lower bound on the seconds from station ``s`` to ``targets[i]``
    (no rows: no pruning); an arrival event that cannot beat every target's best arrival so far, nor arrive
    by ``arrive_by``, marks nothing (only the targets' labels are wanted, and it can change none of them).
    """
    n_stops = stop_station.shape[0]
    n_conn = c_dep.shape[0]
    arr = np.full((K + 1, n_stops), INF, np.int32)
    arr_conn = np.full((K + 1, n_stops), -1, np.int32)
    arr_lvl = np.zeros((K + 1, n_stops), np.int8)
    lvl = np.full(n_trips, K + 1, np.int8)
    board = np.full((n_trips, K + 1), -1, np.int32)
    # marks are read only for scanned connections (from ``start_idx`` to the last departing by ``end_time``),
    # and a parent only where a mark is: the rest may stay uninitialised (the day's arrays are large)
    mark = np.empty(n_conn, np.int8)
    end_idx = _lower(c_dep, start_idx, n_conn, end_time + 1) if end_time < INF else n_conn
    mark[start_idx:end_idx] = K + 1
    mark_from = np.empty(n_conn, np.int32)
    cover = np.zeros((K + 1, sd_off.shape[0] - 1, 2), np.int32)
    cover[:, :, 0] = 1  # empty intervals
    single = targets.shape[0] == 1
    best = INF
    rew = n_conn
    cur = start_idx - 1  # nothing scanned yet: no rewind from the origin's marks
    if origin_station >= 0:
        for k in range(sta_off[origin_station], sta_off[origin_station + 1]):
            p = sta_stops[k]
            for j in range(K + 1):
                arr[j, p] = start_time
        w_end = max(start_time, since + W)
        rew = _event(origin_station, -1, start_time, w_end, 0, -2, -3, cur, sd_off, sd_time, sd_conn, sd_ct,
                     stop_group, c_from, sta_off, stop_local, mat_off, mat, link_off, link_to, link_sec, mark, mark_from, rew,
                     cover, ct_lo, ct_hi)
    if origin_trip >= 0:
        lvl[origin_trip] = 1
        board[origin_trip, 1] = -2
        if origin_drop:
            for j in range(1, K + 1):
                arr[j, origin_stop] = origin_arr
                arr_conn[j, origin_stop] = -2
                arr_lvl[j, origin_stop] = 1
            rew = _event(stop_station[origin_stop], origin_stop, origin_arr, origin_arr + W, 1, -4, -4, cur,
                         sd_off, sd_time, sd_conn, sd_ct, stop_group, c_from, sta_off, stop_local, mat_off, mat,
                         link_off, link_to, link_sec, mark, mark_from, rew, cover, ct_lo, ct_hi)
    tb = np.empty(targets.shape[0], np.int32)
    best = _targets_each(targets, arr, sta_off, sta_stops, K, tb)
    rew = n_conn
    c = start_idx
    high = start_idx  # connections below it were scanned once already (a replay after a rewind)
    while c < n_conn:
        d = c_dep[c]
        if d > end_time or d > best:
            break
        t = c_trip[c]
        if t == origin_trip and c_row[c] < origin_row:
            c += 1
            continue
        replay = c < high
        lv = _row_level(t, c_row[c], board, c_row, K) if replay else lvl[t]
        if c_pick[c] and mark[c] + 1 < lv:
            lv = mark[c] + 1
            if lv < lvl[t]:
                lvl[t] = lv
            b = board[t, lv]
            if b == -1 or (b >= 0 and c_row[c] < c_row[b]):
                board[t, lv] = c
        if lv <= K and c_drop[c]:
            q = c_to[c]
            a = c_arr[c]
            s = stop_station[q]
            if a < arr[lv, q]:
                for j in range(lv, K + 1):
                    if a < arr[j, q]:
                        arr[j, q] = a
                        arr_conn[j, q] = c
                        arr_lvl[j, q] = lv
                    else:
                        break
                if is_target[s]:
                    best = _targets_each(targets, arr, sta_off, sta_stops, K, tb)
            # leaving the only target cannot reach it earlier; an event that cannot beat a target marks nothing
            if lv < K and not (single and is_target[s]) and not _hopeless(a, s, lb, tb, arrive_by):
                k0 = ev_k0[c]
                if k0 >= 0:  # precomputed interval (uniform change time, no walks)
                    k1 = ev_k1[c]
                    # most events repeat a window already marked at this level (skipped) or extend it past its
                    # end (only the new part is marked, here without a call: the common case)
                    g = stop_group[q]
                    c0, c1 = cover[lv, g, 0], cover[lv, g, 1]
                    if c0 <= k0 and k1 <= c1:
                        pass
                    elif c0 <= k0 <= c1 + 1:
                        for k in range(c1 + 1, k1 + 1):
                            rew = _mark(sd_conn[k], lv, c, c, mark, mark_from, rew)
                        cover[lv, g, 1] = k1
                    else:
                        rew = _mark_interval(g, k0, k1, lv, c, c, sd_conn, mark, mark_from, rew, cover)
                else:
                    rew = _event(s, q, a, a + W, lv, c, c, c, sd_off, sd_time, sd_conn, sd_ct, stop_group, c_from,
                                 sta_off, stop_local, mat_off, mat, link_off, link_to, link_sec, mark, mark_from, rew, cover,
                                 ct_lo, ct_hi)
        if rew <= c:
            if c + 1 > high:
                high = c + 1
            c = rew
            rew = n_conn
        else:
            c += 1
    return arr, arr_conn, arr_lvl, board, mark, mark_from


@nb.njit(cache=True, nogil=True)
def event_boardings(s, p, a, w_end, sd_off, sd_time, sd_conn, sd_ct, stop_group, c_from, sta_off, stop_local,
                    mat_off, mat, link_off, link_to, link_sec, n_conn, ct_lo, ct_hi):
    """Connections an arrival event may board (the same ``_event`` the scan uses), sorted: for the
    ``zugzwang`` answers and checks, so the rule is decided in this one place."""
    mark = np.full(n_conn, 1, np.int8)
    mark_from = np.full(n_conn, -1, np.int32)
    cover = np.zeros((1, sd_off.shape[0] - 1, 2), np.int32)
    cover[:, :, 0] = 1
    _event(s, p, a, w_end, 0, -1, -1, -1, sd_off, sd_time, sd_conn, sd_ct, stop_group, c_from, sta_off, stop_local,
           mat_off, mat, link_off, link_to, link_sec, mark, mark_from, n_conn, cover, ct_lo, ct_hi)
    return np.flatnonzero(mark == 0)


@nb.njit(cache=True, nogil=True)
def first_departure_limit(s, t, w_end, sd_off, sd_time, link_off, link_to, link_sec):
    """Latest first departure a group standing at ``s`` at ``t`` may take (the origin case of ``_event``):
    ``w_end`` when anything (here or after a walk) leaves in the window, else the last second of the forced
    minute; ``t`` when nothing leaves at all."""
    forced = INF
    k = _lower(sd_time, sd_off[s], sd_off[s + 1], t)
    if k < sd_off[s + 1]:
        if sd_time[k] <= w_end:
            return w_end
        forced = sd_time[k]
    for li in range(link_off[s], link_off[s + 1]):
        s2 = link_to[li]
        k = _lower(sd_time, sd_off[s2], sd_off[s2 + 1], t + link_sec[li])
        if k < sd_off[s2 + 1]:
            if sd_time[k] <= w_end:
                return w_end
            forced = min(forced, sd_time[k])
    return t if forced == INF else (forced // 60) * 60 + 59
