"""sbb-planner: timetable answers for the SBB-Monopoly railway game.

The packages are layers (bottom to top: errors, util, config, gamefile, timetable, gtfs, routing, rail, game,
ledger, store, organiser, maps, service, then the adapters web and commands, and cli); ARCHITECTURE.md
describes each, and tests/project/test_architecture.py keeps every import pointing down.
"""

__version__ = "0.1.0"
from planner.util.i18n import N_  # noqa: E402 - after the version, which setup reads

# shown translated (``_(SOURCE_CREDIT)``) wherever timetable data is shown
SOURCE_CREDIT = N_("Source: opentransportdata.swiss")
