"""Routing behaviours, one small hand-built timetable each (in the style of OpenTripPlanner's raptor tests).

Every earliest arrival is also checked against the networkx time-expanded graph, and every journey the
engine returns against the timetable alone (``assert_feasible``).
"""

from __future__ import annotations

import itertools

import pytest

from planner.routing import (
    Journey,
    Query,
    TransitNetwork,
    best_journey,
    journeys_within,
    reach,
    station_origin,
    trip_origin,
)
from planner.routing.query import Origin
from planner.routing.te_graph import TimeExpandedGraph
from planner.timetable.model import NO_CHANGE
from tests.support.timetable import TimetableBuilder, assert_feasible, secs


def arrival(net: TransitNetwork, origin: Origin, target: str | int) -> int | None:
    """Earliest arrival by the engine; asserts networkx and ``best_journey`` agree and the journey is feasible."""
    s = target if isinstance(target, int) else net.tt.station_name.index(target)
    fast = reach(net, Query(origin)).station_arrival(s)
    assert TimeExpandedGraph(net).earliest_arrival(origin, s) == fast
    j = best_journey(net, origin, s)
    if fast is None:
        assert j is None
    else:
        assert j is not None and j.arrival(net.tt) == fast
        assert_feasible(net, origin, j)
    return fast


def at(net: TransitNetwork, station: str, time: str) -> Origin:
    """A group standing at ``station`` at ``time``."""
    return station_origin(net.tt.station_name.index(station), secs(time))


def seated(net: TransitNetwork, trip_id: str, station: str) -> Origin:
    """A group sitting in ``trip_id``, at or approaching ``station``."""
    tt = net.tt
    t = tt.trip_index[trip_id]
    row = next(r for r in tt.trip_stop_times(t) if tt.station_name[tt.stop_station[tt.st_stop[r]]] == station)
    return trip_origin(net, t, row)


def trips_of(net: TransitNetwork, j: Journey) -> list[str]:
    """Trip ids of a journey's rides (walks as ``walk``)."""
    return ["walk" if leg.is_walk else net.tt.trip_id[leg.trip] for leg in j.legs]


def journey(net: TransitNetwork, origin: Origin, target: str) -> Journey:
    """``best_journey`` to a station by name (must exist)."""
    j = best_journey(net, origin, net.tt.station_name.index(target))
    assert j is not None
    return j


# ---- change times ---------------------------------------------------------------------------------------

def _change_tt(transfer: int | None | str = "none", station_change: int | None = None) -> TimetableBuilder:
    b = TimetableBuilder()
    b.station("A")
    b.station("B", platforms=("1", "2"), change=station_change)
    b.station("C")
    b.trip([("A", None, "10:00"), (("B", "1"), "10:10", None)], trip_id="in")
    b.trip([(("B", "2"), None, "10:11"), ("C", "10:20", None)], trip_id="tight")
    b.trip([(("B", "2"), None, "10:30"), ("C", "10:40", None)], trip_id="next")
    if transfer != "none":
        b.transfer(("B", "1"), ("B", "2"), transfer)
    return b


def test_default_change_time_misses_a_one_minute_connection():
    net = TransitNetwork(_change_tt().build())
    assert arrival(net, at(net, "A", "09:55"), "C") == secs("10:40")
    assert trips_of(net, journey(net, at(net, "A", "09:55"), "C")) == ["in", "next"]


def test_feed_transfer_of_one_minute_catches_it():
    net = TransitNetwork(_change_tt(transfer=60).build())
    assert arrival(net, at(net, "A", "09:55"), "C") == secs("10:20")
    assert trips_of(net, journey(net, at(net, "A", "09:55"), "C")) == ["in", "tight"]


def test_station_default_change_time_used_when_no_pair_transfer():
    net = TransitNetwork(_change_tt(station_change=60).build())
    assert arrival(net, at(net, "A", "09:55"), "C") == secs("10:20")
    # a pair transfer beats the station default
    net = TransitNetwork(_change_tt(transfer=300, station_change=60).build())
    assert arrival(net, at(net, "A", "09:55"), "C") == secs("10:40")


def test_transfer_type_3_forbids_the_change():
    b = _change_tt(transfer=None)
    b.trip([(("B", "1"), None, "10:50"), ("C", "11:00", None)], trip_id="same_platform")
    net = TransitNetwork(b.build())
    assert net.change_seconds(b.stop(("B", "1")), b.stop(("B", "2"))) == NO_CHANGE
    assert arrival(net, at(net, "A", "09:55"), "C") == secs("11:00")  # 10:30 from platform 2 is not allowed
    assert trips_of(net, journey(net, at(net, "A", "09:55"), "C")) == ["in", "same_platform"]
    # only that direction is forbidden; standing at B, platform 2 is fine
    assert arrival(net, at(net, "B", "10:25"), "C") == secs("10:40")


@pytest.mark.parametrize("uniform, expected", [(60, "10:20"), (300, "10:40"), (0, "10:20")])
def test_uniform_min_transfer_overrides_feed_and_defaults(uniform, expected):
    net = TransitNetwork(_change_tt(transfer=240, station_change=180).build(), min_transfer=uniform)
    assert arrival(net, at(net, "A", "09:55"), "C") == secs(expected)


def test_uniform_min_transfer_boundary_is_inclusive():
    b = _change_tt()
    b.trip([(("B", "2"), None, "10:15"), ("C", "10:25", None)], trip_id="five")
    b.trip([(("B", "2"), None, "10:14:59"), ("C", "10:21", None)], trip_id="almost")
    net = TransitNetwork(b.build(), min_transfer=300)
    assert arrival(net, at(net, "A", "09:55"), "C") == secs("10:25")


def test_uniform_min_transfer_keeps_type_3_forbidden():
    b = _change_tt(transfer=None)
    net = TransitNetwork(b.build(), min_transfer=0)
    assert net.change_seconds(b.stop(("B", "1")), b.stop(("B", "2"))) == NO_CHANGE
    assert net.change_seconds(b.stop(("B", "2")), b.stop(("B", "1"))) == 0
    assert arrival(net, at(net, "A", "09:55"), "C") is None


def test_network_change_matrix_matches_the_model():
    b = _change_tt(transfer=None, station_change=90)
    b.transfer(("B", "2"), ("B", "1"), 30)
    tt = b.build()
    for uniform in (None, 0, 300):
        net = TransitNetwork(tt, min_transfer=uniform)
        for p, q in itertools.product(range(tt.n_stops), repeat=2):
            if tt.stop_station[p] == tt.stop_station[q]:
                assert net.change_seconds(p, q) == tt.change_seconds(p, q, uniform), (p, q, uniform)


# ---- staying seated ------------------------------------------------------------------------------------

def test_staying_seated_needs_no_change_time_but_changing_does():
    b = TimetableBuilder()
    for s in "ABCD":
        b.station(s, change=300)
    b.trip([("A", None, "10:00"), ("B", "10:10", "10:10"), ("C", "10:20", None)], trip_id="through")
    # same platform, same minute: only someone already standing at B could take it
    b.trip([("B", None, "10:10"), ("D", "10:20", None)], trip_id="zero_change")
    b.trip([("B", None, "10:15"), ("D", "10:25", None)], trip_id="five_min")
    net = TransitNetwork(b.build())
    assert arrival(net, at(net, "A", "09:59"), "C") == secs("10:20")
    assert trips_of(net, journey(net, at(net, "A", "09:59"), "C")) == ["through"]
    assert arrival(net, at(net, "A", "09:59"), "D") == secs("10:25")
    assert arrival(net, at(net, "B", "10:10"), "D") == secs("10:20")


# ---- walking ------------------------------------------------------------------------------------------

def _walk_tt(link: int | None) -> TimetableBuilder:
    b = TimetableBuilder()
    for s in ("A", "B", "B Bahnhofplatz", "C"):
        b.station(s)
    b.trip([("A", None, "10:00"), ("B", "10:10", None)], trip_id="train")
    b.trip([("B Bahnhofplatz", None, "10:20"), ("C", "10:30", None)], trip_id="bus")
    if link is not None:
        b.link("B", "B Bahnhofplatz", link)
    return b


def test_no_walking_between_stations_without_a_link():
    net = TransitNetwork(_walk_tt(None).build())
    assert arrival(net, at(net, "A", "09:55"), "C") is None
    assert arrival(net, at(net, "B", "10:15"), "C") is None


def test_walking_link_connects_two_stations():
    net = TransitNetwork(_walk_tt(180).build())
    assert arrival(net, at(net, "A", "09:55"), "C") == secs("10:30")
    j = journey(net, at(net, "A", "09:55"), "C")
    assert trips_of(net, j) == ["train", "walk", "bus"]
    assert j.changes == 1
    assert arrival(net, at(net, "B", "10:15"), "C") == secs("10:30")  # walk from where one stands
    # a walk longer than the gap misses the bus
    net = TransitNetwork(_walk_tt(660).build())
    assert arrival(net, at(net, "A", "09:55"), "C") is None


# ---- positions inside a train ---------------------------------------------------------------------------

def _in_train_tt(drop_at_b: bool = True) -> TimetableBuilder:
    b = TimetableBuilder()
    for s in "ABCDE":
        b.station(s)
    b.trip([("A", None, "10:00"), ("B", "10:10", "10:11", True, drop_at_b), ("C", "10:20", "10:21"),
            ("D", "10:30", None)], trip_id="ride")
    b.trip([("B", None, "10:12"), ("E", "10:40", None)], trip_id="b_e_tight")
    b.trip([("B", None, "10:13"), ("E", "10:35", None)], trip_id="b_e")
    b.trip([("C", None, "10:23"), ("E", "10:33", None)], trip_id="c_e")
    b.trip([("A", None, "10:05"), ("C", "10:15", None)], trip_id="overtaker")
    return b


def test_seated_group_stays_on_or_gets_off_later_and_changes():
    net = TransitNetwork(_in_train_tt().build())
    o = seated(net, "ride", "B")
    assert arrival(net, o, "D") == secs("10:30")
    assert trips_of(net, journey(net, o, "D")) == ["ride"]
    assert arrival(net, o, "C") == secs("10:20")
    # 10:13 at B needs the 2-minute change after 10:10, 10:23 at C after 10:20 -> 10:33
    assert arrival(net, o, "E") == secs("10:33")
    j = journey(net, o, "E")
    assert trips_of(net, j) == ["ride", "c_e"] and j.changes == 1
    # the seated group cannot use trips at stops it has passed, nor board the overtaking train at A
    assert arrival(net, o, "A") is None


def test_seated_group_can_alight_at_the_stop_it_is_approaching():
    net = TransitNetwork(_in_train_tt().build())
    o = seated(net, "ride", "B")
    assert o.time == secs("10:10")
    assert arrival(net, o, "B") == secs("10:10")
    j = journey(net, o, "B")
    assert [(leg.board_row, leg.alight_row) for leg in j.legs] == [(o.row, o.row)]
    assert j.departure(net.tt) == j.arrival(net.tt) == secs("10:10")  # not the train's 10:11 departure
    # and change there: 10:10 + 2 min -> the 10:13 (not the 10:12) when it is the best way
    b = _in_train_tt()
    b.trip([("B", None, "10:13"), ("D", "10:25", None)], trip_id="b_d_fast")
    net = TransitNetwork(b.build())
    o = seated(net, "ride", "B")
    assert arrival(net, o, "D") == secs("10:25")
    assert trips_of(net, journey(net, o, "D")) == ["ride", "b_d_fast"]


def test_seated_group_cannot_alight_where_drop_off_is_forbidden():
    net = TransitNetwork(_in_train_tt(drop_at_b=False).build())
    o = seated(net, "ride", "B")
    assert arrival(net, o, "B") is None
    assert arrival(net, o, "E") == secs("10:33")  # via C, not via B


def test_seated_at_the_last_stop_can_only_get_off():
    net = TransitNetwork(_in_train_tt().build())
    o = seated(net, "ride", "D")
    assert arrival(net, o, "D") == secs("10:30")
    assert arrival(net, o, "E") is None


def test_zero_minute_hops_chain_with_zero_change_time():
    # two zero-minute hops at one instant, the second listed first (so the scan sorts it first)
    b = TimetableBuilder()
    for s in "XYZ":
        b.station(s)
    b.trip([("Y", None, "10:05"), ("Z", "10:05", None)], trip_id="second")
    b.trip([("X", None, "10:05"), ("Y", "10:05", None)], trip_id="first")
    net = TransitNetwork(b.build(), min_transfer=0)
    assert arrival(net, at(net, "X", "10:00"), "Z") == secs("10:05")
    assert trips_of(net, journey(net, at(net, "X", "10:00"), "Z")) == ["first", "second"]
    net = TransitNetwork(b.build())  # with the default 2 minutes the change is impossible
    assert arrival(net, at(net, "X", "10:00"), "Z") is None


# ---- service day past midnight --------------------------------------------------------------------------

def test_midnight_crossing_times_past_24h():
    b = TimetableBuilder()
    for s in "ABC":
        b.station(s)
    b.trip([("A", None, "23:50"), ("B", "24:10", None)], trip_id="late")
    b.trip([("B", None, "24:15"), ("C", "24:40", None)], trip_id="night")
    b.trip([("B", None, "24:11"), ("C", "24:30", None)], trip_id="too_tight")
    net = TransitNetwork(b.build())
    assert arrival(net, at(net, "A", "23:45"), "C") == 24 * 3600 + 40 * 60
    assert arrival(net, at(net, "B", "24:05"), "C") == secs("24:30")
    assert arrival(net, at(net, "A", "23:51"), "C") is None


# ---- pickup / drop-off -----------------------------------------------------------------------------------

def test_pickup_and_drop_off_type_1_respected():
    b = TimetableBuilder()
    for s in "ABCD":
        b.station(s)
    # passes B without letting anyone off, C without letting anyone on
    b.trip([("A", None, "10:00"), ("B", "10:10", "10:10", True, False), ("C", "10:20", "10:20", False, True),
            ("D", "10:30", None)], trip_id="express")
    b.trip([("A", None, "10:30"), ("B", "10:40", None)], trip_id="later_to_b")
    net = TransitNetwork(b.build())
    assert arrival(net, at(net, "A", "09:55"), "B") == secs("10:40")
    assert arrival(net, at(net, "A", "09:55"), "D") == secs("10:30")
    assert arrival(net, at(net, "C", "10:00"), "D") is None
    assert arrival(net, at(net, "B", "10:00"), "D") == secs("10:30")  # pickup allowed at B


# ---- tie-breaks -------------------------------------------------------------------------------------------

def _tie_tt() -> TimetableBuilder:
    b = TimetableBuilder()
    for s in "ABC":
        b.station(s)
    b.trip([("A", None, "10:00"), ("C", "10:30", None)], trip_id="direct_early")
    b.trip([("A", None, "10:05"), ("B", "10:10", None)], trip_id="feeder")
    b.trip([("B", None, "10:15"), ("C", "10:30", None)], trip_id="connection")
    return b


def test_same_arrival_fewer_changes_wins():
    net = TransitNetwork(_tie_tt().build())
    j = journey(net, at(net, "A", "09:55"), "C")
    assert j.arrival(net.tt) == secs("10:30")
    assert trips_of(net, j) == ["direct_early"] and j.changes == 0


def test_same_arrival_and_changes_later_departure_wins():
    b = _tie_tt()
    b.trip([("A", None, "10:10"), ("C", "10:30", None)], trip_id="direct_late")
    b.trip([("A", None, "10:12"), ("B", "10:20", None)], trip_id="too_late_feeder")
    net = TransitNetwork(b.build())
    j = journey(net, at(net, "A", "09:55"), "C")
    assert trips_of(net, j) == ["direct_late"]
    assert j.departure(net.tt) == secs("10:10") and j.start_time == secs("09:55")


def test_later_departure_tie_break_with_changes():
    b = TimetableBuilder()
    for s in "ABC":
        b.station(s)
    b.trip([("A", None, "10:00"), ("B", "10:05", None)], trip_id="feeder_early")
    b.trip([("A", None, "10:07"), ("B", "10:12", None)], trip_id="feeder_late")
    b.trip([("B", None, "10:15"), ("C", "10:30", None)], trip_id="main")
    net = TransitNetwork(b.build())
    j = journey(net, at(net, "A", "09:55"), "C")
    assert trips_of(net, j) == ["feeder_late", "main"]


def test_arrival_with_at_most_k_legs_profile():
    # at B the one-leg arrival is ready at 10:22, the two-leg one at 10:12: the 10:21 to D needs 3 legs
    b = TimetableBuilder()
    for s in "ABCD":
        b.station(s)
    b.trip([("A", None, "10:00"), ("B", "10:20", None)], trip_id="direct_ab")
    b.trip([("A", None, "10:00"), ("C", "10:05", None)], trip_id="a_c")
    b.trip([("C", None, "10:08"), ("B", "10:10", None)], trip_id="c_b")
    b.trip([("B", None, "10:21"), ("D", "10:30", None)], trip_id="b_d")
    b.trip([("B", None, "10:40"), ("D", "10:50", None)], trip_id="b_d_later")
    net = TransitNetwork(b.build())
    o = at(net, "A", "09:55")
    d = net.tt.station_name.index("D")
    res = reach(net, Query(o))
    assert [res.station_arrival(d, k) for k in range(5)] == [None, None, secs("10:50"), secs("10:30"),
                                                            secs("10:30")]
    assert trips_of(net, res.journey_to(d, 2)) == ["direct_ab", "b_d_later"]
    assert arrival(net, o, "D") == secs("10:30")
    assert trips_of(net, journey(net, o, "D")) == ["a_c", "c_b", "b_d"]
    options = [(j.arrival(net.tt), j.changes) for j in journeys_within(net, o, d, 20)]
    assert options == [(secs("10:30"), 2), (secs("10:50"), 1)]


def test_already_there_has_no_legs():
    net = TransitNetwork(_tie_tt().build())
    j = journey(net, at(net, "C", "10:00"), "C")
    assert j.legs == () and j.arrival(net.tt) == secs("10:00")
    assert arrival(net, at(net, "C", "10:00"), "C") == secs("10:00")


# ---- range query -----------------------------------------------------------------------------------------

def test_journeys_within_window_is_a_clean_pareto_set():
    b = TimetableBuilder()
    for s in "ABC":
        b.station(s)
    b.trip([("A", None, "10:00"), ("B", "10:10", None)], trip_id="feeder")
    b.trip([("B", None, "10:15"), ("C", "10:30", None)], trip_id="fast")
    b.trip([("A", None, "10:00"), ("C", "10:40", None)], trip_id="slow_direct")
    b.trip([("A", None, "10:00"), ("C", "10:40", None)], route="S9", trip_id="slow_twin")  # same times
    b.trip([("A", None, "10:00"), ("C", "10:48", None)], trip_id="dominated")
    b.trip([("A", None, "10:20"), ("C", "10:45", None)], trip_id="later_direct")
    b.trip([("A", None, "10:30"), ("C", "11:05", None)], trip_id="outside_window")
    net = TransitNetwork(b.build())
    tt = net.tt
    o = at(net, "A", "09:55")
    c = tt.station_name.index("C")
    js = journeys_within(net, o, c, 20)
    for j in js:
        assert_feasible(net, o, j)
        assert j.arrival(tt) <= secs("10:50")
    keys = [(j.departure(tt), j.arrival(tt), j.changes) for j in js]
    assert len(set(keys)) == len(keys)
    assert len({j.signature() for j in js}) == len(js)
    for (d, a, ch), (d2, a2, ch2) in itertools.permutations(keys, 2):
        assert not (d2 >= d and a2 <= a and ch2 <= ch), f"{(d, a, ch)} dominated by {(d2, a2, ch2)}"
    names = [tuple(trips_of(net, j)) for j in js]
    assert names[0] == ("feeder", "fast")  # the fastest first
    assert ("slow_direct",) in names or ("slow_twin",) in names  # slower but no change, within 20 min
    assert ("later_direct",) in names
    assert ("dominated",) not in names and ("outside_window",) not in names
    assert len(js) == 3


def test_journeys_within_from_inside_a_train():
    net = TransitNetwork(_in_train_tt().build())
    o = seated(net, "ride", "B")
    e = net.tt.station_name.index("E")
    js = journeys_within(net, o, e, 10)
    for j in js:
        assert_feasible(net, o, j)
    assert [tuple(trips_of(net, j)) for j in js] == [("ride", "c_e")]


# ---- unreachable -----------------------------------------------------------------------------------------

def test_unreachable_target_gives_none():
    b = _tie_tt()
    b.station("Island")
    net = TransitNetwork(b.build())
    o = at(net, "A", "09:55")
    isl = net.tt.station_name.index("Island")
    assert arrival(net, o, "Island") is None
    assert journeys_within(net, o, isl, 20) == []
    assert reach(net, Query(o)).arrivals()[isl] == -1
    assert arrival(net, at(net, "A", "10:06"), "C") is None  # every train already gone


def _same_instant_chain(change: int) -> TimetableBuilder:
    """X -> A, then A -> B and B -> C all in the same minute (10:00), on three trips."""
    b = TimetableBuilder()
    for s in ("X", "A", "B", "C"):
        b.station(s, change=change)
    b.trip([("X", None, "09:50"), ("A", "10:00", None)], route="IN")
    b.trip([("B", None, "10:00"), ("C", "10:00", None)], route="BC")  # sorted before AB (row order)
    b.trip([("A", None, "10:00"), ("B", "10:00", None)], route="AB")
    return b


@pytest.mark.parametrize("change, reached", [(0, True), (120, False)])
def test_same_minute_rides_are_repeated_only_where_a_zero_change_chains_them(change, reached):
    net = TransitNetwork(_same_instant_chain(change).build())
    tt = net.tt
    # the block of the two 10:00 -> 10:00 rides needs repeating only with a zero change time
    assert bool(net.zero_blocks.any()) == (change == 0)
    arr = reach(net, Query(station_origin(0, secs("09:50")))).arrivals()
    assert (arr[tt.n_stations - 1] == secs("10:00")) == reached  # C via A and B in the same minute
    assert arr[2] == (secs("10:00") if change == 0 else -1)  # B: only by changing at A in 0 minutes
