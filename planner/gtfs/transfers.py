"""``transfers.txt`` split into the timetable's change times: per platform pair, station defaults, walks."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from planner.gamefile.game import Game
from planner.gtfs.csvio import is_empty, iter_batches, strip
from planner.gtfs.schema import FILES, Where, convert
from planner.gtfs.source import FeedSource
from planner.gtfs.stops import StopTable
from planner.timetable.model import NO_CHANGE

COLUMNS = ["from_stop_id", "to_stop_id", "transfer_type", "min_transfer_time"]


@dataclass
class Transfers:
    """Change times of the game day: platform pairs (``pair_*``), each station's default (-1: none), and
    walking links between stations (``link_*``, only when the game allows the feed's walks)."""

    pair_from: np.ndarray
    pair_to: np.ndarray
    pair_seconds: np.ndarray
    station_change: np.ndarray
    link_from: np.ndarray
    link_to: np.ndarray
    link_seconds: np.ndarray


def _i32(values: list[int]) -> np.ndarray:
    return np.array(values, np.int32)


def read_transfers(src: FeedSource, game: Game, stops: StopTable, of_stop: np.ndarray, used_stops: np.ndarray,
                   used_sta: np.ndarray) -> Transfers:
    """Change times for the used stops (``used_stops``: feed stop indexes) and stations (``used_sta``:
    station indexes of ``of_stop``). Rows naming stops the feed does not have are skipped."""
    station_change = np.full(len(used_sta), -1, np.int32)
    if is_empty(src, "transfers.txt"):
        return Transfers(_i32([]), _i32([]), _i32([]), station_change, _i32([]), _i32([]), _i32([]))
    sta_local = {int(k): i for i, k in enumerate(used_sta)}
    local_stop = {int(f): i for i, f in enumerate(used_stops)}
    rows = _known_rows(src, stops)
    xf, xt, xs = [], [], []
    defaults: dict[int, Counter] = {}
    links: dict[tuple[int, int], int] = {}
    for ia, ib, secs in rows:
        sa, sb = int(of_stop[ia]), int(of_stop[ib])
        if sa == sb:
            if sa not in sta_local:
                continue
            at_station = stops.is_station_row[ia] or stops.is_station_row[ib]
            if (at_station or ia == ib) and secs >= 0:
                defaults.setdefault(sta_local[sa], Counter())[secs] += 1
            la, lb = local_stop.get(ia), local_stop.get(ib)
            if la is not None and lb is not None and not at_station:
                xf.append(la)
                xt.append(lb)
                xs.append(secs)
        elif game.walking_links == "feed" and 0 <= secs <= game.max_walk_minutes * 60:
            if sa in sta_local and sb in sta_local:
                key = (sta_local[sa], sta_local[sb])
                links[key] = min(links.get(key, secs), secs)
    for s, cnt in defaults.items():
        station_change[s] = cnt.most_common(1)[0][0]
    walks = sorted(links.items())
    return Transfers(_i32(xf), _i32(xt), _i32(xs), station_change, _i32([a for (a, _), _ in walks]),
                     _i32([b for (_, b), _ in walks]), _i32([s for _, s in walks]))


def _known_rows(src: FeedSource, stops: StopTable) -> list[tuple[int, int, int]]:
    """``(from stop, to stop, seconds)`` of the rows that set a change time (types 1, 2, 3; type 3 gives
    ``NO_CHANGE``) between stops of the feed; transfers may name stops outside an extract (harmless). Read block
    by block, and only the rows between two known stops reach Python (a vectorised membership test first): a
    2 GB ``transfers.txt`` packed into a few MB of zip costs its read time, not ten times its size in memory."""
    idx = {str(s): i for i, s in enumerate(stops.stop_id)}
    known_ids = pa.array(list(idx), pa.string())
    out: list[tuple[int, int, int]] = []
    for line0, batch in iter_batches(src, "transfers.txt", COLUMNS):
        a, b = strip(batch.column("from_stop_id")), strip(batch.column("to_stop_id"))
        keep = np.flatnonzero(pc.and_(pc.is_in(a, value_set=known_ids), pc.is_in(b, value_set=known_ids))
                              .to_numpy(zero_copy_only=False))
        if len(keep):
            t = pa.Table.from_batches([batch]).take(pa.array(keep))
            t = t.append_column("_line", pa.array(line0 + keep, pa.int64()))
            out += _rows_of(src, t, [idx[x] for x in a.take(pa.array(keep)).to_pylist()],
                            [idx[x] for x in b.take(pa.array(keep)).to_pylist()])
    return out


def _rows_of(src: FeedSource, t: pa.Table, ia: list[int], ib: list[int]) -> list[tuple[int, int, int]]:
    """The change times of rows ``t`` (all between known stops ``ia`` -> ``ib``)."""
    spec = FILES["transfers.txt"]
    where = Where(src.label, "transfers.txt", t["_line"].to_numpy())
    types = convert(t["transfer_type"], spec, "transfer_type", where)
    secs = np.where(types == "1", 0, NO_CHANGE).astype(np.int64)
    timed = np.flatnonzero(types == "2")
    if len(timed):
        raw = t["min_transfer_time"].take(timed)
        at = Where(where.label, where.file, where.lines[timed])
        mtt = convert(raw, spec, "min_transfer_time", at)
        for j in np.flatnonzero(~np.isfinite(mtt) | (mtt < 0) | (mtt > 86400)):
            v = mtt[j]
            why = "negative" if v < 0 else f"{raw[int(j)].as_py()!r} " + (
                "is more than a day" if np.isfinite(v) else "is not a number")
            raise at.error(int(j), "min_transfer_time", why)  # more than a day: also keeps it in int32
        secs[timed] = mtt.astype(np.int64)
    use = np.flatnonzero(np.isin(types, ("1", "2", "3")))  # 0, 4, 5: no change time
    return [(ia[k], ib[k], int(secs[k])) for k in use.tolist()]
