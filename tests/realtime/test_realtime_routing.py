"""Routing on predicted times (real Zug day): the engine equals the networkx references built on the modified
day (under the 29-minute rule: window by timetable time, catching by predicted time), a late train that
breaks a change gives the real earliest arrival, a cancelled train is never used, and an empty feed changes no
answer."""

from __future__ import annotations

import random

import numpy as np
import pytest

from planner.game.zugzwang import boardable
from planner.realtime.feed import decode_feed
from planner.realtime.overlay import apply, service_day_start
from planner.routing import TransitNetwork, best_journey, station_origin, trip_origin
from planner.routing.te_graph import TimeExpandedGraph
from planner.routing.te_rule import RuleGraph
from tests.support import DEMO_DATE
from tests.support.answers import plain
from tests.support.rt_fixtures import demo_legs, feed_message, scenarios

pytestmark = pytest.mark.needs_shared  # reads ../shared (tests/project/test_suite_without_shared.py)

W = 29 * 60
YMD = DEMO_DATE.strftime("%Y%m%d")
TS = service_day_start(DEMO_DATE) + 12 * 3600


@pytest.fixture(scope="module")
def day(zug_day):
    return zug_day


def random_feed(tt, seed: int) -> bytes:
    """Delays (-2..+20 min) on a quarter of the trips from a random stop on, some cancellations and skipped
    stops: a busy real-time day on the real trips."""
    rnd = random.Random(seed)
    ups = []
    for t in range(tt.n_trips):
        x = rnd.random()
        rows = list(tt.trip_stop_times(t))
        if x < 0.03:
            ups.append({"trip_id": tt.trip_id[t], "start_date": YMD, "canceled": True})
        elif x < 0.28:
            r = rnd.choice(rows)
            stops = [{"stop_id": tt.stop_id[tt.st_stop[r]], "departure_delay": rnd.randrange(-120, 1200)}]
            if rnd.random() < 0.1 and len(rows) > 2:
                stops.append({"stop_id": tt.stop_id[tt.st_stop[rows[-2]]], "skipped": True})
            ups.append({"trip_id": tt.trip_id[t], "start_date": YMD, "stops": stops})
    return feed_message(TS, ups)


@pytest.fixture(scope="module")
def real(day):
    ov = apply(day.timetable, decode_feed(random_feed(day.timetable, 5), "random.pb"), DEMO_DATE)
    assert ov.changes_anything and ov.counts["trips_cancelled"] > 10
    return ov, TransitNetwork.on_real_times(day.plan_network, ov.timetable)


def _origins(net, n, seed):
    rnd = random.Random(seed)
    tt = net.tt
    for _ in range(n):
        if rnd.random() < 0.3:
            trip = rnd.randrange(tt.n_trips)
            if not tt.st_dropoff[list(tt.trip_stop_times(trip))].any():
                continue  # a cancelled train: nobody sits in it
            yield trip_origin(net, trip, rnd.choice(list(tt.trip_stop_times(trip))), window=W)
        else:
            t = rnd.randrange(6 * 3600, 22 * 3600)
            yield station_origin(rnd.randrange(tt.n_stations), t, since=t - rnd.choice([0, 0, 300, 1500]), window=W)


def _rides(j) -> int:
    return sum(1 for leg in j.legs if not leg.is_walk)


def test_rule_engine_on_real_times_equals_reference(real):
    ov, net = real
    ref = RuleGraph(net, W)
    rnd = random.Random(3)
    answered = 0
    for o in _origins(net, 1200, seed=4):
        target = rnd.randrange(net.tt.n_stations)
        want = ref.best(o, target)
        j = best_journey(net, o, target)
        got = None if j is None or (o.in_trip and not j.legs) else (j.arrival(net.tt), _rides(j))
        assert got == want, (o, target)
        if j is not None and j.legs:
            answered += 1
            assert not any(ov.cancelled[leg.trip] for leg in j.legs)
            assert not any(ov.skipped[[leg.board_row, leg.alight_row]].any() for leg in j.legs)
    assert answered > 700


def test_plain_engine_on_real_times_equals_time_expanded_reference(real):
    _, net = real
    ref = TimeExpandedGraph(net)
    rnd = random.Random(8)
    for _ in range(300):
        t = rnd.randrange(6 * 3600, 22 * 3600)
        o, target = station_origin(rnd.randrange(net.tt.n_stations), t), rnd.randrange(net.tt.n_stations)
        j = best_journey(net, o, target)
        assert (None if j is None else j.arrival(net.tt)) == ref.earliest_arrival(o, target)


def test_a_late_train_that_breaks_the_change_gives_the_real_earliest_arrival(day):
    files = scenarios(day)
    legs = demo_legs(day)
    ov = apply(day.timetable, decode_feed(files["late"][0], "late.pb"), DEMO_DATE)
    net = TransitNetwork.on_real_times(day.plan_network, ov.timetable)
    o = station_origin(day.station("Zug"), 12 * 3600 + 40 * 60, window=W)
    target = day.station("Wohlen AG")
    j = best_journey(net, o, target)
    assert (j.arrival(net.tt), _rides(j)) == RuleGraph(net, W).best(o, target)
    # the S1 now arrives at Rotkreuz after the S26 left: no itinerary rides the S1 into that S26
    pairs = {(a.trip, b.trip) for a, b in zip(j.legs, j.legs[1:], strict=False)}
    s1, s26 = (day.timetable.trip_index[leg["trip_id"]] for leg in legs)
    assert (s1, s26) not in pairs
    plain = best_journey(day.plan_network, o, target)
    assert [leg.trip for leg in plain.legs] == [s1, s26]  # (it was the timetable's way)


def test_a_train_planned_in_the_window_counts_when_it_leaves_late(day):
    # RULES.md §3: the window holds trains by timetable departure; a late one is still in it (and caught later)
    tt = day.timetable
    net0 = day.plan_network
    s = day.station("Rotkreuz")
    a = 13 * 3600 + 19 * 60
    ok0 = boardable(net0, s, a, W, since=a)
    inside = [int(c) for c in ok0 if net0.c_dep[c] <= a + W]
    c = inside[-1]  # the last train the window holds
    trip, row = int(net0.c_trip[c]), int(net0.c_row[c])
    f = feed_message(TS, [{"trip_id": tt.trip_id[trip], "start_date": YMD,
                           "stops": [{"stop_id": tt.stop_id[tt.st_stop[row]], "departure_delay": 40 * 60}]}])
    ov = apply(tt, decode_feed(f, "x"), DEMO_DATE)
    net = TransitNetwork.on_real_times(net0, ov.timetable)
    ok = boardable(net, s, a, W, since=a)
    late = [int(k) for k in ok if int(net.c_trip[k]) == trip and int(net.c_row[k]) == row]
    assert late and net.c_dep[late[0]] > a + W  # leaves after the window's end, and may (must) be taken
    assert len(ok) == len(inside)


def test_empty_feed_gives_the_timetable_answer_for_random_queries(day, tmp_path):
    from planner.game.day import Position
    from planner.service.questions.routes import route_answer
    from planner.service.read.decisions import decide_at, trains_after_getting_off
    from planner.service.read.positions import origin_of
    from planner.service.read.views import dice_json
    from planner.service.setup.playing import GameDay

    (tmp_path / "empty.pb").write_bytes(scenarios(day)["empty"][0])
    rt_day = GameDay(day.feed, day.game, day.date, realtime=str(tmp_path / "empty.pb"))
    rt_day.__dict__["timetable"] = day.timetable
    rt_day.__dict__["plan_network"] = day.plan_network
    assert rt_day.network is day.plan_network  # an empty overlay routes on the timetable's own network

    def strip(d):
        if isinstance(d, dict):
            return {k: strip(v) for k, v in d.items() if k not in ("realtime", "departure_delay_min",
                                                                   "arrival_delay_min", "warnings")}
        return [strip(x) for x in d] if isinstance(d, list) else d

    rnd = random.Random(21)
    n_st = day.timetable.n_stations
    for _ in range(60):
        t = rnd.randrange(12 * 3600 + 30 * 60, 17 * 3600)
        s, target = rnd.randrange(n_st), rnd.randrange(n_st)
        a = plain(route_answer(day, None, origin_of(day, Position(s, t), t), target, 10))
        b = plain(route_answer(rt_day, None, origin_of(rt_day, Position(s, t), t), target, 10))
        assert b["realtime"]["trips_matched"] == 0 and strip(a) == strip(b)
        if b["legs"]:
            assert all(leg["departure_delay_min"] is None for leg in b["legs"])
        roll = rnd.randrange(1, 7)
        o = origin_of(day, Position(s, t), t)
        assert strip(plain(dice_json(day, decide_at(day, o, roll, []), o))) == strip(
            plain(dice_json(rt_day, decide_at(rt_day, o, roll, []), o)))
        assert strip(plain(trains_after_getting_off(day, s, t))) == strip(plain(trains_after_getting_off(rt_day, s, t)))


def test_predicted_arrays_are_consistent_for_the_whole_random_day(real):
    ov, net = real
    tt = ov.timetable
    assert np.all(tt.st_dep >= tt.st_arr)
    same = np.diff(tt.st_trip) == 0
    assert np.all(tt.st_arr[1:][same] >= tt.st_dep[:-1][same])
    assert np.all(np.diff(net.c_dep) >= 0)


def test_rule_scan_alone_on_real_times_equals_reference(real):
    # best_journey answers most queries from the plain scan; here the rule-aware scan itself (its heads of
    # departures caught by predicted time, the forced train by timetable) is checked against the reference
    from planner.routing.query import Query, reach

    _, net = real
    ref = RuleGraph(net, W)
    rnd = random.Random(13)
    n = 0
    k0, _, h0 = net.event_intervals(W)
    assert np.count_nonzero(h0 < k0) > 1000  # the overlay gives many arrival events a head to check
    for o in _origins(net, 400, seed=14):
        target = rnd.randrange(net.tt.n_stations)
        j = reach(net, Query(o, target=target)).journey_to(target)
        got = None if j is None or (o.in_trip and not j.legs) else (j.arrival(net.tt), _rides(j))
        assert got == ref.best(o, target), (o, target)
        n += 1
    assert n > 300


def test_the_deadline_follows_a_newer_feed(zug_tt, sbb_game):
    # the game day remembers deadlines per (station, since); a server's newer feed that cancels every train the
    # window holds makes the next one forced, and the remembered deadline must not outlive the feed it came from
    from planner.game.day import Position
    from planner.game.zugzwang import deadline_at
    from planner.service.setup.playing import GameDay
    from tests.support import ZUG

    day = GameDay(str(ZUG), sbb_game, DEMO_DATE)  # its own: set_overlay changes it
    day.__dict__["timetable"] = zug_tt
    tt, net0 = day.timetable, day.plan_network
    pos = Position(day.station("Rotkreuz"), 13 * 3600 + 19 * 60)
    before = day.deadline_of(pos)
    assert before is not None and not before.forced
    held = {int(net0.c_trip[c]) for c in boardable(net0, pos.station, pos.since, W)
            if net0.c_plan_dep[c] <= pos.since + W}
    f = feed_message(TS, [{"trip_id": tt.trip_id[t], "start_date": YMD, "canceled": True} for t in sorted(held)])
    day.set_overlay(apply(tt, decode_feed(f, "x"), DEMO_DATE))
    after = day.deadline_of(pos)
    assert after == deadline_at(day.network, day.window, pos) and after.forced and after != before
