"""The money side of the game: events, rules, capital, messages (pure core) and their store (adapter)."""
