"""What the maps draw (planner.maps.layers), without a browser: itinerary legs along the rail line. The day and
the line are written here: an IR Zug - Luzern that passes Rotkreuz without stopping (an S1 stops there), and the
SBB line 660 Zug - Cham - Rotkreuz - Ebikon - Luzern by its operating points (as the SBB file has them; its last
piece, Rotsee - Luzern, joined to it here)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from planner.maps.layers import journey_shapes, latlon
from planner.routing import TransitNetwork, best_journey, station_origin
from planner.timetable.stations import exact_station
from planner.util.timefmt import parse_clock
from tests.support.inline_day import inline_day, stop_times_txt, stops_txt

POINTS = [  # (operating point, station, km, lat, lon, UIC)
    ("Zug", "Zug", 38.829, 47.17371, 8.51505, "8502204"),
    ("Zug Schutzengel", "Zug Schutzengel", 39.475, 47.17372, 8.50724, "8516187"),
    ("Zug Chollermüli", "Zug Chollermuli", 41.196, 47.18024, 8.48665, "8502230"),
    ("Cham Alpenblick", "Cham Alpenblick", 42.425, 47.18228, 8.47146, "8515995"),
    ("Cham", "Cham", 43.574, 47.17824, 8.45750, "8502203"),
    ("Hünenberg Zythus", "Hunenberg Zythus", 44.355, 47.17361, 8.45010, "8515996"),
    ("Hünenberg Chämleten", "Hunenberg Chamleten", 44.855, 47.16916, 8.44991, "8502306"),
    ("Rotkreuz", "Rotkreuz", 49.000, 47.14176, 8.43050, "8502202"),
    ("Gisikon-Root", "Gisikon-Root", 52.823, 47.12133, 8.39479, "8502201"),
    ("Root D4", "Root D4", 55.268, 47.10483, 8.37376, "8515997"),
    ("Buchrain", "Buchrain", 57.065, 47.09365, 8.35666, "8516350"),
    ("Ebikon", "Ebikon", 58.580, 47.08426, 8.34236, "8502200"),
    ("Rotsee (Verzw)", "Rotsee (Verzw)", 60.640, 47.07407, 8.31997, "8502241"),
    ("Luzern", "Luzern", 63.400, 47.05018, 8.31018, "8505000"),
]


@pytest.fixture(autouse=True)
def _line_network(tmp_path, monkeypatch):
    rows = ["Abkuerzung Bahnhof;Name Haltestelle;Linie;KM;Linien Text;Geoposition;Didok-Nummer;BPUIC;"
            "Name Haltestelle;lod;sloid"]
    rows += [f"X;{station};660;{km};Zug - Luzern;{lat}, {lon};{uic[3:]};{uic};{point};;"
             for point, station, km, lat, lon, uic in POINTS]
    (tmp_path / "rail.csv").write_text("\n".join(rows) + "\n", "utf-8")
    monkeypatch.setenv("PLANNER_RAIL_CSV", str(tmp_path / "rail.csv"))


@pytest.fixture(scope="module")
def day_tt(tmp_path_factory, session_cache):
    """The day's timetable: the IR Zug 12:10 - Luzern 12:32, the S1 Zug 12:15 - Rotkreuz 12:28."""
    with pytest.MonkeyPatch.context() as mp:  # the tests' cache (module fixtures come before the autouse one)
        mp.setenv("PLANNER_CACHE", str(session_cache))
        return inline_day(tmp_path_factory.mktemp("map-day"), stops=stops_txt("Zug", "Rotkreuz", "Luzern"),
                          trips="route_id,service_id,trip_id\nIR70,SA,ir\nS1,SA,s1\n",
                          stop_times=stop_times_txt(("ir", [("Zug", "12:10", "12:10"), ("Luzern", "12:32", "12:32")]),
                                                    ("s1", [("Zug", "12:15", "12:15"),
                                                            ("Rotkreuz", "12:28", "12:28")]))).timetable


def _km(p: tuple[float, float], q: tuple[float, float]) -> float:
    dy = (q[0] - p[0]) * 111.2
    dx = (q[1] - p[1]) * 111.2 * math.cos(math.radians((p[0] + q[0]) / 2))
    return math.hypot(dx, dy)


def _nearest(coords: list[tuple[float, float]], p: tuple[float, float]) -> float:
    return min(_km(c, p) for c in coords)


@pytest.fixture(scope="module")
def zug_luzern(day_tt):
    """Zug -> Luzern in the IR70 that passes Rotkreuz without stopping (the first one after 12:00)."""
    net = TransitNetwork(day_tt)
    zug, luzern = exact_station(day_tt, "Zug"), exact_station(day_tt, "Luzern")
    station = day_tt.stop_station[day_tt.st_stop]
    same_trip = day_tt.st_trip[:-1] == day_tt.st_trip[1:]
    rows = np.flatnonzero(same_trip & (station[:-1] == zug) & (station[1:] == luzern))
    dep = min(int(day_tt.st_dep[r]) for r in rows if int(day_tt.st_dep[r]) >= parse_clock("12:00"))
    j = best_journey(net, station_origin(zug, dep), luzern)
    assert j is not None and len(j.legs) == 1
    leg = j.legs[0]
    stops = [day_tt.station_name[day_tt.stop_station[day_tt.st_stop[r]]] for r in range(leg.board_row, leg.alight_row + 1)]
    assert stops == ["Zug", "Luzern"]  # non-stop: a straight chord would cut across the Zugersee
    return j


def test_legs_follow_the_rail_line(day_tt, zug_luzern):
    (shape,) = journey_shapes(day_tt, zug_luzern)
    rotkreuz = latlon(day_tt, exact_station(day_tt, "Rotkreuz"))
    assert shape.coords[0] == latlon(day_tt, exact_station(day_tt, "Zug"))
    assert shape.coords[-1] == latlon(day_tt, exact_station(day_tt, "Luzern"))
    assert len(shape.coords) > 5  # the operating points between the two stops
    assert _nearest(shape.coords, rotkreuz) < 0.5  # the line runs through Rotkreuz ...
    chord = [shape.coords[0], shape.coords[-1]]
    steps = [tuple(a + (b - a) * k / 50 for a, b in zip(*chord, strict=True)) for k in range(51)]
    assert _nearest(steps, rotkreuz) > 1.0  # ... the chord misses it by more than a kilometre
    # each drawn step is short: no chord across country
    assert max(_km(a, b) for a, b in zip(shape.coords[:-1], shape.coords[1:], strict=True)) < 4.0


def test_without_line_data_legs_are_chords(day_tt, zug_luzern, monkeypatch, tmp_path):
    monkeypatch.setenv("PLANNER_RAIL_CSV", str(tmp_path / "missing.csv"))
    (shape,) = journey_shapes(day_tt, zug_luzern)
    assert shape.coords == [latlon(day_tt, exact_station(day_tt, n)) for n in ("Zug", "Luzern")]
