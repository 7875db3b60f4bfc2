"""Routing on the real Zug extract (FP2021), Saturday 2021-09-11.

The itineraries below were checked by hand against the feed's own files (``unzip`` of
``ch-zug-fp2021.zip``; ``stop_times.txt``, ``trips.txt``, ``calendar*.txt``, ``transfers.txt``):

* IR75 ``610.TA.91-75-A-j21-1.264.R`` (service ``TA+c5r10``: weekdays only in calendar.txt, added for
  2021-09-11 in calendar_dates.txt): Baar 09:58, Zug 10:02/10:03 pl 4, Rotkreuz 10:10/10:11 pl 2,
  Luzern 10:25 pl 5. The next Zug -> Luzern trains are IR70 10:31 (10:51) and S1 10:36 (11:07).
* Zug -> Rotkreuz: IR75 10:03 (10:10), S1 ``338...97.H`` 10:06 pl 4 (10:19 pl 2), S1 10:20 (10:34);
  Rotkreuz -> Wohlen AG: only S26 ``688.TA.91-S26-A-j21-1.221.R`` 10:23 pl 5 (10:46 pl 3); no direct Zug ->
  Wohlen. Rotkreuz changes take 3 min (transfers.txt), Zug changes 4 min.
* Zug -> Zürich Oerlikon: S24 ``1010.TA.91-S24-Z-j21-1.434.R`` 10:04 pl 6 -> 10:51 pl 6; the EC 10:02 reaches
  Zürich HB 10:27, but in this extract the only HB -> Oerlikon train after that is the same S24 (10:44).
* Zug -> Affoltern am Albis: S5 ``253.TA.91-S05-Z-j21-1.98.H`` 10:06 pl 7 -> 10:22 pl 1.
* Zug -> Emmenbrücke: no direct train before S1 10:36 (11:19); S1 ``696.TA.91-S01-N-j21-1.226.H`` leaves
  Rotkreuz 10:16 pl 1 (and Luzern 10:44) and reaches Emmenbrücke 10:49 pl 1; it left Zug at 09:52.
* Zug -> Baar: S24 10:04 (10:07), S1 ``1517...`` 10:05 pl 5 (10:11), S1 ``1615.TA.91-S01-N-j21-1.489.R``
  10:22 pl 5 (10:27 pl 2).

The property part compares the engine with a Dijkstra on the networkx time-expanded graph on random
origins (stations at random times, and seats in random trains) for every station as target.
"""

from __future__ import annotations

import numpy as np
import pytest

from planner.routing import Query, TransitNetwork, best_journey, reach, station_origin, trip_origin
from planner.routing.journey import Journey
from planner.routing.query import Origin
from planner.routing.te_graph import TimeExpandedGraph
from tests.support.timetable import assert_feasible, secs

pytestmark = [pytest.mark.long, pytest.mark.needs_shared]  # one worker runs a module (--dist loadfile); this one early

IR75 = "610.TA.91-75-A-j21-1.264.R"


@pytest.fixture(scope="module")
def net(zug_tt) -> TransitNetwork:
    """The engine on the sbb-monopoly game day."""
    return TransitNetwork(zug_tt)


def _journey(net: TransitNetwork, origin: Origin, target: str) -> Journey:
    tt = net.tt
    s = tt.station_name.index(target)
    j = best_journey(net, origin, s)
    assert j is not None
    assert_feasible(net, origin, j)
    assert TimeExpandedGraph(net).earliest_arrival(origin, s) == j.arrival(tt)
    return j


def _legs(net: TransitNetwork, j: Journey) -> list[tuple]:
    """(trip_id, route, from, from_platform, departure, to, to_platform, arrival) per leg."""
    out = []
    for leg in j.legs:
        d = leg.to_dict(net.tt)
        out.append((d["trip_id"], d["route"], d["from"], d["from_platform"], d["departure"], d["to"],
                    d["to_platform"], d["arrival"]))
    return out


def _at(net: TransitNetwork, station: str, time: str) -> Origin:
    return station_origin(net.tt.station_name.index(station), secs(time))


def _in_ir75_approaching(net: TransitNetwork, station: str) -> Origin:
    tt = net.tt
    t = tt.trip_index[IR75]
    row = next(r for r in tt.trip_stop_times(t) if tt.station_name[tt.stop_station[tt.st_stop[r]]] == station)
    return trip_origin(net, t, row)


def test_zug_to_luzern_ir75(net):
    j = _journey(net, _at(net, "Zug", "10:00"), "Luzern")
    assert _legs(net, j) == [(IR75, "IR75", "Zug", "4", "10:03", "Luzern", "5", "10:25")]
    assert j.changes == 0


def test_zug_to_wohlen_changes_at_rotkreuz_latest_departure(net):
    # IR75 10:03 -> Rotkreuz 10:10 gives the same 10:46 with one change too: the later 10:06 S1 wins
    j = _journey(net, _at(net, "Zug", "10:00"), "Wohlen AG")
    assert _legs(net, j) == [
        ("338.TA.91-S01-N-j21-1.97.H", "S1", "Zug", "4", "10:06", "Rotkreuz", "2", "10:19"),
        ("688.TA.91-S26-A-j21-1.221.R", "S26", "Rotkreuz", "5", "10:23", "Wohlen AG", "3", "10:46"),
    ]
    assert j.changes == 1


def test_zug_to_oerlikon_direct_beats_change_with_same_arrival(net):
    j = _journey(net, _at(net, "Zug", "10:00"), "Zürich Oerlikon")
    assert _legs(net, j) == [
        ("1010.TA.91-S24-Z-j21-1.434.R", "S24", "Zug", "6", "10:04", "Zürich Oerlikon", "6", "10:51")]


def test_zug_to_affoltern_s5(net):
    j = _journey(net, _at(net, "Zug", "10:00"), "Affoltern am Albis")
    assert _legs(net, j) == [
        ("253.TA.91-S05-Z-j21-1.98.H", "S5", "Zug", "7", "10:06", "Affoltern am Albis", "1", "10:22")]


def test_zug_to_emmenbruecke_one_change(net):
    j = _journey(net, _at(net, "Zug", "10:00"), "Emmenbrücke")
    legs = _legs(net, j)
    assert j.changes == 1 and j.arrival(net.tt) == secs("10:49")
    assert legs[0][:5] == (IR75, "IR75", "Zug", "4", "10:03")
    # changing at Rotkreuz (10:10 -> 10:16) or at Luzern (10:25 -> 10:44) onto the same S1: both fine
    assert legs[1][0] == "696.TA.91-S01-N-j21-1.226.H" and legs[1][5:] == ("Emmenbrücke", "1", "10:49")
    assert legs[1][2] in ("Rotkreuz", "Luzern")


def test_from_inside_the_ir75(net):
    o = _in_ir75_approaching(net, "Zug")
    assert o.time == secs("10:02")
    j = _journey(net, o, "Luzern")  # stay seated
    assert _legs(net, j) == [(IR75, "IR75", "Zug", "4", "10:03", "Luzern", "5", "10:25")]
    j = _journey(net, o, "Wohlen AG")  # get off at a later stop and change
    assert _legs(net, j) == [
        (IR75, "IR75", "Zug", "4", "10:03", "Rotkreuz", "2", "10:10"),
        ("688.TA.91-S26-A-j21-1.221.R", "S26", "Rotkreuz", "5", "10:23", "Wohlen AG", "3", "10:46"),
    ]
    # Baar was passed at 09:58: get off at Zug (10:02); 4 min change misses the 10:04 and 10:05
    j = _journey(net, o, "Baar")
    assert _legs(net, j) == [
        (IR75, "IR75", "Zug", "4", "10:02", "Zug", "4", "10:02"),
        ("1615.TA.91-S01-N-j21-1.489.R", "S1", "Zug", "5", "10:22", "Baar", "2", "10:27"),
    ]


# ---- engine == networkx on random queries ---------------------------------------------------------------

def _random_origins(net: TransitNetwork, rng: np.random.Generator, n: int) -> list[Origin]:
    """Half stations at random times of the day, half seats in random trains at random stops."""
    tt = net.tt
    out: list[Origin] = []
    for i in range(n):
        if i % 2:
            out.append(station_origin(int(rng.integers(tt.n_stations)), int(rng.integers(5 * 3600, 24 * 3600))))
        else:
            t = int(rng.integers(tt.n_trips))
            rows = tt.trip_stop_times(t)
            out.append(trip_origin(net, t, int(rng.integers(rows.start, rows.stop))))
    return out


@pytest.mark.parametrize("which, uniform, n_origins", [("zug_tt", None, 60), ("zug_tt", 300, 30),
                                                      ("zug_all_tt", None, 40)])
def test_engine_equals_networkx_on_random_queries(request, which, uniform, n_origins):
    tt = request.getfixturevalue(which)
    net = TransitNetwork(tt, min_transfer=uniform)
    te = TimeExpandedGraph(net)  # built once; one Dijkstra per origin answers every target
    rng = np.random.default_rng(20210911)
    queries = reached = 0
    for o in _random_origins(net, rng, n_origins):
        fast = reach(net, Query(o)).arrivals()
        ref = te.earliest_arrivals(o)
        bad = np.flatnonzero(fast != ref)
        assert not len(bad), (o, [(tt.station_name[s], int(fast[s]), int(ref[s])) for s in bad[:5]])
        queries += tt.n_stations
        reached += int((ref >= 0).sum())
        # and the journeys the engine returns to a few of those targets are real
        for s in rng.choice(np.flatnonzero(ref >= 0), size=min(3, int((ref >= 0).sum())), replace=False):
            j = best_journey(net, o, int(s))
            assert j is not None and j.arrival(tt) == ref[s]
            assert_feasible(net, o, j)
    assert queries >= 1000 and reached >= queries // 10
