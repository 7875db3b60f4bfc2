"""Route classification from the (extended) GTFS route_type and the Swiss route_desc, and the game's
mode filter (allowed modes, excluded routes): written once, used by the ingest and the organisers' report."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from planner.gamefile.game import Game
from planner.gtfs.csvio import is_empty, read_table
from planner.gtfs.schema import FILES, Where, convert
from planner.gtfs.source import FeedSource
from planner.timetable.model import Mode

KEPT, DROPPED_MODE, EXCLUDED = "kept", "mode", "excluded"

# route_desc values of the Swiss feed -> short category label used in display names
_DESC_ABBR = {
    "intercity": "IC", "eurocity": "EC", "interregio": "IR", "regioexpress": "RE", "s-bahn": "S",
    "nacht-s-bahn": "SN", "regio": "R", "intercityexpress": "ICE", "tgv": "TGV", "railjet": "RJ",
    "railjet xpress": "RJX", "extrazug": "EXT", "bus": "B", "tram": "T", "schiff": "BAT",
}
_IC_DESC = {"intercity", "eurocity", "intercityexpress", "tgv", "railjet", "railjet xpress", "intercity-neigezug"}
_FAST_DESC = {"interregio", "regioexpress"}


def classify_mode(route_type: int) -> Mode:
    """Mode of a route from basic (0-12) or extended (100-1700) GTFS route types."""
    t = int(route_type)
    if t in (2, 12) or 100 <= t < 200:
        return Mode.RAIL
    if t in (1,) or 400 <= t < 500:
        return Mode.METRO
    if t in (3, 11) or 200 <= t < 300 or 700 <= t < 800 or t == 1500:
        return Mode.BUS
    if t == 0 or 900 <= t < 1000:
        return Mode.TRAM
    if t == 4 or 1000 <= t < 1300:
        return Mode.BOAT
    if t in (5, 6, 7) or 1300 <= t < 1500:
        return Mode.CABLE
    return Mode.OTHER


def classify_category(route_type: int, desc: str) -> str:
    """Service category for prices: ``IC`` (IC/EC stop), ``fast`` (IR/RE), ``regional``, or the mode label."""
    mode = classify_mode(route_type)
    if mode != Mode.RAIL:
        return mode.label
    d = (desc or "").strip().lower()
    t = int(route_type)
    if d in _IC_DESC or (not d and t in (101, 102)):
        return "IC"
    if d in _FAST_DESC or (not d and t == 103):
        return "fast"
    if d:
        return "regional"
    return "IC" if t in (101, 102) else "fast" if t == 103 else "regional"


def display_name(short: str, long: str, desc: str, route_type: int) -> str:
    """A route's name as players read it: ``IR75``, ``S26``, ``IC1``, ``Bus 3``."""
    short = (short or "").strip()
    abbr = _DESC_ABBR.get((desc or "").strip().lower(), "")
    if short and short[0].isalpha():
        return short
    mode = classify_mode(route_type)
    if mode == Mode.BUS:
        return f"Bus {short}".strip()
    if mode == Mode.TRAM:
        return f"Tram {short}".strip()
    if short:
        return f"{abbr}{short}" if abbr else short
    return abbr or (long or "").strip() or "?"


@dataclass(frozen=True)
class FeedRoute:
    """One row of ``routes.txt`` as the game sees it: names, type, mode and whether the game keeps it."""

    route_id: str
    agency: str  # the agency's name (its id when agency.txt does not name it)
    short: str
    long: str
    desc: str
    route_type: int
    mode: Mode
    verdict: str  # KEPT, DROPPED_MODE (the game's modes exclude it) or EXCLUDED (the game's exclusion list)
    excluded_by: tuple[str, str] | None = None  # the game's (agency, route) entry that dropped it


def agency_names(src: FeedSource) -> dict[str, str]:
    """agency_id -> agency_name (empty when the feed has no agency rows)."""
    if is_empty(src, "agency.txt"):
        return {}
    ag = read_table(src, "agency.txt", ["agency_id", "agency_name"])
    return {(a or "").strip(): (n or "").strip()
            for a, n in zip(ag["agency_id"].to_pylist(), ag["agency_name"].to_pylist(), strict=True)}


def feed_routes(src: FeedSource, game: Game) -> list[FeedRoute]:
    """Every route of the feed with the game's verdict on it (the one mode filter).

    A ``route_type`` that is not a whole number in int32 is a :class:`FeedError` naming its line: a route
    that cannot be classified is neither silently dropped nor silently kept.
    """
    routes = read_table(src, "routes.txt")
    lines = routes["_line"].to_numpy()
    types = convert(routes["route_type"], FILES["routes.txt"], "route_type", Where(src.label, "routes.txt", lines))
    big = np.flatnonzero((types < -2**31) | (types >= 2**31))  # stored as int32
    if len(big):
        raw = routes["route_type"][int(big[0])].as_py()
        raise Where(src.label, "routes.txt", lines).error(int(big[0]), "route_type", f"{raw!r} is out of range")
    agencies = agency_names(src)
    excluded = {(a.lower(), r.lower()): (a, r) for a, r in game.exclude_routes}
    out = []
    for rid, aid, short, long, desc, t in zip(
            *(routes[c].to_pylist() for c in ("route_id", "agency_id", "route_short_name", "route_long_name",
                                                "route_desc")), types.tolist(), strict=True):
        mode = classify_mode(t)
        aid = (aid or "").strip()
        agency = agencies.get(aid, aid)
        short = (short or "").strip()
        hit = excluded.get((agency.lower(), short.lower()))
        verdict = DROPPED_MODE if mode.label not in game.modes else EXCLUDED if hit else KEPT
        out.append(FeedRoute((rid or "").strip(), agency, short, long or "", desc or "", int(t), mode, verdict,
                             hit if verdict == EXCLUDED else None))
    return out
