"""Property tests of the routing engine on random small timetables (hypothesis, derandomized).

The reference is the networkx time-expanded graph (:mod:`planner.routing.te_graph`) and, for the
tie-breaks, a brute-force enumeration of every itinerary of a tiny timetable.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from planner.routing import (
    Query,
    TransitNetwork,
    best_journey,
    journeys_within,
    reach,
    station_origin,
    trip_origin,
)
from planner.routing.te_graph import TimeExpandedGraph
from tests.support.random_timetables import (
    SETTINGS,
    T0,
    cases,
    check_levels_and_tie_breaks,
    origins,
)
from tests.support.timetable import assert_feasible

pytestmark = pytest.mark.long  # one worker runs a module (--dist loadfile); this one early


def _inf(a: np.ndarray) -> np.ndarray:
    return np.where(a < 0, np.iinfo(np.int64).max, a)


@SETTINGS
@given(cases(), st.lists(st.integers(T0 - 600, T0 + 3000), min_size=1, max_size=3))
def test_engine_equals_networkx_dijkstra(case, times):
    net = TransitNetwork(case.build(), min_transfer=case.uniform)
    te = TimeExpandedGraph(net)
    for o in origins(net, times):
        fast = reach(net, Query(o)).arrivals()
        ref = te.earliest_arrivals(o)
        assert np.array_equal(fast, ref), (o, fast, ref)


@SETTINGS
@given(cases(hops=(0,), dwells=(0,), uniforms=(0,)), st.integers(T0 - 60, T0 + 600))
def test_engine_equals_networkx_on_same_instant_chains(case, t):
    # every connection at one of a few instants, zero change time: chains of zero-minute hops of
    # different trips must be followed whatever order the sort put them in
    net = TransitNetwork(case.build(), min_transfer=case.uniform)
    te = TimeExpandedGraph(net)
    for o in origins(net, [t]):
        assert np.array_equal(reach(net, Query(o)).arrivals(), te.earliest_arrivals(o)), o


@SETTINGS
@given(cases(), st.integers(T0 - 600, T0 + 3000), st.integers(1, 900))
def test_earliest_arrival_never_decreases_with_a_later_start(case, t, later):
    net = TransitNetwork(case.build(), min_transfer=case.uniform)
    tt = net.tt
    for s in range(tt.n_stations):
        a1 = _inf(reach(net, Query(station_origin(s, t))).arrivals())
        a2 = _inf(reach(net, Query(station_origin(s, t + later))).arrivals())
        assert np.all(a1 <= a2)
    # seated: a later stop of the same trip is a later position
    for tr in range(tt.n_trips):
        rows = list(tt.trip_stop_times(tr))
        prev = None
        for r in rows:
            a = _inf(reach(net, Query(trip_origin(net, tr, r))).arrivals())
            if prev is not None:
                assert np.all(prev <= a)
            prev = a


@SETTINGS
@given(cases(), st.integers(T0 - 600, T0 + 3000))
def test_adding_a_trip_never_makes_an_arrival_later(case, t):
    assume(len(case.trips) >= 2)  # one trip: nothing to add (hypothesis draws another case)
    fewer = TransitNetwork(case.build(len(case.trips) - 1), min_transfer=case.uniform)
    more = TransitNetwork(case.build(), min_transfer=case.uniform)
    for s in range(more.tt.n_stations):
        a1 = _inf(reach(fewer, Query(station_origin(s, t))).arrivals())
        a2 = _inf(reach(more, Query(station_origin(s, t))).arrivals())
        assert np.all(a2 <= a1)


@SETTINGS
@given(cases(), st.integers(T0 - 600, T0 + 3000))
def test_every_returned_itinerary_is_feasible(case, t):
    net = TransitNetwork(case.build(), min_transfer=case.uniform)
    tt = net.tt
    origins = [station_origin(s, t) for s in range(tt.n_stations)]
    origins += [trip_origin(net, tr, int(tt.trip_offset[tr])) for tr in range(tt.n_trips)]
    for o in origins:
        res = reach(net, Query(o))
        for target in range(tt.n_stations):
            a = res.station_arrival(target)
            j = best_journey(net, o, target)
            assert (j.arrival(tt) if j is not None else None) == a
            if j is None:
                continue
            assert_feasible(net, o, j)
            within = journeys_within(net, o, target, 15)
            assert within and within[0].arrival(tt) == a
            for w in within:
                assert_feasible(net, o, w)
                assert w.arrival(tt) <= a + 15 * 60


@SETTINGS
@given(cases(max_trips=8, links=False), st.integers(T0 - 600, T0 + 1200))
def test_fewest_changes_then_latest_departure_vsbrute_force(case, t):
    check_levels_and_tie_breaks(case, t)


@SETTINGS
@given(cases(), st.integers(T0 - 600, T0 + 1800), st.data())
def test_dice_target_is_the_earliest_not_yet_targeted(case, t, data):
    """decide() picks, among a number's targets not yet targeted, one reached earliest (by the networkx
    reference); with every target targeted (or none in the feed) the roll is free."""
    import tomllib
    from importlib import resources

    from planner.game.dice import decide
    from planner.gamefile.game import parse_game

    tt = case.build()
    net = TransitNetwork(tt, min_transfer=case.uniform)
    names = tt.station_name
    targets = data.draw(st.lists(st.sampled_from(names), min_size=1, max_size=4, unique=True))
    targeted = data.draw(st.lists(st.sampled_from(targets), max_size=len(targets), unique=True))
    doc = tomllib.loads((resources.files("planner") / "games" / "sbb-monopoly.toml").read_text("utf-8"))
    doc["dice"]["targets"] = [{"number": 3, "stations": targets}]
    game = parse_game(doc, source="property")
    origin = station_origin(data.draw(st.integers(0, tt.n_stations - 1)), t)
    ans = decide(net, game, origin, 3, targeted)
    open_ = [n for n in targets if n not in targeted]
    if not open_:
        assert ans.kind == "free"
        return
    ref = TimeExpandedGraph(net).earliest_arrivals(origin)
    arrivals = {n: int(ref[names.index(n)]) for n in open_ if ref[names.index(n)] >= 0}
    if not arrivals:  # no open target can be reached: it counts as a free roll (RULES.md §3)
        assert ans.kind == "free" and ans.target is None
        return
    assert ans.kind == "target" and ans.target in open_
    assert ans.arrival == min(arrivals.values())
    assert arrivals[ans.target] == ans.arrival
