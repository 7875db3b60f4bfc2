"""What the maps draw, as plain data (pure): line segments, stations, targets, crossings, itineraries, reach.

Shared by the web maps (:mod:`planner.maps.web`) and the print handout (:mod:`planner.maps.handout`), so both
show the same facts. Coordinates are WGS84 ``(lat, lon)``. The feed has no shapes: lines are drawn along the
trips' stop sequences (one segment per pair of consecutive stations, whatever trip serves it).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from planner import SOURCE_CREDIT
from planner.errors import FeedError
from planner.game.prices import (  # noqa: F401 - the maps' name for them
    CATEGORY_LABELS,
    category_label,
    initial_letter,
    station_category,
    station_price,
)
from planner.gamefile.area import on_ring
from planner.gamefile.game import Game
from planner.rail.crossings import check_crossings
from planner.rail.loader import load_rail_network
from planner.rail.network import RailNetwork, haversine_km
from planner.routing.journey import Journey
from planner.routing.network import TransitNetwork
from planner.routing.query import Origin, Query, reach
from planner.timetable.model import Mode, Timetable
from planner.timetable.stations import exact_station
from planner.util.i18n import N_, _
from planner.util.text import fold
from planner.util.timefmt import fmt_clock

CATEGORY_ORDER = ("IC", "fast", "regional", "metro", "tram", "bus", "boat", "cable", "other")
CATEGORY_COLORS = {
    "IC": "#c60018", "fast": "#e07000", "regional": "#1f5fae", "metro": "#00838f", "tram": "#2e7d32",
    "bus": "#7b3fa0", "boat": "#0288d1", "cable": "#6d4c41", "other": "#616161",
}
TOLL_COLOR = "#f2b600"
TUNNEL_COLOR = "#222222"
RING_COLOR = "#d81b60"
LEG_COLORS = ("#1565c0", "#e65100", "#2e7d32", "#6a1b9a", "#c62828", "#00838f", "#827717", "#4e342e")
BAND_COLORS = {30: "#1a9850", 60: "#fdae61", 90: "#d73027"}
UNREACHED_COLOR = "#9e9e9e"


def _cat_rank(cat: str) -> int:
    return CATEGORY_ORDER.index(cat) if cat in CATEGORY_ORDER else len(CATEGORY_ORDER) - 1


def _ok(tt: Timetable, s: int) -> bool:
    return bool(np.isfinite(tt.station_lat[s]) and np.isfinite(tt.station_lon[s]))


def latlon(tt: Timetable, s: int) -> tuple[float, float]:
    """A station's ``(lat, lon)``."""
    return float(tt.station_lat[s]), float(tt.station_lon[s])


@dataclass
class Segment:
    """Consecutive stations of at least one trip; ``category`` is the best service running between them."""

    a: int
    b: int
    category: str


def line_segments(tt: Timetable) -> list[Segment]:
    """Unique station pairs along the day's trips, each with the best category serving it."""
    if len(tt.st_stop) < 2:
        return []
    sta = tt.stop_station[tt.st_stop].astype(np.int64)
    same = tt.st_trip[:-1] == tt.st_trip[1:]
    a, b = sta[:-1][same], sta[1:][same]
    cat_rank = np.array([_cat_rank(c) for c in tt.route_category], np.int64)
    rank = cat_rank[tt.trip_route[tt.st_trip[:-1][same]]]
    keep = a != b
    lo, hi, rank = np.minimum(a, b)[keep], np.maximum(a, b)[keep], rank[keep]
    if not len(lo):
        return []
    # best (lowest) rank per unordered pair: sort by pair then rank, take the first of each pair
    order = np.lexsort((rank, hi, lo))
    lo, hi, rank = lo[order], hi[order], rank[order]
    first = np.ones(len(lo), bool)
    first[1:] = (lo[1:] != lo[:-1]) | (hi[1:] != hi[:-1])
    out = []
    for x, y, r in zip(lo[first], hi[first], rank[first], strict=True):
        if _ok(tt, int(x)) and _ok(tt, int(y)):
            out.append(Segment(int(x), int(y), CATEGORY_ORDER[min(int(r), len(CATEGORY_ORDER) - 1)]))
    return out


@dataclass
class StationPoint:
    """A station as drawn: position, category, price, letter, dice target numbers."""

    index: int
    name: str
    lat: float
    lon: float
    category: str
    price: int
    letter: str
    on_ring: bool
    targets: list[int] = field(default_factory=list)


SYNTHETIC_CREDIT = N_("Timetable: SYNTHETIC, invented for tests (not from opentransportdata.swiss)")


def source_credit(tt: Timetable) -> str:
    """Where the day's timetable comes from, translated: opentransportdata.swiss, or, for a SYNTHETIC feed (its
    version says so: ``tests.support.nws_synthetic``, ``tools.synth_area``), that it is invented."""
    return _(SYNTHETIC_CREDIT) if "SYNTHETIC" in str(tt.feed_version).upper() else _(SOURCE_CREDIT)


def station_points(tt: Timetable, game: Game) -> list[StationPoint]:
    """Every station of the day's timetable with a position."""
    ring = on_ring(game, tt.station_lat, tt.station_lon, tt.station_id)
    tmap: dict[int, list[int]] = {}
    for t in target_points(tt, game):
        tmap.setdefault(t.index, []).append(t.number)
    out = []
    for s in range(tt.n_stations):
        if not _ok(tt, s):
            continue
        cat = station_category(tt, s, game)
        out.append(StationPoint(s, tt.station_name[s], *latlon(tt, s), cat, station_price(game, tt, s, cat),
                                initial_letter(tt.station_name[s]), bool(ring[s]), sorted(tmap.get(s, []))))
    return out


@dataclass
class TargetPoint:
    """A dice target station found in the day's timetable."""

    number: int
    name: str
    index: int
    lat: float
    lon: float


def target_points(tt: Timetable, game: Game) -> list[TargetPoint]:
    """Station targets served in the area (targets missing from the timetable are not drawn)."""
    out = []
    for entry in game.dice.targets:
        for name in entry.stations:
            s = exact_station(tt, name)
            if s is not None and _ok(tt, s):
                out.append(TargetPoint(entry.number, tt.station_name[s], s, *latlon(tt, s)))
    return out


def missing_targets(tt: Timetable, game: Game) -> list[str]:
    """Station targets not in the day's timetable (shown in the legend, not on the map)."""
    return [f"{e.number} {n}" for e in game.dice.targets for n in e.stations if exact_station(tt, n) is None]


@dataclass
class CrossingShape:
    """A toll line or tunnel as a polyline; ``method``: ``path`` (physical line) or ``straight`` (fallback)."""

    name: str
    kind: str
    coords: list[tuple[float, float]]
    method: str


def crossing_shapes(tt: Timetable, game: Game) -> tuple[list[CrossingShape], list[str]]:
    """Toll lines and tunnels along the physical SBB lines when available (else straight between the ends,
    when both ends are in the timetable), plus warnings."""
    crossings = [*game.toll_lines, *game.tunnels]
    if not crossings:
        return [], []
    warnings: list[str] = []
    stretch: dict[str, list[tuple[float, float]]] = {}
    try:
        network = load_rail_network()
    except FeedError as exc:  # no line data: straight lines between the end stations
        network = None
        warnings.append(_("physical rail network unavailable ({reason}): toll lines and tunnels drawn straight "
                          "between their ends").format(reason=exc))
    if network is not None:
        for chk in check_crossings(network, game):
            pts = [network.node_of[u] for u in chk.stretch if u in network.node_of]
            if len(pts) >= 2:
                stretch[chk.name] = [(float(network.lat[i]), float(network.lon[i])) for i in pts]
    out = []
    for c in crossings:
        if c.name in stretch:
            out.append(CrossingShape(c.name, c.kind, stretch[c.name], "path"))
            continue
        ends = [exact_station(tt, n) for n in c.between]
        if all(e is not None and _ok(tt, e) for e in ends):
            out.append(CrossingShape(c.name, c.kind, [latlon(tt, e) for e in ends if e is not None], "straight"))
        else:
            missing = [n for n, e in zip(c.between, ends, strict=True) if e is None or not _ok(tt, e)]
            warnings.append(_("{name}: not drawn: off the SBB line network, and {stations} not in this "
                              "timetable").format(name=c.name, stations=", ".join(missing)))
    return out, warnings


def area_label(game: Game) -> str:
    """What the area outline is, for legends: the ring of stations, or the game file's polygon."""
    return _("game area (ring)") if game.ring else _("game area (polygon of the game file)")


def ring_coords(game: Game) -> list[tuple[float, float]]:
    """The area outline, closed: the ring stations in order, else the polygon."""
    pts = [(r.lat, r.lon) for r in game.ring] or list(game.polygon)
    return pts + pts[:1] if pts else []


def bounds(game: Game, tt: Timetable | None = None) -> tuple[tuple[float, float], tuple[float, float]]:
    """``((south, west), (north, east))`` of the area (or of the stations when the game has no area)."""
    pts = ring_coords(game)
    if pts:
        lats, lons = [p[0] for p in pts], [p[1] for p in pts]
    elif tt is not None and tt.n_stations:
        ok = np.isfinite(tt.station_lat) & np.isfinite(tt.station_lon)
        lats, lons = list(tt.station_lat[ok]), list(tt.station_lon[ok])
    else:
        lats, lons = [45.8, 47.8], [5.95, 10.5]
    return (float(min(lats)), float(min(lons))), (float(max(lats)), float(max(lons)))


# ---- itineraries ------------------------------------------------------------------------------------

@dataclass
class LegShape:
    """One leg along its trip's stops (or a walk), with what a player reads."""

    number: int
    coords: list[tuple[float, float]]
    route: str
    headsign: str
    from_name: str
    to_name: str
    departure: str
    arrival: str
    is_walk: bool
    stops: list[tuple[str, float, float, str]]  # intermediate stops: name, lat, lon, time
    color: str = ""


def journey_shapes(tt: Timetable, journey: Journey) -> list[LegShape]:
    """The legs of an itinerary as polylines through every stop of the trip between boarding and alighting,
    along the SBB line network between consecutive stops where it knows the line (else a straight chord)."""
    try:
        network: RailNetwork | None = load_rail_network()
    except FeedError:  # no line data: straight chords between the stops
        network = None
    out = []
    for k, leg in enumerate(journey.legs):
        color = LEG_COLORS[k % len(LEG_COLORS)]
        if leg.is_walk:
            coords = [latlon(tt, leg.walk_from), latlon(tt, leg.walk_to)]
            out.append(LegShape(k + 1, coords, _("on foot"), "", tt.station_name[leg.walk_from],
                                tt.station_name[leg.walk_to], fmt_clock(leg.walk_dep) or "",
                                fmt_clock(leg.walk_arr) or "", True, [], color))
            continue
        rows = range(leg.board_row, leg.alight_row + 1)
        stations = [int(tt.stop_station[tt.st_stop[r]]) for r in rows]
        coords = _along_rail(tt, network, [s for s in stations if _ok(tt, s)], rail=_is_rail(tt, leg.trip))
        stops = [(tt.station_name[s], *latlon(tt, s), fmt_clock(int(tt.st_dep[r])) or "")
                 for r, s in zip(list(rows)[1:-1], stations[1:-1], strict=True)
                 if _ok(tt, s) and (tt.st_pickup[r] or tt.st_dropoff[r])]
        d = leg.to_dict(tt)
        out.append(LegShape(k + 1, coords, d["route"], d["headsign"], d["from"], d["to"], d["departure"],
                            d["arrival"], False, stops, color))
    return out


# a physical path this much longer than the straight line between two stops is not the train's (a stop pair
# the network joins only by a long way round, e.g. a line it lacks): draw the chord instead
_PATH_DETOUR = 2.5
_PATH_SLACK_KM = 3.0


def _is_rail(tt: Timetable, trip: int) -> bool:
    return int(tt.route_mode[tt.trip_route[trip]]) in (int(Mode.RAIL), int(Mode.METRO))


def _along_rail(tt: Timetable, network: RailNetwork | None, stations: list[int], *,
                rail: bool) -> list[tuple[float, float]]:
    """Points from station to station, through the operating points of the line between each pair."""
    coords = [latlon(tt, stations[0])] if stations else []
    for a, b in zip(stations[:-1], stations[1:], strict=True):
        path = _rail_path(tt, network, a, b) if rail and network is not None else None
        if path:
            coords.extend((float(network.lat[i]), float(network.lon[i])) for i in path[1:-1])
        coords.append(latlon(tt, b))
    return coords


def _rail_path(tt: Timetable, network: RailNetwork, a: int, b: int) -> list[int] | None:
    ua = tt.station_id[a] if tt.station_id[a] in network else network.station_point(tt.station_name[a])
    ub = tt.station_id[b] if tt.station_id[b] in network else network.station_point(tt.station_name[b])
    if ua is None or ub is None or ua == ub:
        return None
    path = network.node_path(network.node_of[ua], network.node_of[ub])
    if path is None:
        return None
    straight = haversine_km(*latlon(tt, a), *latlon(tt, b))
    length = sum(haversine_km(network.lat[x], network.lon[x], network.lat[y], network.lon[y])
                 for x, y in zip(path[:-1], path[1:], strict=True))
    return path if length <= _PATH_DETOUR * straight + _PATH_SLACK_KM else None


def station_by_name(tt: Timetable, name: str) -> int | None:
    """Exact (folded) station lookup for names carried in JSON answers."""
    f = fold(name)
    return next((i for i, n in enumerate(tt.station_name) if fold(n) == f), None)


# ---- reach --------------------------------------------------------------------------------------------

@dataclass
class ReachPoint:
    """A station with its earliest arrival from the origin and the band it falls in (None: beyond)."""

    index: int
    name: str
    lat: float
    lon: float
    arrival: int | None
    minutes: float | None
    band: int | None


def reach_points(net: TransitNetwork, origin: Origin, bands: tuple[int, ...] = (30, 60, 90)) -> list[ReachPoint]:
    """Earliest arrival at every station from ``origin`` (scan until the largest band), banded in minutes."""
    tt = net.tt
    limit = origin.time + max(bands) * 60
    arr = reach(net, Query(origin, end_time=limit)).arrivals()
    out = []
    for s in range(tt.n_stations):
        if not _ok(tt, s):
            continue
        a = int(arr[s])
        if s == origin.station and not origin.in_trip:
            a = origin.time
        if a < 0 or a > limit:
            out.append(ReachPoint(s, tt.station_name[s], *latlon(tt, s), None, None, None))
            continue
        mins = (a - origin.time) / 60.0
        band = next((b for b in sorted(bands) if mins <= b), None)
        out.append(ReachPoint(s, tt.station_name[s], *latlon(tt, s), a, round(mins, 1), band))
    return out
