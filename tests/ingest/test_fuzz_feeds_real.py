"""Seeded fuzzing of feed ingest on a slice of the real extract ``ch-ic1-fp2019.zip`` (whole trips, about 300
stop_times, taken at test time, raw lines kept byte for byte): as tests/ingest/test_fuzz_feeds.py on the fixture,
every third case (the machinery: tests/support/feed_fuzz.py). A case reproduces by its number:
``pytest tests/ingest/test_fuzz_feeds_real.py -k "case_123]"``.
"""

from __future__ import annotations

import datetime as dt
import zipfile
from functools import cache

import pytest

from tests.support import IC1_2019
from tests.support.feed_fuzz import CASES, fuzz_case, load_cleanly, real_case, rows

pytestmark = pytest.mark.needs_shared  # reads ../shared (tests/project/test_suite_without_shared.py)

DATE = dt.date(2019, 1, 18)


@cache
def ic1_slice() -> tuple[tuple[str, bytes], ...]:
    """Whole trips of the real FP2019 extract (about 300 stop_times) with everything they reference.

    Raw lines are kept byte for byte (quoting and CRLF as published).
    """
    with zipfile.ZipFile(IC1_2019) as zf:
        z = {n: zf.read(n) for n in zf.namelist()}
    st = rows(z["stop_times.txt"])
    keep_st = [st[0][0]]
    trips: list[str] = []
    for line, f in st[1:]:
        if f[0] not in trips:
            if len(keep_st) > 300:
                break
            trips.append(f[0])
        keep_st.append(line)
    # add two IC trips that run on 2019-01-18 so the slice has rail in the sbb-monopoly area too
    wanted = {"18.TA.6-1-j19-1.17.H", "1.TA.1-85-j19-1.1.H"}
    keep_st += [line for line, f in st[1:] if f and f[0] in wanted and f[0] not in trips]
    trips += sorted(wanted)
    tr = rows(z["trips.txt"])
    keep_tr = [tr[0][0]] + [line for line, f in tr[1:] if f and f[2] in trips]
    routes = {f[0] for _, f in tr[1:] if f and f[2] in trips}
    services = {f[1] for _, f in tr[1:] if f and f[2] in trips}
    stop_ids = {f[3] for line, f in rows(b"".join(keep_st))[1:] if len(f) > 3}
    ro = rows(z["routes.txt"])
    out = {
        "stop_times.txt": b"".join(keep_st),
        "trips.txt": b"".join(keep_tr),
        "routes.txt": b"".join([ro[0][0]] + [line for line, f in ro[1:] if f and f[0] in routes]),
        "agency.txt": z["agency.txt"],
        "feed_info.txt": z["feed_info.txt"],
    }
    for name in ("calendar.txt", "calendar_dates.txt"):
        r = rows(z[name])
        out[name] = b"".join([r[0][0]] + [line for line, f in r[1:] if f and f[0] in services])
    s = rows(z["stops.txt"])
    parents = {f[5] for _, f in s[1:] if f and f[0] in stop_ids and len(f) > 5 and f[5]}
    out["stops.txt"] = b"".join([s[0][0]] + [line for line, f in s[1:] if f and (f[0] in stop_ids or f[0] in parents)])
    t = rows(z["transfers.txt"])
    out["transfers.txt"] = b"".join([t[0][0]] + [line for line, f in t[1:] if f and f[0] in stop_ids
                                                 and f[1] in stop_ids])
    return tuple(out.items())


def test_the_real_slice_loads_cleanly(tmp_path):
    load_cleanly(tmp_path / "ic1", ic1_slice, DATE)
    assert b"1.TA.1-85-j19-1.1.H" in dict(ic1_slice())["trips.txt"]


@pytest.mark.parametrize("case", [c for c in range(CASES) if real_case(c)], ids=lambda c: f"case_{c}")
def test_fuzzed_real_feed(tmp_path, case):
    """One mutated slice of the real feed: a one-line PlannerError or a timetable whose invariants hold."""
    fuzz_case(tmp_path, case, "ic1", ic1_slice, DATE)
