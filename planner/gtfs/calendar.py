"""Which services run on one date (calendar.txt + calendar_dates.txt, the latter streamed)."""

from __future__ import annotations

import datetime as dt

import pyarrow.compute as pc

from planner.errors import FeedError, PlannerError
from planner.gtfs.csvio import is_empty, iter_batches, read_table
from planner.gtfs.source import FeedSource

_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def parse_date(text: str) -> dt.date:
    """Parse ``YYYY-MM-DD`` or ``YYYYMMDD``."""
    s = str(text).strip()
    for fmt in ("%Y-%m-%d", "%Y%m%d"):
        try:
            return dt.datetime.strptime(s, fmt).date()
        except ValueError:
            pass
    from planner.errors import InputError

    raise InputError(f"date {text!r} is not YYYY-MM-DD")


def feed_period(src: FeedSource) -> tuple[dt.date | None, dt.date | None, str]:
    """(start, end, version) of the feed from feed_info.txt, else from calendar ranges."""
    start = end = None
    version = ""
    if not is_empty(src, "feed_info.txt"):
        t = read_table(src, "feed_info.txt", ["feed_start_date", "feed_end_date", "feed_version"], required=[])
        if t.num_rows:
            row = {k: (t[k][0].as_py() or "").strip() for k in ("feed_start_date", "feed_end_date", "feed_version")}
            version = row["feed_version"]
            try:
                start = parse_date(row["feed_start_date"]) if row["feed_start_date"] else None
                end = parse_date(row["feed_end_date"]) if row["feed_end_date"] else None
            except Exception:
                start = end = None
    if (start is None or end is None) and not is_empty(src, "calendar.txt"):
        t = read_table(src, "calendar.txt", ["start_date", "end_date"])
        if t.num_rows:
            s = [x.strip() for x in t["start_date"].to_pylist() if x and x.strip()]
            e = [x.strip() for x in t["end_date"].to_pylist() if x and x.strip()]
            if s and e:
                for col, val in (("start_date", min(s)), ("end_date", max(e))):
                    try:
                        parse_date(val)
                    except PlannerError:
                        raise FeedError(f"feed {src.label}: calendar.txt column {col}: {val!r} is not a date "
                                        "YYYYMMDD") from None
                start, end = parse_date(min(s)), parse_date(max(e))
    return start, end, version


def services_on(src: FeedSource, date: dt.date) -> set[str]:
    """Service ids running on ``date`` (calendar rules, then calendar_dates additions/removals)."""
    day = _DAYS[date.weekday()]
    ymd = date.strftime("%Y%m%d")
    active: set[str] = set()
    has_cal = not is_empty(src, "calendar.txt")
    if has_cal:
        t = read_table(src, "calendar.txt", ["service_id", day, "start_date", "end_date"])
        for sid, flag, s, e, line in zip(t["service_id"].to_pylist(), t[day].to_pylist(), t["start_date"].to_pylist(),
                                         t["end_date"].to_pylist(), t["_line"].to_pylist(), strict=True):
            s, e, flag = (s or "").strip(), (e or "").strip(), (flag or "").strip()
            if flag not in ("0", "1"):
                raise FeedError(f"feed {src.label}: calendar.txt line {line} column {day}: {flag!r} is not 0 or 1")
            if len(s) != 8 or len(e) != 8 or not s.isdigit() or not e.isdigit():
                raise FeedError(f"feed {src.label}: calendar.txt line {line} column start_date/end_date: "
                                f"{s!r}/{e!r} is not YYYYMMDD")
            if flag == "1" and s <= ymd <= e:
                active.add(sid.strip())
    if not is_empty(src, "calendar_dates.txt"):
        for line, batch in iter_batches(src, "calendar_dates.txt", ["service_id", "date", "exception_type"]):
            mask = pc.equal(pc.utf8_trim_whitespace(batch.column("date")), ymd)
            if not pc.any(mask).as_py():
                continue
            sids = batch.column("service_id").filter(mask).to_pylist()
            types = batch.column("exception_type").filter(mask).to_pylist()
            for sid, typ in zip(sids, types, strict=True):
                typ = (typ or "").strip()
                if typ == "1":
                    active.add(sid.strip())
                elif typ == "2":
                    active.discard(sid.strip())
                else:
                    raise FeedError(f"feed {src.label}: calendar_dates.txt near line {line} column exception_type: "
                                    f"{typ!r} is not 1 or 2")
    elif not has_cal:
        raise FeedError(f"feed {src.label}: neither calendar.txt nor calendar_dates.txt present")
    return active
