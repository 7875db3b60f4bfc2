"""``transfers.txt``, streamed: change times per platform pair, station defaults and walking links.

The member is read in blocks (:func:`planner.gtfs.csvio.iter_batches`), and only rows between two stops of the
feed's ``stops.txt`` reach Python (a vectorised membership test first): a 2 GB ``transfers.txt`` packed into a
few MB of zip costs its read time, not ten times its size in memory.
"""

from __future__ import annotations

from array import array
from collections import Counter

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from planner.errors import FeedError
from planner.gamefile.game import Game
from planner.gtfs.csvio import is_empty, iter_batches, strip
from planner.gtfs.source import FeedSource
from planner.timetable.model import NO_CHANGE

COLUMNS = ["from_stop_id", "to_stop_id", "transfer_type", "min_transfer_time"]


def read_transfers(src: FeedSource, game: Game, stops, st_of_stop: np.ndarray, used_sta: np.ndarray,
                   local_stop: dict[int, int]) -> tuple[np.ndarray, ...]:
    """(xfer_from, xfer_to, xfer_seconds, station_change, link_from, link_to, link_seconds) of the game day:
    per-stop-pair change times inside a station (type 3 = forbidden), each station's most common default, and
    walking links between stations when the game takes them from the feed."""
    station_change = np.full(len(used_sta), -1, np.int32)
    xf, xt, xs = array("i"), array("i"), array("i")
    links: dict[tuple[int, int], int] = {}
    if not is_empty(src, "transfers.txt"):
        sta_local = {int(k): i for i, k in enumerate(used_sta)}
        idx = {str(s): i for i, s in enumerate(stops.stop_id)}
        known = pa.array(list(idx), pa.string())
        defaults: dict[int, Counter] = {}
        for line0, batch in iter_batches(src, "transfers.txt", COLUMNS, required=COLUMNS[:3]):
            a, b = strip(batch.column("from_stop_id")), strip(batch.column("to_stop_id"))
            # transfers may name stops outside the extract (harmless): only the others are looked at
            rows = np.flatnonzero(pc.and_(pc.is_in(a, value_set=known), pc.is_in(b, value_set=known))
                                  .to_numpy(zero_copy_only=False))
            if not len(rows):
                continue
            take = pa.array(rows)
            cols = [c.take(take).to_pylist() for c in (a, b, batch.column("transfer_type"),
                                                       batch.column("min_transfer_time"))]
            for r, sa_id, sb_id, typ, mtt in zip(rows.tolist(), *cols, strict=True):
                secs = _seconds(src, line0 + r, typ, mtt)
                if secs is None:
                    continue
                ia, ib = idx[sa_id], idx[sb_id]
                sa, sb = int(st_of_stop[ia]), int(st_of_stop[ib])
                if sa == sb:
                    if sa not in sta_local:
                        continue
                    station_row = stops.is_station_row[ia] or stops.is_station_row[ib]
                    if (station_row or ia == ib) and secs >= 0:
                        defaults.setdefault(sta_local[sa], Counter())[secs] += 1
                    la, lb = local_stop.get(ia), local_stop.get(ib)
                    if la is not None and lb is not None and not station_row:
                        xf.append(la)
                        xt.append(lb)
                        xs.append(secs)
                elif game.walking_links == "feed" and 0 <= secs <= game.max_walk_minutes * 60:
                    if sa in sta_local and sb in sta_local:
                        key = (sta_local[sa], sta_local[sb])
                        links[key] = min(links.get(key, secs), secs)
        for s, cnt in defaults.items():
            station_change[s] = cnt.most_common(1)[0][0]
    pairs = sorted(links.items())
    return (np.array(xf, np.int32), np.array(xt, np.int32), np.array(xs, np.int32), station_change,
            np.array([p[0][0] for p in pairs], np.int32), np.array([p[0][1] for p in pairs], np.int32),
            np.array([p[1] for p in pairs], np.int32))


def _seconds(src: FeedSource, line: int, typ: str | None, mtt: str | None) -> int | None:
    """The change time of one row: seconds, 0 (timed), NO_CHANGE (forbidden), or None (not a constraint)."""
    typ = (typ or "0").strip() or "0"
    if typ not in ("0", "1", "2", "3", "4", "5"):
        raise FeedError(f"feed {src.label}: transfers.txt line {line} column transfer_type: {typ!r} is not 0-5")
    if typ in ("0", "4", "5"):
        return None
    if typ != "2":
        return 0 if typ == "1" else NO_CHANGE
    try:
        secs = int(float((mtt or "").strip()))
    except (ValueError, OverflowError):  # OverflowError: "inf"
        raise FeedError(f"feed {src.label}: transfers.txt line {line} column min_transfer_time: "
                        f"{mtt!r} is not a number") from None
    if secs < 0:
        raise FeedError(f"feed {src.label}: transfers.txt line {line} column min_transfer_time: negative")
    if secs > 86400:  # also keeps it in int32
        raise FeedError(f"feed {src.label}: transfers.txt line {line} column min_transfer_time: "
                        f"{mtt!r} is more than a day")
    return secs
