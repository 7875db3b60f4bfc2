"""Organisers' area validation (docs/rules.md §1: "Is the game area valid?"): facts, verdict, HTML page.

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

import numpy as np
from tqdm import tqdm

from planner import SOURCE_CREDIT
from planner.game.prices import letter_groups, station_table
from planner.gamefile.area import on_ring
from planner.gamefile.game import Game
from planner.gtfs.source import FeedSource
from planner.organiser.crossings import crossing_index, crossing_report, game_hours
from planner.organiser.feed_facts import FeedStation, feed_stations, place, route_filter_summary
from planner.routing.network import TransitNetwork
from planner.routing.query import Query, reach, station_origin
from planner.timetable.model import Timetable
from planner.util.i18n import _, format_amount, format_long_date, ngettext
from planner.util.text import fold
from planner.util.timefmt import fmt_clock

CATEGORY_ORDER = ("IC", "fast", "regional", "tram", "bus", "metro", "boat", "cable", "other")


# ---- service during the game hours ---------------------------------------------------------------

def station_service(tt: Timetable, game: Game, station: int) -> dict:
    """Trains stopping at ``station`` between the game's start and end: count, first, last, per hour.

    A stop counts when boarding or alighting is allowed; its time is the departure (the arrival where only
    alighting is allowed, e.g. the end of a trip).
    """
    rows = np.flatnonzero(tt.stop_station[tt.st_stop] == station)
    rows = rows[tt.st_pickup[rows] | tt.st_dropoff[rows]]
    when = np.where(tt.st_pickup[rows], tt.st_dep[rows], tt.st_arr[rows])
    inside = game.clock.in_game_mask(when)
    trips = np.unique(tt.st_trip[rows[inside]])
    times = when[inside]
    return {
        "trains": int(len(trips)),
        "first": fmt_clock(int(times.min())) if len(times) else None,
        "last": fmt_clock(int(times.max())) if len(times) else None,
        "per_hour": round(len(trips) / game_hours(game), 1),
    }


# ---- targets ---------------------------------------------------------------------------------------

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
            p = place(tt, game, name, stations)
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
        res = reach(net, Query(station_origin(s, game.clock.start), end_time=game.clock.end))
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
    stations, reports, targets, problems, warnings = _verdict(tt, game, src)
    window = f"{fmt_clock(game.clock.start)}–{fmt_clock(game.clock.end)}"
    table = station_table(tt, game)
    station_info = _station_info(tt, game, table, targets)
    if src is not None:
        station_info["routes"] = route_filter_summary(src, game)
        warnings += [_("exclusion {agency} {route} matches no route of the feed").format(agency=e["agency"],
                                                                                        route=e["route"])
                     for e in station_info["routes"]["excluded"] if e["routes"] == 0]
    station_info["routes_in_area"] = _routes_in_area(tt)
    letters = letter_groups(table, game.letter_group_size)
    by_letter: dict[str, list[str]] = {}
    for r in table:
        by_letter.setdefault(r["letter"], []).append(r["name"])
    for letter, info in letters.items():
        info["names"] = by_letter.get(letter, [])
        if not info["can_form_group"]:
            warnings.append(ngettext("letter {letter}: only {n} station, can never form a building group of {size}",
                                     "letter {letter}: only {n} stations, can never form a building group of {size}",
                                     info["stations"]).format(letter=letter, n=format_amount(info["stations"]),
                                                              size=game.letter_group_size))
    unreachable: list[dict] = []
    if not game.has_area:  # the whole feed (game "none"): buses without walks are never one network
        warnings.append(_("connectivity not checked for the whole feed (game 'none')"))
    else:
        unreachable = _with_progress(lambda cb: unreachable_pairs(net, game, cb), tt.n_stations, progress)
    if unreachable:
        warnings.append(ngettext("{n} station cannot reach every other in-area station during the game hours ({window})",
                                 "{n} stations cannot reach every other in-area station during the game hours "
                                 "({window})", len(unreachable)).format(n=format_amount(len(unreachable)),
                                                                        window=window))
    return {
        "valid": not problems, "game": game.name, "title": game.title, "date": tt.date,
        "feed_version": tt.feed_version, "feed": tt.meta.get("feed"),
        "game_hours": {"start": fmt_clock(game.clock.start), "end": fmt_clock(game.clock.end)},
        "targets": targets, "toll_lines": [reports[c.name] for c in game.toll_lines],
        "tunnels": [reports[c.name] for c in game.tunnels], "stations": station_info, "letters": letters,
        "unreachable": unreachable, "problems": problems, "warnings": warnings, "source": _(SOURCE_CREDIT),
    }


def area_problems(tt: Timetable, game: Game, src: FeedSource | None = None) -> list[str]:
    """What makes the area invalid (the problems of :func:`check_area`, empty when valid), without its slow
    passes (connectivity, stations): what ``game new``, ``handout`` and the organiser's page warn of."""
    return _verdict(tt, game, src)[3]


def _verdict(tt: Timetable, game: Game, src: FeedSource | None):
    """The feed's stations (None without ``src``), crossing reports, target rows, problems and the crossings'
    warnings: what the verdict rests on."""
    stations = feed_stations(src) if src is not None else None
    index, checks, warnings = crossing_index(tt, game)
    reports = {c.name: crossing_report(tt, game, c, index.get(c.name, []), checks.get(c.name), stations)
               for c in (*game.toll_lines, *game.tunnels)}
    targets = target_rows(tt, game, stations, reports)
    window = f"{fmt_clock(game.clock.start)}–{fmt_clock(game.clock.end)}"
    day = format_long_date(tt.date)
    problems = _target_problems(targets, window, day)
    for rep in reports.values():
        problems += _crossing_problems(rep, window, day)
        said = _("toll line {name}: {problem}") if rep["kind"] == "toll_line" else _("tunnel {name}: {problem}")
        warnings += [said.format(name=rep["name"], problem=p) for p in rep["definition_problems"]]
    return stations, reports, targets, problems, warnings



def _target_problems(targets: list[dict], window: str, date: str) -> list[str]:
    """What makes the area invalid about its dice targets (one line each, in the current language)."""
    problems = []
    for t in targets:
        what = {"number": t["number"], "name": t["name"]}
        if t.get("ambiguous"):
            problems.append(_("target {number} {name}: the name matches several stations ({stations})").format(
                stations=", ".join(t["ambiguous"]), **what))
        elif not t["found"]:
            problems.append(_("target {number} {name}: not found in the feed").format(**what))
        elif not t["in_area"]:
            problems.append(_("target {number} {name}: outside the game area").format(**what))
        elif not t["served"]:
            problems.append(_("target {number} {name}: no train during the game hours ({window}) on {date}").format(
                window=window, date=date, **what))
    return problems


def _crossing_problems(rep: dict, window: str, date: str) -> list[str]:
    """What makes the area invalid about one toll line or tunnel (none, or one line)."""
    toll = rep["kind"] == "toll_line"
    missing = ", ".join(e["name"] for e in rep["ends"] if not e["found"])
    args = {"name": rep["name"], "stations": missing, "date": date, "window": window}
    if not rep["found"]:
        return [(_("toll line {name}: {stations} not in the feed (off the SBB line network, so decided on the feed's "
                   "stops)") if toll else
                 _("tunnel {name}: {stations} not in the feed (off the SBB line network, so decided on the feed's "
                   "stops)")).format(**args)]
    if not rep["in_area"]:
        return [(_("toll line {name}: outside the game area") if toll else
                 _("tunnel {name}: outside the game area")).format(**args)]
    if not rep["served"]:
        if missing:
            said = (_("toll line {name}: no train crosses it during the game hours ({window}) on {date} ({stations} "
                      "not in the feed)") if toll else
                    _("tunnel {name}: no train crosses it during the game hours ({window}) on {date} ({stations} not "
                      "in the feed)"))
        else:
            said = (_("toll line {name}: no train crosses it during the game hours ({window}) on {date}") if toll else
                    _("tunnel {name}: no train crosses it during the game hours ({window}) on {date}"))
        return [said.format(**args)]
    return []


def _station_info(tt: Timetable, game: Game, table: list[dict], targets: list[dict]) -> dict:
    """The buyable stations (each with the dice numbers naming it), by category, and the ring."""
    target_names: dict[str, list[int]] = {}
    for target in targets:
        if target["kind"] == "station":
            target_names.setdefault(fold(target["name"]), []).append(target["number"])
    for r in table:
        r["targets"] = target_names.get(fold(r["name"]), [])
    ring_mask = on_ring(game, tt.station_lat, tt.station_lon, tt.station_id)
    by_cat = Counter(r["category"] for r in table)
    ring_listed = [r.name for r in game.ring]
    ring_in_tt = {fold(n) for n in tt.station_name}
    return {
        "count": len(table),
        "by_category": {c: by_cat[c] for c in sorted(by_cat, key=_cat_key)},
        "on_ring": sorted((tt.station_name[i] for i in np.flatnonzero(ring_mask)), key=fold),
        "ring_listed": len(ring_listed),
        "ring_not_served": [n for n in ring_listed if fold(n) not in ring_in_tt],
        "buyable": table,
    }


def _with_progress(fn: Callable[[Callable[[int], None] | None], list], total: int, progress: bool | None) -> list:
    if progress is None:
        progress = sys.stderr.isatty()
    if not progress:
        return fn(None)
    with tqdm(total=total, desc=_("connectivity"), unit=_("station"), file=sys.stderr, leave=False) as bar:
        return fn(bar.update)


def _cat_key(c: str) -> tuple[int, str]:
    return (CATEGORY_ORDER.index(c) if c in CATEGORY_ORDER else len(CATEGORY_ORDER), c)


def _routes_in_area(tt: Timetable) -> dict:
    """Routes running in the area on the day, by category (what the game keeps)."""
    used = np.unique(tt.trip_route)
    by_cat = Counter(tt.route_category[int(r)] for r in used)
    return {"count": int(len(used)), "by_category": {c: by_cat[c] for c in sorted(by_cat, key=_cat_key)},
            "names": sorted({tt.route_name[int(r)] for r in used})}
