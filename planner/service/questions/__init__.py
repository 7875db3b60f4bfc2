"""What a group asks of its day (next, route, target, bonus, tolls, maps, the demo, the ledger now)
and the answers of its changes (status, list, position, undo): above the changes they read."""
