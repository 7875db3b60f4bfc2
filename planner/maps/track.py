"""The day's rail segments drawn on the physical SBB lines (pure, given the line network).

The feed has no shapes, so a segment joins two consecutive stops of a trip. For a train that runs non-stop over a
long stretch (an IC from Basel to Olten) that straight chord crosses the Jura where no track is; the SBB line
data (:mod:`planner.rail`) holds the physical path, and this module follows it wherever it is plausible: both
stations on the network, and the path at most :data:`DETOUR` times the straight distance (plus
:data:`DETOUR_KM`), so a station matched to the wrong operating point is never drawn as a loop. Buses, trams and
rail off the SBB network (Waldenburgerbahn) keep the straight segment.
"""

from __future__ import annotations

from planner.errors import FeedError
from planner.maps.layers import Segment, latlon
from planner.rail.loader import load_rail_network
from planner.rail.network import RailNetwork, haversine_km
from planner.timetable.model import Timetable

RAIL = ("IC", "fast", "regional")
DETOUR = 1.8  # a physical path this many times the chord is still the same stretch of line (valleys wind)
DETOUR_KM = 3.0


def _point(network: RailNetwork, tt: Timetable, s: int) -> int | None:
    """The network node of a timetable station: by its UIC, else the one point named like it."""
    uic = str(tt.station_id[s])
    if uic not in network:
        uic = network.station_point(str(tt.station_name[s])) or ""
    return network.node_of.get(uic)


def tracks(tt: Timetable, segments: list[Segment], network: RailNetwork | None = None) -> list[list[tuple[float, float]]]:
    """Each segment as ``(lat, lon)`` points: along the physical line where plausible (see module docstring),
    else its two ends. Without line data every segment stays straight."""
    if network is None:
        try:
            network = load_rail_network()
        except FeedError:
            network = None
    out = []
    for sg in segments:
        a, b = latlon(tt, sg.a), latlon(tt, sg.b)
        path = _physical(network, tt, sg) if network is not None and sg.category in RAIL else None
        out.append([a, *path[1:-1], b] if path else [a, b])
    return out


def _physical(network: RailNetwork, tt: Timetable, sg: Segment) -> list[tuple[float, float]] | None:
    na, nb = _point(network, tt, sg.a), _point(network, tt, sg.b)
    if na is None or nb is None or na == nb:
        return None
    nodes = network.node_path(na, nb)
    if not nodes or len(nodes) < 3:
        return None
    pts = [(float(network.lat[i]), float(network.lon[i])) for i in nodes]
    length = sum(haversine_km(*p, *q) for p, q in zip(pts, pts[1:], strict=False))
    chord = haversine_km(*latlon(tt, sg.a), *latlon(tt, sg.b))
    return pts if length <= DETOUR * chord + DETOUR_KM else None
