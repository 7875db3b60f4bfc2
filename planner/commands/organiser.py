"""Organiser commands: ``check-area`` (is the game area valid?), ``map`` (offline web maps), ``handout`` (print).

* ``planner check-area [--out report.html]``: every dice target, toll line and tunnel found, in the area and
  served during the game hours; stations, letter groups, connectivity. Exit 0 when valid, 1 when not.
* ``planner map area|route|target|reach``: Folium maps that work offline (``--standalone``: one HTML file).
* ``planner handout``: A4 PDF (area map in EPSG:2056 and the station list) plus 300 dpi PNGs.

Outputs go into the current folder by default (``$PLANNER_MAPS_DIR`` overrides); the path is printed. A file
that exists there is replaced only with ``--force`` (:func:`planner.commands.outputs.refuse_existing`).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from planner import config
from planner.commands.base import Context, emit
from planner.commands.outputs import refuse_existing
from planner.commands.route import origin_of_args
from planner.errors import InputError
from planner.gtfs.source import FeedSource
from planner.organiser.area_check import check_area
from planner.organiser.lab_link import lab_pointer
from planner.organiser.render import render_html, render_text
from planner.service.questions.map_questions import reach_map, route_map, target_map
from planner.service.setup.new_game import area_warning
from planner.store.games import GameRecord
from planner.store.state import State
from planner.util.atomic import atomic_write_text
from planner.util.i18n import _
from planner.util.text import file_slug
from planner.util.timefmt import fmt_clock

if TYPE_CHECKING:  # the join pages' module imports matplotlib: loaded only when a handout is drawn
    from planner.maps.join_codes import JoinLinks


def output_dir() -> Path:
    """Where a map or handout goes without ``--out``: ``$PLANNER_MAPS_DIR``, else the current folder (the
    organiser's, never the installed package's)."""
    env = os.environ.get("PLANNER_MAPS_DIR")
    return Path(env) if env else Path.cwd()


def demo_dir() -> Path:
    """Where ``make run``'s demo map goes: ``$PLANNER_MAPS_DIR``, else ``maps/`` of the checkout, else ``./maps``."""
    env = os.environ.get("PLANNER_MAPS_DIR")
    if env:
        return Path(env)
    root = config.repo_root()
    return root / "maps" if (root / "pyproject.toml").is_file() else Path.cwd() / "maps"


# ---- check-area ----------------------------------------------------------------------------------

def cmd_check_area(args: argparse.Namespace) -> int:
    """Validate the area; exit 1 with every problem listed when a target, toll line or tunnel fails."""
    ctx = Context(args)
    rep = check_area(ctx.timetable, ctx.game, ctx.network, FeedSource(ctx.feed), progress=ctx.progress)
    folder = Path(args.out).parent if args.out else Path.cwd()
    rep["lab"] = lab_pointer(ctx.feed, ctx.game_spec, ctx.game.name, ctx.date, folder)
    if args.out:
        out = Path(args.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(out, render_html(rep))
        rep["html"] = str(out)
    text = render_text(rep) + ("\n" + _("report: {path}").format(path=rep["html"]) if args.out else "")
    emit(args, rep, text)
    return 0 if rep["valid"] else 1


# ---- maps ----------------------------------------------------------------------------------------

def cmd_map(args: argparse.Namespace) -> int:
    """Draw one map and print where it went."""
    if not getattr(args, "map_kind", None):
        raise InputError(_("planner map: choose area, route, target or reach"))
    web = _web()
    ctx = Context(args)
    tt, game = ctx.timetable, ctx.game
    kind = args.map_kind
    info: dict = {"map": kind}
    if kind == "area":
        m, warnings = web.area_map(tt, game, tiles=args.tiles)
        default = f"area-{file_slug(game.name, tt.date)}.html"
    else:
        origin = origin_of_args(ctx, args.at, args.time, args.trip, args.since)
        here, when = tt.station_name[origin.station], fmt_clock(origin.time) or ""
        if kind == "route":
            ans = route_map(ctx.day, origin, ctx.station(args.target))
            title = f"{here} → {tt.station_name[ctx.station(args.target)]} ({when})"
            default = f"route-{file_slug(here, tt.station_name[ctx.station(args.target)], _hm(origin.time))}.html"
        elif kind == "target":
            ans = target_map(ctx.day, origin, args.roll, args.visited)
            title = _("Roll {roll} at {station} {time}: go to {target}").format(
                roll=args.roll, station=here, time=when, target=ans.answer.get("target") or "?")
            default = f"target-{file_slug(here, args.roll, _hm(origin.time))}.html"
        else:
            ans = reach_map(ctx.day, origin, args.bands)
            default = f"reach-{file_slug(here, _hm(origin.time))}.html"
        info["answer" if kind != "reach" else "stations"] = ans.answer if kind != "reach" else ans.answer["stations"]
        if ans.points:
            m = web.reach_map(tt, game, ans.points, here, when, ans.bands, tiles=args.tiles)
            warnings = list(ans.answer.get("warnings", []))
        else:
            legs = _shapes(tt, ans.journey) if ans.journey is not None else []
            m, warnings = web.journey_map(tt, game, legs, ans.answer, title=title, tiles=args.tiles)
    path = Path(args.out) if args.out else _default_out(args, output_dir() / default)
    web.save(m, path, standalone=args.standalone)
    info.update({"path": str(path), "standalone": bool(args.standalone), "warnings": warnings})
    if not args.json:
        for w in warnings:
            sys.stderr.write("planner: " + _("warning: {warning}").format(warning=w) + "\n")
    emit(args, info, str(path))
    return 0


def _web():
    """The map renderer, its assets checked. Lazy: folium, branca and the rail geometry add about 1.8 s to the
    start-up of every command that imports this module (measured: ``python -X importtime``)."""
    from planner.maps import assets, web

    assets.require()
    return web


def _shapes(tt, journey):
    from planner.maps.layers import journey_shapes  # lazy with the renderer (see _web)

    return journey_shapes(tt, journey)


def _default_out(args: argparse.Namespace, path: Path) -> Path:
    """The default output ``path`` when no file is there (or with ``--force``), as an ``--out`` given is guarded."""
    refuse_existing(args, "--out", path)
    return path


def _hm(sec: int) -> str:
    return (fmt_clock(sec) or "").replace(":", "")


# ---- handout -------------------------------------------------------------------------------------

def cmd_handout(args: argparse.Namespace) -> int:
    """Write the A4 handout (PDF) and its pages as PNG."""
    from planner.maps import assets
    from planner.maps.handout import make_handout  # lazy: matplotlib adds about 1 s (see _web)
    from planner.maps.join_codes import read_links

    assets.require()
    if not 50 <= args.dpi <= 600:
        raise InputError(_("--dpi {value}: expected 50 to 600").format(value=args.dpi))
    links = read_links(args.links) if args.links else None  # checked before anything is drawn or written
    ctx = Context(args, played=_links_game(links) if links else None)
    tt, game = ctx.timetable, ctx.game
    out = Path(args.out) if args.out else \
        _default_out(args, output_dir() / f"handout-{file_slug(game.name, tt.date)}.pdf")
    res = make_handout(tt, game, out, png_dpi=None if args.no_png else args.dpi)
    verdict = area_warning(ctx.day)  # a handout of an area check-area refuses says so
    info = {"pdf": str(res.pdf), "pages": res.pages, "png": [str(p) for p in res.png],
            "warnings": [*([verdict] if verdict else []), *res.warnings]}
    if links:
        info["join_pdf"] = _join_pages(links, game.title, out)
    if not args.json:
        for w in info["warnings"]:
            sys.stderr.write("planner: " + _("warning: {warning}").format(warning=w) + "\n")
    emit(args, info, "\n".join([str(res.pdf), *map(str, res.png), *([info["join_pdf"]] if args.links else [])]))
    return 0


def _links_game(links: JoinLinks) -> GameRecord | None:
    """The game the links file was made for: as the state keeps it, else as the file says (a state on another
    machine); None for a file that says nothing of it (the options as given then)."""
    with State(read_only=True) as state:
        rec = state.games.get(links.game)
    if rec is not None:
        return rec
    p = links.played_on
    if not p:
        return None
    return GameRecord(id=links.game, name=links.name, feed=p.get("feed"), game=p.get("game") or "",
                      date=p.get("date") or "", implicit=False, groups=())


def _join_pages(links: JoinLinks, title: str, handout: Path) -> str:
    """The join page beside the handout (``<stem>-join.pdf``): one QR code per group, headed by the game's name
    (the one ``game new --name`` gave it; the game file's title and the game id when the links file has none)."""
    from planner.maps.join_codes import write_join_pages

    game_id, groups, name, _played = links
    out = handout.with_name(f"{handout.stem}-join.pdf")
    heading = (_("{name} ({title})").format(name=name, title=title) if name
               else _("{title} (game {game})").format(title=title, game=game_id))
    write_join_pages(heading, groups, out)
    return str(out)
