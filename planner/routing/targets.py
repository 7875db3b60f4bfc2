"""The stop rule and the pruning test shared by both scans for one-to-few queries (numba)."""

from __future__ import annotations

import numba as nb
import numpy as np

from planner.routing.network import INF


@nb.njit(cache=True, nogil=True)
def _targets_each(targets, arr, alo, sta_off, sta_stops, K, out):
    """Latest of the targets' best arrivals so far (INF while one is unreached or without targets), each
    target's own best written into ``out`` (the scans prune by it). A stop's labels ``arr[p]`` count once
    ``alo[p, 0] <= K`` (the scan got there)."""
    worst = -1
    for i in range(targets.shape[0]):
        t = targets[i]
        b = INF
        for k in range(sta_off[t], sta_off[t + 1]):
            p = sta_stops[k]
            if alo[p, 0] <= K and arr[p, K] < b:
                b = arr[p, K]
        out[i] = b
        if b > worst:
            worst = b
    return INF if worst < 0 else worst


@nb.njit(cache=True, nogil=True, inline="always")
def _hopeless(a, s, lb, tb, arrive_by):
    """True when an arrival event at station ``s`` at ``a`` cannot reach any target (lower bounds ``lb[i, s]``)
    strictly before its best arrival so far ``tb[i]`` nor by ``arrive_by``: it would change no wanted label
    (an equal arrival is kept: it may need fewer changes). False without targets."""
    if lb.shape[0] == 0:
        return False
    for i in range(lb.shape[0]):
        x = lb[i, s]
        if x < INF:
            lim = tb[i] if tb[i] < arrive_by else arrive_by
            if np.int64(a) + x <= lim:
                return False
    return True
