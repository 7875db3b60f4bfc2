"""Connection Scan with leg-count levels (numba).

Labels are kept per level ``j`` = "at most j legs (trips)": ``arr[j, p]`` is the earliest arrival at stop
``p`` with at most ``j`` legs, ``ready[j, p]`` the earliest time one can board at ``p`` after at most ``j``
legs (arrival + change time, or the start time at the origin). Levels make "fewest changes" and the
Pareto set over (arrival, changes) exact, which a single-label CSA cannot give. Level ``K`` is the cap.
"""

from __future__ import annotations

import numba as nb
import numpy as np

INF = np.int32(2**31 - 1)


@nb.njit(cache=True, nogil=True)
def _relax_ready(j, q, a, ready, ready_from, stop_station, sta_off, sta_stops, stop_local, mat_off, mat,
                 link_off, link_to, link_sec):
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
        if t2 < ready[j, r]:
            ready[j, r] = t2
            ready_from[j, r] = q
    for li in range(link_off[s], link_off[s + 1]):
        s2 = link_to[li]
        t2 = a + link_sec[li]
        for k in range(sta_off[s2], sta_off[s2 + 1]):
            r = sta_stops[k]
            if t2 < ready[j, r]:
                ready[j, r] = t2
                ready_from[j, r] = q


@nb.njit(cache=True, nogil=True)
def scan(c_dep, c_arr, c_from, c_to, c_trip, c_row, c_pick, c_drop, start_idx, end_time,
         stop_station, sta_off, sta_stops, stop_local, mat_off, mat, link_off, link_to, link_sec,
         n_trips, K, origin_station, start_time, origin_trip, origin_row, origin_arr, origin_stop,
         origin_drop):
    """Run the levelled connection scan; returns label and parent arrays (see module docstring).

    Origin: a station (``origin_station >= 0``, standing there at ``start_time``) or a trip
    (``origin_trip >= 0``: seated, at or approaching the stop of row ``origin_row``).
    """
    n_stops = stop_station.shape[0]
    arr = np.full((K + 1, n_stops), INF, np.int32)
    ready = np.full((K + 1, n_stops), INF, np.int32)
    arr_conn = np.full((K + 1, n_stops), -1, np.int32)
    arr_lvl = np.zeros((K + 1, n_stops), np.int8)
    ready_from = np.full((K + 1, n_stops), -1, np.int32)
    lvl = np.full(n_trips, K + 1, np.int32)
    board = np.full((n_trips, K + 1), -1, np.int32)
    if origin_station >= 0:
        for k in range(sta_off[origin_station], sta_off[origin_station + 1]):
            p = sta_stops[k]
            for j in range(K + 1):
                arr[j, p] = start_time
                ready[j, p] = start_time
                ready_from[j, p] = -2  # origin
        for li in range(link_off[origin_station], link_off[origin_station + 1]):
            s2 = link_to[li]
            t2 = start_time + link_sec[li]
            for k in range(sta_off[s2], sta_off[s2 + 1]):
                r = sta_stops[k]
                for j in range(K + 1):
                    if t2 < ready[j, r]:
                        ready[j, r] = t2
                        ready_from[j, r] = -3  # walked from the origin station
    if origin_trip >= 0:
        lvl[origin_trip] = 1
        board[origin_trip, 1] = -2  # boarded before the query (seated)
        if origin_drop:
            for j in range(1, K + 1):
                if origin_arr < arr[j, origin_stop]:
                    arr[j, origin_stop] = origin_arr
                    arr_conn[j, origin_stop] = -2
                    arr_lvl[j, origin_stop] = 1
                    _relax_ready(j, origin_stop, origin_arr, ready, ready_from, stop_station, sta_off, sta_stops,
                                 stop_local, mat_off, mat, link_off, link_to, link_sec)
    n_conn = c_dep.shape[0]
    for i in range(start_idx, n_conn):
        d = c_dep[i]
        if d > end_time:
            break
        t = c_trip[i]
        if t == origin_trip and c_row[i] < origin_row:
            continue
        lv = lvl[t]
        if c_pick[i]:
            p = c_from[i]
            top = lv - 1 if lv - 1 < K else K
            for j in range(top):
                if ready[j, p] <= d:
                    lv = j + 1
                    lvl[t] = lv
                    board[t, lv] = i
                    break
        if lv <= K and c_drop[i]:
            q = c_to[i]
            a = c_arr[i]
            for j in range(lv, K + 1):
                if a < arr[j, q]:
                    arr[j, q] = a
                    arr_conn[j, q] = i
                    arr_lvl[j, q] = lv
                    _relax_ready(j, q, a, ready, ready_from, stop_station, sta_off, sta_stops, stop_local,
                                 mat_off, mat, link_off, link_to, link_sec)
                else:
                    break
    return arr, arr_conn, arr_lvl, ready_from, board
