"""Routing core (pure): a :class:`Query` routed by :func:`reach` (connection scans with leg counts), best journeys,
range queries, networkx references."""

from planner.routing.journey import Journey, Leg
from planner.routing.network import TransitNetwork
from planner.routing.query import (
    Origin,
    Query,
    ReachResult,
    best_journey,
    journeys_within,
    reach,
    station_origin,
    trip_origin,
)

__all__ = [
    "Journey", "Leg", "Origin", "Query", "ReachResult", "TransitNetwork", "best_journey", "journeys_within", "reach",
    "station_origin", "trip_origin",
]
