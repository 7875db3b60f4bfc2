"""Vectorised GTFS time parsing (``H:MM:SS`` past 24:00 allowed) with row-precise errors."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from planner.errors import FeedError

_PATTERN = r"^\s*(?P<h>\d{1,2}):(?P<m>\d{2}):(?P<s>\d{2})\s*$"
MAX_HOURS = 47  # a service day may run past midnight; 48:00 and beyond is not a real timetable


def parse_times(arr: pa.Array, *, file: str, column: str, lines: np.ndarray, label: str) -> np.ndarray:
    """Parse a string array of GTFS times to int32 seconds; empty strings become -1.

    Raises :class:`FeedError` naming file, line and column for the first malformed or out-of-range value.
    """
    arr = pc.utf8_trim_whitespace(arr)
    empty = pc.equal(pc.utf8_length(arr), 0).to_numpy(zero_copy_only=False)
    parts = pc.extract_regex(arr, _PATTERN)
    valid = parts.is_valid().to_numpy(zero_copy_only=False)
    bad = ~valid & ~empty
    out = np.full(len(arr), -1, dtype=np.int32)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise FeedError(f"feed {label}: {file} line {int(lines[i])} column {column}: "
                        f"{arr[i].as_py()!r} is not a time H:MM:SS")
    if not valid.any():
        return out
    h = pc.cast(pc.struct_field(parts, "h"), pa.int32()).to_numpy(zero_copy_only=False)
    m = pc.cast(pc.struct_field(parts, "m"), pa.int32()).to_numpy(zero_copy_only=False)
    s = pc.cast(pc.struct_field(parts, "s"), pa.int32()).to_numpy(zero_copy_only=False)
    h = np.where(valid, np.nan_to_num(h, nan=0), 0).astype(np.int32)
    m = np.where(valid, np.nan_to_num(m, nan=0), 0).astype(np.int32)
    s = np.where(valid, np.nan_to_num(s, nan=0), 0).astype(np.int32)
    rng = valid & ((m > 59) | (s > 59) | (h > MAX_HOURS))
    if rng.any():
        i = int(np.flatnonzero(rng)[0])
        raise FeedError(f"feed {label}: {file} line {int(lines[i])} column {column}: "
                        f"{arr[i].as_py()!r} is out of range (minutes and seconds 00-59, hours up to {MAX_HOURS})")
    out[valid] = (h * 3600 + m * 60 + s)[valid]
    return out
