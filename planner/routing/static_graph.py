"""Kernels on the static station graph (numba): reachability and shortest ride times, for
:class:`planner.routing.network.TransitNetwork`'s one-to-one shortcuts and lower bounds.

``INF`` is defined here (the routing core's "no time") and re-exported by the network.
"""

from __future__ import annotations

import numba as nb
import numpy as np

INF = np.int32(2**31 - 1)


@nb.njit(cache=True, nogil=True)
def dijkstra_to(target, off, src, sec, n):
    """Shortest static travel seconds from every station to ``target`` over the reversed CSR graph
    (``off``/``src``/``sec``: edges into each station), INF where it cannot reach it (binary heap)."""
    dist = np.full(n, INF, np.int32)
    done = np.zeros(n, np.bool_)
    heap_d = np.empty(off[n] + 1, np.int64)
    heap_v = np.empty(off[n] + 1, np.int32)
    size = 1
    heap_d[0], heap_v[0] = 0, target
    dist[target] = 0
    while size:
        d, v = heap_d[0], heap_v[0]
        size -= 1
        if size:  # sift the last entry down from the root
            ld, lv = heap_d[size], heap_v[size]
            i = 0
            while True:
                k = 2 * i + 1
                if k >= size:
                    break
                if k + 1 < size and heap_d[k + 1] < heap_d[k]:
                    k += 1
                if heap_d[k] >= ld:
                    break
                heap_d[i], heap_v[i] = heap_d[k], heap_v[k]
                i = k
            heap_d[i], heap_v[i] = ld, lv
        if done[v]:
            continue
        done[v] = True
        for e in range(off[v], off[v + 1]):
            u = src[e]
            nd = d + sec[e]
            if not done[u] and nd < dist[u]:
                dist[u] = nd
                i = size  # sift up
                size += 1
                while i > 0:
                    par = (i - 1) >> 1
                    if heap_d[par] <= nd:
                        break
                    heap_d[i], heap_v[i] = heap_d[par], heap_v[par]
                    i = par
                heap_d[i], heap_v[i] = nd, u
    return dist


@nb.njit(cache=True)
def closure(off, to, n):
    """Reachability matrix of a CSR digraph (one BFS per node)."""
    out = np.zeros((n, n), np.bool_)
    queue = np.empty(n, np.int32)
    for s in range(n):
        out[s, s] = True
        queue[0] = s
        head, tail = 0, 1
        while head < tail:
            u = queue[head]
            head += 1
            for k in range(off[u], off[u + 1]):
                v = to[k]
                if not out[s, v]:
                    out[s, v] = True
                    queue[tail] = v
                    tail += 1
    return out
