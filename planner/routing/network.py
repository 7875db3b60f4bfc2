"""``TransitNetwork``: the engine's view of a Timetable (connections sorted by time, change matrices)."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from functools import cached_property

import numpy as np

from planner.routing.arrays import DayArrays, RuleArrays
from planner.routing.bounds import TargetBounds
from planner.routing.static_graph import INF
from planner.timetable.model import DEFAULT_CHANGE_SECONDS, NO_CHANGE, Timetable

_MISSING = object()  # not remembered (None is an answer)

__all__ = ["INF", "TransitNetwork", "last_rows"]


def last_rows(tt: Timetable) -> np.ndarray:
    """Boolean mask over stop-time rows: True at each trip's last row (no connection departs from it)."""
    last = np.zeros(len(tt.st_stop), bool)
    if tt.n_trips:
        last[tt.trip_offset[1:] - 1] = True
    return last


class TransitNetwork(TargetBounds):
    """Compact arrays for the connection scan, built once per timetable and change policy.

    ``min_transfer`` (seconds) replaces every change time by one uniform value (a slow group); forbidden
    changes (transfer_type 3) stay forbidden. ``default_change`` is used where the feed says nothing.
    """

    def __init__(self, tt: Timetable, *, min_transfer: int | None = None,
                 default_change: int = DEFAULT_CHANGE_SECONDS):
        self.tt = tt
        self.plan = tt  # the timetable the change-window rule reads (see :meth:`on_real_times`)
        self.min_transfer = min_transfer
        self.default_change = int(default_change)
        self._build_connections()
        self._build_changes()
        self._build_links()

    @classmethod
    def on_real_times(cls, base: TransitNetwork, real: Timetable) -> TransitNetwork:
        """``base``'s network on predicted times: ``real`` is ``base.tt`` with other times (and rows that
        neither board nor alight: cancelled trips, skipped stops). Connections, catchability and arrivals use
        ``real``; the change-window rule reads the timetable (``plan``, docs/rules.md §3 "Real time": which trains
        the window holds is decided by timetable departure, whether one can be caught by the predicted one).
        The change matrices and walking links are ``base``'s (they do not depend on times)."""
        net = cls.__new__(cls)
        net.tt, net.plan = real, base.tt
        net.min_transfer, net.default_change = base.min_transfer, base.default_change
        net._build_connections()
        for name in ("sta_off", "sta_stops", "stop_station", "stop_local", "mat_off", "mat", "link_off", "link_to",
                     "link_sec"):
            setattr(net, name, getattr(base, name))
        net.__dict__["change_rows"] = base.change_rows
        return net

    @property
    def on_plan(self) -> bool:
        """True when this network runs on the timetable's own times (no real-time overlay)."""
        return self.plan is self.tt

    # --- connections ------------------------------------------------------------------------------
    def _build_connections(self) -> None:
        tt = self.tt
        rows = np.flatnonzero(~last_rows(tt)).astype(np.int32)  # a connection departs from every non-last row
        dep = tt.st_dep[rows]
        arr = tt.st_arr[rows + 1]
        order = np.lexsort((rows, arr, dep))
        self.c_row = rows[order]
        self.c_dep = dep[order].astype(np.int32)
        self.c_arr = arr[order].astype(np.int32)
        self.c_from = tt.st_stop[self.c_row].astype(np.int32)
        self.c_to = tt.st_stop[self.c_row + 1].astype(np.int32)
        self.c_trip = tt.st_trip[self.c_row].astype(np.int32)
        self.c_pick = tt.st_pickup[self.c_row].astype(np.bool_)
        self.c_drop = tt.st_dropoff[self.c_row + 1].astype(np.bool_)
        # the timetable departure of each connection: what the change-window rule compares (the same array
        # without an overlay)
        self.c_plan_dep = self.c_dep if self.plan is tt else self.plan.st_dep[self.c_row].astype(np.int32)

    @property
    def n_connections(self) -> int:
        """Number of elementary connections."""
        return len(self.c_dep)

    def remembered(self, memo: str, key: Hashable, compute: Callable[[], object], limit: int):
        """``compute()``, remembered in this network's memo ``memo`` under ``key`` (at most ``limit`` answers,
        then forgotten at once). For answers the timetable alone decides: a network's never changes (real-time
        data makes a new network), so nothing remembered goes stale; callers must not change what they get."""
        kept = self.__dict__.setdefault(memo, {})
        value = kept.get(key, _MISSING)
        if value is _MISSING:
            if len(kept) >= limit:
                kept.clear()
            value = kept[key] = compute()
        return value

    def first_connection_at(self, t: int) -> int:
        """Index of the first connection departing at or after ``t``."""
        # an int32 needle: a Python int would make numpy cast the whole int32 array to int64 first
        return int(self.c_dep.searchsorted(np.int32(min(max(int(t), -INF), INF)), side="left"))

    # --- changes within a station ------------------------------------------------------------------
    def _build_changes(self) -> None:
        tt = self.tt
        off, members = tt.station_stops
        self.sta_off = off.astype(np.int64)
        self.sta_stops = members.astype(np.int32)
        self.stop_station = tt.stop_station.astype(np.int32)
        sizes = np.diff(off)
        local = np.zeros(tt.n_stops, np.int32)
        for s in range(tt.n_stations):
            local[members[off[s]:off[s + 1]]] = np.arange(sizes[s], dtype=np.int32)
        self.stop_local = local
        mat_off = np.zeros(tt.n_stations + 1, np.int64)
        np.cumsum(sizes.astype(np.int64) ** 2, out=mat_off[1:])
        base = np.where(tt.station_change >= 0, tt.station_change, self.default_change).astype(np.int32)
        if self.min_transfer is not None:
            base[:] = int(self.min_transfer)
        mat = np.repeat(base, sizes.astype(np.int64) ** 2).astype(np.int32)
        for a, b, secs in zip(tt.xfer_from, tt.xfer_to, tt.xfer_seconds, strict=True):
            s = tt.stop_station[a]
            if tt.stop_station[b] != s:
                continue
            k = mat_off[s] + local[a] * sizes[s] + local[b]
            if secs == NO_CHANGE:
                mat[k] = NO_CHANGE
            elif self.min_transfer is None:
                mat[k] = secs
        self.mat_off = mat_off
        self.mat = mat

    @cached_property
    def change_rows(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Per stop ``p`` (its row of the change matrix, every platform of its station): the shortest and the
        longest allowed change (-1 when none is allowed), whether some change is forbidden, whether one takes
        zero seconds. The rule scan's boarding groups and spans and the zero-minute blocks read them."""
        tt = self.tt
        sizes = np.diff(self.sta_off)[self.stop_station]
        starts = self.mat_off[self.stop_station] + self.stop_local.astype(np.int64) * sizes
        order = np.argsort(starts, kind="stable")  # rows lie back to back in ``mat``
        allowed = self.mat >= 0
        lo = np.full(tt.n_stops, -1, np.int32)
        hi = np.full(tt.n_stops, -1, np.int32)
        forbidden = np.zeros(tt.n_stops, np.bool_)
        zero = np.zeros(tt.n_stops, np.bool_)
        if len(order):
            at = starts[order]
            low = np.minimum.reduceat(np.where(allowed, self.mat, INF), at)
            lo[order] = np.where(low < INF, low, -1)
            hi[order] = np.maximum.reduceat(np.where(allowed, self.mat, -1), at)
            forbidden[order] = np.minimum.reduceat(self.mat, at) < 0
            zero[order] = np.maximum.reduceat(self.mat == 0, at)
        return lo, hi, forbidden, zero

    def min_change(self, station: int) -> int:
        """Shortest allowed change time at a station (what a group needs at the least to catch a train)."""
        m = self.mat[self.mat_off[station]:self.mat_off[station + 1]]
        m = m[m >= 0]
        return int(m.min()) if len(m) else self.default_change

    def change_seconds(self, a: int, b: int) -> int:
        """Change time from stop ``a`` to stop ``b`` of the same station (``NO_CHANGE`` = forbidden)."""
        s = self.stop_station[a]
        n = self.sta_off[s + 1] - self.sta_off[s]
        return int(self.mat[self.mat_off[s] + self.stop_local[a] * n + self.stop_local[b]])

    # --- walking links between stations (only those the game allows) -------------------------------
    def _build_links(self) -> None:
        tt = self.tt
        order = np.argsort(tt.link_from, kind="stable")
        counts = np.bincount(tt.link_from, minlength=tt.n_stations) if len(tt.link_from) else np.zeros(
            tt.n_stations, np.int64)
        off = np.zeros(tt.n_stations + 1, np.int64)
        np.cumsum(counts, out=off[1:])
        self.link_off = off
        self.link_to = tt.link_to[order].astype(np.int32) if len(order) else np.zeros(0, np.int32)
        self.link_sec = tt.link_seconds[order].astype(np.int32) if len(order) else np.zeros(0, np.int32)

    def link_seconds(self, a: int, b: int) -> int | None:
        """Walking time between stations ``a`` and ``b``, or None when not linked."""
        best = None
        for k in range(self.link_off[a], self.link_off[a + 1]):
            # the scan relaxes every link, so with duplicate links the shortest is the one it used
            if self.link_to[k] == b and (best is None or self.link_sec[k] < best):
                best = int(self.link_sec[k])
        return best

    @cached_property
    def station_departures(self) -> list[np.ndarray]:
        """Sorted departure times (with boarding allowed) per station, for range queries."""
        sta = self.stop_station[self.c_from]
        ok = self.c_pick
        out: list[np.ndarray] = []
        order = np.lexsort((self.c_dep[ok], sta[ok]))
        s_sorted = sta[ok][order]
        d_sorted = self.c_dep[ok][order]
        bounds = np.searchsorted(s_sorted, np.arange(self.tt.n_stations + 1))
        for s in range(self.tt.n_stations):
            out.append(np.unique(d_sorted[bounds[s]:bounds[s + 1]]))
        return out

    @cached_property
    def station_boardings(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Boardable departures per *boarding group* for the change-window rule: ``(off, time, conn, change)``.

        Groups ``0 .. n_stations - 1`` are the stations: every connection with pickup leaving the station.
        After them come the restricted groups: for an arrival platform with forbidden changes (transfer_type
        3) to some platforms of its station, the departures of the platforms it may change to
        (:attr:`stop_group` says which group each platform's arrivals use), so that an arrival event's
        boardable departures are still one index interval of its group. ``conn[off[g]:off[g+1]]`` is sorted by
        time (then connection index), ``time`` the departure times; ``change[g]`` is the change time of every
        change the group's arrival platforms may make, or -1 when they differ (then each departure is checked).
        """
        self._build_boarding_groups()
        return self._boardings

    @cached_property
    def stop_group(self) -> np.ndarray:
        """Per stop: the boarding group (see :attr:`station_boardings`) an arrival there may board from."""
        self._build_boarding_groups()
        return self._stop_group

    def _build_boarding_groups(self) -> None:
        if "_boardings" in self.__dict__:
            return
        n_st = self.tt.n_stations
        sta = self.stop_station[self.c_from]
        ok = np.flatnonzero(self.c_pick)
        # sorted by timetable departure: the window is an interval of it (on predicted times as well)
        order = ok[np.lexsort((ok, self.c_plan_dep[ok], sta[ok]))]
        st_off = np.searchsorted(sta[order], np.arange(n_st + 1))
        # the station's group serves the platforms without forbidden changes: uniform when all theirs are equal
        row_lo, row_hi, forbidden, _ = self.change_rows
        free = ~forbidden
        st_lo = np.full(n_st, INF, np.int64)
        st_hi = np.full(n_st, -1, np.int64)
        np.minimum.at(st_lo, self.stop_station[free], row_lo[free])
        np.maximum.at(st_hi, self.stop_station[free], row_hi[free])
        change = np.where(st_lo == st_hi, st_lo, -1).astype(np.int32).tolist()
        stop_group = self.stop_station.astype(np.int32).copy()
        parts, sizes = [order], [np.diff(st_off)]
        extra_change: list[int] = []
        group_of_row: dict[tuple, int] = {}
        for s in np.unique(self.stop_station[forbidden]).tolist():
            lo, n = int(self.sta_off[s]), int(self.sta_off[s + 1] - self.sta_off[s])
            m = self.mat[self.mat_off[s]:self.mat_off[s + 1]].reshape(n, n)
            deps = order[st_off[s]:st_off[s + 1]]
            dep_local = self.stop_local[self.c_from[deps]]
            for i in range(n):
                row = m[i]
                if row.min() >= 0:
                    continue  # no forbidden change from this platform: the station group serves it
                key = (s, row.tobytes())
                if key not in group_of_row:
                    allowed = row[row >= 0]
                    group_of_row[key] = n_st + len(extra_change)
                    extra_change.append(int(allowed[0]) if len(allowed) and allowed.min() == allowed.max() else -1)
                    kept = deps[row[dep_local] >= 0]
                    parts.append(kept)
                    sizes.append(np.array([len(kept)]))
                stop_group[self.sta_stops[lo + i]] = group_of_row[key]
        conn = np.concatenate(parts).astype(np.int32)
        off = np.zeros(n_st + len(extra_change) + 1, np.int64)
        np.cumsum(np.concatenate(sizes), out=off[1:])
        self._stop_group = stop_group  # first: another thread takes ``_boardings`` as "both are built"
        self._real = self._real_boardings(off, conn)
        self._boardings = (off, self.c_plan_dep[conn].astype(np.int32), conn,
                           np.array(change + extra_change, np.int32))

    def _real_boardings(self, off: np.ndarray, conn: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per boarding (same order as :attr:`station_boardings`) its predicted departure, and per group the
        most it leaves later (``late``) and earlier (``early``) than planned: a departure planned before
        ``t - late`` cannot be caught at ``t``, one planned at ``t + early`` or later surely can. Without an
        overlay the times are the planned ones and both spans 0 (the scans' intervals are exact)."""
        n_groups = len(off) - 1
        if self.on_plan:
            zero = np.zeros(n_groups, np.int32)
            return self.c_dep[conn].astype(np.int32), zero, zero
        real = self.c_dep[conn].astype(np.int32)
        diff = real.astype(np.int64) - self.c_plan_dep[conn]
        late = np.zeros(n_groups, np.int64)
        early = np.zeros(n_groups, np.int64)
        grp = np.repeat(np.arange(n_groups), np.diff(off))
        np.maximum.at(late, grp, np.maximum(diff, 0))
        np.maximum.at(early, grp, np.maximum(-diff, 0))
        return real, late.astype(np.int32), early.astype(np.int32)

    @property
    def boarding_times(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(real, late, early)`` of the boarding groups (see :meth:`_real_boardings`)."""
        self._build_boarding_groups()
        return self._real

    @property
    def stop_change_span(self) -> tuple[np.ndarray, np.ndarray]:
        """Per stop ``p``: the shortest and longest allowed change time from ``p`` to a platform of its station
        (``-1, -1`` when no change from ``p`` is allowed): departures of its boarding group after ``a +
        longest`` are all catchable from an arrival at ``a``, so only the ones before need a check of their own."""
        lo, hi, _, _ = self.change_rows
        return lo, hi

    def event_intervals(self, window: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per connection ``c``, the index interval ``[k0[c], k1[c]]`` of ``station_boardings`` (the boarding
        group of the stop it arrives at) that the arrival event "got off after ``c``" may board under a change
        window of ``window`` seconds, precomputed where the group's change time is uniform and the station has
        no walking links (``k0 = -1``: decided per departure in the scan). Empty interval (``k0 > k1``):
        nothing boardable at all. On predicted times, ``[h0[c], k0[c])`` is the *head*: departures whose
        timetable time is near the arrival, each caught or not by its own predicted time (the scan checks
        them; without an overlay the head is empty, ``h0 == k0``). Cached per window."""
        cache = self.__dict__.setdefault("_event_intervals", {})
        if window in cache:
            return cache[window]
        off, time, _, change = self.station_boardings
        _, late, early = self.boarding_times
        n_groups = len(off) - 1
        sd_group = np.repeat(np.arange(n_groups, dtype=np.int64), np.diff(off))
        key = sd_group << 33 | time.astype(np.int64)
        g = self.stop_group[self.c_to].astype(np.int64)
        a = self.c_arr.astype(np.int64)
        ct = change[g].astype(np.int64)
        need = a + np.maximum(ct, 0)
        k0 = np.searchsorted(key, g << 33 | (need + early[g]), side="left")
        h0 = np.searchsorted(key, g << 33 | np.maximum(need - late[g], 0), side="left") if not self.on_plan else k0
        k1 = np.searchsorted(key, g << 33 | (a + window), side="right") - 1
        forced = (k1 < k0) & (k0 < off[g + 1])
        pad = np.append(time, 0).astype(np.int64)  # k0 may point one past the last departure
        f = pad[k0] // 60 * 60 + 60  # end of the forced minute
        k1 = np.where(forced, np.searchsorted(key, g << 33 | f, side="left") - 1, k1)
        # an empty body with a head: whether the window holds a train, or which is forced, needs each one's time
        general = (ct < 0) | (np.diff(self.link_off)[self.stop_station[self.c_to]] > 0) | ((h0 < k0) & (k1 < k0))
        out = (np.where(general, -1, k0).astype(np.int32), k1.astype(np.int32), h0.astype(np.int32))
        cache[window] = out
        return out

    @cached_property
    def zero_blocks(self) -> np.ndarray:
        """Per connection: the end index of the block of zero-minute connections (all departing and arriving
        at one instant) that starts there, where the scan must repeat the block; 0 elsewhere.

        A block needs repeating only when one of its rides can make a boarding time at that same instant: it
        gets off (drop-off) at a stop with a zero change time to some platform of its station, or at a
        station with a zero-second walk. Otherwise a single pass in (departure, arrival, row) order is exact
        (a trip's rows come in order), and the scan's common path handles the block. Real feeds have no zero
        change times, so this keeps the repeat (and its per-row level lookups) to the hand-built cases."""
        walk0 = np.zeros(self.tt.n_stations, np.bool_)
        walk0[np.repeat(np.arange(self.tt.n_stations), np.diff(self.link_off))[self.link_sec == 0]] = True
        zero_stop = self.change_rows[3] | walk0[self.stop_station]
        zero = self.c_arr == self.c_dep
        feeds = zero & self.c_drop & zero_stop[self.c_to]
        out = np.zeros(len(self.c_dep), np.int32)
        # runs of zero-minute connections at one instant are contiguous (sorted by departure, then arrival)
        same = np.r_[False, zero[:-1] & zero[1:] & (self.c_dep[1:] == self.c_dep[:-1])] if len(zero) else zero
        starts = np.flatnonzero(zero & ~same)
        ends = np.flatnonzero(zero & ~np.r_[same[1:], False]) + 1 if len(zero) else starts
        fed = np.r_[0, np.cumsum(feeds)]
        need = (ends - starts >= 2) & (fed[ends] - fed[starts] > 0)
        out[starts[need]] = ends[need]
        return out

    @cached_property
    def day_arrays(self) -> DayArrays:
        """The scans' fixed arrays (connections; stations, changes and links), looked up once."""
        return DayArrays(self.c_dep, self.c_arr, self.c_from, self.c_to, self.c_trip, self.c_row, self.c_pick,
                         self.c_drop, self.zero_blocks, self.stop_station, self.sta_off, self.sta_stops,
                         self.stop_local, self.mat_off, self.mat, self.link_off, self.link_to, self.link_sec)

    def rule_arrays(self, window: int) -> RuleArrays:
        """The rule scan's arrays for a change window of ``window`` seconds (cached per window)."""
        cache = self.__dict__.setdefault("_rule_arrays", {})
        hit = cache.get(window)
        if hit is None:
            off, time, conn, change = self.station_boardings
            real, late, early = self.boarding_times
            hit = cache[window] = RuleArrays(off, time, conn, change, self.stop_group, *self.event_intervals(window),
                                             *self.stop_change_span, real, late, early)
        return hit
