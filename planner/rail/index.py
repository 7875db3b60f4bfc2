"""The game day's toll-line and tunnel crossings per trip, computed once and kept beside the cached day.

Deciding crossings needs the physical line network (pandas, ~1 s to load); a group's query must not pay
that each time. The index ``{name: [(trip, first_row, last_row), ...]}`` is stored as JSON in the game
day's cache folder (atomic write), so later queries only read it.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from planner.config import default_rail_csv
from planner.errors import PlannerError
from planner.gamefile.game import Game
from planner.timetable.model import Timetable
from planner.util.atomic import atomic_write_text

Index = dict[str, list[tuple[int, int, int, float]]]  # name -> (trip, first_row, last_row, end_share)


def _path(tt: Timetable, game: Game) -> Path | None:
    """The index's file beside the cached day, named by what it is computed from: the game file, the line data
    (its path, size and modification time) and the code that decides crossings (a change of either is a new
    file, never a stale answer)."""
    cache = tt.meta.get("cache") if isinstance(tt.meta, dict) else None
    if not cache or not cache.get("path"):
        return None
    h = hashlib.sha256(game.digest.encode())
    csv = default_rail_csv()
    try:
        st = csv.stat()
        h.update(f"{csv.resolve()}\0{st.st_size}\0{st.st_mtime_ns}".encode())
    except OSError:
        h.update(b"no line data")
    for f in sorted(Path(__file__).resolve().parent.glob("*.py")):
        h.update(f.read_bytes())
    return Path(cache["path"]) / f"crossings-{h.hexdigest()[:16]}.json"


def day_crossings(tt: Timetable, game: Game) -> Index | None:
    """The crossing index of the day, or None when the physical line data is unavailable."""
    if not (game.toll_lines or game.tunnels):
        return {}
    p = _path(tt, game)
    if p is not None and p.is_file():
        try:
            raw = json.loads(p.read_text("utf-8"))
            return {k: [(int(x[0]), int(x[1]), int(x[2]), float(x[3])) for x in v] for k, v in raw.items()}
        except (OSError, ValueError):
            pass  # unreadable: recompute and rewrite
    # imported here: the line network needs pandas and networkx, 0.2 s of a command's start
    # (python -X importtime) that every query reading the kept index would pay
    from planner.rail.loader import load_rail_network
    from planner.rail.trips import crossing_trips

    try:
        index = crossing_trips(tt, load_rail_network(), game)
    except PlannerError:
        return None
    if p is not None and p.parent.is_dir():
        try:
            atomic_write_text(p, json.dumps(index))
        except OSError:
            pass  # a read-only cache still answers, just slower next time
    return index


def by_trip(index: Index) -> dict[int, list[tuple[str, int, int]]]:
    """The index turned around: trip -> [(name, first_row, last_row)] (one lookup per leg)."""
    out: dict[int, list[tuple[str, int, int]]] = {}
    for name, stretches in index.items():
        for t, first, last, _share in stretches:
            out.setdefault(int(t), []).append((name, int(first), int(last)))
    return out


def leg_stretches(trips: dict[int, list[tuple[str, int, int]]], trip: int, board_row: int,
                  alight_row: int) -> list[tuple[str, int, int]]:
    """``(name, first_row, last_row)`` of each crossing travelled in full while riding ``trip`` from ``board_row``
    to ``alight_row`` (the first stretch of each name)."""
    out, seen = [], set()
    for name, first, last in trips.get(trip, ()):
        if first >= board_row and last <= alight_row and name not in seen:
            seen.add(name)
            out.append((name, first, last))
    return out


def leg_crossings(trips: dict[int, list[tuple[str, int, int]]], game: Game, trip: int, board_row: int,
                  alight_row: int) -> list[dict]:
    """Crossings travelled in full while riding ``trip`` from ``board_row`` to ``alight_row``."""
    out = []
    for name, _first, _last in leg_stretches(trips, trip, board_row, alight_row):
        c = game.crossing(name)
        out.append({"name": name, "kind": c.kind if c else "", "between": list(c.between) if c else []})
    return out
