"""The read side of a game: the group's recorded day, positions and whereabouts, what is owed and the
prices, jail plans, the rules in words, the answers' views. Nothing here changes a game."""
