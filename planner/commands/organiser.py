"""Organiser commands: ``check-area`` (is the game area valid?), ``map`` (offline web maps), ``handout`` (print).

* ``planner check-area [--out report.html]``: every dice target, toll line and tunnel found, in the area and
  served during the game hours; stations, letter groups, connectivity. Exit 0 when valid, 1 when not.
* ``planner map area|route|target|reach``: Folium maps that work offline (``--standalone``: one HTML file).
* ``planner handout``: A4 PDF (area map in EPSG:2056 and the station list) plus 300 dpi PNGs.

Outputs go to ``maps/`` by default (``$PLANNER_MAPS_DIR`` overrides); the path is printed.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

from planner import config
from planner.commands import argtypes
from planner.commands.base import Context, add_common, add_position, add_roll, emit
from planner.errors import InputError
from planner.util.atomic import atomic_write_text
from planner.util.text import fold
from planner.util.timefmt import fmt_clock


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``check-area``, ``map`` and ``handout``."""
    p = sub.add_parser("check-area", help="organisers: is the game area valid on the game day? (exit 1 if not)")
    p.add_argument("--out", type=argtypes.out_file, metavar="REPORT.html", help="also write a self-contained HTML report")
    add_common(p)
    p.set_defaults(func=cmd_check_area)

    p = sub.add_parser("map", help="offline maps: the area, an itinerary, a dice target, how far a group gets")
    msub = p.add_subparsers(dest="map_kind", metavar="KIND")
    a = msub.add_parser("area", help="ring, lines and stations by category, dice targets, toll lines, tunnels")
    _map_options(a)
    a.set_defaults(func=cmd_map)
    r = msub.add_parser("route", help="the fastest itinerary (as planner route)")
    add_position(r)
    r.add_argument("--to", dest="target", required=True, help="target station")
    _map_options(r)
    r.set_defaults(func=cmd_map)
    t = msub.add_parser("target", help="the dice target to head for and how (as planner target)")
    add_position(t)
    add_roll(t)
    _map_options(t)
    t.set_defaults(func=cmd_map)
    q = msub.add_parser("reach", help="stations reachable within 30/60/90 minutes from a position")
    add_position(q)
    q.add_argument("--bands", default="30,60,90", help="minutes, comma-separated (default 30,60,90)")
    _map_options(q)
    q.set_defaults(func=cmd_map)

    p = sub.add_parser("handout", help="print export: A4 PDF (area map, station list) and 300 dpi PNGs")
    p.add_argument("--out", type=argtypes.out_file, metavar="HANDOUT.pdf", help="PDF path (default maps/handout-<game>-<date>.pdf)")
    p.add_argument("--no-png", action="store_true", help="skip the PNG pages")
    p.add_argument("--dpi", type=argtypes.integer(50, 1200, "dpi"), default=300, help="PNG resolution (default 300)")
    p.add_argument("--links", metavar="GAME.json", help="the saved output of 'planner game new --json': also "
                                                         "write <handout>-join.pdf, one QR code per group")
    add_common(p)
    p.set_defaults(func=cmd_handout)


def _map_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", type=argtypes.out_file, metavar="MAP.html", help="output file (default maps/<kind>-....html)")
    p.add_argument("--standalone", action="store_true",
                   help="one self-contained HTML file (Leaflet inlined): works when copied to a phone")
    p.add_argument("--tiles", action="store_true", help="add OpenStreetMap tiles (needs the internet)")
    add_common(p)


def output_dir() -> Path:
    """``$PLANNER_MAPS_DIR``, else ``maps/`` of the checkout, else ``./maps``."""
    env = os.environ.get("PLANNER_MAPS_DIR")
    if env:
        return Path(env)
    root = config.repo_root()
    return root / "maps" if (root / "pyproject.toml").is_file() else Path.cwd() / "maps"


def _slug(*parts: object) -> str:
    s = "-".join(fold(str(p)) for p in parts if p not in (None, ""))
    return re.sub(r"[^a-z0-9]+", "-", s).strip("-") or "map"


# ---- check-area ----------------------------------------------------------------------------------

def cmd_check_area(args: argparse.Namespace) -> int:
    """Validate the area; exit 1 with every problem listed when a target, toll line or tunnel fails."""
    from planner.gtfs.source import FeedSource
    from planner.organiser.area_check import check_area
    from planner.organiser.render import render_html, render_text

    ctx = Context(args)
    rep = check_area(ctx.timetable, ctx.game, ctx.network, FeedSource(ctx.feed), progress=ctx.progress)
    if args.out:
        out = Path(args.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(out, render_html(rep))
        rep["html"] = str(out)
    text = render_text(rep) + (f"\nreport: {rep['html']}" if args.out else "")
    emit(args, rep, text)
    return 0 if rep["valid"] else 1


# ---- maps ----------------------------------------------------------------------------------------

def cmd_map(args: argparse.Namespace) -> int:
    """Draw one map and print where it went."""
    from planner.maps import assets, web

    if not getattr(args, "map_kind", None):
        raise InputError("planner map: choose area, route, target or reach")
    assets.require()
    ctx = Context(args)
    tt, game = ctx.timetable, ctx.game
    kind = args.map_kind
    info: dict = {"map": kind}
    if kind == "area":
        m, warnings = web.area_map(tt, game, tiles=args.tiles)
        default = f"area-{_slug(game.name, tt.date)}.html"
    elif kind == "reach":
        m, warnings, default = _reach(ctx, args, info)
    elif kind == "route":
        m, warnings, default = _route(ctx, args, info)
    else:
        m, warnings, default = _target(ctx, args, info)
    path = Path(args.out) if args.out else output_dir() / default
    web.save(m, path, standalone=args.standalone)
    info.update({"path": str(path), "standalone": bool(args.standalone), "warnings": warnings})
    if not args.json:
        for w in warnings:
            sys.stderr.write(f"planner: warning: {w}\n")
    emit(args, info, str(path))
    return 0


def _route(ctx: Context, args, info: dict):
    from planner.commands.route import journey_json, resolve_origin
    from planner.maps import web
    from planner.maps.layers import journey_shapes
    from planner.routing import best_journey
    from planner.service.views import zugzwang_json

    origin = resolve_origin(ctx, args.at, args.time, args.trip, getattr(args, "since", None))
    target = ctx.station(args.target)
    j = best_journey(ctx.network, origin, target, end_time=ctx.day.search_end)
    out = journey_json(ctx, j, origin, target)
    out["zugzwang"] = zugzwang_json(origin)
    tt = ctx.timetable
    title = f"{tt.station_name[origin.station]} → {tt.station_name[target]} ({fmt_clock(origin.time)})"
    legs = journey_shapes(tt, j) if j is not None else []
    m, warnings = web.journey_map(tt, ctx.game, legs, out, title=title, tiles=args.tiles)
    info["answer"] = out
    return m, warnings, f"route-{_slug(tt.station_name[origin.station], tt.station_name[target], _hm(origin.time))}.html"


def _target(ctx: Context, args, info: dict):
    from planner.commands.rules import decide_roll, dice_json
    from planner.maps import web
    from planner.maps.layers import journey_shapes, reach_points

    game, tt = ctx.game, ctx.timetable
    visited = [v.strip() for v in args.visited.split(";") if v.strip()]
    ans, origin = decide_roll(ctx, args, args.roll, visited)
    out = dice_json(ctx, ans, origin)
    info["answer"] = out
    here = tt.station_name[origin.station]
    name = f"target-{_slug(here, args.roll, _hm(origin.time))}.html"
    if ans.kind == "free":  # free movement: show how far the group gets in its free minutes
        step = max(game.dice.free_minutes // 3, 1)
        bands = (step, 2 * step, game.dice.free_minutes)
        pts = reach_points(ctx.network, origin, bands)
        m = web.reach_map(tt, game, pts, here, fmt_clock(origin.time) or "", bands, tiles=args.tiles)
        return m, list(out.get("warnings", [])), name
    title = f"Roll {args.roll} at {here} {fmt_clock(origin.time)}: go to {ans.target or '?'}"
    legs = journey_shapes(tt, ans.journey) if ans.journey is not None else []
    m, warnings = web.journey_map(tt, game, legs, out, title=title, tiles=args.tiles)
    return m, warnings, name


def _reach(ctx: Context, args, info: dict):
    from planner.commands.route import resolve_origin
    from planner.maps import web
    from planner.maps.layers import reach_points

    try:
        bands = tuple(sorted({int(b) for b in args.bands.split(",") if b.strip()}))
    except ValueError:
        raise InputError(f"--bands {args.bands!r}: expected minutes like 30,60,90") from None
    if not bands or bands[0] <= 0 or bands[-1] > 600:
        raise InputError(f"--bands {args.bands!r}: minutes between 1 and 600")
    origin = resolve_origin(ctx, args.at, args.time, args.trip, getattr(args, "since", None))
    tt = ctx.timetable
    pts = reach_points(ctx.network, origin, bands)
    here = tt.station_name[origin.station]
    info["stations"] = {str(b): sorted(p.name for p in pts if p.band == b) for b in bands}
    m = web.reach_map(tt, ctx.game, pts, here, fmt_clock(origin.time) or "", bands, tiles=args.tiles)
    return m, [], f"reach-{_slug(here, _hm(origin.time))}.html"


def _hm(sec: int) -> str:
    return (fmt_clock(sec) or "").replace(":", "")


# ---- handout -------------------------------------------------------------------------------------

def cmd_handout(args: argparse.Namespace) -> int:
    """Write the A4 handout (PDF) and its pages as PNG."""
    from planner.maps import assets
    from planner.maps.handout import make_handout
    from planner.maps.join_codes import read_links

    assets.require()
    if not 50 <= args.dpi <= 600:
        raise InputError(f"--dpi {args.dpi}: expected 50 to 600")
    links = read_links(args.links) if args.links else None  # checked before anything is drawn or written
    ctx = Context(args)
    tt, game = ctx.timetable, ctx.game
    out = Path(args.out) if args.out else output_dir() / f"handout-{_slug(game.name, tt.date)}.pdf"
    res = make_handout(tt, game, out, png_dpi=None if args.no_png else args.dpi)
    info = {"pdf": str(res.pdf), "pages": res.pages, "png": [str(p) for p in res.png], "warnings": res.warnings}
    if links:
        info["join_pdf"] = _join_pages(links, game.title, out)
    if not args.json:
        for w in res.warnings:
            sys.stderr.write(f"planner: warning: {w}\n")
    emit(args, info, "\n".join([str(res.pdf), *map(str, res.png), *([info["join_pdf"]] if args.links else [])]))
    return 0


def _join_pages(links: tuple[str, list[tuple[str, str]]], title: str, handout: Path) -> str:
    """The join page beside the handout (``<stem>-join.pdf``): one QR code per group."""
    from planner.maps.join_codes import write_join_pages

    game_id, groups = links
    out = handout.with_name(f"{handout.stem}-join.pdf")
    write_join_pages(f"{title} (game {game_id})", groups, out)
    return str(out)
