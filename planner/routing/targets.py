"""The stop rule shared by both scans for one-to-few queries (numba)."""

from __future__ import annotations

import numba as nb

from planner.routing.network import INF


@nb.njit(cache=True, nogil=True)
def _targets_best(targets, arr, sta_off, sta_stops, K):
    """Latest of the targets' best arrivals so far (INF while one is unreached or without targets)."""
    worst = -1
    for i in range(targets.shape[0]):
        t = targets[i]
        b = INF
        for k in range(sta_off[t], sta_off[t + 1]):
            if arr[K, sta_stops[k]] < b:
                b = arr[K, sta_stops[k]]
        if b > worst:
            worst = b
    return INF if worst < 0 else worst
