"""Build the game-day :class:`~planner.timetable.Timetable` from a feed, pruning while reading.

Order (partridge-style): calendar -> services of the date; routes -> allowed modes; trips -> running trips
of allowed routes; stops -> stations in the area; then ``stop_times.txt`` is streamed in blocks and only
rows of running trips at in-area stops are kept. The whole ``stop_times`` never sits in memory.
"""

from __future__ import annotations

import datetime as dt
import sys
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from planner.errors import FeedError
from planner.gamefile.area import in_area
from planner.gamefile.game import Game
from planner.gtfs.calendar import feed_period, services_on
from planner.gtfs.csvio import is_empty, iter_batches, read_table
from planner.gtfs.routes import classify_category, classify_mode, display_name
from planner.gtfs.source import FeedSource
from planner.gtfs.stops import read_stops
from planner.gtfs.times import parse_times
from planner.gtfs.transfers import read_transfers
from planner.timetable.model import Mode, Timetable


@dataclass
class IngestStats:
    """What pruning kept (for logs and benchmarks)."""

    services: int = 0
    trips_running: int = 0
    stop_times_read: int = 0
    stop_times_kept: int = 0


def check_date(src: FeedSource, date: dt.date) -> str:
    """Raise :class:`FeedError` when ``date`` is outside the feed's period; return the feed version."""
    start, end, version = feed_period(src)
    if start and end and not (start <= date <= end):
        raise FeedError(f"date {date.isoformat()} is outside the feed {src.label} "
                        f"({start.isoformat()}..{end.isoformat()})")
    return version


def build_timetable(src: FeedSource, game: Game, date: dt.date, *, progress: bool | None = None,
                    stats: IngestStats | None = None) -> Timetable:
    """Read ``src`` and return the timetable of ``game``'s area on ``date`` (see module docstring)."""
    stats = stats or IngestStats()
    version = check_date(src, date)
    services = services_on(src, date)
    stats.services = len(services)

    # --- routes: mode filter and display names ---------------------------------------------------
    routes = read_table(src, "routes.txt", ["route_id", "agency_id", "route_short_name", "route_long_name",
                                            "route_desc", "route_type"], required=["route_id", "route_type"])
    agencies = {}
    if not is_empty(src, "agency.txt"):
        ag = read_table(src, "agency.txt", ["agency_id", "agency_name"], required=["agency_name"])
        agencies = {(a or "").strip(): (n or "").strip() for a, n in zip(ag["agency_id"].to_pylist(),
                                                                         ag["agency_name"].to_pylist(), strict=True)}
    r_ids, r_names, r_types, r_modes, r_cats, r_agency = [], [], [], [], [], []
    excluded = {(a.lower(), r.lower()) for a, r in game.exclude_routes}
    for rid, aid, short, long, desc, rtype, line in zip(
            *(routes[c].to_pylist() for c in ("route_id", "agency_id", "route_short_name", "route_long_name",
                                                "route_desc", "route_type", "_line")), strict=True):
        try:
            t = int((rtype or "").strip())
            if not -2**31 <= t < 2**31:  # stored as int32
                raise ValueError(t)
        except ValueError:
            raise FeedError(f"feed {src.label}: routes.txt line {line} column route_type: {rtype!r} is not a number"
                            ) from None
        mode = classify_mode(t)
        agency = agencies.get((aid or "").strip(), (aid or "").strip())
        if mode.label not in game.modes or (agency.lower(), (short or "").strip().lower()) in excluded:
            continue
        r_ids.append(rid.strip())
        r_names.append(display_name(short or "", long or "", desc or "", t))
        r_types.append(t)
        r_modes.append(int(mode))
        r_cats.append(classify_category(t, desc or ""))
        r_agency.append(agency)
    route_ids = pa.array(r_ids, pa.string())

    # --- trips running on the date on allowed routes ---------------------------------------------
    trips = read_table(src, "trips.txt", ["route_id", "service_id", "trip_id", "trip_headsign", "trip_short_name"],
                       required=["route_id", "service_id", "trip_id"])
    t_route = pc.index_in(pc.utf8_trim_whitespace(trips["route_id"]), value_set=route_ids)
    t_serv = pc.is_in(pc.utf8_trim_whitespace(trips["service_id"]), value_set=pa.array(sorted(services), pa.string()))
    keep = pc.and_(t_route.is_valid(), t_serv)
    trips = trips.filter(keep)
    t_route = t_route.filter(keep)
    trip_ids = pc.utf8_trim_whitespace(trips["trip_id"]).combine_chunks()
    dup = pc.value_counts(trip_ids)
    if len(dup) and pc.max(dup.field("counts")).as_py() > 1:
        d = dup.filter(pc.greater(dup.field("counts"), 1))[0]["values"].as_py()
        raise FeedError(f"feed {src.label}: trips.txt column trip_id: {d!r} appears more than once")
    stats.trips_running = len(trip_ids)

    # --- stops and stations in the area ------------------------------------------------------------
    stops = read_stops(src)
    st_keys, st_of_stop = np.unique(stops.station.astype(str), return_inverse=True)
    n_sta = len(st_keys)
    s_lat = np.full(n_sta, np.nan)
    s_lon = np.full(n_sta, np.nan)
    s_name = [""] * n_sta
    # station coordinates/name: the station row when present, else the first member with coordinates
    order = np.lexsort((~stops.is_station_row, st_of_stop))
    for i in order[::-1]:
        k = st_of_stop[i]
        if np.isfinite(stops.lat[i]):
            s_lat[k], s_lon[k] = stops.lat[i], stops.lon[i]
        if stops.name[i]:
            s_name[k] = stops.name[i]
    sta_in = in_area(game, s_lat, s_lon, list(st_keys))
    stop_in = sta_in[st_of_stop]
    all_stop_ids = pa.array(stops.stop_id.astype(str).tolist(), pa.string())
    if len(pc.unique(all_stop_ids)) != len(all_stop_ids):
        vc = pc.value_counts(all_stop_ids)
        d = vc.filter(pc.greater(vc.field("counts"), 1))[0]["values"].as_py()
        raise FeedError(f"feed {src.label}: stops.txt column stop_id: {d!r} appears more than once")

    # --- stream stop_times -------------------------------------------------------------------------
    cols = ["trip_id", "arrival_time", "departure_time", "stop_id", "stop_sequence", "pickup_type", "drop_off_type"]
    bar = _progress(src, progress)
    kept: dict[str, list[np.ndarray]] = {k: [] for k in ("trip", "seq", "stop", "arr", "dep", "pu", "do", "line")}
    gap_trip: list[np.ndarray] = []
    gap_seq: list[np.ndarray] = []
    # Lookups by dict on each batch's distinct values: pc.index_in would rebuild a hash table of all
    # running trips for every block of stop_times.
    trip_pos = {t: i for i, t in enumerate(trip_ids.to_pylist())}
    stop_pos = {t: i for i, t in enumerate(all_stop_ids.to_pylist())}
    try:
        for line0, batch in iter_batches(src, "stop_times.txt", cols, required=cols[:5], progress=bar):
            stats.stop_times_read += batch.num_rows
            ti = _lookup(batch.column("trip_id"), trip_pos)
            mask = ti >= 0
            if not mask.any():
                continue
            idx = np.flatnonzero(mask)
            lines = line0 + idx
            sub = batch.take(pa.array(idx))
            tix = ti[idx]
            six = _lookup(sub.column("stop_id"), stop_pos)
            if (six < 0).any():
                j = int(np.flatnonzero(six < 0)[0])
                raise FeedError(f"feed {src.label}: stop_times.txt line {int(lines[j])} column stop_id: "
                                f"{sub.column('stop_id')[j].as_py()!r} is not in stops.txt")
            seq = _ints(sub.column("stop_sequence"), src, "stop_sequence", lines, required=True)
            inside = stop_in[six]
            if (~inside).any():
                gap_trip.append(tix[~inside])
                gap_seq.append(seq[~inside])
            if not inside.any():
                continue
            w = np.flatnonzero(inside)
            sub = sub.take(pa.array(w))
            wl = lines[w]
            arr = parse_times(sub.column("arrival_time"), file="stop_times.txt", column="arrival_time", lines=wl,
                              label=src.label)
            dep = parse_times(sub.column("departure_time"), file="stop_times.txt", column="departure_time", lines=wl,
                              label=src.label)
            pu = _ints(sub.column("pickup_type"), src, "pickup_type", wl)
            do = _ints(sub.column("drop_off_type"), src, "drop_off_type", wl)
            kept["trip"].append(tix[w])
            kept["seq"].append(seq[w])
            kept["stop"].append(six[w])
            kept["arr"].append(arr)
            kept["dep"].append(dep)
            kept["pu"].append(pu != 1)
            kept["do"].append(do != 1)
            kept["line"].append(wl)
    finally:
        if bar is not None:
            bar.close()
    cat: dict[str, np.ndarray] = {}
    for k in list(kept):  # concatenate one column at a time, dropping its pieces (lower peak memory)
        parts = kept.pop(k)
        cat[k] = np.concatenate(parts) if parts else np.zeros(0, np.int64)
        del parts
    stats.stop_times_kept = len(cat["trip"])
    g_trip = np.concatenate(gap_trip) if gap_trip else np.zeros(0, np.int32)
    g_seq = np.concatenate(gap_seq) if gap_seq else np.zeros(0, np.int64)
    return _assemble(src, game, date, version, stops, st_keys, st_of_stop, s_name, s_lat, s_lon, trips, t_route,
                     r_ids, r_names, r_types, r_modes, r_cats, r_agency, cat, g_trip, g_seq)


def _assemble(src, game, date, version, stops, st_keys, st_of_stop, s_name, s_lat, s_lon, trips, t_route,
              r_ids, r_names, r_types, r_modes, r_cats, r_agency, cat, g_trip, g_seq) -> Timetable:
    n = len(cat["trip"])
    trip = np.concatenate([cat["trip"].astype(np.int64), g_trip.astype(np.int64)])
    seq = np.concatenate([cat["seq"].astype(np.int64), g_seq.astype(np.int64)])
    is_gap = np.concatenate([np.zeros(n, bool), np.ones(len(g_trip), bool)])
    if len(trip) and not len(g_trip) and _sorted_by(trip, seq):
        order = np.arange(len(trip))  # what the (stable) lexsort gives for rows already in order
    else:
        order = np.lexsort((seq, trip))
    trip, seq, is_gap = trip[order], seq[order], is_gap[order]
    same = (trip[1:] == trip[:-1]) & (seq[1:] == seq[:-1])
    if same.any():
        j = int(np.flatnonzero(same)[0])
        raise FeedError(f"feed {src.label}: stop_times.txt column stop_sequence: trip "
                        f"{trips['trip_id'][int(trip[j])].as_py()!r} has stop_sequence {int(seq[j])} twice")
    # segment = maximal run of in-area rows of one trip (a trip leaving the area is cut there)
    new_seg = np.ones(len(trip), bool)
    if len(trip):
        new_seg[1:] = (trip[1:] != trip[:-1]) | is_gap[:-1]
    seg = np.cumsum(new_seg) - 1
    real = ~is_gap
    row = order[real] if n else np.zeros(0, np.int64)  # index into cat arrays
    seg = seg[real]
    del trip, seq, is_gap, order, same, new_seg, real  # large temporaries (national feed: tens of MB each)
    # drop segments with fewer than two stops
    if len(seg):
        ok = np.bincount(seg)[seg] >= 2  # seg is non-decreasing and small
        row, seg = row[ok], seg[ok]
    st_stop_feed = cat["stop"][row].astype(np.int64)
    arr = cat["arr"][row].astype(np.int32)
    dep = cat["dep"][row].astype(np.int32)
    lines = cat["line"][row]
    both = (arr < 0) & (dep < 0)
    if both.any():
        j = int(np.flatnonzero(both)[0])
        raise FeedError(f"feed {src.label}: stop_times.txt line {int(lines[j])} column arrival_time: "
                        "no arrival or departure time (untimed stops are not supported)")
    arr = np.where(arr < 0, dep, arr)
    dep = np.where(dep < 0, arr, dep)
    if (dep < arr).any():
        j = int(np.flatnonzero(dep < arr)[0])
        raise FeedError(f"feed {src.label}: stop_times.txt line {int(lines[j])} column departure_time: "
                        "departure before arrival")
    seg_start = np.ones(len(seg), bool)
    if len(seg):
        seg_start[1:] = seg[1:] != seg[:-1]
    back = (~seg_start[1:]) & (arr[1:] < dep[:-1]) if len(seg) else np.zeros(0, bool)
    if back.any():
        j = int(np.flatnonzero(back)[0]) + 1
        raise FeedError(f"feed {src.label}: stop_times.txt line {int(lines[j])} column arrival_time: "
                        "arrives before the previous stop's departure")
    # dense trips (segments)
    seg_first = np.flatnonzero(seg_start)
    seg_trip = cat["trip"][row[seg_first]].astype(np.int64)
    offsets = np.append(seg_first, len(seg)).astype(np.int64)
    # A trip cut into several segments gets ids "t", "t#2", ...; segments of a trip are adjacent.
    take = pa.array(seg_trip)
    first_of_trip = np.ones(len(seg_trip), bool)
    first_of_trip[1:] = seg_trip[1:] != seg_trip[:-1]
    start = np.flatnonzero(first_of_trip)
    occurrence = np.arange(len(seg_trip)) - np.repeat(start, np.diff(np.append(start, len(seg_trip))))
    t_ids = [t.strip() if k == 0 else f"{t.strip()}#{k + 1}"
             for t, k in zip(trips["trip_id"].take(take).to_pylist(), occurrence.tolist(), strict=True)]
    t_heads = [(h or "").strip() for h in trips["trip_headsign"].take(take).to_pylist()]
    t_shorts = [(h or "").strip() for h in trips["trip_short_name"].take(take).to_pylist()]
    t_routes = t_route.to_numpy(zero_copy_only=False)[seg_trip].astype(np.int64)
    # dense stops and stations actually used (np.unique by marking: stop indexes are small)
    mark = np.zeros(len(stops.stop_id), bool)
    mark[st_stop_feed] = True
    used_stops = np.flatnonzero(mark)
    st_stop = (np.cumsum(mark) - 1)[st_stop_feed]
    used_sta, stop_station = np.unique(st_of_stop[used_stops], return_inverse=True)
    local_stop = {int(f): i for i, f in enumerate(used_stops)}
    # transfers
    xf, xt, xs, station_change, lf, lt, ls = read_transfers(src, game, stops, st_of_stop, used_sta, local_stop)
    used_routes, trip_route = np.unique(t_routes, return_inverse=True)
    ur = [int(r) for r in used_routes]
    tt = Timetable(
        date=date.isoformat(), feed_version=version,
        station_id=[str(st_keys[k]) for k in used_sta], station_name=[s_name[k] for k in used_sta],
        station_lat=s_lat[used_sta].astype(float), station_lon=s_lon[used_sta].astype(float),
        station_change=station_change,
        stop_id=[str(stops.stop_id[f]) for f in used_stops], stop_station=stop_station.astype(np.int32),
        stop_platform=[str(stops.platform[f]) for f in used_stops],
        route_id=[r_ids[r] for r in ur], route_name=[r_names[r] for r in ur],
        route_type=np.array([r_types[r] for r in ur], np.int32), route_mode=np.array([r_modes[r] for r in ur], np.int8),
        route_category=[r_cats[r] for r in ur], route_agency=[r_agency[r] for r in ur],
        trip_id=t_ids, trip_route=trip_route.astype(np.int32), trip_headsign=t_heads, trip_short_name=t_shorts,
        trip_offset=offsets, st_stop=st_stop.astype(np.int32), st_arr=arr, st_dep=dep,
        st_pickup=cat["pu"][row].astype(bool), st_dropoff=cat["do"][row].astype(bool),
        xfer_from=xf, xfer_to=xt, xfer_seconds=xs, link_from=lf, link_to=lt, link_seconds=ls,
        meta={"feed": src.label, "game": game.name},
    )
    tt.validate()
    return tt


def _sorted_by(trip: np.ndarray, seq: np.ndarray) -> bool:
    """True when rows are ordered by trip, then stop_sequence (the usual file order)."""
    dt_ = np.diff(trip)
    return bool((dt_ >= 0).all() and (seq[1:][dt_ == 0] >= seq[:-1][dt_ == 0]).all())


def _lookup(col: pa.Array, pos: dict[str, int]) -> np.ndarray:
    """Index in ``pos`` of every (blank-trimmed) value of ``col``; -1 when absent or null."""
    enc = pc.dictionary_encode(col)
    keys = pc.utf8_trim_whitespace(enc.dictionary).to_pylist()
    codes = np.array([pos.get(k, -1) if k is not None else -1 for k in keys] + [-1], np.int32)
    ix = enc.indices.fill_null(len(keys)).to_numpy(zero_copy_only=False)
    return codes[ix]


def _ints(col: pa.Array, src: FeedSource, name: str, lines: np.ndarray, required: bool = False) -> np.ndarray:
    """Whole numbers of a stop_times column (empty = 0 unless ``required``); errors name line and column.

    Works on the column's distinct values (few: sequence numbers, 0/1 flags) and maps back.
    """
    enc = pc.dictionary_encode(col)
    ix = enc.indices.fill_null(len(enc.dictionary)).to_numpy(zero_copy_only=False)
    s = pc.utf8_trim_whitespace(pa.concat_arrays([enc.dictionary, pa.array([""], enc.dictionary.type)]))
    empty = pc.equal(pc.utf8_length(s), 0).to_numpy(zero_copy_only=False)
    if required and empty[ix].any():
        j = int(np.flatnonzero(empty[ix])[0])
        raise FeedError(f"feed {src.label}: stop_times.txt line {int(lines[j])} column {name}: empty")
    s = pc.if_else(pc.equal(pc.utf8_length(s), 0), "0", s)
    ok = pc.match_substring_regex(s, r"^-?\d{1,18}$").to_numpy(zero_copy_only=False)
    if not ok[ix].all():
        j = int(np.flatnonzero(~ok[ix])[0])
        why = "is out of range" if pc.match_substring_regex(s[int(ix[j])], r"^-?\d+$").as_py() else \
            "is not a whole number"
        raise FeedError(f"feed {src.label}: stop_times.txt line {int(lines[j])} column {name}: "
                        f"{col[j].as_py()!r} {why}")
    return pc.cast(s, pa.int64()).to_numpy(zero_copy_only=False)[ix]


def _progress(src: FeedSource, progress: bool | None):
    if progress is None:
        progress = sys.stderr.isatty()
    if not progress:
        return None
    from tqdm import tqdm

    return tqdm(total=src.size("stop_times.txt"), unit="B", unit_scale=True, desc="stop_times", file=sys.stderr,
                leave=False)


__all__ = ["build_timetable", "check_date", "IngestStats", "Mode"]
