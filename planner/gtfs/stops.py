"""Stops and stations of any Swiss feed era, mapped to one station per place.

Eras (docs/rules.md §4): ``8503000:0:7`` with parent ``8503000P`` (FP2019-2021); parent ``Parent8503000``
(2022-2026); SLOIDs ``ch:1:sloid:3000:502:42`` with parent ``Parentch:1:sloid:3000`` and a ``didok`` column
(from 2026-06). All map to the station id ``8503000`` (the UIC number).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from planner.errors import FeedError
from planner.gtfs.csvio import read_table
from planner.gtfs.schema import FILES, Where, convert
from planner.gtfs.source import FeedSource

_SLOID = re.compile(r"^ch:1:sloid:(\d+)")
_UIC_PREFIX = re.compile(r"^(\d{7})(?::|P$|$)")


def station_key(stop_id: str, parent: str = "", didok: str = "") -> str:
    """Canonical station id of a stop: the UIC number when it can be derived, else the parent or own id."""
    if didok:
        d = didok.strip()
        if d.isdigit():
            return d if len(d) >= 7 else str(8500000 + int(d))
    ref = parent or stop_id
    if ref.startswith("Parent"):
        ref = ref[len("Parent"):]
    m = _SLOID.match(ref)
    if m:
        return str(8500000 + int(m.group(1)))
    m = _UIC_PREFIX.match(ref)
    if m:
        return m.group(1)
    if parent:
        return parent
    return stop_id.split(":")[0] if ":" in stop_id and not stop_id.startswith("ch:") else stop_id


@dataclass
class StopTable:
    """All stops of the feed with their station key, coordinates and platform."""

    stop_id: np.ndarray  # object (str)
    station: np.ndarray  # object (str): station key
    name: np.ndarray  # object
    lat: np.ndarray  # float
    lon: np.ndarray
    platform: np.ndarray  # object
    is_station_row: np.ndarray  # bool: location_type 1 or a station-level id (e.g. "8503000")


def read_stops(src: FeedSource) -> StopTable:
    """Read stops.txt (any era) and derive one station key per stop."""
    t = read_table(src, "stops.txt")
    ids = np.array([s.strip() for s in t["stop_id"].to_pylist()], dtype=object)
    lines = t["_line"].to_numpy()
    if len(ids) == 0:
        raise FeedError(f"feed {src.label}: stops.txt has no rows")
    empty = np.flatnonzero(ids == "")
    if len(empty):
        raise FeedError(f"feed {src.label}: stops.txt line {int(lines[empty[0]])} column stop_id: empty")
    parents = [p.strip() if p else "" for p in t["parent_station"].to_pylist()]
    didok = [d.strip() if d else "" for d in t["didok"].to_pylist()]
    loc = [x.strip() if x else "" for x in t["location_type"].to_pylist()]
    keys = np.array([station_key(i, p if lt != "1" else "", d) for i, p, d, lt in zip(ids, parents, didok, loc,
                                                                                        strict=True)], dtype=object)
    where = Where(src.label, "stops.txt", lines)
    lat, lon = (_coordinates(convert(t[c], FILES["stops.txt"], c, where)) for c in ("stop_lat", "stop_lon"))
    plat = []
    for sid, pc_ in zip(ids, t["platform_code"].to_pylist(), strict=True):
        if pc_:
            plat.append(pc_.strip())
        elif sid.count(":") >= 2 and not sid.startswith("ch:"):
            plat.append(sid.split(":")[-1])  # 8503000:0:7 -> 7
        else:
            plat.append("")
    is_station = np.array([lt == "1" or sid == k for sid, k, lt in zip(ids, keys, loc, strict=True)], dtype=bool)
    return StopTable(ids, keys, np.array([n or "" for n in t["stop_name"].to_pylist()], dtype=object),
                     lat, lon, np.array(plat, dtype=object), is_station)


def _coordinates(out: np.ndarray) -> np.ndarray:
    """0/0 and nonsense coordinates count as "no coordinates" (NaN)."""
    out[np.isfinite(out) & ((np.abs(out) > 180) | (out == 0))] = np.nan
    return out
