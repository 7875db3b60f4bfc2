"""Where the area report points to the game lab: the command that makes the lab's report for this game day,
and that report when it lies beside the area report under its usual name. Used by ``planner check-area`` and the
organiser's web report alike, so both say the same."""

from __future__ import annotations

import datetime as dt
import shlex
from pathlib import Path

from planner.util.text import file_slug


def lab_report_name(game_name: str, date: dt.date) -> str:
    """The lab report's usual file name for a game day (what the suggested command writes)."""
    return f"lab-{file_slug(game_name, date.isoformat())}.html"


def lab_pointer(feed: str, game_spec: str, game_name: str, date: dt.date, folder: Path | None) -> dict:
    """``{command, report}``: how to make the lab's report for this feed and game (``game_spec`` as the user names
    it) in ``folder``, ready to paste into a shell, and its file name when it lies there (None: nowhere looked, as
    on the web)."""
    name = lab_report_name(game_name, date)
    # written beside the area report, where the link to it is looked for
    out = name if folder is None or folder.resolve() == Path.cwd() else str(folder / name)
    command = " ".join(["planner simulate --game", shlex.quote(game_spec), "--date", date.isoformat(), "--feed",
                        shlex.quote(str(feed)), "--days 1000 --groups 6 --out", shlex.quote(out)])
    return {"command": command, "report": name if folder is not None and (folder / name).is_file() else None}


def game_spec_of(source: str) -> str:
    """How a loaded game is named on the command line: a shipped game by its name, another by its file's path."""
    return source.removeprefix("builtin:")
