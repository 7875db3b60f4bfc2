"""Zero-minute blocks taken in a single pass (no zero change feeding them): arrivals and every leg count against
the references."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from planner.routing import Query, TransitNetwork, reach
from planner.routing.te_graph import TimeExpandedGraph
from tests.support.random_timetables import SETTINGS, T0, cases, check_levels_and_tie_breaks, origins


@SETTINGS
@given(cases(hops=(0, 0, 0, 1), dwells=(0,), uniforms=(180, None, 60)), st.integers(T0 - 60, T0 + 600))
def test_zero_blocks_single_pass_arrivals(case, t):
    net = TransitNetwork(case.build(), min_transfer=case.uniform)
    te = TimeExpandedGraph(net)
    for o in origins(net, [t]):
        assert np.array_equal(reach(net, Query(o)).arrivals(), te.earliest_arrivals(o)), o


@SETTINGS
@given(cases(max_trips=8, links=False, hops=(0, 0, 0, 1), dwells=(0,), uniforms=(180, None, 60)),
       st.integers(T0 - 60, T0 + 600))
def test_zero_blocks_single_pass_levels(case, t):
    check_levels_and_tie_breaks(case, t)
