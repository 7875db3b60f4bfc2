"""The pure game-day timetable model (compact numpy arrays, no I/O)."""

from planner.timetable.model import Mode, Timetable

__all__ = ["Mode", "Timetable"]
