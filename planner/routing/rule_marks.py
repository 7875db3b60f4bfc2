"""The rule scan's marks (numba): which departures an arrival event may board, recorded as marks on the connections
(:mod:`planner.routing.rule_scan` sets them; in their own module only to keep each module readable)."""

from __future__ import annotations

import numba as nb


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
def _head(lo, hi, need, w_end, lv, e, cur, sd_time, sd_real, sd_conn, mark, mark_from, rew):
    """On predicted times: mark the departures of ``[lo, hi)`` (timetable order) in the window (timetable
    departure by ``w_end``) that leave, as predicted, at ``need`` or later; returns (rewind, any marked)."""
    found = False
    for k in range(lo, hi):
        if sd_time[k] > w_end:
            break
        if sd_real[k] >= need:
            found = True
            rew = _mark(sd_conn[k], lv, e, cur, mark, mark_from, rew)
    return rew, found
