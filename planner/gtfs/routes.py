"""Route classification from the (extended) GTFS route_type and the Swiss route_desc."""

from __future__ import annotations

from planner.timetable.model import Mode

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
