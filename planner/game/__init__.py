"""Game rules that need the timetable or the routing (above them): dice targets, the change window at a stop and in a log, bonus chances, station prices, equally fast ways, the group's day."""
