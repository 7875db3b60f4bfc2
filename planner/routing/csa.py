"""Connection Scan with leg-count levels (numba).

Labels are kept per level ``j`` = "at most j legs (trips)": ``arr[p, j]`` is the earliest arrival at stop
``p`` with at most ``j`` legs, ``ready[p, j]`` the earliest time one can board at ``p`` after at most ``j``
legs (arrival + change time, or the start time at the origin). Levels make "fewest changes" and the
Pareto set over (arrival, changes) exact, which a single-label CSA cannot give. Level ``K`` is the cap.

Speed, with the same labels and parents: small per-stop summaries answer almost every check of the scan
without reading the (K+1)-level labels: ``ready_min[p]`` (= ``ready[p, K]``), ``rlo[p] = (lowest level with a
boarding time, that time)`` and ``alo[q] = (lowest level with an arrival, that arrival)``. Labels never increase
with the level, so ``a >= alo[q, 1]`` with ``lv >= alo[q, 0]`` proves ``a >= arr[q, lv]``, and a trip on level
``lv`` can only move lower at ``p`` if ``rlo[p, 0] < lv - 1`` (when ``rlo[p, 1] <= dep``, that lowest level is
the one it boards on). A stop's levels lie side by side (one or two cache lines for all of them), and the label
rows are written only where the scan gets: a stop's arrival row is valid once ``alo[q, 0] <= K`` (its first
arrival fills it), its boarding row once ``rlo[p, 0] <= K``, a trip's boarding row once ``lvl[t] <= K``; the rest
of the arrays is never touched (a one-to-one scan reaches a small part of the day, and filling every label of a
large day cost more than the scan: 0.2 ms per query on the bench's synthetic day). The helpers are plain loops,
not nested calls: numba calls with many arrays cost more than the work they do here (measured: the label updates
factored into ``inline="always"`` helpers made the synthetic-day query 3.8 -> 5.8 ms median), so the arrival
update stands in both ``scan`` and ``_zero_block`` on purpose.

Zero-minute connections (departing and arriving in the same minute, sorted by row only) may feed each other
only through a zero change time or a zero-second walk; :attr:`TransitNetwork.zero_blocks` marks the blocks
where that can happen, and only those are repeated until stable (real feeds have none: every other block takes
the single pass, which a trip's rows in order make exact; this took the whole Zug extract's one-to-one query
from 0.24 to 0.13 ms).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from planner.routing.arrays import label_parts
from planner.routing.network import INF
from planner.routing.rule_marks import _lower
from planner.routing.targets import _hopeless, _targets_each


@nb.njit(cache=True, nogil=True, inline="always")
def _ready_row(r, ready, rlo, K):
    """Start stop ``r``'s boarding row (all levels unreached) the first time the scan gets there."""
    if rlo[r, 0] > K:
        for jj in range(K + 1):
            ready[r, jj] = INF


@nb.njit(cache=True, nogil=True)
def _relax_ready(j, q, a, ready, ready_min, rlo, ready_from, stop_station, sta_off, sta_stops,
                 stop_local, mat_off, mat, link_off, link_to, link_sec):
    """Arrival at stop ``q`` at ``a`` with ``j`` legs: boarding times (levels ``j..K``) at the station's
    platforms after the change time (forbidden pairs skipped) and at linked stations' platforms after
    the walk. The two loops do the same update (kept inline on purpose, see the module docstring)."""
    K = ready.shape[1] - 1
    s = stop_station[q]
    lo = sta_off[s]
    n = sta_off[s + 1] - lo
    base = mat_off[s] + stop_local[q] * n
    for k in range(n):
        ct = mat[base + k]
        if ct < 0:
            continue
        r = sta_stops[lo + k]
        t2 = a + ct
        _ready_row(r, ready, rlo, K)
        if t2 < ready_min[r]:
            ready_min[r] = t2
        if j < rlo[r, 0]:
            rlo[r, 0] = j
            rlo[r, 1] = t2
        elif j == rlo[r, 0] and t2 < rlo[r, 1]:
            rlo[r, 1] = t2
        for jj in range(j, K + 1):
            if t2 < ready[r, jj]:
                ready[r, jj] = t2
                ready_from[r, jj] = q
            else:
                break
    for li in range(link_off[s], link_off[s + 1]):
        s2 = link_to[li]
        t2 = a + link_sec[li]
        for k in range(sta_off[s2], sta_off[s2 + 1]):
            r = sta_stops[k]
            _ready_row(r, ready, rlo, K)
            if t2 < ready_min[r]:
                ready_min[r] = t2
            if j < rlo[r, 0]:
                rlo[r, 0] = j
                rlo[r, 1] = t2
            elif j == rlo[r, 0] and t2 < rlo[r, 1]:
                rlo[r, 1] = t2
            for jj in range(j, K + 1):
                if t2 < ready[r, jj]:
                    ready[r, jj] = t2
                    ready_from[r, jj] = q
                else:
                    break


@nb.njit(cache=True, nogil=True)
def _row_level(t, row, lvl, board, c_row, K):
    """Lowest level at which trip ``t`` is on board at stop-time ``row`` (``K + 1``: not on board)."""
    if lvl[t] > K:
        return K + 1
    for j in range(1, K + 1):
        b = board[t, j]
        if b == -2 or (b >= 0 and c_row[b] <= row):
            return j
    return K + 1


@nb.njit(cache=True, nogil=True, inline="always")
def _board_row(t, lvl, board, K):
    """Start trip ``t``'s boarding row (no level boarded) the first time the scan boards it."""
    if lvl[t] > K:
        for j in range(K + 1):
            board[t, j] = -1


@nb.njit(cache=True, nogil=True, inline="always")
def _arr_row(q, arr, alo, K):
    """Start stop ``q``'s arrival row (all levels unreached) at its first arrival."""
    if alo[q, 0] > K:
        for j in range(K + 1):
            arr[q, j] = INF


_parts = nb.njit(cache=True, nogil=True)(label_parts)  # the same layout inside the kernels


@nb.njit(cache=True, nogil=True)
def _start(K, n_stops, n_trips):
    """The scan's empty state: its two output buffers (:func:`~planner.routing.arrays.label_parts`) with the labels
    and parents as views (rows filled as the scan gets there), the boarding labels and the summaries."""
    L = K + 1
    e_arr, e_conn, e_board, e_alo, e_par, b_lvl8, b_trip, b_mark = _parts(n_stops, n_trips, K, n_stops * L, 0)
    big = np.empty(e_par, np.int32)
    small = np.empty(b_mark, np.int8)
    arr = big[:e_arr].reshape((n_stops, L))
    arr_conn = big[e_arr:e_conn].reshape((n_stops, L))
    board = big[e_conn:e_board].reshape((n_trips, L))  # connection where each trip was boarded at each level
    alo = big[e_board:e_alo].reshape((n_stops, 2))
    ready_from = big[e_alo:e_par].reshape((n_stops, L))
    arr_lvl = small[:b_lvl8].reshape((n_stops, L))
    lvl = small[b_lvl8:b_trip]  # lowest level each trip is on board at (K + 1: not)
    lvl[:] = K + 1
    alo[:, 0] = K + 1
    alo[:, 1] = INF
    ready = np.empty((n_stops, L), np.int32)
    ready_min = np.full(n_stops, INF, np.int32)
    rlo = alo.copy()
    return big, small, arr, arr_conn, arr_lvl, ready, ready_from, ready_min, rlo, alo, lvl, board


# long: one numba kernel; its label updates factored into inline helpers made the synthetic-day query
# 3.8 -> 5.8 ms (measured, see the module docstring), so it stays whole
@nb.njit(cache=True, nogil=True)
def scan(d, q):
    """Run the levelled connection scan of question ``q`` (:class:`~planner.routing.arrays.ScanSpec`) on the day
    ``d`` (:class:`~planner.routing.arrays.DayArrays`); returns the two buffers of ``arr, arr_conn, arr_lvl,
    board, alo, lvl, ready_from`` (:func:`~planner.routing.arrays.label_views`; see the module docstring: a row is
    valid where ``alo``/``lvl`` say the scan got).

    ``d.zero_blocks``: :attr:`TransitNetwork.zero_blocks` (where a block of zero-minute connections needs the
    repeating :func:`_zero_block`; every other connection takes the single-pass path).

    Origin: a station (``origin_station >= 0``, standing there at ``start_time``) or a trip
    (``origin_trip >= 0``: seated, at or approaching the stop of row ``origin_row``). ``targets`` (station
    indexes, ``is_target`` their mask): only their labels are wanted, so the scan stops at the first departure
    after the latest of their best arrivals (no later connection can arrive earlier, or as early with fewer
    legs); none: the whole day. ``lb[i, s]``: lower bounds on the seconds from station ``s`` to ``targets[i]``
    (no rows: none); an arrival that cannot beat every target's best arrival so far, nor arrive by ``arrive_by``,
    is recorded but boards nothing (only the targets' labels are wanted, and nothing after it can change them).
    """
    c_dep, c_arr, c_from, c_to, c_trip, c_row = d.c_dep, d.c_arr, d.c_from, d.c_to, d.c_trip, d.c_row
    c_pick, c_drop, zero_blocks = d.c_pick, d.c_drop, d.zero_blocks
    stop_station, sta_off, sta_stops, stop_local = d.stop_station, d.sta_off, d.sta_stops, d.stop_local
    mat_off, mat, link_off, link_to, link_sec = d.mat_off, d.mat, d.link_off, d.link_to, d.link_sec
    end_time, K = q.end_time, q.K
    origin_station, start_time, origin_trip, origin_row = q.origin_station, q.start_time, q.origin_trip, q.origin_row
    origin_stop = q.origin_stop
    targets, is_target, lb, arrive_by = q.targets, q.is_target, q.lb, q.arrive_by
    big, small, arr, arr_conn, arr_lvl, ready, ready_from, ready_min, rlo, alo, lvl, board = _start(
        K, stop_station.shape[0], q.n_trips)
    if origin_station >= 0:
        for k in range(sta_off[origin_station], sta_off[origin_station + 1]):
            p = sta_stops[k]
            for j in range(K + 1):
                arr[p, j] = start_time
                arr_conn[p, j] = -1  # there from the start
                arr_lvl[p, j] = 0
                ready[p, j] = start_time
                ready_from[p, j] = -2  # origin
            ready_min[p] = start_time
            rlo[p, 0] = 0
            rlo[p, 1] = start_time
            alo[p, 0] = 0
            alo[p, 1] = start_time
        for li in range(link_off[origin_station], link_off[origin_station + 1]):
            s2 = link_to[li]
            t2 = start_time + link_sec[li]
            for k in range(sta_off[s2], sta_off[s2 + 1]):
                r = sta_stops[k]
                _ready_row(r, ready, rlo, K)
                ready_min[r] = min(ready_min[r], t2)
                rlo[r, 0] = 0
                rlo[r, 1] = min(rlo[r, 1], t2)
                for j in range(K + 1):
                    if t2 < ready[r, j]:
                        ready[r, j] = t2
                        ready_from[r, j] = -3  # walked from the origin station
    if origin_trip >= 0:
        _board_row(origin_trip, lvl, board, K)
        lvl[origin_trip] = 1
        board[origin_trip, 1] = -2  # boarded before the query (seated)
        if q.origin_drop and (alo[origin_stop, 0] > K or q.origin_arr < arr[origin_stop, 1]):
            _arr_row(origin_stop, arr, alo, K)
            for j in range(1, K + 1):
                arr[origin_stop, j] = q.origin_arr
                arr_conn[origin_stop, j] = -2
                arr_lvl[origin_stop, j] = 1
            alo[origin_stop, 0] = 1
            alo[origin_stop, 1] = q.origin_arr
            _relax_ready(1, origin_stop, q.origin_arr, ready, ready_min, rlo, ready_from, stop_station,
                         sta_off, sta_stops, stop_local, mat_off, mat, link_off, link_to, link_sec)
    n_conn = c_dep.shape[0]
    start_idx = _lower(c_dep, 0, n_conn, start_time)
    skip = 0
    single = targets.shape[0] == 1
    tb = np.empty(targets.shape[0], np.int32)
    best = _targets_each(targets, arr, alo, sta_off, sta_stops, K, tb)
    for c in range(start_idx, n_conn):
        if c < skip:
            continue
        cu = np.uint32(c)  # unsigned indexes: no negative-index wraparound checks in the hot loop
        dep = c_dep[cu]
        if dep > end_time or dep > best:
            break
        if zero_blocks[cu]:  # a block of zero-minute rides that may feed each other: repeated until stable
            skip = _zero_block(c, dep, c_dep, c_arr, c_from, c_to, c_trip, c_row, c_pick, c_drop, arr, arr_conn,
                               arr_lvl, alo, rlo, ready, ready_min, ready_from, lvl, board,
                               K, origin_trip, origin_row, stop_station, sta_off, sta_stops, stop_local, mat_off,
                               mat, link_off, link_to, link_sec)
            best = _targets_each(targets, arr, alo, sta_off, sta_stops, K, tb)
            continue
        # the common case (the same steps as in _zero_block, with the summaries as filters)
        t = np.uint32(c_trip[cu])
        if t == origin_trip and c_row[cu] < origin_row:
            continue
        lv = lvl[t]
        if c_pick[cu]:
            p = np.uint32(c_from[cu])
            top = lv - 1 if lv - 1 < K else K  # boarding on a level j < top would lower the trip
            jr = rlo[p, 0]
            if jr < top:
                if rlo[p, 1] <= dep:
                    _board_row(t, lvl, board, K)
                    lv = jr + 1  # the lowest level with a boarding time is ready: it is the one
                    lvl[t] = lv
                    board[t, lv] = c
                elif ready_min[p] <= dep and ready[p, top - 1] <= dep:
                    for j in range(jr + 1, top):
                        if ready[p, j] <= dep:
                            _board_row(t, lvl, board, K)
                            lv = j + 1
                            lvl[t] = lv
                            board[t, lv] = c
                            break
        if lv <= K and c_drop[cu]:
            qs = np.uint32(c_to[cu])
            a = c_arr[cu]
            aq = alo[qs, 0]
            if aq > K or ((aq > lv or a < alo[qs, 1]) and a < arr[qs, np.uint32(lv)]):
                _arr_row(qs, arr, alo, K)
                for j in range(lv, K + 1):
                    if a < arr[qs, j]:
                        arr[qs, j] = a
                        arr_conn[qs, j] = c
                        arr_lvl[qs, j] = lv
                    else:
                        break
                if lv < aq:
                    alo[qs, 0] = lv
                    alo[qs, 1] = a
                elif lv == aq:
                    alo[qs, 1] = a
                if is_target[stop_station[qs]]:
                    best = _targets_each(targets, arr, alo, sta_off, sta_stops, K, tb)
                    if single:
                        continue  # leaving the only target again cannot reach it earlier
                if _hopeless(a, stop_station[qs], lb, tb, arrive_by):
                    continue  # cannot beat any target's best (nor arrive by ``arrive_by``): boards nothing wanted
                _relax_ready(lv, qs, a, ready, ready_min, rlo, ready_from, stop_station, sta_off,
                             sta_stops, stop_local, mat_off, mat, link_off, link_to, link_sec)
    return big, small


@nb.njit(cache=True, nogil=True)
def _zero_block(i, d, c_dep, c_arr, c_from, c_to, c_trip, c_row, c_pick, c_drop, arr, arr_conn, arr_lvl, alo,
                rlo, ready, ready_min, ready_from, lvl, board, K, origin_trip, origin_row,
                stop_station, sta_off, sta_stops, stop_local, mat_off, mat, link_off, link_to, link_sec):
    """Scan the block of zero-minute connections at instant ``d`` starting at ``i``; returns its end.

    They are sorted by row only, so with a zero change time one may feed another scanned before it:
    repeat the block until nothing improves, using the level a trip has at each row (a re-pass may board
    it at an earlier row of the block than a level found in an earlier pass).
    """
    n_conn = c_dep.shape[0]
    e = i
    while e < n_conn and c_dep[e] == d and c_arr[e] == d:
        e += 1
    again = True
    while again:
        again = False
        for c in range(i, e):
            t = c_trip[c]
            if t == origin_trip and c_row[c] < origin_row:
                continue
            lv = _row_level(t, c_row[c], lvl, board, c_row, K)
            if c_pick[c] and rlo[c_from[c], 0] <= K:
                p = c_from[c]
                top = lv - 1 if lv - 1 < K else K
                for j in range(top):
                    if ready[p, j] <= d:
                        _board_row(t, lvl, board, K)
                        lv = j + 1
                        if lv < lvl[t]:
                            lvl[t] = lv
                        board[t, lv] = c
                        again = True
                        break
            if lv <= K and c_drop[c]:
                q = c_to[c]
                a = c_arr[c]
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
                    _relax_ready(lv, q, a, ready, ready_min, rlo, ready_from, stop_station, sta_off,
                                 sta_stops, stop_local, mat_off, mat, link_off, link_to, link_sec)
                    again = True
    return e
