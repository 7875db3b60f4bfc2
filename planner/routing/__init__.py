"""Routing core (pure): connection-scan earliest arrival with leg counts, range queries, networkx reference."""

from planner.routing.journey import Journey, Leg
from planner.routing.network import TransitNetwork
from planner.routing.query import (
    Origin,
    ReachResult,
    best_journey,
    journeys_within,
    reach,
    station_origin,
    trip_origin,
)

__all__ = [
    "Journey", "Leg", "Origin", "ReachResult", "TransitNetwork", "best_journey", "journeys_within", "reach",
    "station_origin", "trip_origin",
]
