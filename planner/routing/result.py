"""What a scan returns (:class:`ReachResult`, :class:`RuleReachResult`): labels per level and stop, and the
journeys rebuilt from their parents.

Arriving on foot (variant B, docs/rules.md §2): a group that walks from a station to one linked to it (a station and
its bus stops) is at the other one when the walk ends. The scans carry a walk only as a way to board; the arrival
at a station here is the earlier of a ride's arrival at its platforms and the end of a walk from a linked station
after arriving there (or from the origin), on the same level (a walk is no leg).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from planner.routing.journey import Journey, Leg
from planner.routing.network import INF, TransitNetwork
from planner.routing.origin import Origin


def links_into(net: TransitNetwork, station: int) -> tuple[tuple[int, int], ...]:
    """The walking links into ``station``: (station walked from, seconds), the shortest per station (the scan
    relaxes every link, so with duplicates the shortest is the one it uses); remembered on the network."""
    def compute() -> tuple[tuple[int, int], ...]:
        ks = np.flatnonzero(net.link_to == station)
        src = np.searchsorted(net.link_off, ks, side="right") - 1
        best: dict[int, int] = {}
        for s, k in zip(src.tolist(), ks.tolist(), strict=True):
            best[s] = min(best.get(s, int(INF)), int(net.link_sec[k]))
        return tuple(best.items())

    return net.remembered("_links_into", int(station), compute, 1_000_000)


@dataclass
class ReachResult:
    """Labels of one scan: earliest arrival per stop and level (legs), plus parents for journeys. Rows are valid
    only where the scan got (:mod:`planner.routing.csa`): a stop's arrival row once ``alo[q, 0] <= K``, a trip's
    boarding row once ``lvl[t] <= K``; read them through the methods here."""

    net: TransitNetwork
    origin: Origin
    start_time: int
    arr: np.ndarray  # (n_stops, K+1)
    arr_conn: np.ndarray
    arr_lvl: np.ndarray
    ready_from: np.ndarray | None
    board: np.ndarray  # (n_trips, K+1)
    alo: np.ndarray  # (n_stops, 2): lowest level with an arrival (K+1: none), that arrival
    lvl: np.ndarray  # per trip: lowest level on board (K+1: never boarded)

    def _stops(self, station: int) -> np.ndarray:
        off, members = self.net.tt.station_stops
        return members[off[station]:off[station + 1]]

    @property
    def max_legs(self) -> int:
        """The level cap K."""
        return self.arr.shape[1] - 1

    def _best_by_level(self, stops: np.ndarray) -> tuple[list[int], list[int]]:
        """Per level ``j``: the earliest arrival at any of ``stops`` with at most ``j`` legs and the first platform
        with it (INF and -1: none). Plain Python over a few short rows: cheaper than numpy's calls here."""
        K = self.max_legs
        best, where = [int(INF)] * (K + 1), [-1] * (K + 1)
        alo = self.alo
        for p in stops.tolist():
            lo = int(alo[p, 0])
            if lo > K:
                continue  # the scan never got there: its row holds nothing
            row = self.arr[p].tolist()
            for j in range(lo, K + 1):
                if row[j] < best[j]:
                    best[j], where[j] = row[j], p
        return best, where

    def _ridden(self, station: int) -> np.ndarray:
        """Per level, the earliest arrival at ``station``'s platforms (a ride's, or the start at the origin)."""
        return np.asarray(self._best_by_level(self._stops(station))[0], np.int64)

    def _walked(self, station: int) -> tuple[np.ndarray, np.ndarray]:
        """Per level, the earliest end of a walk to ``station`` from a linked station after arriving there
        (INF: none), and the station walked from (-1)."""
        best = np.full(self.max_legs + 1, INF, np.int64)
        via = np.full(self.max_legs + 1, -1, np.int64)
        for s_from, sec in links_into(self.net, station):
            if s_from == station:
                continue
            cand = self._ridden(s_from) + sec
            better = cand < best
            best[better] = cand[better]
            via[better] = s_from
        return best, via

    def _levels(self, station: int) -> np.ndarray:
        """Per level, the earliest arrival at ``station`` by a ride or on foot."""
        return np.minimum(self._ridden(station), self._walked(station)[0])

    def _ridden_at(self, station: int, level: int) -> int:
        """The earliest arrival at ``station``'s platforms with at most ``level`` legs (INF: none)."""
        a = int(INF)
        for p in self._stops(station).tolist():
            if self.alo[p, 0] <= level:
                a = min(a, int(self.arr[p, level]))
        return a

    def station_arrival(self, station: int, legs: int | None = None) -> int | None:
        """Earliest arrival at ``station`` (by a ride, or on foot from a linked station) with at most ``legs``
        legs (None = any), or None (it reads the asked level only: the searches ask this often)."""
        j = self.max_legs if legs is None else min(legs, self.max_legs)
        a = self._ridden_at(station, j)
        for s_from, sec in links_into(self.net, station):
            if s_from != station:
                a = min(a, self._ridden_at(s_from, j) + sec)
        return None if a >= INF else a

    def pareto_levels(self, station: int) -> list[int]:
        """The leg counts at which ``station``'s earliest arrival improves (its Pareto set over arrival and
        legs): ``journey_to`` with any other count repeats the journey of the next lower one of these."""
        m = self._levels(station)
        return [k for k in range(1, len(m)) if m[k] < INF and m[k] < m[k - 1]]

    def arrivals(self) -> np.ndarray:
        """Earliest arrival per station, by a ride or on foot (int64 seconds; -1 = unreachable)."""
        tt = self.net.tt
        net = self.net
        best = np.where(self.alo[:, 0] <= self.max_legs, self.arr[:, self.max_legs], INF)
        out = np.full(tt.n_stations, np.iinfo(np.int64).max, np.int64)
        np.minimum.at(out, tt.stop_station, best.astype(np.int64))
        if len(net.link_to):  # then one walk from a linked station
            src = np.repeat(np.arange(tt.n_stations), np.diff(net.link_off))
            walked = np.where(out[src] < INF, out[src] + net.link_sec.astype(np.int64), INF)
            np.minimum.at(out, net.link_to, walked)
        out[out >= INF] = -1
        return out

    def boarded(self, trip: int, level: int) -> int:
        """The connection where ``trip`` was boarded at ``level`` (-2: seated from the start, -1: not boarded)."""
        return int(self.board[trip, level]) if self.lvl[trip] <= self.max_legs else -1

    def journey_to(self, station: int, legs: int | None = None) -> Journey | None:
        """Reconstruct the journey to ``station``: earliest arrival, then fewest legs (within ``legs``); a walk
        from a linked station ends it when that arrives earlier than any ride there on as few legs."""
        cap = self.max_legs if legs is None else min(legs, self.max_legs)
        by_level = self._best_by_level(self._stops(station))
        if not links_into(self.net, station):  # no walk into it: the rides decide (read once, in plain Python)
            best = by_level[0]
            if best[cap] >= INF:
                return None
            return self._ridden_journey(station, best.index(best[cap]), by_level)
        ridden = np.asarray(by_level[0], np.int64)
        walked, via = self._walked(station)
        both = np.minimum(ridden, walked)
        if both[cap] >= INF:
            return None
        j = int(np.argmax(both[:cap + 1] == both[cap]))  # labels never increase with the level
        if ridden[j] <= walked[j]:
            return self._ridden_journey(station, j, by_level)
        s_from = int(via[j])
        before = self._ridden_journey(s_from, j)
        assert before is not None
        walk = self._walk(s_from, int(station), int(self._ridden(s_from)[j]))
        return Journey(self.origin.station, int(station), self.start_time, (*before.legs, walk))

    def _ridden_journey(self, station: int, legs: int, by_level: tuple[list[int], list[int]] | None = None
                        ) -> Journey | None:
        """The journey to ``station``'s platforms (by rides only at its end): earliest arrival, then fewest legs
        (``by_level``: :meth:`_best_by_level` of its platforms, when the caller has it)."""
        tt = self.net.tt
        cap = min(legs, self.max_legs)
        best, where = by_level or self._best_by_level(self._stops(station))
        a = best[cap]
        if a >= INF:
            return None
        j = best.index(a)  # the fewest legs with that arrival (labels never increase with the level)
        q = where[j]
        if self.arr_conn[q, j] == -1 and not self.origin.in_trip and tt.stop_station[q] == self.origin.station:
            return Journey(self.origin.station, int(station), self.start_time, ())  # already there
        return Journey(self.origin.station, int(station), self.start_time,
                       tuple(self._ride_to(int(self.arr_conn[q, j]), int(self.arr_lvl[q, j]))))

    def _ride_to(self, c: int, lv: int) -> list[Leg]:
        """Legs ending with the ride (at level ``lv``) that gets off after connection ``c``."""
        net = self.net
        if c == -2:  # getting off at the stop the seated group is approaching
            return [Leg(self.origin.trip, self.origin.row, self.origin.row)]
        trip = int(net.c_trip[c])
        b = int(self.board[trip, lv])  # (boarded: the scan rode it here)
        board_row = self.origin.row if b == -2 else int(net.c_row[b])
        return [*self.legs_before(b, lv), Leg(trip, board_row, int(net.c_row[c]) + 1)]

    def _walk(self, s_from: int, s_to: int, t: int) -> Leg:
        w = self.net.link_seconds(s_from, s_to) or 0
        return Leg(-1, -1, -1, s_from, s_to, t, t + w)

    def legs_before(self, b: int, lv: int) -> list[Leg]:
        """Legs that bring the group to boarding connection ``b`` at level ``lv`` (-2: seated from the start)."""
        net, tt = self.net, self.net.tt
        if b == -2:
            return []
        p = int(net.c_from[b])
        prev = int(self.ready_from[p, lv - 1])
        if prev == -2:
            return []
        if prev == -3:  # walked from the origin station before the first ride
            return [self._walk(self.origin.station, int(tt.stop_station[p]), self.start_time)]
        before = self._ride_to(int(self.arr_conn[prev, lv - 1]), int(self.arr_lvl[prev, lv - 1]))
        if tt.stop_station[prev] != tt.stop_station[p]:
            before.append(self._walk(int(tt.stop_station[prev]), int(tt.stop_station[p]),
                                     int(self.arr[prev, lv - 1])))
        return before


@dataclass
class RuleReachResult(ReachResult):
    """Labels of a scan under the change-window rule (:mod:`planner.routing.rule_scan`): the same arrival
    labels, with parents through the marked departures instead of per-stop boarding times."""

    mark: np.ndarray | None = None
    mark_from: np.ndarray | None = None

    def legs_before(self, b: int, lv: int) -> list[Leg]:
        """Legs that bring the group to boarding connection ``b`` (the event that allowed it, recursively)."""
        net, tt = self.net, self.net.tt
        if b == -2:
            return []
        e = int(self.mark_from[b])
        here = int(tt.stop_station[net.c_from[b]])
        if e == -2:
            return []
        if e == -3:
            return [self._walk(self.origin.station, here, self.start_time)]
        if e == -4:  # the seated group got off at the stop it was approaching
            before = [Leg(self.origin.trip, self.origin.row, self.origin.row)]
            s_prev, a_prev = self.origin.station, int(tt.st_arr[self.origin.row])
        else:
            before = self._ride_to(e, int(self.mark[b]))
            s_prev, a_prev = int(tt.stop_station[net.c_to[e]]), int(net.c_arr[e])
        if s_prev != here:
            before.append(self._walk(s_prev, here, a_prev))
        return before
