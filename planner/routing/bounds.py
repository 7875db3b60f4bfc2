"""What the scans prune with, per target: the target's arrays, its latest arrival of the day, static lower bounds
of the ride time to it, and which stations can reach which at all (a part of :class:`TransitNetwork`)."""

from __future__ import annotations

from functools import cached_property

import numpy as np

from planner.routing.static_graph import closure, dijkstra_to


class TargetBounds:
    """Mixed into :class:`planner.routing.network.TransitNetwork`: reads its connections (``c_*``), stations and
    walking links (``link_*``)."""

    def target_arrays(self, target) -> tuple[np.ndarray, np.ndarray, int]:
        """A scan's ``targets`` (int32 station indexes; negative ones dropped), their station mask and their
        latest arrival of the day (-1: none), for one station or several (shared: callers must not write
        them), cached for single stations (one-to-one queries ask for the same few again and again)."""
        single = isinstance(target, int | np.integer)
        cache = self.__dict__.setdefault("_target_arrays", {})
        # several targets by their tuple (a dice roll asks for its number's few again and again)
        key = int(target) if single else tuple(int(t) for t in target)
        hit = cache.get(key)  # (read once: another thread may clear it meanwhile)
        if hit is not None:
            return hit
        targets = np.array([target] if single else list(target), np.int32)
        targets = targets[targets >= 0]
        mask = np.zeros(self.tt.n_stations, np.bool_)
        mask[targets] = True
        out = (targets, mask, int(self.last_arrival[targets].max()) if len(targets) else -1)
        if len(cache) * self.tt.n_stations > 50_000_000:  # bounded (50 MB of masks)
            cache.clear()
        cache[key] = out
        return out

    @cached_property
    def no_bounds(self) -> np.ndarray:
        """:meth:`lower_bounds` of no target (no pruning)."""
        return np.zeros((0, self.tt.n_stations), np.int32)

    @cached_property
    def last_arrival(self) -> np.ndarray:
        """Per station, the latest arrival of any connection there with drop-off (-1: none): a one-to-one
        scan towards it can stop after that departure time."""
        out = np.full(self.tt.n_stations, -1, np.int64)
        ok = self.c_drop
        np.maximum.at(out, self.stop_station[self.c_to[ok]], self.c_arr[ok].astype(np.int64))
        if len(self.link_to):  # a station is also reached on foot from a linked one (after its last arrival)
            src = np.repeat(np.arange(self.tt.n_stations), np.diff(self.link_off))
            np.maximum.at(out, self.link_to, np.where(out[src] >= 0, out[src], -1))
        return out

    @cached_property
    def _reverse_hops(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Static station graph, reversed (CSR of edges into each station): the shortest ride over every
        connection between two stations (drop-off and pickup ignored) and every walking link."""
        n = self.tt.n_stations
        src = np.concatenate([self.stop_station[self.c_from], np.repeat(np.arange(n), np.diff(self.link_off))])
        dst = np.concatenate([self.stop_station[self.c_to], self.link_to])
        sec = np.concatenate([self.c_arr - self.c_dep, self.link_sec]).astype(np.int64)
        key = dst.astype(np.int64) * n + src
        order = np.lexsort((sec, key))
        key, sec = key[order], sec[order]
        first = np.r_[True, key[1:] != key[:-1]] if len(key) else np.zeros(0, bool)
        key, sec = key[first], sec[first]  # the shortest per station pair
        off = np.searchsorted(key // n, np.arange(n + 1)).astype(np.int64)
        return off, (key % n).astype(np.int32), sec.astype(np.int32)

    def lower_bounds(self, targets: np.ndarray, *, compute: bool = True) -> np.ndarray:
        """``[i, s]``: seconds station ``s`` needs at the least to reach ``targets[i]`` (INF: never), riding
        without waits or changes: no itinerary is faster, so a scan may drop what cannot beat a target's
        best arrival. Cached per target (a game asks for its few dice targets again and again); ``compute``
        False: only what is cached (no rows when a target is not)."""
        cache = self.__dict__.setdefault("_lower_bounds", {})
        many = targets.tolist()
        stacks = self.__dict__.setdefault("_lower_bound_stacks", {})
        key = tuple(many)
        if len(many) > 1 and (hit := stacks.get(key)) is not None:
            return hit  # several targets' rows stacked once (a dice roll's four: np.stack copied them every scan)
        rows = []
        for t in many:
            row = cache.get(t)  # (read once: another thread may clear the cache meanwhile)
            if row is None:
                if not compute:
                    return self.no_bounds
                if len(cache) * self.tt.n_stations >= 25_000_000:  # ~100 MB: one-to-one queries to random stations
                    cache.clear()
                row = cache[t] = dijkstra_to(int(t), *self._reverse_hops, self.tt.n_stations)
            rows.append(row)
        if len(rows) == 1:
            return rows[0].reshape(1, -1)  # a view (np.stack would copy the row for every one-target scan)
        if not rows:
            return self.no_bounds
        if len(stacks) * len(rows) * self.tt.n_stations >= 25_000_000:
            stacks.clear()
        out = stacks[key] = np.stack(rows)
        return out

    @cached_property
    def station_reach(self) -> np.ndarray:
        """``[a, b]``: station ``b`` can be reached from ``a`` at all, ignoring times (trips' consecutive stops
        and walking links as a static graph, a superset of every journey): a one-to-one query to a station
        it cannot reach needs no scan."""
        n = self.tt.n_stations
        src = np.concatenate([self.stop_station[self.c_from], np.repeat(np.arange(n), np.diff(self.link_off))])
        dst = np.concatenate([self.stop_station[self.c_to], self.link_to])
        key = np.unique(src.astype(np.int64) * n + dst)
        off = np.searchsorted(key // n, np.arange(n + 1)).astype(np.int64)
        return closure(off, (key % n).astype(np.int32), n)
