"""What the maps draw (planner.maps.layers), without a browser: itinerary legs along the rail line."""

from __future__ import annotations

import math

import numpy as np
import pytest

from planner.maps.layers import journey_shapes, latlon
from planner.routing import TransitNetwork, best_journey, station_origin
from planner.timetable.stations import exact_station
from planner.util.timefmt import parse_clock

pytestmark = pytest.mark.needs_shared  # reads ../shared (tests/project/test_suite_without_shared.py)


def _km(p: tuple[float, float], q: tuple[float, float]) -> float:
    dy = (q[0] - p[0]) * 111.2
    dx = (q[1] - p[1]) * 111.2 * math.cos(math.radians((p[0] + q[0]) / 2))
    return math.hypot(dx, dy)


def _nearest(coords: list[tuple[float, float]], p: tuple[float, float]) -> float:
    return min(_km(c, p) for c in coords)


@pytest.fixture(scope="module")
def zug_luzern(zug_tt):
    """Zug -> Luzern in the IR70 that passes Rotkreuz without stopping (the first one after 12:00)."""
    net = TransitNetwork(zug_tt)
    zug, luzern = exact_station(zug_tt, "Zug"), exact_station(zug_tt, "Luzern")
    station = zug_tt.stop_station[zug_tt.st_stop]
    same_trip = zug_tt.st_trip[:-1] == zug_tt.st_trip[1:]
    rows = np.flatnonzero(same_trip & (station[:-1] == zug) & (station[1:] == luzern))
    dep = min(int(zug_tt.st_dep[r]) for r in rows if int(zug_tt.st_dep[r]) >= parse_clock("12:00"))
    j = best_journey(net, station_origin(zug, dep), luzern)
    assert j is not None and len(j.legs) == 1
    leg = j.legs[0]
    stops = [zug_tt.station_name[zug_tt.stop_station[zug_tt.st_stop[r]]] for r in range(leg.board_row, leg.alight_row + 1)]
    assert stops == ["Zug", "Luzern"]  # non-stop: a straight chord would cut across the Zugersee
    return j


def test_legs_follow_the_rail_line(zug_tt, zug_luzern):
    (shape,) = journey_shapes(zug_tt, zug_luzern)
    rotkreuz = latlon(zug_tt, exact_station(zug_tt, "Rotkreuz"))
    assert shape.coords[0] == latlon(zug_tt, exact_station(zug_tt, "Zug"))
    assert shape.coords[-1] == latlon(zug_tt, exact_station(zug_tt, "Luzern"))
    assert len(shape.coords) > 5  # the operating points between the two stops
    assert _nearest(shape.coords, rotkreuz) < 0.5  # the line runs through Rotkreuz ...
    chord = [shape.coords[0], shape.coords[-1]]
    steps = [tuple(a + (b - a) * k / 50 for a, b in zip(*chord, strict=True)) for k in range(51)]
    assert _nearest(steps, rotkreuz) > 1.0  # ... the chord misses it by more than a kilometre
    # each drawn step is short: no chord across country
    assert max(_km(a, b) for a, b in zip(shape.coords[:-1], shape.coords[1:], strict=True)) < 4.0


def test_without_line_data_legs_are_chords(zug_tt, zug_luzern, monkeypatch, tmp_path):
    monkeypatch.setenv("PLANNER_RAIL_CSV", str(tmp_path / "missing.csv"))
    (shape,) = journey_shapes(zug_tt, zug_luzern)
    assert shape.coords == [latlon(zug_tt, exact_station(zug_tt, n)) for n in ("Zug", "Luzern")]
