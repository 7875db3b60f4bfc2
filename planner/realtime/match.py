"""Applying decoded trip updates to a game day, compiled with numba: one pass over the updated trips only.

Per trip update (see :mod:`planner.realtime.overlay` for the semantics): the trip by its id's bytes (an open
addressing hash of the day's trip ids, built once per timetable), else by ``original_trip_id``; each stop-time
update placed on the trip's rows by comparing stop id bytes in order (a platform the timetable does not plan
there: by the station, the UIC number before the first ``:``); then the delays propagated along the trip and
its predicted times made non-decreasing. Nothing is looked up by Python objects: the stop ids are compared in
the feed's own buffer, so a national feed (~300,000 stop-time updates) is applied in milliseconds.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from planner.realtime import wire

_FNV_OFFSET = np.uint64(14695981039346656037)
_FNV_PRIME = np.uint64(1099511628211)
REL_SKIPPED, REL_NO_DATA = 1, 2
TRIP_CANCELED, TRIP_DELETED, TRIP_REPLACEMENT = 3, 7, 5
# counters: matched, unknown, other date, cancelled, unsupported, unplaced stop updates, implausible times
C_MATCHED, C_UNKNOWN, C_OTHER_DATE, C_CANCELLED, C_UNSUPPORTED, C_UNPLACED, C_IMPLAUSIBLE = range(7)
N_COUNTS = 7
# A predicted time further from the timetable than this is no prediction but a broken value (a delay of -2^31 s
# or of a day, an absolute time in 1970): dropped and counted, as if the update had not given it. A train that
# runs an hour early or twelve hours late is not in a game day's timetable any more.
EARLIEST_DELAY = -3600
LATEST_DELAY = 12 * 3600


@nb.njit(cache=True, nogil=True, inline="always")
def _hash(buf, off, n):
    h = _FNV_OFFSET
    for k in range(off, off + n):
        h = (h ^ np.uint64(buf[k])) * _FNV_PRIME
    return h


@nb.njit(cache=True, nogil=True, inline="always")
def _same(a, ao, an, b, bo, bn):
    if an != bn:
        return False
    for k in range(an):
        if a[ao + k] != b[bo + k]:
            return False
    return True


@nb.njit(cache=True, nogil=True)
def build_table(ids, off):
    """Open-addressing hash table (size a power of two, -1 = empty) of the byte strings ``ids[off[i]:off[i+1]]``."""
    n = off.shape[0] - 1
    size = 1
    while size < 2 * n + 2:
        size *= 2
    table = np.full(size, -1, np.int64)
    mask = np.uint64(size - 1)
    for i in range(n):
        k = np.int64(_hash(ids, off[i], off[i + 1] - off[i]) & mask)
        while table[k] >= 0:
            k = (k + 1) & (size - 1)
        table[k] = i
    return table


@nb.njit(cache=True, nogil=True)
def _find(table, ids, off, buf, bo, bn):
    if bn == 0:
        return -1
    size = table.shape[0]
    k = np.int64(_hash(buf, bo, bn) & np.uint64(size - 1))
    while table[k] >= 0:
        i = table[k]
        if _same(ids, off[i], off[i + 1] - off[i], buf, bo, bn):
            return i
        k = (k + 1) & (size - 1)
    return -1


@nb.njit(cache=True, nogil=True, inline="always")
def _prefix(buf, bo, bn):
    """Length of the stop id before its first ``:`` (the UIC number of a Swiss platform id)."""
    for k in range(bn):
        if buf[bo + k] == 58:  # ':'
            return k
    return bn


@nb.njit(cache=True, nogil=True)
def hashes(ids, off):
    """The hash of each byte string ``ids[off[i]:off[i+1]]`` (per stop-time row, a row's stop is then found by
    one compare of a sequential array)."""
    n = off.shape[0] - 1
    out = np.empty(n, np.uint64)
    for i in range(n):
        out[i] = _hash(ids, off[i], off[i + 1] - off[i])
    return out


@nb.njit(cache=True, nogil=True, inline="always")
def _place(buf, so, sn, r0, r1, cursor, st_stop, stop_station, stop_ids, stop_off, row_hash, sta_ids, sta_off,
           sta_hash):
    """Row of ``[r0, r1)`` whose stop is named by ``buf[so:so+sn]`` (updates come in the trip's order: the
    rows from ``cursor`` on first, then those before it), else whose station is the id's prefix; -1: none."""
    if sn == 0:
        return -1
    h = _hash(buf, so, sn)
    for r in range(cursor, r1):
        if row_hash[r] == h:
            q = st_stop[r]
            if _same(stop_ids, stop_off[q], stop_off[q + 1] - stop_off[q], buf, so, sn):
                return r
    for r in range(r0, cursor):
        if row_hash[r] == h:
            q = st_stop[r]
            if _same(stop_ids, stop_off[q], stop_off[q + 1] - stop_off[q], buf, so, sn):
                return r
    pn = _prefix(buf, so, sn)
    h = _hash(buf, so, pn)
    for r in range(r0, r1):
        s = stop_station[st_stop[r]]
        if sta_hash[s] == h and _same(sta_ids, sta_off[s], sta_off[s + 1] - sta_off[s], buf, so, pn):
            return r
    return -1


@nb.njit(cache=True, nogil=True)
def match_trips(buf, tu, day, trip_table, trip_ids, trip_off, counts):
    """The day's trip of each trip update (-1: deleted, another day, or unknown: counted)."""
    out = np.full(tu.shape[0], -1, np.int64)
    for i in range(tu.shape[0]):
        if tu[i, wire.TU_DELETED]:
            continue
        dl = tu[i, wire.TU_DATE_LEN]
        if dl > 0 and not _same(buf, tu[i, wire.TU_DATE_OFF], dl, day, 0, day.shape[0]):
            counts[C_OTHER_DATE] += 1
            continue
        t = _find(trip_table, trip_ids, trip_off, buf, tu[i, wire.TU_ID_OFF], tu[i, wire.TU_ID_LEN])
        if t < 0:
            t = _find(trip_table, trip_ids, trip_off, buf, tu[i, wire.TU_ORIG_OFF], tu[i, wire.TU_ORIG_LEN])
        if t < 0:
            counts[C_UNKNOWN] += 1
            continue
        counts[C_MATCHED] += 1
        out[i] = t
    return out


@nb.njit(cache=True, nogil=True)
def apply_updates(buf, tu, su, trips, order, stop_ids, stop_off, row_hash, sta_ids, sta_off, sta_hash, st_stop,
                  stop_station, trip_offset, st_arr, st_dep, base, arr, dep, arr_known, dep_known, skipped, cancelled,
                  counts):
    """Fill the overlay arrays (``arr``/``dep`` start as copies of the timetable's) from the trip updates
    ``order`` (matched to ``trips`` by :func:`match_trips`; in the day's trip order, so that the day's arrays
    are walked front to back)."""
    longest = 0
    for t in range(trip_offset.shape[0] - 1):
        longest = max(longest, trip_offset[t + 1] - trip_offset[t])
    vals = np.zeros(2 * longest, np.int64)
    known = np.zeros(2 * longest, np.bool_)
    nodata = np.zeros(2 * longest, np.bool_)
    for i in order:
        t = trips[i]
        if t < 0:
            continue
        rel = tu[i, wire.TU_REL]
        if rel == TRIP_CANCELED or rel == TRIP_DELETED:
            cancelled[t] = True
            counts[C_CANCELLED] += 1
            continue
        if rel != 0 and rel != TRIP_REPLACEMENT:
            counts[C_UNSUPPORTED] += 1
            continue
        r0, r1 = trip_offset[t], trip_offset[t + 1]
        n = r1 - r0
        lo = n  # the first row with a prediction: the rows before it stay as planned
        cursor = r0
        j0, j1 = tu[i, wire.TU_STU0], tu[i, wire.TU_STU1]
        for j in range(j0, j1):
            r = _place(buf, su[j, wire.SU_STOP_OFF], su[j, wire.SU_STOP_LEN], r0, r1, cursor, st_stop, stop_station,
                       stop_ids, stop_off, row_hash, sta_ids, sta_off, sta_hash)
            if r < 0:
                counts[C_UNPLACED] += 1
                continue
            cursor = min(r + 1, r1 - 1)  # the next update is most often the next stop
            k = 2 * (r - r0)
            srel = su[j, wire.SU_REL]
            if srel == REL_SKIPPED:
                skipped[r] = True
                continue
            lo = min(lo, r - r0)
            if srel == REL_NO_DATA:
                known[k] = known[k + 1] = True
                nodata[k] = nodata[k + 1] = True
                continue
            for slot in range(2):
                col = wire.SU_ARR_DELAY if slot == 0 else wire.SU_DEP_DELAY
                sched = st_arr[r] if slot == 0 else st_dep[r]
                if su[j, col + 3]:  # an absolute time wins over a delay (the delay was computed from it)
                    v = su[j, col + 2] - base - sched
                elif su[j, col + 1]:
                    v = su[j, col]
                else:
                    continue
                if not EARLIEST_DELAY <= v <= LATEST_DELAY:
                    counts[C_IMPLAUSIBLE] += 1
                    continue
                vals[k + slot] = v
                known[k + slot] = True
                nodata[k + slot] = False
        if j0 == j1 and tu[i, wire.TU_HAS_DELAY]:  # a trip-level delay alone: from the first stop on
            if EARLIEST_DELAY <= tu[i, wire.TU_DELAY] <= LATEST_DELAY:
                vals[0] = tu[i, wire.TU_DELAY]
                known[0] = True
                lo = 0
            else:
                counts[C_IMPLAUSIBLE] += 1
        if lo < n:
            _propagate(r0, lo, n, st_arr, st_dep, vals, known, nodata, arr, dep, arr_known, dep_known)
            known[2 * lo:2 * n] = False  # (the scratch slots are clean again for the next trip)
            nodata[2 * lo:2 * n] = False


@nb.njit(cache=True, nogil=True)
def _propagate(r0, lo, n, st_arr, st_dep, vals, known, nodata, arr, dep, arr_known, dep_known):
    """One trip's predicted times from its slots (``2k``: arrival at row ``r0 + k``, ``2k + 1``: departure)
    from its first predicted row ``lo`` on: each slot takes the last known delay at or before it (NO_DATA ends
    it), then times never decrease (not before the planned departure of the row before ``lo`` either)."""
    have = False
    cur = np.int64(0)
    last = np.int64(st_dep[r0 + lo - 1]) if lo > 0 else np.int64(-(1 << 40))
    for k in range(lo, n):
        r = r0 + k
        if known[2 * k]:
            have = not nodata[2 * k]
            cur = vals[2 * k]
        p = np.int64(st_arr[r]) + (cur if have else 0)
        last = max(last, p)
        arr[r] = last
        arr_known[r] = have
        if known[2 * k + 1]:
            have = not nodata[2 * k + 1]
            cur = vals[2 * k + 1]
        p = np.int64(st_dep[r]) + (cur if have else 0)
        last = max(last, p)
        dep[r] = last
        dep_known[r] = have
