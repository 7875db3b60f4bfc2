"""The SBB physical line network and the toll lines / tunnels trains cross on it (RULES.md §2 §11-§12, §3);
what a crossing costs is the ledger's (:mod:`planner.ledger.crossing_fees`).

One job a module:

* :mod:`planner.rail.loader`: reads the ``linie-mit-betriebspunkten`` CSV (the only I/O here);
* :mod:`planner.rail.network`: the graph of operating points, names, shortest physical paths;
* :mod:`planner.rail.crossings`: which crossings a stop sequence travels (on the path, or on the stops);
* :mod:`planner.rail.trips`: the same for the trips of a ``Timetable`` (rides given in stop-time rows).
"""

from planner.rail.crossings import CrossingCheck, CrossingHit, check_crossings, crossing_kind, crossings
from planner.rail.loader import RAIL_CSV_NAME, default_rail_csv, load_rail_network, read_rail_points
from planner.rail.network import RailNetwork, line_class
from planner.rail.trips import crossing_trips, ride_rows, route_crossings, trip_crossings

__all__ = [
    "RAIL_CSV_NAME", "CrossingCheck", "CrossingHit", "RailNetwork", "check_crossings", "crossing_kind",
    "crossing_trips", "crossings", "default_rail_csv", "line_class", "load_rail_network",
    "read_rail_points", "ride_rows", "route_crossings", "trip_crossings",
]
