"""sbb-planner: timetable answers for the SBB-Monopoly railway game.

The packages are layers (bottom to top: errors, util, config, gamefile, timetable, gtfs, routing, rail, game,
ledger, store, organiser, maps, service, then the adapters web and commands, and cli); ARCHITECTURE.md
describes each, and tests/project/test_architecture.py keeps every import pointing down.
"""

__version__ = "0.1.0"
SOURCE_CREDIT = "Source: opentransportdata.swiss"
