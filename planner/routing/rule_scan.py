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
induction over levels, ``lvl``/``board`` hold exactly the legal (trip, row, trips) states and ``arr[q, j]`` is
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

from planner.routing.csa import INF, _arr_row, _board_row, _parts, _row_level
from planner.routing.rule_marks import _head, _lower, _mark, _mark_interval
from planner.routing.targets import _hopeless, _targets_each


@nb.njit(cache=True, nogil=True)
def _event(s, p, a, w_end, lv, e, e_walk, cur, sd_off, sd_time, sd_conn, sd_ct, stop_group, c_from, sta_off,
           stop_local, mat_off, mat, link_off, link_to, link_sec, mark, mark_from, rew, cover, ct_lo, ct_hi,
           sd_real, sd_late, sd_early):
    """Mark the departures an arrival event may board (see the module docstring); returns the rewind index.

    ``p = -1``: the origin (no change time, the station's group). Else the arrival platform's boarding group
    ``g`` (the station, or only the platforms ``p`` may change to when some are forbidden): ``sd_ct[g] >= 0``:
    every allowed change takes that long, so the event's departures are one index interval ``[k0, k1]`` of the
    group's array; ``cover[lv, g]`` is an interval already marked at level ``lv`` (events at a station come
    roughly in time order, so their windows overlap and only the new part is marked). ``-1``:
    platform-specific, each departure checked on its own.

    Real time (docs/rules.md §3): ``sd_time`` is the timetable departure (the window holds a train by it), ``sd_real``
    the predicted one (a train is caught by it); ``sd_late[g]``/``sd_early[g]`` bound their difference in the
    group, so only departures planned within ``[need - late, need + early)`` need their own check (the
    *head*); without an overlay both are 0 and this is the timetable's rule exactly.
    """
    g = s if p < 0 else stop_group[p]
    lo, hi = sd_off[g], sd_off[g + 1]
    uni = sd_ct[g]
    late, early = sd_late[g], sd_early[g]
    if (p < 0 or uni >= 0) and link_off[s] == link_off[s + 1]:
        need = a + (0 if p < 0 else uni)
        k0 = _lower(sd_time, lo, hi, need + early)
        head = False
        if late > 0 or early > 0:
            rew, head = _head(_lower(sd_time, lo, k0, need - late), k0, need, w_end, lv, e, cur, sd_time,
                              sd_real, sd_conn, mark, mark_from, rew)
        k1 = _lower(sd_time, k0, hi, w_end + 1) - 1
        if k1 < k0:  # nothing in the window: the forced minute
            if head:
                return rew
            if k0 == hi:
                return rew
            if late > 0 or early > 0:
                # a head departure planned after the window may be the forced one: decided one by one below
                if need + early > w_end + 1:
                    return _general(s, g, p, a, w_end, lv, e, e_walk, cur, sd_off, sd_time, sd_conn, c_from,
                                    sta_off, stop_local, mat_off, mat, link_off, link_to, link_sec, mark,
                                    mark_from, rew, sd_real, sd_late)
            k1 = _lower(sd_time, k0, hi, (sd_time[k0] // 60) * 60 + 60) - 1
        return _mark_interval(g, k0, k1, lv, e, cur, sd_conn, mark, mark_from, rew, cover)
    n = sta_off[s + 1] - sta_off[s]
    base = mat_off[s] + stop_local[p] * n if p >= 0 else 0
    if p >= 0 and ct_hi[p] >= 0 and link_off[s] == link_off[s + 1]:
        # platform-specific change times (the forbidden ones are not in the group): check the departures before
        # a + longest change one by one, the rest of the window is one interval (with its cover)
        k = _lower(sd_time, lo, hi, a + ct_lo[p] - late)
        k_body = _lower(sd_time, k, hi, a + ct_hi[p] + early)
        k1 = _lower(sd_time, k_body, hi, w_end + 1) - 1
        head = False
        while k < k_body and sd_time[k] <= w_end:
            c = sd_conn[k]
            ct = mat[base + stop_local[c_from[c]]]
            if ct >= 0 and sd_real[k] >= a + ct:
                head = True
                rew = _mark(c, lv, e, cur, mark, mark_from, rew)
            k += 1
        if head or k1 >= k_body:
            return _mark_interval(g, k_body, k1, lv, e, cur, sd_conn, mark, mark_from, rew, cover)
        # nothing in the window: the general search below finds the forced minute
    return _general(s, g, p, a, w_end, lv, e, e_walk, cur, sd_off, sd_time, sd_conn, c_from, sta_off, stop_local,
                    mat_off, mat, link_off, link_to, link_sec, mark, mark_from, rew, sd_real, sd_late)


@nb.njit(cache=True, nogil=True)
def _general(s, g, p, a, w_end, lv, e, e_walk, cur, sd_off, sd_time, sd_conn, c_from, sta_off, stop_local, mat_off,
             mat, link_off, link_to, link_sec, mark, mark_from, rew, sd_real, sd_late):
    """:func:`_event` one departure at a time (platform-specific change times, walking links, or a window
    that only the departures' own predicted times decide): in timetable order, each caught by its predicted
    time; the window's, else the forced minute's (the first caught one planned after the window, with every
    caught one planned in that minute)."""
    lo, hi = sd_off[g], sd_off[g + 1]
    n = sta_off[s + 1] - sta_off[s]
    base = mat_off[s] + stop_local[p] * n if p >= 0 else 0
    found = False
    forced = INF
    k = _lower(sd_time, lo, hi, a - sd_late[g])
    k_f = hi
    while k < hi:
        c = sd_conn[k]
        ok = True
        if p >= 0:
            ct = mat[base + stop_local[c_from[c]]]
            ok = ct >= 0 and sd_real[k] >= a + ct
        else:
            ok = sd_real[k] >= a
        if ok:
            if sd_time[k] <= w_end:
                found = True
                rew = _mark(c, lv, e, cur, mark, mark_from, rew)
            else:
                forced = sd_time[k]
                k_f = k
                break
        k += 1
    for li in range(link_off[s], link_off[s + 1]):
        s2 = link_to[li]
        lo2, hi2 = sd_off[s2], sd_off[s2 + 1]
        k = _lower(sd_time, lo2, hi2, a + link_sec[li] - sd_late[s2])
        while k < hi2:
            if sd_real[k] >= a + link_sec[li]:
                if sd_time[k] <= w_end:
                    found = True
                    rew = _mark(sd_conn[k], lv, e_walk, cur, mark, mark_from, rew)
                else:
                    if sd_time[k] < forced:
                        forced = sd_time[k]
                    break
            k += 1
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
            ok = ct >= 0 and sd_real[k] >= a + ct
        else:
            ok = sd_real[k] >= a
        if ok:
            rew = _mark(c, lv, e, cur, mark, mark_from, rew)
        k += 1
    for li in range(link_off[s], link_off[s + 1]):
        s2 = link_to[li]
        lo2, hi2 = sd_off[s2], sd_off[s2 + 1]
        k = _lower(sd_time, lo2, hi2, min(forced, a + link_sec[li] - sd_late[s2]))
        while k < hi2 and sd_time[k] <= last:
            if sd_time[k] >= forced and sd_real[k] >= a + link_sec[li]:
                rew = _mark(sd_conn[k], lv, e_walk, cur, mark, mark_from, rew)
            k += 1
    return rew


# long: one numba kernel (csa.py measured a split into inline helpers as 50% slower); a split of this
# one has not been measured, so it stays whole
@nb.njit(cache=True, nogil=True)
def rule_scan(d, r, q):
    """Scan question ``q`` (:class:`~planner.routing.arrays.ScanSpec`, window ``q.W``) under the rule on the day
    ``d`` with its boarding groups ``r`` (:class:`~planner.routing.arrays.RuleArrays`); returns the two buffers of
    ``arr, arr_conn, arr_lvl, board, alo, lvl, mark_from, mark`` (:func:`~planner.routing.arrays.label_views`;
    module docstring; rows valid as in :mod:`planner.routing.csa`).

    ``mark_from[c]``: the arrival connection whose event let the group board ``c``, ``-2`` the standing
    origin, ``-3`` a walk from it, ``-4`` the seated origin getting off at its stop. ``targets`` (station
    indexes, ``is_target`` their mask): stop after the latest of their best arrivals (their labels are final
    then); none: the whole day. ``lb[i, s]``: a lower bound on the seconds from station ``s`` to ``targets[i]``
    (no rows: no pruning); an arrival event that cannot beat every target's best arrival so far, nor arrive
    by ``arrive_by``, marks nothing (only the targets' labels are wanted, and it can change none of them).
    """
    c_dep, c_arr, c_from, c_to, c_trip, c_row = d.c_dep, d.c_arr, d.c_from, d.c_to, d.c_trip, d.c_row
    c_pick, c_drop = d.c_pick, d.c_drop
    stop_station, sta_off, sta_stops, stop_local = d.stop_station, d.sta_off, d.sta_stops, d.stop_local
    mat_off, mat, link_off, link_to, link_sec = d.mat_off, d.mat, d.link_off, d.link_to, d.link_sec
    sd_off, sd_time, sd_conn, sd_ct, stop_group = r.sd_off, r.sd_time, r.sd_conn, r.sd_ct, r.stop_group
    ev_k0, ev_k1, ev_h0, ct_lo, ct_hi = r.ev_k0, r.ev_k1, r.ev_h0, r.ct_lo, r.ct_hi
    sd_real, sd_late, sd_early = r.sd_real, r.sd_late, r.sd_early
    end_time, n_trips, K, W = q.end_time, q.n_trips, q.K, q.W
    origin_station, start_time, since = q.origin_station, q.start_time, q.since
    origin_trip, origin_row, origin_arr, origin_stop, origin_drop = (q.origin_trip, q.origin_row, q.origin_arr,
                                                                     q.origin_stop, q.origin_drop)
    targets, is_target, lb, arrive_by = q.targets, q.is_target, q.lb, q.arrive_by
    n_stops = stop_station.shape[0]
    n_conn = c_dep.shape[0]
    # label rows are filled where the scan gets (csa's layout: a stop's row valid once alo[q, 0] <= K, a trip's
    # boarding row once lvl[t] <= K), in the two output buffers (planner.routing.arrays.label_parts)
    L = K + 1
    e_arr, e_conn, e_board, e_alo, e_par, b_lvl8, b_trip, b_mark = _parts(n_stops, n_trips, K, n_conn, n_conn)
    big = np.empty(e_par, np.int32)
    small = np.empty(b_mark, np.int8)
    arr = big[:e_arr].reshape((n_stops, L))
    arr_conn = big[e_arr:e_conn].reshape((n_stops, L))
    board = big[e_conn:e_board].reshape((n_trips, L))
    alo = big[e_board:e_alo].reshape((n_stops, 2))
    mark_from = big[e_alo:e_par]
    arr_lvl = small[:b_lvl8].reshape((n_stops, L))
    lvl = small[b_lvl8:b_trip]
    mark = small[b_trip:b_mark]
    lvl[:] = K + 1
    alo[:, 0] = K + 1
    alo[:, 1] = INF
    # marks are read only for scanned connections (from ``start_idx`` to the last departing by ``end_time``),
    # and a parent only where a mark is: the rest may stay uninitialised (the day's arrays are large)
    start_idx = _lower(c_dep, 0, n_conn, start_time)
    end_idx = _lower(c_dep, start_idx, n_conn, end_time + 1) if end_time < INF else n_conn
    mark[start_idx:end_idx] = K + 1
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
                arr[p, j] = start_time
                arr_conn[p, j] = -1  # there from the start
                arr_lvl[p, j] = 0
            alo[p, 0] = 0
            alo[p, 1] = start_time
        w_end = max(start_time, since + W)
        rew = _event(origin_station, -1, start_time, w_end, 0, -2, -3, cur, sd_off, sd_time, sd_conn, sd_ct,
                     stop_group, c_from, sta_off, stop_local, mat_off, mat, link_off, link_to, link_sec, mark, mark_from, rew,
                     cover, ct_lo, ct_hi, sd_real, sd_late, sd_early)
    if origin_trip >= 0:
        _board_row(origin_trip, lvl, board, K)
        lvl[origin_trip] = 1
        board[origin_trip, 1] = -2
        if origin_drop:
            _arr_row(origin_stop, arr, alo, K)
            for j in range(1, K + 1):
                arr[origin_stop, j] = origin_arr
                arr_conn[origin_stop, j] = -2
                arr_lvl[origin_stop, j] = 1
            alo[origin_stop, 0] = 1
            alo[origin_stop, 1] = origin_arr
            rew = _event(stop_station[origin_stop], origin_stop, origin_arr, origin_arr + W, 1, -4, -4, cur,
                         sd_off, sd_time, sd_conn, sd_ct, stop_group, c_from, sta_off, stop_local, mat_off, mat,
                         link_off, link_to, link_sec, mark, mark_from, rew, cover, ct_lo, ct_hi, sd_real, sd_late,
                         sd_early)
    tb = np.empty(targets.shape[0], np.int32)
    best = _targets_each(targets, arr, alo, sta_off, sta_stops, K, tb)
    rew = n_conn
    c = start_idx
    high = start_idx  # connections below it were scanned once already (a replay after a rewind)
    while c < n_conn:
        dep = c_dep[c]
        if dep > end_time or dep > best:
            break
        t = c_trip[c]
        if t == origin_trip and c_row[c] < origin_row:
            c += 1
            continue
        replay = c < high
        lv = _row_level(t, c_row[c], lvl, board, c_row, K) if replay else lvl[t]
        if c_pick[c] and mark[c] + 1 < lv:
            lv = mark[c] + 1
            _board_row(t, lvl, board, K)
            if lv < lvl[t]:
                lvl[t] = lv
            b = board[t, lv]
            if b == -1 or (b >= 0 and c_row[c] < c_row[b]):
                board[t, lv] = c
        if lv <= K and c_drop[c]:
            q = c_to[c]
            a = c_arr[c]
            s = stop_station[q]
            if alo[q, 0] > K or a < arr[q, lv]:
                _arr_row(q, arr, alo, K)
                for j in range(lv, K + 1):
                    if a < arr[q, j]:
                        arr[q, j] = a
                        arr_conn[q, j] = c
                        arr_lvl[q, j] = lv
                    else:
                        break
                if lv < alo[q, 0]:
                    alo[q, 0] = lv
                    alo[q, 1] = a
                elif lv == alo[q, 0]:
                    alo[q, 1] = a
                if is_target[s]:
                    best = _targets_each(targets, arr, alo, sta_off, sta_stops, K, tb)
            # leaving the only target cannot reach it earlier; an event that cannot beat a target marks nothing
            if lv < K and not (single and is_target[s]) and not _hopeless(a, s, lb, tb, arrive_by):
                k0 = ev_k0[c]
                if k0 >= 0:  # precomputed interval (uniform change time, no walks)
                    k1 = ev_k1[c]
                    h0 = ev_h0[c]
                    if h0 < k0:  # on predicted times: the departures only their own time decides
                        rew, _ = _head(h0, k0, a + sd_ct[stop_group[q]], a + W, lv, c, c, sd_time, sd_real, sd_conn,
                                       mark, mark_from, rew)
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
                                 ct_lo, ct_hi, sd_real, sd_late, sd_early)
        if rew <= c:
            if c + 1 > high:
                high = c + 1
            c = rew
            rew = n_conn
        else:
            c += 1
    return big, small


@nb.njit(cache=True, nogil=True)
def event_boardings(d, r, s, p, a, w_end):
    """Connections an arrival event may board (the same ``_event`` the scan uses), sorted: for the
    ``zugzwang`` answers and checks, so the rule is decided in this one place. ``d``/``r``: the day's and the
    rule's arrays (:mod:`planner.routing.arrays`; the rule's event intervals are not read)."""
    n_conn = d.c_dep.shape[0]
    mark = np.full(n_conn, 1, np.int8)
    mark_from = np.full(n_conn, -1, np.int32)
    cover = np.zeros((1, r.sd_off.shape[0] - 1, 2), np.int32)
    cover[:, :, 0] = 1
    _event(s, p, a, w_end, 0, -1, -1, -1, r.sd_off, r.sd_time, r.sd_conn, r.sd_ct, r.stop_group, d.c_from, d.sta_off,
           d.stop_local, d.mat_off, d.mat, d.link_off, d.link_to, d.link_sec, mark, mark_from, n_conn, cover, r.ct_lo,
           r.ct_hi, r.sd_real, r.sd_late, r.sd_early)
    return np.flatnonzero(mark == 0)
