"""The change-window rule (variant A §4.2) in the router, on hand-built timetables and random small ones.

The reference is :class:`planner.routing.te_rule.RuleGraph` (networkx, explicit wait arcs per arrival
event); every itinerary the engine returns must also pass the rule's own check (``check_legs``).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from planner.game.zugzwang import check_legs, journey_log, zugzwang
from planner.gamefile.rules import ChangeWindow
from planner.routing import TransitNetwork, best_journey, journeys_within, station_origin, trip_origin
from planner.routing.query import Query, obeys_window, reach
from planner.routing.te_rule import RuleGraph
from planner.util.timefmt import fmt_clock
from planner.util.timefmt import parse_clock as parse
from tests.support.random_timetables import SETTINGS, T0, arrival_and_rides, cases, rule_origins
from tests.support.timetable import TimetableBuilder, assert_feasible

pytestmark = pytest.mark.long  # one worker runs a module (--dist loadfile); this one early

RULE = ChangeWindow(29)

W = 29 * 60


def _net(b: TimetableBuilder) -> TransitNetwork:
    return TransitNetwork(b.build())


def _legs(tt, j) -> list[tuple]:
    return [(tt.route_name[tt.trip_route[leg.trip]], fmt_clock(leg.departure(tt)), fmt_clock(leg.arrival(tt)))
            for leg in j.legs]


def non_fifo() -> TimetableBuilder:
    """A -> B directly (early) or by X (later, one more change); from B to C only 40 minutes after the early
    arrival, and a train elsewhere (AWAY) inside the early arrival's window: arriving early is worse."""
    b = TimetableBuilder()
    for s in ("A", "B", "C", "X", "D"):
        b.station(s, change=120)
    b.trip([("B", None, "10:20"), ("D", "10:40", None)], route="AWAY")
    b.trip([("A", None, "10:00"), ("B", "10:10", None)], route="EARLY")
    b.trip([("A", None, "10:05"), ("X", "10:10", None)], route="TOX")
    b.trip([("X", None, "10:20"), ("B", "10:30", None)], route="LATE")
    b.trip([("B", None, "10:50"), ("C", "11:00", None)], route="ON")
    b.trip([("B", None, "12:00"), ("C", "12:10", None)], route="LAST")
    return b


def test_earlier_arrival_is_worse_under_the_rule():
    net = _net(non_fifo())
    tt = net.tt
    a, c = 0, 2  # stations A and C
    plain = best_journey(net, station_origin(a, 36000), c)
    assert _legs(tt, plain) == [("EARLY", "10:00", "10:10"), ("ON", "10:50", "11:00")]  # waits 40 min: illegal
    ruled = best_journey(net, station_origin(a, 36000, window=W), c)
    assert _legs(tt, ruled) == [("TOX", "10:05", "10:10"), ("LATE", "10:20", "10:30"), ("ON", "10:50", "11:00")]
    assert not check_legs(net, journey_log(net, ruled), RULE, start=(36000, 36000))
    assert check_legs(net, journey_log(net, plain), RULE)[0]["rule"] == "4.2"


def test_forced_next_train_when_nothing_leaves_in_the_window():
    b = non_fifo()
    net = _net(b)
    # standing at B at 11:00: nothing leaves until 12:00, so that train is the one to take
    j = best_journey(net, station_origin(1, 11 * 3600, window=W), 2)
    assert _legs(net.tt, j) == [("LAST", "12:00", "12:10")]
    z = zugzwang(net, 1, 11 * 3600, RULE)
    assert z["forced_next"] and [d["route"] for d in z["departures"]] == ["LAST"]


def test_since_closes_the_origin_window():
    net = _net(non_fifo())
    # at A since 09:30, asking at 10:01: nothing leaves A in [10:01, 09:59], so the next train (TOX) is forced
    j = best_journey(net, station_origin(0, parse("10:01"), since=parse("09:30"), window=W), 1)
    assert _legs(net.tt, j) == [("TOX", "10:05", "10:10"), ("LATE", "10:20", "10:30")]
    # asking at 09:50: EARLY 10:00 is in the window, TOX 10:05 is not (deadline 10:03); at B 10:10 the group
    # must take AWAY 10:20, so C cannot be reached at all
    o = station_origin(0, parse("09:50"), since=parse("09:34"), window=W)
    assert _legs(net.tt, best_journey(net, o, 1)) == [("EARLY", "10:00", "10:10")]
    assert best_journey(net, o, 2) is None
    assert best_journey(net, station_origin(0, parse("09:50"), window=W), 2) is not None


def test_forced_means_first_catchable_and_every_train_of_that_minute():
    b = TimetableBuilder()
    for s in ("A", "B", "C", "D"):
        b.station(s, platforms=("1", "2"), change=120)
    b.trip([("A", None, "10:00"), ("B", "10:10", None)], route="IN")
    b.trip([(("B", "1"), None, "10:11"), ("C", "10:20", None)], route="GONE")  # uncatchable (2-minute change)
    b.trip([(("B", "1"), None, "11:00"), ("C", "11:10", None)], route="SLOW")
    b.trip([(("B", "2"), None, "11:00"), ("D", "11:05", None)], route="D")
    b.trip([("D", None, "11:08"), ("C", "11:09", None)], route="FAST")
    b.trip([(("B", "1"), None, "11:01"), ("C", "11:02", None)], route="LATER")  # not in the forced minute
    net = _net(b)
    j = best_journey(net, station_origin(0, 36000, window=W), 2)
    assert _legs(net.tt, j) == [("IN", "10:00", "10:10"), ("D", "11:00", "11:05"), ("FAST", "11:08", "11:09")]
    assert not check_legs(net, journey_log(net, j), RULE, start=(36000, 36000))


def test_forbidden_change_is_not_a_boardable_train_and_the_forced_one_is_the_next_allowed():
    # arriving on B1, the change to B2 is forbidden (transfer_type 3): the B2 trains inside the window and in
    # the forced minute are not boardable, so the window is empty and the forced train is the first from B3
    b = TimetableBuilder()
    for s in ("A", "B", "C", "D"):
        b.station(s, platforms=("1", "2", "3"), change=120)
    b.transfers[(b.stop(("B", "1")), b.stop(("B", "2")))] = -1
    b.trip([("A", None, "10:00"), (("B", "1"), "10:10", None)], route="IN")
    b.trip([(("B", "2"), None, "10:20"), ("C", "10:30", None)], route="NOPE")  # in the window, forbidden
    b.trip([(("B", "2"), None, "11:00"), ("C", "11:01", None)], route="NOPE2")  # the forced minute, forbidden
    b.trip([(("B", "3"), None, "11:00"), ("D", "11:05", None)], route="FORCED")
    b.trip([("D", None, "11:08"), ("C", "11:20", None)], route="ON")
    b.trip([(("B", "3"), None, "11:30"), ("C", "11:40", None)], route="LATER")
    net = _net(b)
    tt = net.tt
    assert net.stop_group[b.stop(("B", "1"))] >= tt.n_stations  # the restricted boarding group
    assert net.stop_group[b.stop(("B", "2"))] == b.station_index("B")
    j = best_journey(net, station_origin(0, 36000, window=W), b.station_index("C"))
    assert _legs(tt, j) == [("IN", "10:00", "10:10"), ("FORCED", "11:00", "11:05"), ("ON", "11:08", "11:20")]
    assert not check_legs(net, journey_log(net, j), RULE, start=(36000, 36000))
    # without the rule the forbidden change still holds: NOPE (10:30 at C) is not offered either
    plain = best_journey(net, station_origin(0, 36000), b.station_index("C"))
    assert _legs(tt, plain) == [("IN", "10:00", "10:10"), ("FORCED", "11:00", "11:05"), ("ON", "11:08", "11:20")]
    assert RuleGraph(net, W).best(station_origin(0, 36000, window=W), b.station_index("C")) == (parse("11:20"), 3)


def test_seated_group_is_bound_only_after_getting_off():
    b = non_fifo()
    net = _net(b)
    tt = net.tt
    tox = next(t for t in range(tt.n_trips) if tt.route_name[tt.trip_route[t]] == "TOX")
    rows = list(tt.trip_stop_times(tox))
    # seated in TOX approaching X (10:10), having boarded at A long ago: only getting off at X binds it
    j = best_journey(net, trip_origin(net, tox, rows[1], window=W), 2)
    assert _legs(tt, j) == [("TOX", "10:10", "10:10"), ("LATE", "10:20", "10:30"), ("ON", "10:50", "11:00")]
    assert not check_legs(net, journey_log(net, j), RULE)


def test_journeys_within_are_all_legal():
    net = _net(non_fifo())
    o = station_origin(0, 35000, window=W)
    alts = journeys_within(net, o, 2, 120)
    assert alts
    for j in alts:
        assert not check_legs(net, journey_log(net, j), RULE, start=(o.got_off, o.time)), _legs(net.tt, j)


@SETTINGS
@given(cases(), st.lists(st.integers(T0 - 600, T0 + 3000), min_size=1, max_size=2), st.sampled_from([60, 300, W]),
       st.sampled_from([0, 0, 120, 900]))
def test_engine_equals_rule_graph(case, times, window, before):
    net = TransitNetwork(case.build(), min_transfer=case.uniform)
    tt = net.tt
    ref = RuleGraph(net, window)
    origins = rule_origins(net, times, window, before)
    for o in origins:
        for target in range(tt.n_stations):
            want = ref.best(o, target)
            j = best_journey(net, o, target)
            got = arrival_and_rides(tt, o, j)
            assert got == want, (o, target, got, want)
            if j is not None and j.legs:
                assert_feasible(net, o, j)
                start = None if o.in_trip else (o.got_off, o.time)
                if not any(leg.is_walk for leg in j.legs):
                    assert not check_legs(net, journey_log(net, j), ChangeWindow(window // 60), start=start), (o, target)


@SETTINGS
@given(cases(), st.lists(st.integers(T0 - 600, T0 + 3000), min_size=1, max_size=2), st.sampled_from([60, 300, W]),
       st.sampled_from([0, 0, 120, 900]))
def test_rule_scan_alone_equals_rule_graph(case, times, window, before):
    # best_journey answers from the plain scan when its journey obeys the window; the rule-aware scan itself
    # (what decides every other case) must equal the reference on its own, one target and all targets at once
    net = TransitNetwork(case.build(), min_transfer=case.uniform)
    tt = net.tt
    ref = RuleGraph(net, window)
    origins = rule_origins(net, times, window, before)
    for o in origins:
        together = reach(net, Query(o, target=list(range(tt.n_stations))))
        for target in range(tt.n_stations):
            want = ref.best(o, target)
            for res in (reach(net, Query(o, target=target)), together):
                j = res.journey_to(target)
                got = arrival_and_rides(tt, o, j)
                assert got == want, (o, target, got, want)


@SETTINGS
@given(cases(), st.integers(T0 - 600, T0 + 3000), st.sampled_from([60, 300, W]), st.sampled_from([0, 120, 900]))
def test_obeys_window_is_sound(case, t, window, before):
    # the shortcut's test: a plain journey it accepts is legal by the rule's own check, and the rule-aware
    # answer then arrives as early with as many changes (it is the rule's best journey)
    net = TransitNetwork(case.build(), min_transfer=case.uniform)
    tt = net.tt
    for s in range(tt.n_stations):
        o = station_origin(s, t, since=t - before, window=window)
        for target in range(tt.n_stations):
            plain = best_journey(net, station_origin(s, t), target)
            if plain is None or not plain.legs or not obeys_window(net, o, plain):
                continue
            assert not check_legs(net, journey_log(net, plain), ChangeWindow(window // 60), start=(t - before, t)), (o, target)
            ruled = reach(net, Query(o, target=target)).journey_to(target)
            assert (ruled.arrival(tt), ruled.changes) == (plain.arrival(tt), plain.changes), (o, target)
