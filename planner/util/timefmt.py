"""Times are seconds after the service day's midnight (int); may exceed 24:00 (GTFS)."""

from __future__ import annotations

import datetime as dt
import re

from planner.errors import InputError
from planner.util.i18n import _, format_clock

# As Swiss players write them: 13:00, 13.00, 13h00, 1300 (and 13:00:30 from feeds).
TIME_PATTERN = r"\d{1,2}[:.hH]\d{2}(?::\d{2})?|\d{3,4}"
_CLOCK = re.compile(r"^\s*(?:(\d{1,2})[:.hH](\d{2})(?::(\d{2}))?|(\d{1,2})(\d{2}))\s*$")


def parse_clock(text: str, *, allow_past_midnight: bool = True) -> int:
    """Parse ``13:00``, ``13.00``, ``13h00``, ``1300`` or ``HH:MM:SS`` into seconds; raise
    :class:`InputError` when malformed or out of range."""
    m = _CLOCK.match(str(text))
    if not m:
        raise InputError(_("time {time} is not HH:MM").format(time=repr(text)))
    h = int(m.group(1) or m.group(4))
    mi = int(m.group(2) or m.group(5))
    s = int(m.group(3) or 0)
    if mi > 59 or s > 59 or h > (47 if allow_past_midnight else 23):
        raise InputError(_("time {time} is out of range (HH 00-{last}, MM 00-59)").format(
            time=repr(text), last=47 if allow_past_midnight else 23))
    return h * 3600 + mi * 60 + s


def fmt_clock(seconds: int | None) -> str | None:
    """Format seconds after midnight as ``HH:MM`` (``HH:MM:SS`` when seconds are not zero)."""
    return format_clock(seconds)


def parse_date(text: str) -> dt.date:
    """Parse ``YYYY-MM-DD`` or ``YYYYMMDD``."""
    s = str(text).strip()
    for fmt in ("%Y-%m-%d", "%Y%m%d"):
        try:
            return dt.datetime.strptime(s, fmt).date()
        except ValueError:
            pass
    raise InputError(_("date {date} is not YYYY-MM-DD").format(date=repr(text)))
