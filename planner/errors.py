"""Errors the planner reports to users as one line (never a traceback)."""

from __future__ import annotations


class PlannerError(Exception):
    """A user-facing error: the message is shown as one line, the process exits with ``exit_code``."""

    exit_code = 2

    def __init__(self, message: str, exit_code: int | None = None):
        super().__init__(message)
        if exit_code is not None:
            self.exit_code = exit_code


class FeedError(PlannerError):
    """The GTFS feed is missing, malformed or does not cover the request (names file, row, column)."""


class GameFileError(PlannerError):
    """A game file is malformed (names the file and the key)."""


class StationNotFound(PlannerError):
    """A station name matched nothing or more than one station; the message lists suggestions."""

    def __init__(self, message: str, suggestions: list[str] | None = None):
        super().__init__(message)
        self.suggestions = suggestions or []


class InputError(PlannerError):
    """A command-line value is out of range or malformed."""
