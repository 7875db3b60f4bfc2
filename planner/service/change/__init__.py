"""The use cases that change a game: a roll, a position, an undo, a ledger event (each computed
outside the write transaction, recorded with a version check)."""
