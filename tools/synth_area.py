"""SYNTHETIC full game day of variant A: every rail station of the game's area, a plausible Saturday of trains.

    *** SYNTHETIC DATA: the timetable is invented. It is not a real timetable. ***

No offline feed covers the area of SBB-Monopoly (Basel-Biel-Bern-Luzern-Arth-Goldau-Zürich-Eglisau; the user
downloads the national feed online), so this writes one Saturday, 2026-06-13, of IC, IR, RE and S-Bahn service
on it (services in :mod:`tools.synth_area_network`), about 05:00 to 00:30. What is real:

* the stations: every train stop point of the ATLAS registry that lies on the SBB line data and in the game's
  area (:func:`planner.gamefile.area.in_area`), with its name, UIC/SLOID numbers and position; a station the
  services name is taken from the registry even when it is no stop point there any more (Sihlbrugg, a dice
  target of the game);
* the lines the trains run on and their lengths: the shortest path on the SBB line network between two
  consecutive listed stops (the planner's own :class:`~planner.rail.network.RailNetwork`), its km from the line
  data; run times are km / the kind's speed plus a minute per stop.

Left out: stations on lines the SBB line data does not hold (the narrow-gauge RBS, ASm, WSB, BD and SZU lines,
the BLS Emmental and Huttwil branches): about 180 stop points of the area. Walking between stations: none
(variant A has none).

The feed is in the newest stop-id era (RULES.md §4), labelled SYNTHETIC in its name, agencies (ids and addresses;
the BLT keeps the name the game file excludes its trams by), ``feed_info.txt`` and a ``SYNTHETIC_README.txt``.
The same seed gives byte-identical files; the seed moves only platform positions and trip-id block numbers.

CLI (from the repository root)::

    python -m tools.synth_area --game sbb-monopoly --out /tmp/area          # folder .../SYNTHETIC-sbb-monopoly-2026-06-13
    python -m tools.synth_area --game sbb-monopoly --out /tmp/area --zip    # .../SYNTHETIC-sbb-monopoly-2026-06-13.zip

Bad input (an unknown game, an ``--out`` it cannot write, a registry without a station it needs) is one line on
stderr and exit 2.
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
import random
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from planner.errors import PlannerError
from planner.gamefile.area import in_area
from planner.gamefile.game import Game, load_game
from planner.rail.loader import read_rail_points
from planner.rail.network import RailNetwork, haversine_km
from tools import synth_area_network
from tools.synth_gtfs import (
    ATLAS,
    KINDS,
    RAIL_CSV,
    RAIL_KINDS,
    Place,
    SynthError,
    calendar_rows,
    check_inputs,
    check_out_dir,
    clock,
    csv_bytes,
    plat_key,
    refuse_existing,
    scan_registry,
    stop_id,
    stop_rows,
    write_members,
    ymd,
)

GAME_DAY = dt.date(2026, 6, 13)  # a Saturday in the SLOID era (from 2026-06-04)
SERVICE_ID = "SYN+SA"
NETWORKS = {"sbb-monopoly": synth_area_network}  # game -> its services (data)


def feed_name(game: str) -> str:
    """The feed's folder or zip name: ``SYNTHETIC-sbb-monopoly-2026-06-13``."""
    return f"SYNTHETIC-{game}-{GAME_DAY.isoformat()}"


@dataclass
class Area:
    """The game's area on the real data: the line network, the area's stations (by UIC) and named places."""

    game: Game
    net: RailNetwork
    stations: dict[str, Place]  # UIC -> the area's rail stations
    named: dict[str, Place]  # registry name -> the place a service names
    km_at: dict[tuple[str, int], float]  # (UIC, line) -> km

    def hop_km(self, a: int, b: int) -> float:
        """Track length between two adjacent points of the network (node indexes): their km difference on a
        line joining them, unless it is a km jump; else the straight distance times 1.2."""
        net = self.net
        straight = haversine_km(net.lat[a], net.lon[a], net.lat[b], net.lon[b])
        diffs = [abs(self.km_at[(net.uics[a], ln)] - self.km_at[(net.uics[b], ln)]) for ln in net.edge_lines(a, b)
                 if (net.uics[a], ln) in self.km_at and (net.uics[b], ln) in self.km_at]
        dkm = min(diffs, default=0.0)
        if dkm == 0.0 or dkm > 5 * straight + 2:
            return max(straight * 1.2, 0.01)
        return max(dkm, straight)


def load_area(game: Game, atlas: Path, rail_csv: Path, names: set[str]) -> Area:
    """The area's stations on the registry and the line network, and the places of ``names``."""
    try:
        points = read_rail_points(rail_csv)
    except PlannerError as exc:
        raise SynthError(str(exc)) from None
    net = RailNetwork(points)
    km_at = {(u, int(ln)): float(k) for u, ln, k in zip(points["uic"], points["line"], points["km"], strict=True)}
    rows = scan_registry(atlas, lambda name, row, col: True)
    trains = {p.uic: p for p in rows if p.stop and "TRAIN" in p.means and p.uic in net.node_of}
    uics = sorted(trains)
    inside = in_area(game, np.array([trains[u].lat for u in uics]), np.array([trains[u].lon for u in uics]), uics)
    stations = {u: trains[u] for u, ok in zip(uics, inside.tolist(), strict=True) if ok}
    by_name: dict[str, list[Place]] = {}
    for p in rows:
        if p.name in names:
            by_name.setdefault(p.name, []).append(p)
    named, missing = {}, []
    for name in sorted(names):
        cands = by_name.get(name, [])
        stops = [p for p in cands if p.stop]
        pick = stops if stops else cands  # a station closed to passengers is still a service point
        if len(pick) != 1:
            missing.append(name)
        else:
            named[name] = pick[0]
    if missing:
        raise SynthError(f"the registry {atlas} has not exactly one service point named: {', '.join(missing)}")
    for p in named.values():
        if p.uic in net.node_of and in_area(game, np.array([p.lat]), np.array([p.lon]), [p.uic])[0]:
            stations.setdefault(p.uic, p)
    return Area(game, net, stations, named, km_at)


def service_stops(area: Area, svc) -> list[tuple[Place, float]]:
    """A service's stops in direction 0 with the km from the previous one (0 at the first)."""
    if svc.kind not in RAIL_KINDS:  # trams and buses: off the SBB network, straight distance times a factor
        places = [area.named[n] for n in svc.stops]
        factor = KINDS[svc.kind][4]
        return [(p, 0.0 if k == 0 else haversine_km(places[k - 1].lat, places[k - 1].lon, p.lat, p.lon) * factor)
                for k, p in enumerate(places)]
    net = area.net
    ends = [area.named[n] for n in svc.stops]
    for p in ends:
        if p.uic not in area.stations:
            raise SynthError(f"{svc.route} ({svc.region}): {p.name} is not a rail station of the area")
    out: list[tuple[Place, float]] = [(ends[0], 0.0)]
    km = 0.0
    for a, b in zip(ends, ends[1:], strict=False):
        path = net.path(a.uic, b.uic)
        if path is None:
            raise SynthError(f"{svc.route} ({svc.region}): no line joins {a.name} and {b.name}")
        nodes = [net.node_of[u] for u in path]
        for x, y in zip(nodes, nodes[1:], strict=False):
            km += area.hop_km(x, y)
            here = area.stations.get(net.uics[y])
            stops_here = here is not None and (svc.kind in ("S", "R") or here.uic == b.uic)
            if stops_here and here.uic != out[-1][0].uic:
                out.append((here, km))
                km = 0.0
    return out


def pattern(svc, stops: list[tuple[Place, float]], change: dict[str, int]) -> list[tuple[Place, int, int]]:
    """(stop, arrival, departure) in minutes after the first departure, direction 0: km at the kind's speed
    plus its minutes lost per stop; a stop of 1 minute (2 at the big stations) for fast trains, 0 (1) for others."""
    _type, _desc, speed, lost, _f = KINDS[svc.kind]
    fast = svc.kind in ("IC", "IR", "RE")
    out, t = [], 0
    for k, (place, km) in enumerate(stops):
        if k:
            t += max(1, round(km / speed * 60 + lost))
        big = place.name in change
        dwell = 0 if k in (0, len(stops) - 1) else (1 + big if fast else int(big))
        out.append((place, t, t + dwell))
        t += dwell
    return out


def _reverse(pat: list[tuple[Place, int, int]]) -> list[tuple[Place, int, int]]:
    end = pat[-1][1]
    return [(p, end - dep, end - arr) for p, arr, dep in reversed(pat)]


def build_tables(game_name: str = "sbb-monopoly", seed: int = 0, atlas: Path = ATLAS,
                 rail_csv: Path = RAIL_CSV) -> dict[str, list[list[str]]]:
    """Every GTFS table of the day as rows (header first), deterministic for a seed."""
    try:
        game = load_game(game_name)
    except PlannerError as exc:
        raise SynthError(f"game {game_name!r}: {exc}") from None
    spec = NETWORKS.get(game.name)
    if spec is None:
        raise SynthError(f"no synthetic network for game {game.name!r} (one of: {', '.join(sorted(NETWORKS))})")
    area = load_area(game, Path(atlas), Path(rail_csv), {n for s in spec.SERVICES for n in s.stops})
    rng = random.Random(seed)
    patterns = [pattern(s, service_stops(area, s), spec.CHANGE_MINUTES) for s in spec.SERVICES]
    served = {p.uic for pat in patterns for p, _, _ in pat}
    unserved = sorted(p.name for u, p in area.stations.items() if u not in served)
    if unserved:
        raise SynthError(f"no service stops at these stations of the area: {', '.join(unserved)}")
    plats = _platforms(spec.SERVICES, patterns)
    used: dict[str, set[str]] = {}
    places: dict[str, Place] = {}
    routes: dict[tuple[str, str, str], str] = {}
    trips, times = [], []
    for si, (svc, fwd) in enumerate(zip(spec.SERVICES, patterns, strict=True)):
        rid = routes.setdefault((svc.agency, svc.route, svc.region),
                                f"syn-{svc.agency}-{svc.route}-{svc.region.lower()}-j26")
        block = rng.randrange(100, 1000)
        for direction, pat in ((0, fwd), (1, _reverse(fwd))):
            number = svc.number + direction
            for dep0 in range(svc.first * 60 + svc.at[direction], svc.last * 60, svc.headway):
                trip_id = f"{number}.TA.{rid}.{si}.{block}.{'HR'[direction]}"
                trips.append([rid, SERVICE_ID, trip_id, pat[-1][0].name, str(number), str(direction)])
                for seq, (place, arr, dep) in enumerate(pat, start=1):
                    plat = plats[(place.name, si, direction)]
                    used.setdefault(place.name, set()).add(plat)
                    places[place.name] = place
                    times.append([trip_id, clock(dep0 + arr), clock(dep0 + dep), stop_id(place, plat), str(seq),
                                  "1" if seq == len(pat) else "0", "1" if seq == 1 else "0"])
                number += 2
    return {
        "agency.txt": [["agency_id", "agency_name", "agency_url", "agency_timezone", "agency_lang"],
                       *([f"SYNTHETIC-{a}", n, url, "Europe/Zurich", "de"] for a, (n, url) in spec.AGENCIES.items())],
        "feed_info.txt": [["feed_publisher_name", "feed_publisher_url", "feed_lang", "feed_start_date",
                           "feed_end_date", "feed_version"],
                          [f"SYNTHETIC sbb-planner test fixture (game area of {game.name})", "https://example.invalid/",
                           "de", ymd(GAME_DAY), ymd(GAME_DAY), f"SYNTHETIC-{game.name}-1-seed{seed}"]],
        "calendar.txt": calendar_rows(SERVICE_ID, GAME_DAY),
        "routes.txt": [["route_id", "agency_id", "route_short_name", "route_long_name", "route_desc", "route_type"],
                       *([rid, f"SYNTHETIC-{a}", r, "", KINDS[_kind(spec, a, r, g)][1], str(KINDS[_kind(spec, a, r, g)][0])]
                         for (a, r, g), rid in routes.items())],
        "stops.txt": stop_rows(places, used, rng),
        "trips.txt": [["route_id", "service_id", "trip_id", "trip_headsign", "trip_short_name", "direction_id"],
                      *trips],
        "stop_times.txt": [["trip_id", "arrival_time", "departure_time", "stop_id", "stop_sequence", "pickup_type",
                            "drop_off_type"], *times],
        "transfers.txt": _transfer_rows(spec, places, used),
    }


def _kind(spec, agency: str, route: str, region: str) -> str:
    return next(s.kind for s in spec.SERVICES if (s.agency, s.route, s.region) == (agency, route, region))


def _platforms(services, patterns) -> dict[tuple[str, int, int], str]:
    """The platform each service's direction uses at each stop: a station has about one platform per two
    directions stopping there (at most 16), taken in the services' order."""
    at: dict[str, list[tuple[int, int]]] = {}
    for si, pat in enumerate(patterns):
        for direction in (0, 1):
            for place, _, _ in pat:
                at.setdefault(place.name, []).append((si, direction))
    out = {}
    for name, pairs in at.items():
        n = max(1, min(16, math.ceil(len(pairs) / 2)))
        for k, (si, direction) in enumerate(pairs):
            out[(name, si, direction)] = str(1 + k % n)
    return out


def _transfer_rows(spec, places: dict[str, Place], used: dict[str, set[str]]) -> list[list[str]]:
    rows = [["from_stop_id", "to_stop_id", "transfer_type", "min_transfer_time"]]
    for station, minutes in spec.CHANGE_MINUTES.items():
        parent = f"Parent{places[station].sloid}"
        rows.append([parent, parent, "2", str(minutes * 60)])
    for station, (gap, minutes) in spec.FAR_PLATFORMS.items():
        plats = sorted(used[station], key=plat_key)
        for a in plats:
            for b in plats:
                if a.isdigit() and b.isdigit() and abs(int(a) - int(b)) >= gap:
                    rows.append([stop_id(places[station], a), stop_id(places[station], b), "2", str(minutes * 60)])
    return rows


def write_feed(out_dir: str | Path, *, game: str = "sbb-monopoly", seed: int = 0, as_zip: bool = False,
               atlas: Path = ATLAS, rail_csv: Path = RAIL_CSV, force: bool = False) -> Path:
    """Write the day into ``out_dir`` (created; never the repository) and return its path: a folder
    ``SYNTHETIC-<game>-2026-06-13`` of tables, or with ``as_zip`` that name ``.zip``."""
    name = feed_name(load_game(game).name)
    refuse_existing(check_out_dir(out_dir) / (f"{name}.zip" if as_zip else name), force)  # before the work
    check_inputs(atlas, rail_csv)
    tables = build_tables(game, seed, atlas, rail_csv)
    members = {member: csv_bytes(rows) for member, rows in tables.items()}
    members["SYNTHETIC_README.txt"] = (
        f"SYNTHETIC GTFS feed for sbb-planner: an invented Saturday ({GAME_DAY.isoformat()}) of trains in the whole "
        f"game area of {game}, on the real ATLAS stop registry and the real SBB line km. Not a real timetable.\n"
        "Generator: tools/synth_area.py\n").encode()
    return write_members(out_dir, name, members, GAME_DAY, as_zip=as_zip, force=force)


def main(argv: list[str] | None = None) -> int:
    """``python -m tools.synth_area --game sbb-monopoly --out DIR [--zip]``: print the written path."""
    ap = argparse.ArgumentParser(prog="python -m tools.synth_area",
                                 description="write the SYNTHETIC full game day of a variant-A game as GTFS")
    ap.add_argument("--game", default="sbb-monopoly", help="game name or file (default sbb-monopoly)")
    ap.add_argument("--out", required=True, help="folder to write into (outside the repository)")
    ap.add_argument("--zip", action="store_true", help="one zip instead of a folder")
    ap.add_argument("--force", action="store_true",
                    help="replace a synthetic feed written there before (never a folder or file it did not write)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--registry", type=Path, default=ATLAS, help="ATLAS service points (zip)")
    ap.add_argument("--lines", type=Path, default=RAIL_CSV, help="SBB lines with operating points (CSV)")
    args = ap.parse_args(argv)
    try:
        path = write_feed(args.out, game=args.game, seed=args.seed, as_zip=args.zip, atlas=args.registry,
                          rail_csv=args.lines, force=args.force)
    except (SynthError, PlannerError) as exc:
        print(f"synth_area: error: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
