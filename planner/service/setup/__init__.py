"""What every use case works on: the loaded game day, the game being played (its record, the state),
new games."""
