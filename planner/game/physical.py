"""Moved to the :mod:`planner.rail` package (one job a module); this name stays for code written against it.

New code imports from ``planner.rail``.
"""

from planner.rail import (  # noqa: F401 - re-exported for old imports
    CrossingCheck,
    CrossingHit,
    Fee,
    RailNetwork,
    check_crossings,
    crossing_trips,
    crossings,
    fee_for,
    line_class,
    route_crossings,
    trip_crossings,
)
