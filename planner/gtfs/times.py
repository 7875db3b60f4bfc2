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
    fast = _fast_hhmmss(arr)
    if fast is not None:
        return fast
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


_DIGIT_POS = np.array([0, 1, 3, 4, 6, 7])


def _fast_hhmmss(arr: pa.Array) -> np.ndarray | None:
    """Seconds for an array whose values are all exactly ``HH:MM:SS`` (or empty) and in range, else None.

    Reads the string buffer directly (the common case of a well-formed feed); anything else returns None
    and the caller takes the general path, which also produces the error messages.
    """
    if not isinstance(arr, pa.StringArray) or arr.null_count or len(arr) == 0:
        return None
    _, offs_buf, data_buf = arr.buffers()
    offs = np.frombuffer(offs_buf, np.int32)[arr.offset:arr.offset + len(arr) + 1]
    size = np.diff(offs)
    full = size == 8
    if not (full | (size == 0)).all():
        return None
    out = np.full(len(arr), -1, dtype=np.int32)
    if not full.any():
        return out
    data = np.frombuffer(data_buf, np.uint8) if data_buf is not None else np.zeros(0, np.uint8)
    b = data[offs[:-1][full, None] + np.arange(8)]
    if not ((b[:, 2] == 58) & (b[:, 5] == 58)).all():
        return None
    d = b[:, _DIGIT_POS].astype(np.int32) - 48
    if ((d < 0) | (d > 9)).any():
        return None
    h, m, sec = d[:, 0] * 10 + d[:, 1], d[:, 2] * 10 + d[:, 3], d[:, 4] * 10 + d[:, 5]
    if ((m > 59) | (sec > 59) | (h > MAX_HOURS)).any():
        return None
    out[full] = h * 3600 + m * 60 + sec
    return out
