"""The real-time overlay of a running server (``serve --realtime FILE_OR_URL``): the published feed file applied
when it changed, and what the phone shows about it. What an answer says of real time (its ``realtime``, the legs'
delays, the warnings) is the answer's view (:mod:`planner.service.read.views`); the rules that read the overlay
are where they always were (routing, jail, bonus)."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import TYPE_CHECKING

from planner.realtime.feed import (
    RealtimeError,
    decode_feed,
    is_url,
    read_file,
)
from planner.realtime.live import read_status
from planner.realtime.load import overlay_of
from planner.realtime.overlay import STALE_SECONDS

if TYPE_CHECKING:
    from planner.service.setup.playing import GameDay

REFRESH_SECONDS = 1.0  # a server process looks at the published feed file at most this often


def refresh_overlay(day: GameDay) -> None:
    """For a server (``serve --realtime``): when the published feed file changed, apply the new one (one
    process fetches, every process reads the file; planner/realtime/live.py). A file that does not apply
    keeps the last overlay and the error is shown; no file yet: the timetable."""
    src = day.realtime_source
    if not src or is_url(str(src)):
        return
    now = time.monotonic()
    seen = day.__dict__.get("_rt_seen")
    if seen is not None and now - seen[0] < REFRESH_SECONDS:
        return
    try:
        st = os.stat(src)
        stamp = (st.st_mtime_ns, st.st_size)
    except OSError:
        stamp = None
    if seen is not None and seen[1] == stamp:
        day.__dict__["_rt_seen"] = (now, stamp)
        return
    day.__dict__["_rt_seen"] = (now, stamp)
    if stamp is None:
        day.set_overlay(None)
        return
    try:
        day.set_overlay(overlay_of(day.timetable, day.date, decode_feed(read_file(str(src)), str(src))))
        day.__dict__["_rt_error"] = None
    except RealtimeError as exc:  # the last good overlay stays
        day.__dict__["_rt_error"] = str(exc)
    day.__dict__["_rt_version"] = day.__dict__.get("_rt_version", 0) + 1


def banner(day: GameDay) -> dict | None:
    """What a phone shows about the real-time data (None without it): ``{available, version, age_s, stale,
    error, source}``; the age counts to now (a server runs on the game day)."""
    if not day.realtime_source:
        return None
    status = read_status(Path(str(day.realtime_source)))
    ov = day.overlay
    age = ov.age(int(time.time())) if ov is not None else None
    error = status.get("error") or day.__dict__.get("_rt_error")
    return {"available": ov is not None, "version": day.__dict__.get("_rt_version", 0), "age_s": age,
            "stale": ov is None or age is None or abs(age) > STALE_SECONDS, "error": error,
            "source": status.get("url") or "real-time feed",
            "trips_matched": ov.counts.get("trips_matched", 0) if ov is not None else 0}
