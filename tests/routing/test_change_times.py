"""One change-time policy: the timetable and the routing network give every platform pair the same
change time, the game's default where the feed has none."""

from __future__ import annotations

import itertools

from planner.routing import TransitNetwork
from tests.support.timetable import TimetableBuilder


def test_timetable_and_network_share_the_game_default_change_time():
    b = TimetableBuilder()
    b.station("A")
    b.station("B", platforms=("1", "2"))  # no station default in the feed: the game's default applies
    b.trip([("A", None, "10:00"), (("B", "1"), "10:10", None)], trip_id="in")
    b.trip([(("B", "2"), None, "10:14"), ("A", "10:20", None)], trip_id="out")
    tt = b.build()
    net = TransitNetwork(tt, default_change=300)
    pairs = [(p, q) for p, q in itertools.product(range(tt.n_stops), repeat=2)
             if tt.stop_station[p] == tt.stop_station[q]]
    assert pairs and all(net.change_seconds(p, q) == tt.change_seconds(p, q, default=300) for p, q in pairs)
    assert {tt.change_seconds(p, q, default=300) for p, q in pairs} == {300}
