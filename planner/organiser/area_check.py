"""Organisers' area validation (RULES.md §1: "Is the game area valid?"): facts, verdict, HTML page.

``check_area`` answers, for one game day of one feed:

* every dice target, toll line and tunnel: found in the feed (a station name resolved exactly, accent- and
  case-insensitively, to one station), inside the area, served during the game hours (first / last train,
  trains per hour); for toll lines and tunnels also which routes of the day cross them;
* the area: stations inside by category, stations on the ring, routes the game's modes and exclusions drop,
  connectivity over the game hours (which stations cannot reach which within the game hours);
* the buyable stations (category, price, initial letter) and the letter groups they can form.

The verdict is invalid when a target, toll line or tunnel is missing or unserved; everything else that looks
wrong is a warning. The functions take a timetable, game and network (pure apart from the optional light
passes over the feed's ``stops.txt`` / ``routes.txt``); ``planner check-area`` wraps them, and
:mod:`planner.organiser.render` turns the report into text and HTML.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from planner.errors import FeedError
from planner.game.prices import letter_groups, station_table
from planner.gamefile.area import in_area, on_ring
from planner.gamefile.game import Crossing, Game
from planner.gtfs.source import FeedSource
from planner.routing.network import TransitNetwork
from planner.routing.query import reach, station_origin
from planner.timetable.model import Mode, Timetable
from planner.timetable.stations import exact_station
from planner.util.text import fold
from planner.util.timefmt import fmt_clock

if TYPE_CHECKING:  # crossing_index imports planner.rail itself, when it is called
    from planner.rail import CrossingCheck

SOURCE_CREDIT = "Source: opentransportdata.swiss"
CATEGORY_ORDER = ("IC", "fast", "regional", "tram", "bus", "metro", "boat", "cable", "other")


# ---- feed-wide lookups (light passes) -------------------------------------------------------------

@dataclass(frozen=True)
class FeedStation:
    """A station of the whole feed (not only the game day): key (UIC), name and position."""

    key: str
    name: str
    lat: float
    lon: float


def feed_stations(src: FeedSource) -> dict[str, list[FeedStation]]:
    """Folded station name -> the feed's stations of that name (one ``stops.txt`` pass)."""
    from planner.gtfs.stops import read_stops

    stops = read_stops(src)
    best: dict[str, FeedStation] = {}
    # station rows first: their name and position stand for the station
    order = np.lexsort((~stops.is_station_row,))
    for i in order:
        key = str(stops.station[i])
        if key in best and np.isfinite(best[key].lat):
            continue
        name = str(stops.name[i])
        if not name:
            continue
        best[key] = FeedStation(key, best[key].name if key in best else name, float(stops.lat[i]),
                                float(stops.lon[i]))
    out: dict[str, list[FeedStation]] = {}
    for fs in best.values():
        out.setdefault(fold(fs.name), []).append(fs)
    return out


def route_filter_summary(src: FeedSource, game: Game) -> dict:
    """Routes of the whole feed the game drops: by mode (counts) and by the game's exclusion list.

    A light pass over ``routes.txt`` and ``agency.txt``; exclusions that match no route are reported
    (a typo in the game file would otherwise silently keep a tram line in the game).
    """
    from planner.gtfs.csvio import read_table
    from planner.gtfs.routes import classify_mode

    routes = read_table(src, "routes.txt", ["route_id", "agency_id", "route_short_name", "route_type"],
                        required=["route_id", "route_type"])
    agencies: dict[str, str] = {}
    if src.has("agency.txt"):
        ag = read_table(src, "agency.txt", ["agency_id", "agency_name"], required=["agency_name"])
        agencies = {(a or "").strip(): (n or "").strip()
                    for a, n in zip(ag["agency_id"].to_pylist(), ag["agency_name"].to_pylist(), strict=True)}
    excluded = {(a.lower(), r.lower()): (a, r) for a, r in game.exclude_routes}
    by_mode: Counter[str] = Counter()
    kept_by_mode: Counter[str] = Counter()
    hits: Counter[tuple[str, str]] = Counter()
    for aid, short, rtype in zip(routes["agency_id"].to_pylist(), routes["route_short_name"].to_pylist(),
                                 routes["route_type"].to_pylist(), strict=True):
        try:
            mode = classify_mode(int((rtype or "").strip())).label
        except ValueError:
            mode = Mode.OTHER.label
        agency = agencies.get((aid or "").strip(), (aid or "").strip())
        key = (agency.lower(), (short or "").strip().lower())
        if mode not in game.modes:
            by_mode[mode] += 1
        elif key in excluded:
            hits[excluded[key]] += 1
        else:
            kept_by_mode[mode] += 1
    return {
        "feed_routes": len(routes),
        "kept_by_mode": dict(sorted(kept_by_mode.items())),
        "dropped_by_mode": dict(sorted(by_mode.items())),
        "excluded": [{"agency": a, "route": r, "routes": hits.get((a, r), 0)} for a, r in game.exclude_routes],
    }


# ---- service during the game hours ---------------------------------------------------------------

def _hours(game: Game) -> float:
    return max((game.clock.end - game.clock.start) / 3600.0, 1e-9)


def station_service(tt: Timetable, game: Game, station: int) -> dict:
    """Trains stopping at ``station`` between the game's start and end: count, first, last, per hour.

    A stop counts when boarding or alighting is allowed; its time is the departure (the arrival where only
    alighting is allowed, e.g. the end of a trip).
    """
    rows = np.flatnonzero(tt.stop_station[tt.st_stop] == station)
    rows = rows[tt.st_pickup[rows] | tt.st_dropoff[rows]]
    t = np.where(tt.st_pickup[rows], tt.st_dep[rows], tt.st_arr[rows])
    inside = (t >= game.clock.start) & (t <= game.clock.end)
    trips = np.unique(tt.st_trip[rows[inside]])
    times = t[inside]
    return {
        "trains": int(len(trips)),
        "first": fmt_clock(int(times.min())) if len(times) else None,
        "last": fmt_clock(int(times.max())) if len(times) else None,
        "per_hour": round(len(trips) / _hours(game), 1),
    }


# ---- crossings (toll lines, tunnels) -------------------------------------------------------------

CrossingIndex = dict[str, list[tuple[int, int, int]]]


def crossing_index(tt: Timetable, game: Game) -> tuple[CrossingIndex, dict[str, CrossingCheck], list[str]]:
    """``(trip, first_row, last_row)`` of every trip crossing each toll line / tunnel, the physical checks
    by name (``planner.rail.CrossingCheck``), and warnings.

    Uses the physical SBB network; when its data file is missing or unreadable (``FeedError``), the
    crossings are decided on the stops by the same rule the network uses for lines off it
    (``planner.rail.crossings``), which misses trains that pass A or B without stopping, and a warning
    says so. Any other error is a bug and is raised.
    """
    from planner.rail import check_crossings, crossing_trips, load_rail_network

    names = [c.name for c in (*game.toll_lines, *game.tunnels)]
    if not names:
        return {}, {}, []
    try:
        network = load_rail_network()
    except FeedError as exc:
        warn = (f"physical rail network unavailable ({' '.join(str(exc).split())[:160]}): "
                "toll lines and tunnels are checked on stops only")
        index = crossing_trips(tt, None, game)
        return {n: index.get(n, []) for n in names}, {}, [warn]
    index = crossing_trips(tt, network, game)
    checks = {c.name: c for c in check_crossings(network, game)}
    return {n: index.get(n, []) for n in names}, checks, []


def _crossing_report(tt: Timetable, game: Game, c: Crossing, hits: list[tuple[int, int, int]],
                     check: CrossingCheck | None,
                     stations: dict[str, list[FeedStation]] | None) -> dict:
    ends = [{k: v for k, v in _place(tt, game, name, stations).items() if k != "station"} for name in c.between]
    # only a crossing decided on the network is found without its end stations in the feed; one decided on
    # the stops (its line is off the SBB network) needs both ends in the feed
    on_network = check is not None and check.method == "path"
    found = all(e["found"] for e in ends) or on_network
    in_area_ = all(e["in_area"] for e in ends if e["found"]) and any(e["found"] for e in ends)
    if not any(e["found"] for e in ends) and check is not None and on_network:
        in_area_ = _stretch_in_area(game, check)
    dep = np.array([int(tt.st_dep[first]) for _t, first, _l in hits], dtype=np.int64)
    inside = (dep >= game.clock.start) & (dep <= game.clock.end) if len(dep) else np.zeros(0, bool)
    trips_in = {hits[i][0] for i in np.flatnonzero(inside)}
    routes_day = sorted({tt.route_name[int(tt.trip_route[t])] for t, _f, _l in hits})
    routes_game = sorted({tt.route_name[int(tt.trip_route[t])] for t in trips_in})
    out = {
        "name": c.name,
        "kind": c.kind,
        "between": list(c.between),
        "via": list(c.via),
        "ends": ends,
        "found": bool(found),
        "in_area": bool(in_area_),
        "served": bool(trips_in),
        "first": fmt_clock(int(dep[inside].min())) if inside.any() else None,
        "last": fmt_clock(int(dep[inside].max())) if inside.any() else None,
        "per_hour": round(len(trips_in) / _hours(game), 1),
        "trains": len(trips_in),
        "routes": routes_day,
        "routes_game_hours": routes_game,
        "method": check.method if check is not None else "stops",
        "length_km": _round_km(check.length_km) if check is not None else None,
        "definition_problems": list(check.problems) if check is not None else [],
    }
    return out


def _round_km(v) -> float | None:
    if v is None or not np.isfinite(v):
        return None
    return round(float(v), 1)


def _stretch_in_area(game: Game, check: CrossingCheck) -> bool:
    """Whether the whole stretch of a crossing decided on the network lies in the area."""
    from planner.rail import load_rail_network

    net = load_rail_network()  # loaded (and cached) by crossing_index already when there is a check
    idx = [net.node_of[u] for u in check.stretch if u in net.node_of]
    if not idx:
        return False
    return bool(in_area(game, net.lat[idx], net.lon[idx]).all())


# ---- targets ---------------------------------------------------------------------------------------

def _place(tt: Timetable, game: Game, name: str, stations: dict[str, list[FeedStation]] | None) -> dict:
    """Resolve a station name: found in the feed (exactly one station), in the area, in the day's timetable."""
    s = exact_station(tt, name)
    cands = stations.get(fold(name), []) if stations is not None else []
    keys = sorted({c.key for c in cands})
    if stations is None:  # no feed-wide pass: the game-day timetable is all we know
        found = s is not None
        inside = s is not None
    else:
        found = len(keys) == 1 or s is not None
        inside = False
        if cands:
            fs = cands[0] if s is None else next((c for c in cands if c.key == tt.station_id[s]), cands[0])
            inside = bool(in_area(game, np.array([fs.lat]), np.array([fs.lon]), [fs.key])[0])
        if s is not None:
            inside = True  # the timetable only holds in-area stations
    return {"name": name, "found": bool(found), "in_area": bool(inside), "station": s,
            "ambiguous": keys if len(keys) > 1 and s is None else []}


def target_rows(tt: Timetable, game: Game, stations: dict[str, list[FeedStation]] | None,
                crossing_reports: dict[str, dict]) -> list[dict]:
    """One row per dice target (a number with four stations gives four rows)."""
    rows = []
    for entry in game.dice.targets:
        if entry.toll_line or entry.tunnel:
            ref = entry.toll_line or entry.tunnel
            rep = crossing_reports.get(ref or "", {})
            rows.append({"number": entry.number, "name": ref, "kind": "toll_line" if entry.toll_line else "tunnel",
                         "found": rep.get("found", False), "in_area": rep.get("in_area", False),
                         "served": rep.get("served", False), "first": rep.get("first"), "last": rep.get("last"),
                         "per_hour": rep.get("per_hour", 0.0), "station_id": None})
            continue
        for name in entry.stations:
            p = _place(tt, game, name, stations)
            s = p["station"]
            svc = station_service(tt, game, s) if s is not None else {"trains": 0, "first": None, "last": None,
                                                                         "per_hour": 0.0}
            rows.append({"number": entry.number, "name": name, "kind": "station", "found": p["found"],
                         "in_area": p["in_area"], "served": svc["trains"] > 0, "first": svc["first"],
                         "last": svc["last"], "per_hour": svc["per_hour"],
                         "station_id": tt.station_id[s] if s is not None else None,
                         "ambiguous": p["ambiguous"]})
    return rows


# ---- connectivity ----------------------------------------------------------------------------------

def unreachable_pairs(net: TransitNetwork, game: Game, progress: Callable[[int], None] | None = None) -> list[dict]:
    """Stations that cannot reach every other in-area station within the game hours (one-to-many scans
    from each station at the game's start, until its end). Only stations with a gap are listed."""
    tt = net.tt
    out = []
    for s in range(tt.n_stations):
        res = reach(net, station_origin(s, game.clock.start), end_time=game.clock.end)
        arr = res.arrivals()
        missing = [int(x) for x in np.flatnonzero(arr < 0) if int(x) != s]
        if missing:
            out.append({"from": tt.station_name[s], "count": len(missing),
                        "to": sorted((tt.station_name[m] for m in missing), key=fold)})
        if progress is not None:
            progress(1)
    out.sort(key=lambda r: (-r["count"], fold(r["from"])))
    return out


# ---- the whole report ------------------------------------------------------------------------------

def check_area(tt: Timetable, game: Game, net: TransitNetwork, src: FeedSource | None = None, *,
               progress: bool | None = False) -> dict:
    """The organisers' report (JSON shape of ``planner check-area``); ``valid`` is the verdict.

    ``src`` enables the feed-wide facts (a target in the feed but outside the area or unserved; routes
    dropped by mode). ``progress``: a progress bar for the connectivity scans (None: when stderr is a terminal).
    """
    stations = feed_stations(src) if src is not None else None
    warnings: list[str] = []
    problems: list[str] = []
    index, checks, w = crossing_index(tt, game)
    warnings += w
    reports = {c.name: _crossing_report(tt, game, c, index.get(c.name, []), checks.get(c.name), stations)
               for c in (*game.toll_lines, *game.tunnels)}
    targets = target_rows(tt, game, stations, reports)
    window = f"{fmt_clock(game.clock.start)}–{fmt_clock(game.clock.end)}"
    for t in targets:
        what = f"target {t['number']} {t['name']}"
        if t.get("ambiguous"):
            problems.append(f"{what}: the name matches several stations ({', '.join(t['ambiguous'])})")
        elif not t["found"]:
            problems.append(f"{what}: not found in the feed")
        elif not t["in_area"]:
            problems.append(f"{what}: outside the game area")
        elif not t["served"]:
            problems.append(f"{what}: no train during the game hours ({window}) on {tt.date}")
    for rep in reports.values():
        what = f"{'toll line' if rep['kind'] == 'toll_line' else 'tunnel'} {rep['name']}"
        if not rep["found"]:
            missing = [e["name"] for e in rep["ends"] if not e["found"]]
            problems.append(f"{what}: {', '.join(missing)} not in the feed (off the SBB line network, so "
                            "decided on the feed's stops)")
        elif not rep["in_area"]:
            problems.append(f"{what}: outside the game area")
        elif not rep["served"]:
            missing = [e["name"] for e in rep["ends"] if not e["found"]]
            why = f" ({', '.join(missing)} not in the feed)" if missing else ""
            problems.append(f"{what}: no train of {tt.date} crosses it during the game hours ({window}){why}")
        for p in rep["definition_problems"]:
            warnings.append(f"{what}: {p}")

    # stations, ring, routes
    table = station_table(tt, game)
    target_names = {}
    for t in targets:
        if t["kind"] == "station":
            target_names.setdefault(fold(t["name"]), []).append(t["number"])
    for r in table:
        r["targets"] = target_names.get(fold(r["name"]), [])
    ring_mask = on_ring(game, tt.station_lat, tt.station_lon, tt.station_id)
    by_cat = Counter(r["category"] for r in table)
    ring_listed = [r.name for r in game.ring]
    ring_in_tt = {fold(n) for n in tt.station_name}
    station_info: dict = {
        "count": len(table),
        "by_category": {c: by_cat[c] for c in sorted(by_cat, key=_cat_key)},
        "on_ring": sorted((tt.station_name[i] for i in np.flatnonzero(ring_mask)), key=fold),
        "ring_listed": len(ring_listed),
        "ring_not_served": [n for n in ring_listed if fold(n) not in ring_in_tt],
        "buyable": table,
    }
    if src is not None:
        station_info["routes"] = route_filter_summary(src, game)
        for e in station_info["routes"]["excluded"]:
            if e["routes"] == 0:
                warnings.append(f"exclusion {e['agency']} {e['route']} matches no route of the feed")
    station_info["routes_in_area"] = _routes_in_area(tt)

    # letters
    letters = letter_groups(table, game.letter_group_size)
    by_letter: dict[str, list[str]] = {}
    for r in table:
        by_letter.setdefault(r["letter"], []).append(r["name"])
    for letter, info in letters.items():
        info["names"] = by_letter.get(letter, [])
        if not info["can_form_group"]:
            warnings.append(f"letter {letter}: only {info['stations']} station(s), can never form a building group "
                            f"of {game.letter_group_size}")

    unreachable: list[dict] = []
    if not game.has_area:  # the whole feed (game "none"): buses without walks are never one network
        warnings.append("connectivity not checked for the whole feed (game 'none')")
    else:
        unreachable = _with_progress(lambda cb: unreachable_pairs(net, game, cb), tt.n_stations, progress)
    if unreachable:
        warnings.append(f"{len(unreachable)} station(s) cannot reach every other in-area station during the "
                        f"game hours ({window})")
    return {
        "valid": not problems,
        "game": game.name,
        "title": game.title,
        "date": tt.date,
        "feed_version": tt.feed_version,
        "feed": tt.meta.get("feed"),
        "game_hours": {"start": fmt_clock(game.clock.start), "end": fmt_clock(game.clock.end)},
        "targets": targets,
        "toll_lines": [reports[c.name] for c in game.toll_lines],
        "tunnels": [reports[c.name] for c in game.tunnels],
        "stations": station_info,
        "letters": letters,
        "unreachable": unreachable,
        "problems": problems,
        "warnings": warnings,
        "source": SOURCE_CREDIT,
    }


def _with_progress(fn: Callable[[Callable[[int], None] | None], list], total: int, progress: bool | None) -> list:
    if progress is None:
        progress = sys.stderr.isatty()
    if not progress:
        return fn(None)
    from tqdm import tqdm

    with tqdm(total=total, desc="connectivity", unit="station", file=sys.stderr, leave=False) as bar:
        return fn(bar.update)


def _cat_key(c: str) -> tuple[int, str]:
    return (CATEGORY_ORDER.index(c) if c in CATEGORY_ORDER else len(CATEGORY_ORDER), c)


def _routes_in_area(tt: Timetable) -> dict:
    """Routes running in the area on the day, by category (what the game keeps)."""
    used = np.unique(tt.trip_route)
    by_cat = Counter(tt.route_category[int(r)] for r in used)
    return {"count": int(len(used)), "by_category": {c: by_cat[c] for c in sorted(by_cat, key=_cat_key)},
            "names": sorted({tt.route_name[int(r)] for r in used})}


# ---- rendering -------------------------------------------------------------------------------------
