"""Loading a real-time feed onto a game day: read (a file or a URL), decode, check it is about the game day, apply
it as an overlay on the day's timetable."""

from __future__ import annotations

import datetime as dt

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
        warnings.append(f"{exc}: answers use the timetable only")
        return None
    return overlay_of(tt, date, decode_feed(data or b"", src))


def overlay_of(tt: Timetable, date: dt.date, feed) -> Overlay:
    """The overlay of a decoded feed on the game day; a feed about another day is a :class:`RealtimeError`."""
    check_date(feed, date)
    return apply(tt, feed, date)


def check_date(feed, date: dt.date) -> None:
    """Refuse a feed that is about another day than the game day: its header time is not on it (nor in the
    small hours after it), or none of its dated trip updates is for it."""
    if feed.timestamp:
        start = service_day_start(date)
        if not start - 3600 <= feed.timestamp < start + (24 + _NEXT_DAY_HOURS) * 3600:
            when = dt.datetime.fromtimestamp(feed.timestamp, dt.UTC).astimezone(ZURICH)
            raise RealtimeError(f"real-time feed {feed.source}: made {when:%Y-%m-%d %H:%M} (Swiss time), not on the "
                                f"game day {date.isoformat()}")
    dates = {d for d in feed.start_date.tolist() if d}
    day = date.strftime("%Y%m%d").encode()
    if dates and day not in dates:
        other = sorted(dates)[0].decode(errors="replace")
        raise RealtimeError(f"real-time feed {feed.source}: its trips run on {other}, not on the game day "
                            f"{date.isoformat()}")
