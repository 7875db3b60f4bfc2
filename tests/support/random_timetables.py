"""Random small timetables for property tests (hypothesis strategies), the origins to ask from, and the
brute-force reference for levels and tie-breaks; shared by the routing property tests."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from planner.routing import Query, TransitNetwork, best_journey, reach, station_origin, trip_origin
from planner.routing.query import Origin
from planner.timetable.model import Timetable
from tests.support.timetable import TimetableBuilder, assert_feasible

SETTINGS = settings(max_examples=200, derandomize=True, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
T0 = 10 * 3600


@dataclass
class Case:
    """A generated timetable plus its recipe (to rebuild it with or without a trip)."""

    builder: TimetableBuilder
    trips: list[list[tuple]]
    uniform: int | None

    def build(self, n_trips: int | None = None) -> Timetable:
        """The timetable with the first ``n_trips`` trips (all by default)."""
        b = TimetableBuilder(stations=list(self.builder.stations), station_change=list(self.builder.station_change),
                             stops=list(self.builder.stops), transfers=dict(self.builder.transfers),
                             links=list(self.builder.links))
        for rows in self.trips[:n_trips]:
            b.trip(rows)
        return b.build()


# The strategies ``cases`` draws from, built once per distinct argument: the same values drawn as from strategies
# written out per draw, without building and validating a new strategy object for every value (most of the
# generation's time).
_ints = cache(st.integers)
_BOOL = st.booleans()


@cache
def _one_of(*values):
    return st.sampled_from(values)


@cache
def _stop_off(stations: tuple[int, ...], station: int):
    """A stop (by index) at a station other than ``station``, of the stops at ``stations``."""
    return _ints(0, len(stations) - 1).filter(lambda x: stations[x] != station)


@cache
def _pairs(n: int):
    return st.lists(_ints(0, n - 1), min_size=2, max_size=2, unique=True)


@st.composite
def cases(draw, max_trips: int = 7, links: bool = True, hops: tuple[int, ...] = (0, 0, 0, 1, 2, 5, 8),
          dwells: tuple[int, ...] = (0, 1, 2), uniforms: tuple[int | None, ...] = (None, None, 0, 0, 180)) -> Case:
    """A few stations with 1-3 platforms, trips with non-decreasing minute times (hop and dwell minutes
    drawn from ``hops`` / ``dwells``: many zeros, because ties and same-instant chains are where scans go
    wrong), random feed transfers incl. type 3, station defaults, walking links and pickup / drop-off
    flags; a uniform minimum change time drawn from ``uniforms``."""
    b = TimetableBuilder()
    n_st = draw(_ints(2, 5))
    for s in range(n_st):
        n_pl = draw(_ints(1, 3))
        b.station(f"S{s}", platforms=tuple(str(p + 1) for p in range(n_pl)),
                  change=draw(_one_of(None, None, 0, 60, 120, 300)))
    n_stops = len(b.stops)
    stop_station = tuple(stop[0] for stop in b.stops)
    for _ in range(draw(_ints(0, 6))):
        p = draw(_ints(0, n_stops - 1))
        same = [q for q in range(n_stops) if b.stops[q][0] == b.stops[p][0]]
        q = draw(_one_of(*same))
        b.transfers[(p, q)] = draw(_one_of(-1, -1, 0, 60, 120, 240, 600))
    if links and n_st > 1:
        for _ in range(draw(_ints(0, 2))):
            a, c = draw(_pairs(n_st))
            b.links.append((a, c, draw(_one_of(0, 60, 180, 300))))
    trips = []
    for _ in range(draw(_ints(1, max_trips))):
        n_rows = draw(_ints(2, 4))
        t = T0 + 60 * draw(_ints(0, 10))
        rows = []
        prev_station = -1
        for k in range(n_rows):
            p = draw(_stop_off(stop_station, prev_station))
            prev_station = b.stops[p][0]
            if k:
                t += 60 * draw(_one_of(*hops))
            a = t
            t += 60 * draw(_one_of(*dwells))
            pick = draw(_BOOL) or draw(_BOOL)  # mostly allowed
            drop = draw(_BOOL) or draw(_BOOL)
            rows.append((p, a, t, pick, drop))
        trips.append(rows)
    uniform = draw(_one_of(*uniforms))
    return Case(b, trips, uniform)


def origins(net: TransitNetwork, draw_times: list[int]) -> list[Origin]:
    """Every station at the given times, and every stop-time row of every trip (seated)."""
    tt = net.tt
    out = [station_origin(s, t) for s in range(tt.n_stations) for t in draw_times]
    out += [trip_origin(net, tr, r) for tr in range(tt.n_trips) for r in tt.trip_stop_times(tr)]
    return out


def rule_origins(net: TransitNetwork, times: list[int], window: int, before: int) -> list:
    """Every station at the given times (there since ``before`` seconds), and every row of every trip (seated)."""
    tt = net.tt
    out = [station_origin(s, t, since=t - before, window=window) for s in range(tt.n_stations) for t in times]
    return out + [trip_origin(net, tr, r, window=window) for tr in range(tt.n_trips) for r in tt.trip_stop_times(tr)]


def arrival_and_rides(tt, o, j) -> tuple[int, int] | None:
    """A journey as RuleGraph.best answers: (arrival, rides); seated at the target's stop without getting off is
    not an arrival in either model."""
    if j is None or (o.in_trip and not j.legs):
        return None
    return j.arrival(tt), sum(1 for leg in j.legs if not leg.is_walk)


# ---- brute force for the tie-breaks--------------------------------------------------------------------

def brute_force(net: TransitNetwork, o: Origin) -> dict[int, list[tuple[int, int, int]]]:
    """Every itinerary (no walks, no trip used twice) as (arrival, changes, departure) per target station."""
    tt = net.tt
    out: dict[int, list[tuple[int, int, int]]] = {}

    def alight_from(trip: int, board_row: int, dep: int, rides: int, used: frozenset, first_dep: int,
                    include_board: bool) -> None:
        rows = tt.trip_stop_times(trip)
        for r in range(board_row if include_board else board_row + 1, rows.stop):
            if tt.st_dropoff[r]:
                a, p = int(tt.st_arr[r]), int(tt.st_stop[r])
                out.setdefault(int(tt.stop_station[p]), []).append((a, rides - 1, first_dep))
                board_from(p, a, rides, used | {trip}, first_dep)

    def board_from(p: int, a: int, rides: int, used: frozenset, first_dep: int | None) -> None:
        s = int(tt.stop_station[p]) if p >= 0 else o.station
        for tr in range(tt.n_trips):
            if tr in used:
                continue
            for r in list(tt.trip_stop_times(tr))[:-1]:
                q = int(tt.st_stop[r])
                if tt.stop_station[q] != s or not tt.st_pickup[r]:
                    continue
                ct = 0 if p < 0 else net.change_seconds(p, q)
                if ct < 0 or tt.st_dep[r] < a + ct:
                    continue
                d = int(tt.st_dep[r])
                alight_from(tr, r, d, rides + 1, used, d if first_dep is None else first_dep, False)

    if o.in_trip:
        alight_from(o.trip, o.row, int(tt.st_dep[o.row]), 1, frozenset(), int(tt.st_dep[o.row]), True)
    else:
        out[o.station] = [(o.time, -1, o.time)]  # already there: no legs
        board_from(-1, o.time, 0, frozenset(), None)
    return out


def check_levels_and_tie_breaks(case: Case, t: int) -> None:
    """Every level's earliest arrival, every journey per level, and the best journey's (arrival, changes,
    departure) from every station at ``t`` and every seated position, against the brute force."""
    net = TransitNetwork(case.build(), min_transfer=case.uniform)
    tt = net.tt
    for o in origins(net, [t]):
        brute = brute_force(net, o)
        res = reach(net, Query(o))
        for target in range(tt.n_stations):
            j = best_journey(net, o, target)
            options = brute.get(target)
            # the whole profile: earliest arrival with at most k rides, for every k (levels of the scan)
            for k in range(0 if not o.in_trip else 1, 7):
                fit = [a2 for a2, c2, _ in options or [] if c2 + 1 <= k]
                assert res.station_arrival(target, k) == (min(fit) if fit else None), (o, target, k)
                jk = res.journey_to(target, k)
                assert (jk is None) == (not fit)
                if jk is not None:
                    assert_feasible(net, o, jk)
                    assert sum(1 for leg in jk.legs if not leg.is_walk) <= k
            if not options:
                assert j is None
                continue
            a, ch, _ = min(options)
            dep = max(d for a2, c2, d in options if (a2, c2) == (a, ch))
            assert j is not None
            got_ch = -1 if not j.legs else j.changes
            assert (j.arrival(tt), got_ch) == (a, ch), (o, target)
            if not o.in_trip:
                assert j.departure(tt) == dep, (o, target)
