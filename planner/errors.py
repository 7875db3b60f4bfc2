"""Errors the planner reports to users as one line (never a traceback)."""

from __future__ import annotations


class PlannerError(Exception):
    """A user-facing error: the message is shown as one line, the process exits with ``exit_code``.

    A refusal is worded for the door it is read at: ``message`` for the command line (it may name the options to
    give), ``phone`` for the phone's page when the command line's would name options there is none of (the page
    names its own controls). Both are made in the service, translated; :meth:`for_phone` picks the phone's."""

    exit_code = 2
    phone: str | None = None

    def __init__(self, message: str, exit_code: int | None = None, *, phone: str | None = None):
        super().__init__(message)
        if exit_code is not None:
            self.exit_code = exit_code
        if phone is not None:
            self.phone = phone

    def for_phone(self) -> str:
        """The refusal as the phone's page shows it: one line, in the phone's words."""
        return " ".join((self.phone or str(self)).split())


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


class TrainAmbiguous(InputError):
    """A train named as players name it ("S3 09:39") fits several trains: ``candidates`` lists each as
    ``{"trip_id", "train"}`` (its id, and how it reads), so that a page can ask which one is meant."""

    def __init__(self, message: str, candidates: list[dict] | None = None):
        super().__init__(message)
        self.candidates = list(candidates or [])

    def __reduce__(self):  # raised in the web's routing process, re-raised in the server's
        return (TrainAmbiguous, (str(self), self.candidates))


class DamagedState(PlannerError):
    """A row of the state file that no planner wrote (edited by hand, or damaged): named, never a traceback."""

    def __init__(self, message: str, path: object = None):
        where = f"group state {path}: " if path is not None else "group state: "
        super().__init__(where + message + " (edited by hand? undo that entry, or move the file aside)")
        self.detail, self.path = message, path

    def at(self, path: object) -> DamagedState:
        """The same error naming the state file."""
        return self if self.path is not None else DamagedState(self.detail, path)
