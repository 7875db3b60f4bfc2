"""Zero-minute blocks taken in a single pass (no zero change feeding them): arrivals and every leg count against
the references."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from test_routing_properties import SETTINGS, T0, _brute_force, _origins, cases

from planner.routing import TransitNetwork, reach, station_origin, trip_origin
from planner.routing.te_graph import TimeExpandedGraph


@SETTINGS
@given(cases(hops=(0, 0, 0, 1), dwells=(0,), uniforms=(180, None, 60)), st.integers(T0 - 60, T0 + 600))
def test_zero_blocks_single_pass_arrivals(case, t):
    net = TransitNetwork(case.build(), min_transfer=case.uniform)
    te = TimeExpandedGraph(net)
    for o in _origins(net, [t]):
        assert np.array_equal(reach(net, o).arrivals(), te.earliest_arrivals(o)), o


@SETTINGS
@given(cases(max_trips=8, links=False, hops=(0, 0, 0, 1), dwells=(0,), uniforms=(180, None, 60)),
       st.integers(T0 - 60, T0 + 600))
def test_zero_blocks_single_pass_levels(case, t):
    net = TransitNetwork(case.build(), min_transfer=case.uniform)
    tt = net.tt
    origins = [station_origin(s, t) for s in range(tt.n_stations)]
    origins += [trip_origin(net, tr, r) for tr in range(tt.n_trips) for r in tt.trip_stop_times(tr)]
    for o in origins:
        brute = _brute_force(net, o)
        res = reach(net, o)
        for target in range(tt.n_stations):
            options = brute.get(target)
            for k in range(0 if not o.in_trip else 1, 7):
                fit = [a2 for a2, c2, _ in options or [] if c2 + 1 <= k]
                assert res.station_arrival(target, k) == (min(fit) if fit else None), (o, target, k)
