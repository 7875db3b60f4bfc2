"""Loading a real-time feed onto a game day: read (a file or a URL), decode, check it is about the game day, apply
it as an overlay on the day's timetable."""

from __future__ import annotations

import datetime as dt

import numpy as np

from planner.realtime import wire
from planner.realtime.feed import (
    RealtimeError,
    RealtimeUnavailable,
    decode_feed,
    fetch_url,
    is_url,
    read_file,
)
from planner.realtime.overlay import ZURICH, Overlay, apply, service_day_start
from planner.timetable.model import Timetable
from planner.util.i18n import _, format_long_date

# a feed fetched this long after the game day's midnight still describes it (trains past midnight)
_NEXT_DAY_HOURS = 4


def load_overlay(source: str, key: str | None, tt: Timetable, date: dt.date, warnings: list[str]) -> Overlay | None:
    """Read, decode and apply the feed at ``source`` (``key``: the API key of a URL). A file that is not a usable
    feed (garbage, truncated, another day) is a :class:`RealtimeError` (one line, exit 2); a URL that does not
    answer gives None and a warning in ``warnings`` (the answers use the timetable and say so)."""
    src = str(source)
    try:
        data = fetch_url(src, key=key).body if is_url(src) else read_file(src)
    except RealtimeUnavailable as exc:
        warnings.append(_("{problem}: answers use the timetable only").format(problem=exc))
        return None
    return overlay_of(tt, date, decode_feed(data or b"", src))


def overlay_of(tt: Timetable, date: dt.date, feed) -> Overlay:
    """The overlay of a decoded feed on the game day; a feed about another day is a :class:`RealtimeError`."""
    check_date(feed, date)
    return apply(tt, feed, date)


def check_date(feed, date: dt.date) -> None:
    """Refuse a feed that is about another day than the game day: its header time is not on it (nor in the
    small hours after it), or none of its dated trip updates is for it (a start date not written YYYYMMDD is
    named as it is)."""
    if feed.timestamp:
        start = service_day_start(date)
        if not start - 3600 <= feed.timestamp < start + (24 + _NEXT_DAY_HOURS) * 3600:
            raise RealtimeError(_("real-time feed {source}: made {when}, not on the game day {date}").format(
                source=feed.source, when=_made(feed.timestamp), date=format_long_date(date)))
    dates = {d for d in _start_dates(feed) if d}
    day = date.strftime("%Y%m%d")
    if dates and day not in dates:
        other = sorted(dates)[0]
        if not (len(other) == 8 and other.isascii() and other.isdigit()):
            raise RealtimeError(_("real-time feed {source}: a trip update's start date {value} is not a date "
                                  "YYYYMMDD").format(source=feed.source, value=repr(other[:40])))
        raise RealtimeError(_("real-time feed {source}: its trips run on {other}, not on the game day {date}")
                            .format(source=feed.source, other=format_long_date(f"{other[:4]}-{other[4:6]}-{other[6:]}"),
                                    date=format_long_date(date)))


def _start_dates(feed) -> list[str]:
    """Each trip update's start date as written (not cut to eight characters)."""
    tu = feed.tu
    raw = wire.strings(feed.buf, tu[:, wire.TU_DATE_OFF], np.minimum(tu[:, wire.TU_DATE_LEN], 64)) if len(tu) else []
    return [d.decode("utf-8", errors="replace") for d in raw]


def _made(timestamp: int) -> str:
    """The feed header's time in Swiss time, or the number itself where it is no time of a calendar."""
    try:
        when = dt.datetime.fromtimestamp(timestamp, dt.UTC).astimezone(ZURICH)
        return _("{when} (Swiss time)").format(when=f"{when:%Y-%m-%d %H:%M}")
    except (OverflowError, OSError, ValueError):  # past year 9999 (or before 1): "Value too large" otherwise
        return _("at header timestamp {seconds} (no date: out of every calendar)").format(seconds=timestamp)
