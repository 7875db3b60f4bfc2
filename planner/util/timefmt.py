"""Times are seconds after the service day's midnight (int); may exceed 24:00 (GTFS)."""

from __future__ import annotations

import datetime as dt
import re

from planner.errors import InputError

# As Swiss players write them: 13:00, 13.00, 13h00, 1300 (and 13:00:30 from feeds).
TIME_PATTERN = r"\d{1,2}[:.hH]\d{2}(?::\d{2})?|\d{3,4}"
_CLOCK = re.compile(r"^\s*(?:(\d{1,2})[:.hH](\d{2})(?::(\d{2}))?|(\d{1,2})(\d{2}))\s*$")


def parse_clock(text: str, *, allow_past_midnight: bool = True) -> int:
    """Parse ``13:00``, ``13.00``, ``13h00``, ``1300`` or ``HH:MM:SS`` into seconds; raise
    :class:`InputError` when malformed or out of range."""
    m = _CLOCK.match(str(text))
    if not m:
        raise InputError(f"time {text!r} is not HH:MM")
    h = int(m.group(1) or m.group(4))
    mi = int(m.group(2) or m.group(5))
    s = int(m.group(3) or 0)
    if mi > 59 or s > 59 or h > (47 if allow_past_midnight else 23):
        raise InputError(f"time {text!r} is out of range (HH 00-{47 if allow_past_midnight else 23}, MM 00-59)")
    return h * 3600 + mi * 60 + s


def fmt_clock(seconds: int | None) -> str | None:
    """Format seconds after midnight as ``HH:MM`` (``HH:MM:SS`` when seconds are not zero)."""
    if seconds is None:
        return None
    seconds = int(seconds)
    h, rem = divmod(seconds, 3600)
    m, s = divmod(rem, 60)
    return f"{h:02d}:{m:02d}" if s == 0 else f"{h:02d}:{m:02d}:{s:02d}"


def parse_date(text: str) -> dt.date:
    """Parse ``YYYY-MM-DD`` or ``YYYYMMDD``."""
    s = str(text).strip()
    for fmt in ("%Y-%m-%d", "%Y%m%d"):
        try:
            return dt.datetime.strptime(s, fmt).date()
        except ValueError:
            pass
    raise InputError(f"date {text!r} is not YYYY-MM-DD")
