"""Which services run on one date (calendar.txt + calendar_dates.txt, the latter streamed)."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pyarrow.compute as pc

from planner.errors import FeedError, PlannerError
from planner.gtfs.csvio import is_empty, iter_batches, read_table
from planner.gtfs.schema import DAYS, FILES, Where, convert
from planner.gtfs.source import FeedSource
from planner.util.timefmt import parse_date


def feed_period(src: FeedSource) -> tuple[dt.date | None, dt.date | None, str]:
    """(start, end, version) of the feed from feed_info.txt, else from calendar ranges."""
    start = end = None
    version = ""
    if not is_empty(src, "feed_info.txt"):
        t = read_table(src, "feed_info.txt", ["feed_start_date", "feed_end_date", "feed_version"])
        if t.num_rows:
            row = {k: (t[k][0].as_py() or "").strip() for k in ("feed_start_date", "feed_end_date", "feed_version")}
            version = row["feed_version"]
            try:
                start = parse_date(row["feed_start_date"]) if row["feed_start_date"] else None
                end = parse_date(row["feed_end_date"]) if row["feed_end_date"] else None
            except PlannerError:  # a broken feed_info falls back on the calendar's ranges
                start = end = None
    if (start is None or end is None) and not is_empty(src, "calendar.txt"):
        t = read_table(src, "calendar.txt", ["start_date", "end_date"])
        if t.num_rows:
            where = Where(src.label, "calendar.txt", t["_line"].to_numpy())
            s, e = (convert(t[c], FILES["calendar.txt"], c, where).tolist() for c in ("start_date", "end_date"))
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
    day = DAYS[date.weekday()]
    ymd = date.strftime("%Y%m%d")
    active: set[str] = set()
    has_cal = not is_empty(src, "calendar.txt")
    if has_cal:
        t = read_table(src, "calendar.txt", ["service_id", day, "start_date", "end_date"])
        where = Where(src.label, "calendar.txt", t["_line"].to_numpy())
        flag, s, e = (convert(t[c], FILES["calendar.txt"], c, where) for c in (day, "start_date", "end_date"))
        for sid, on in zip(t["service_id"].to_pylist(), (flag == "1") & (s <= ymd) & (e >= ymd), strict=True):
            if on:
                active.add(sid.strip())
    if not is_empty(src, "calendar_dates.txt"):
        for line, batch in iter_batches(src, "calendar_dates.txt"):
            mask = pc.equal(pc.utf8_trim_whitespace(batch.column("date")), ymd)
            if not pc.any(mask).as_py():
                continue
            rows = np.flatnonzero(mask.to_numpy(zero_copy_only=False))
            where = Where(src.label, "calendar_dates.txt", line + rows)
            types = convert(batch.column("exception_type").filter(mask), FILES["calendar_dates.txt"],
                            "exception_type", where)
            for sid, typ in zip(batch.column("service_id").filter(mask).to_pylist(), types, strict=True):
                if typ == "1":
                    active.add(sid.strip())
                else:
                    active.discard(sid.strip())
    elif not has_cal:
        raise FeedError(f"feed {src.label}: neither calendar.txt nor calendar_dates.txt present")
    return active
