"""An independent earliest-arrival search under the change-window rule (variant A §4.2), for whole game days.

It reads the timetable's rows directly (no connection scan, no boarding groups, no marks): a Dijkstra over
*arrival events* (a trip's arrival at a stop with drop-off), each event expanding into exactly the departures
RULES.md §3 "Legal itinerary" lets the group take there: at the same station, departing in
``[a + change(p, q), a + window]``, else the first catchable departure after the window and every other
catchable one in that minute. A group standing at the origin since ``time`` boards ``[time, time + window]``
with no change time, else the forced minute likewise. Staying seated binds nothing, so boarding a trip at one
row reaches every later row of it. Events are settled in time order: the rule depends on the event alone
(station, platform, time), so each is expanded once. Only the change-time policy is shared with the engine
(:meth:`TransitNetwork.change_seconds`); no walking links (variant A has none).
"""

from __future__ import annotations

import bisect
import heapq

import numpy as np

from planner.routing.network import TransitNetwork


class RuleReference:
    """Departures per station, sorted by time, built once per day."""

    def __init__(self, net: TransitNetwork):
        self.net = net
        tt = net.tt
        last = np.zeros(len(tt.st_stop), bool)
        last[tt.trip_offset[1:] - 1] = True
        rows = np.flatnonzero(tt.st_pickup & ~last)
        sta = tt.stop_station[tt.st_stop[rows]]
        self.deps: list[list[tuple[int, int]]] = [[] for _ in range(tt.n_stations)]
        for r, s in zip(rows.tolist(), sta.tolist(), strict=True):
            self.deps[s].append((int(tt.st_dep[r]), r))
        for d in self.deps:
            d.sort()

    def _boardable(self, s: int, p: int, a: int, w_end: int) -> list[int]:
        """Rows a group may board at station ``s``, got off at platform ``p`` at ``a`` (``p < 0``: standing at
        the origin since ``a``)."""
        net, tt = self.net, self.net.tt
        found, forced = [], None
        for d, r in self.deps[s][bisect.bisect_left(self.deps[s], (a, -1)):]:
            ct = 0 if p < 0 else net.change_seconds(p, int(tt.st_stop[r]))
            if ct < 0 or d < a + ct:
                continue
            if d <= w_end:
                found.append(r)
            elif found:
                break
            elif forced is None:
                forced = d // 60
                found.append(r)
            elif d // 60 == forced:
                found.append(r)
            else:
                break
        return found

    def earliest(self, station: int, time: int, window: int, horizon: int) -> dict[int, int]:
        """Earliest legal arrival per station (seconds) for a group standing at ``station`` since ``time``,
        arrivals up to ``horizon``."""
        tt = self.net.tt
        best: dict[int, int] = {station: time}
        boarded: dict[int, int] = {}  # trip -> earliest row boarded
        heap: list[tuple[int, int]] = []

        def board(rows: list[int]) -> None:
            for r in rows:
                t = int(tt.st_trip[r])
                if boarded.get(t, 1 << 62) <= r:
                    continue  # boarded there or earlier: nothing new
                # rows after the earlier boarding's were reached already; its own arrival is new
                stop_at = boarded[t] + 1 if t in boarded else int(tt.trip_offset[t + 1])
                boarded[t] = r
                for r2 in range(r + 1, stop_at):
                    a = int(tt.st_arr[r2])
                    if a <= horizon and tt.st_dropoff[r2]:
                        heapq.heappush(heap, (a, r2))

        board(self._boardable(station, -1, time, time + window))
        seen: set[int] = set()
        while heap:
            a, r = heapq.heappop(heap)
            if r in seen:
                continue
            seen.add(r)
            p = int(tt.st_stop[r])
            s = int(tt.stop_station[p])
            if a < best.get(s, 1 << 62):
                best[s] = a
            board(self._boardable(s, p, a, a + window))
        return best
