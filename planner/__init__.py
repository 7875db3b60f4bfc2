"""sbb-planner: timetable answers for the SBB-Monopoly railway game.

Pure core: :mod:`planner.timetable` (compact game-day model), :mod:`planner.routing`
(earliest arrival, range queries, networkx reference), :mod:`planner.game` (rules).
Edges: :mod:`planner.gtfs` (feed ingest), :mod:`planner.gtfs.cache`, :mod:`planner.cli`,
:mod:`planner.maps`, :mod:`planner.organiser.area_check`.
"""

__version__ = "0.1.0"
SOURCE_CREDIT = "Source: opentransportdata.swiss"
