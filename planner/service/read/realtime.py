"""The real-time overlay of a game day (``--realtime FILE_OR_URL``): loading it, and what answers say of it
(``realtime: {source, age_s, trips_matched, trips_unknown, ...}``, the legs' delays, the warnings). The rules
that read it are where they always were (routing, jail, bonus); this is the use cases' side."""

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
from planner.realtime.overlay import STALE_SECONDS, service_day_start
from planner.util.i18n import _

if TYPE_CHECKING:
    from planner.routing import Journey
    from planner.service.setup.playing import GameDay

def posix(day: GameDay, t: int) -> int:
    """POSIX seconds of time of day ``t`` (seconds) on the game day."""
    return service_day_start(day.date) + int(t)


def realtime_json(day: GameDay, t: int) -> dict | None:
    """What an answer for time of day ``t`` says of the real-time data (None without ``--realtime``): on the
    game day itself the age counts to now, else to ``t`` on the game day."""
    if not day.realtime_source:
        return None
    ov = day.overlay
    if ov is None:
        return {"source": str(day.realtime_source), "available": False, "age_s": None, "stale": True,
                "trips_matched": 0, "trips_unknown": 0}
    now = day.now()
    at = posix(day, now) if now is not None else posix(day, t)
    return {"available": True, **ov.summary(at)}


def realtime_warnings(day: GameDay, info: dict | None) -> list[str]:
    """Warnings an answer carries about its real-time data: missing (the timetable is used) or stale."""
    if info is None:
        return []
    out = list(day.realtime_warnings)
    if info.get("available") and info.get("stale"):
        age = info.get("age_s")
        if age is None:
            said = _("the real-time data has no time stamp (stale after {stale} min): delays may have changed")
        elif age >= 0:
            said = _("the real-time data is {minutes} min old (stale after {stale} min): delays may have changed")
        else:
            said = _("the real-time data is {minutes} min ahead (stale after {stale} min): delays may have changed")
        out.append(said.format(minutes=abs(int(age or 0)) // 60, stale=STALE_SECONDS // 60))
    return out


def _minutes(seconds: int | None) -> int | None:
    # whole minutes as the boards show them (a train 30 s late is "+0'", 90 s "+1'")
    return None if seconds is None else int(seconds) // 60 if seconds >= 0 else -((-int(seconds)) // 60)


def add_delays(day: GameDay, journey: Journey, d: dict) -> None:
    """Per leg ``departure_delay_min``/``arrival_delay_min`` (predicted minus timetable, None when the feed
    says nothing) and the answer's own (its first departure, its arrival); nothing without an overlay."""
    if not day.realtime_source:
        return
    ov = day.overlay
    for leg, ld in zip(journey.legs, d.get("legs", []), strict=True):
        if leg.is_walk or ov is None:
            ld["departure_delay_min"] = ld["arrival_delay_min"] = None
            continue
        dep = ov.arrival_delay(leg.board_row) if leg.board_row == leg.alight_row else ov.departure_delay(leg.board_row)
        ld["departure_delay_min"] = _minutes(dep)
        ld["arrival_delay_min"] = _minutes(ov.arrival_delay(leg.alight_row))
    legs = d.get("legs") or []
    d["departure_delay_min"] = legs[0]["departure_delay_min"] if legs else None
    d["arrival_delay_min"] = legs[-1]["arrival_delay_min"] if legs else None


def late_mark(delay_min: int | None) -> str:
    """``+4'`` beside a late time in readable output (``-1'`` early; nothing when on time or unknown)."""
    if not delay_min:
        return ""
    return f" +{delay_min}'" if delay_min > 0 else f" {delay_min}'"


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
