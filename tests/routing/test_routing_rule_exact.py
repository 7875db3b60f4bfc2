"""Exactness of the speed-ups under the rule: latest legal departure and the dice candidates' labels against RuleGraph,
arrive-by probes, and the network caches under a concurrent clear."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from planner.routing import TransitNetwork, best_journey, station_origin
from planner.routing.query import reach_targets
from planner.routing.te_rule import RuleGraph
from tests.support.random_timetables import SETTINGS, T0, arrival_and_rides, cases, rule_origins

pytestmark = pytest.mark.long  # one worker runs a module (--dist loadfile); this one early

W = 29 * 60


@SETTINGS
@given(cases(), st.integers(T0 - 600, T0 + 3000), st.sampled_from([60, 300, W]), st.sampled_from([0, 120, 900]))
def test_latest_legal_departure(case, t, window, before):
    net = TransitNetwork(case.build(), min_transfer=case.uniform)
    tt = net.tt
    ref = RuleGraph(net, window)
    checked = 0
    for s in range(tt.n_stations):
        o = station_origin(s, t, since=t - before, window=window)
        limit = o.first_departure_limit(net)
        deps = sorted({int(d) for d in net.station_departures[s] if t < d <= limit})
        for target in range(tt.n_stations):
            want = ref.best(o, target)
            j = best_journey(net, o, target)
            assert (j is None or (o.in_trip and not j.legs)) == (want is None), (o, target)  # reached alike
            if want is None or not j.legs or j.legs[0].is_walk:
                continue
            ok = [d for d in deps if ref.best(o.later(d), target) == want]
            if ok:  # a later legal departure that still arrives as early: the answer leaves no earlier
                assert j.departure(tt) >= max(ok), (o, target, j.departure(tt), max(ok))
                checked += 1
    assume(checked)  # an example without such a departure checks nothing: hypothesis draws another


@SETTINGS
@given(cases(), st.integers(T0 - 600, T0 + 3000), st.sampled_from([60, 300, W]), st.sampled_from([0, 120, 900]),
       st.data())
def test_reach_targets_labels(case, t, window, before, data):
    net = TransitNetwork(case.build(), min_transfer=case.uniform)
    tt = net.tt
    ref = RuleGraph(net, window)
    targets = data.draw(st.lists(st.integers(0, tt.n_stations - 1), min_size=1, max_size=3))
    for s in range(tt.n_stations):
        o = station_origin(s, t, since=t - before, window=window)
        res = reach_targets(net, o, targets)
        for target in targets:
            want = ref.best(o, target)
            j = res[target].journey_to(target)
            assert arrival_and_rides(tt, o, j) == want, (o, target, j, want)


class _ClearedAfterWrite(dict):
    """A cache another thread clears right after each insertion (the interleaving, made deterministic)."""

    def __setitem__(self, key, value):
        super().__setitem__(key, value)
        self.clear()


class _ClearedAfterCheck(dict):
    """A cache another thread clears right after a membership test says a key is there."""

    def __contains__(self, key):
        found = super().__contains__(key)
        self.clear()
        return found

    def get(self, key, default=None):
        out = super().get(key, default)
        self.clear()
        return out


def test_caches_survive_a_concurrent_clear():
    import numpy as np

    from tests.support.timetable import TimetableBuilder

    b = TimetableBuilder()
    for s in ("A", "B", "C"):
        b.station(s, change=60)
    b.trip([("A", None, "10:00"), ("B", "10:10", "10:11"), ("C", "10:20", None)])
    net = TransitNetwork(b.build())
    targets = np.array([1, 2], np.int32)
    net.__dict__["_lower_bounds"] = _ClearedAfterWrite()
    assert net.lower_bounds(targets).shape == (2, 3)
    net.__dict__["_lower_bounds"] = _ClearedAfterCheck({1: np.zeros(3, np.int32), 2: np.zeros(3, np.int32)})
    assert net.lower_bounds(targets, compute=False).shape in ((2, 3), (0, 3))  # (no rows: not all cached)
    net.__dict__["_target_arrays"] = _ClearedAfterCheck()
    net.target_arrays(1)
    t, mask, last = net.target_arrays(1)
    assert t.tolist() == [1] and mask.tolist() == [False, True, False] and last == 36600


@SETTINGS
@given(cases(), st.integers(T0 - 600, T0 + 3000), st.sampled_from([60, 300, W]), st.sampled_from([0, 120, 900]),
       st.data())
def test_arrive_by_probes_exact_when_reached(case, t, window, before, data):
    from planner.routing import Query, reach

    net = TransitNetwork(case.build(), min_transfer=case.uniform)
    tt = net.tt
    refs = {window: RuleGraph(net, window)}
    targets = data.draw(st.lists(st.integers(0, tt.n_stations - 1), min_size=1, max_size=3, unique=True))
    by = data.draw(st.integers(T0, T0 + 3600))
    for o in rule_origins(net, [t], window, before):
        net.lower_bounds(np.array(targets, np.int32))  # cached: the plain probes prune too
        for ruled in (True, False):
            oo = o if ruled else replace(o, window=None)
            for tg in (targets, targets[0]):
                res = reach(net, Query(oo, target=tg, arrive_by=by))
                for target in ([tg] if isinstance(tg, int) else tg):
                    want = refs[window].best(o, target) if ruled else _plain_ref(net, oo, target)
                    if want is None or want[0] > by:
                        continue
                    j = res.journey_to(target)
                    got = arrival_and_rides(tt, o, j)
                    assert got == want, (ruled, o, tg, target, by, got, want)


def _plain_ref(net, o, target):
    from planner.routing import Query, reach

    return arrival_and_rides(net.tt, o, reach(net, Query(o)).journey_to(target))
