"""Game area membership (pure): inside the polygon, or on / near the ring."""

from __future__ import annotations

import math

import numpy as np
import shapely

from planner.gamefile.game import Game


def _metric(lat: np.ndarray, lon: np.ndarray, lat0: float) -> tuple[np.ndarray, np.ndarray]:
    # Local equirectangular metres: plenty for a tolerance of a few hundred metres in Switzerland.
    return lon * 111_320.0 * math.cos(math.radians(lat0)), lat * 110_574.0


def in_area(game: Game, lat: np.ndarray, lon: np.ndarray, uic: list[str] | None = None) -> np.ndarray:
    """Boolean mask: which points (stations) belong to the game's area.

    A station is in the area when it lies inside the polygon, within ``ring_tolerance_m`` of the ring,
    or is itself a listed ring station (by UIC number). Points without coordinates (NaN) are outside.
    The pseudo-game ``none`` contains everything.
    """
    lat = np.asarray(lat, dtype=float)
    lon = np.asarray(lon, dtype=float)
    if not game.has_area:
        return np.ones(len(lat), dtype=bool)
    poly_lat = np.array([p[0] for p in game.polygon])
    poly_lon = np.array([p[1] for p in game.polygon])
    lat0 = float(poly_lat.mean())
    px, py = _metric(poly_lat, poly_lon, lat0)
    polygon = shapely.Polygon(np.column_stack([px, py]))
    if not polygon.is_valid:
        polygon = shapely.make_valid(polygon)
    x, y = _metric(lat, lon, lat0)
    ok = np.isfinite(x) & np.isfinite(y)
    inside = np.zeros(len(lat), dtype=bool)
    if ok.any():
        inside[ok] = shapely.contains_xy(polygon, x[ok], y[ok])
        if game.ring_tolerance_m > 0:
            ring = shapely.LinearRing(np.column_stack([px, py]))
            pts = shapely.points(x[ok], y[ok])
            inside[ok] |= shapely.distance(ring, pts) <= game.ring_tolerance_m
    if uic is not None and game.ring:
        ring_ids = {r.uic for r in game.ring if r.uic}
        inside |= np.array([u in ring_ids for u in uic], dtype=bool)
    return inside


def on_ring(game: Game, lat: np.ndarray, lon: np.ndarray, uic: list[str] | None = None) -> np.ndarray:
    """Boolean mask: stations on the ring (listed ring stations or within the tolerance of it)."""
    lat = np.asarray(lat, dtype=float)
    lon = np.asarray(lon, dtype=float)
    if not game.ring:
        return np.zeros(len(lat), dtype=bool)
    poly_lat = np.array([p.lat for p in game.ring])
    poly_lon = np.array([p.lon for p in game.ring])
    lat0 = float(poly_lat.mean())
    px, py = _metric(poly_lat, poly_lon, lat0)
    ring = shapely.LinearRing(np.column_stack([px, py]))
    x, y = _metric(lat, lon, lat0)
    res = np.zeros(len(lat), dtype=bool)
    ok = np.isfinite(x) & np.isfinite(y)
    if ok.any():
        res[ok] = shapely.distance(ring, shapely.points(x[ok], y[ok])) <= max(game.ring_tolerance_m, 1.0)
    if uic is not None:
        ids = {r.uic for r in game.ring if r.uic}
        res |= np.array([u in ids for u in uic], dtype=bool)
    return res
