"""The state database adapter (SQLite, ``$PLANNER_STATE``): games, groups' days, the ledger, access tokens."""
