"""Game rules (pure): game files, area, dice targets, 29-minute rule, bonus, tolls, prices."""
