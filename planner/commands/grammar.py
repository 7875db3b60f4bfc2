"""The command line's grammar: every command, its options and its handler, in one place.

A command that records in the state says so (``writes_state``); every other one opens the state read-only
(:attr:`planner.commands.base.Context.state`), so it reads a state in a folder it may not write.

Handlers are the functions of :mod:`planner.commands.handlers`, each importing its command module only when the
command runs: building this parser imports nothing but argparse, so ``planner --help`` and a mistyped option
answer at once, whatever the handlers load (the routing kernels, pandas, folium, matplotlib).
"""

from __future__ import annotations

import argparse

from planner.commands import argtypes, grammar_ledger, handlers
from planner.util.i18n import N_


def add_common(p: argparse.ArgumentParser, *, date: bool = True, game: bool = True) -> None:
    """``--feed --game --date --json --progress`` (the options every command accepts)."""
    p.add_argument("--feed", type=argtypes.feed, help=N_("GTFS zip, folder or URL (default: $PLANNER_FEED, config, downloaded, demo)"))
    if game:
        p.add_argument("--game", type=argtypes.in_file, help=N_("game name, path to a .toml, or 'none' for the whole feed"))
    if date:
        p.add_argument("--date", help=N_("game day YYYY-MM-DD"))
    p.add_argument("--json", action="store_true", help=N_("machine-readable output"))
    p.add_argument("--progress", action="store_true", default=None, help=N_("show progress bars"))


def add_game_id(p: argparse.ArgumentParser) -> None:
    """``--game-id``: the created game a group command addresses."""
    p.add_argument("--game-id", help=N_("the game (from 'planner game new'); default $PLANNER_GAME_ID, else the only "
                                     "game in the state, else the implicit game of --game and --date"))


def add_since(p: argparse.ArgumentParser) -> None:
    """``--since``: when a standing group got off at its station (its change window started then)."""
    p.add_argument("--since", metavar="HH:MM", help=N_("the group has been at the station since then (default: "
                                                     "--time); the change window (29-minute rule) counts from it"))


def add_routing(p: argparse.ArgumentParser) -> None:
    """Routing options shared by every command that routes."""
    p.add_argument("--min-transfer", type=argtypes.minutes(0, 60), metavar="M",
                   help=N_("uniform minimum change time in minutes (a slow group)"))
    p.add_argument("--no-zugzwang", action="store_true",
                   help=N_("plain timetable routing: ignore the game's change window (29-minute rule)"))
    add_realtime(p)


def add_realtime(p: argparse.ArgumentParser) -> None:
    """``--realtime FILE_OR_URL`` and ``--realtime-key-env NAME``: answers on predicted times (and §17 jail)."""
    p.add_argument("--realtime", metavar="FILE_OR_URL", type=argtypes.in_file,
                   help=N_("GTFS-RT trip updates (a file, or the platform's URL): route on predicted times"))
    p.add_argument("--realtime-key-env", metavar="NAME", type=argtypes.text,
                   help=N_("environment variable holding the API key for a --realtime URL"))


def add_position(p: argparse.ArgumentParser) -> None:
    """Where the group is: ``--at``/``--from`` a station at ``--time``, or seated in ``--trip``."""
    p.add_argument("--at", "--from", dest="at",
                   help=N_("station where the group stands (or the stop its train is at/approaching, with --trip)"))
    p.add_argument("--time", help=N_("HH:MM (default with --trip: the trip's time there)"))
    p.add_argument("--trip", help=N_("the train the group sits in: trip id, or line and time as 'IR75 10:03'"))
    add_since(p)
    add_routing(p)


def add_roll(p: argparse.ArgumentParser) -> None:
    """``--roll`` and ``--visited`` (dice target questions)."""
    p.add_argument("--roll", type=int, required=True, help=N_("one die 1-6 (variant A) or white*10+coloured (B)"))
    p.add_argument("--visited", default="", help=N_('targets already targeted, ";"-separated'))


def _feed(sub) -> None:
    p = sub.add_parser("feed-info", help=N_("what a feed holds (and on a date)"))
    add_common(p, game=False)
    p.set_defaults(handler=handlers.cmd_feed_info)
    p = sub.add_parser("feed", help=N_("feed sources: download the official Swiss feed"))
    fsub = p.add_subparsers(dest="feed_command", metavar="ACTION")
    d = fsub.add_parser("download", help=N_("download the current official GTFS feed (opentransportdata.swiss)"))
    d.add_argument("--url", type=argtypes.url, help=N_("a direct URL of a GTFS zip (default: found from the dataset page)"))
    d.add_argument("--out", type=argtypes.out_folder, help=N_("folder (default: feeds/)"))
    d.add_argument("--json", action="store_true")
    d.set_defaults(handler=handlers.cmd_download)
    p = sub.add_parser("export", help=N_("write the pruned game day as a GTFS zip (for other GTFS tools)"))
    add_common(p)
    p.add_argument("--out", type=argtypes.out_file, required=True, help=N_("path of the zip to write"))
    p.set_defaults(handler=handlers.cmd_export)
    p = sub.add_parser("stations", help=N_("in-area stations served on the day, with price and letter"))
    add_common(p)
    p.set_defaults(handler=handlers.cmd_stations)


def _route(sub) -> None:
    p = sub.add_parser("route", help=N_("fastest way from a station (or from the train you sit in) to a station"))
    p.add_argument("--from", dest="origin", help=N_("station where the group stands (or the stop its train is at "
                                                 "or approaching, with --trip)"))
    p.add_argument("--to", dest="target", help=N_("target station"))
    p.add_argument("--time", help=N_("HH:MM (default: the trip's time at --from when --trip is given)"))
    p.add_argument("--trip", help=N_("the train the group sits in: trip id, or line and time as 'IR75 10:03'"))
    add_since(p)
    p.add_argument("--within", type=argtypes.minutes(0, 600), metavar="MIN",
                   help=N_("also list every itinerary arriving at most MIN minutes after the fastest"))
    p.add_argument("--group", help=N_("for this group: priced with its fees (ledger); without --from, from where it is "
                                  "in its day (to its target when --to is left out)"))
    p.add_argument("--batch", metavar="CSV", type=argtypes.in_file, help=N_("answer many queries: CSV with columns from,to,time[,trip]"))
    add_game_id(p)
    add_common(p)
    add_routing(p)
    p.set_defaults(handler=handlers.cmd_route)


def _rules(sub) -> None:
    p = sub.add_parser("target", help=N_("we rolled N: the dice target to head for, and how"))
    p.add_argument("--group", help=N_("price the itinerary for this group (fees from the ledger)"))
    add_position(p)
    add_roll(p)
    add_game_id(p)
    add_common(p)
    p.set_defaults(handler=handlers.cmd_target)
    p = sub.add_parser("zugzwang", help=N_("29-minute rule: which trains may we take after getting off here?"))
    p.add_argument("--at", help=N_("station where the group got off"))
    p.add_argument("--time", help=N_("HH:MM when the group got off"))
    p.add_argument("--trip", help=N_("the train the group got off (excluded)"))
    p.add_argument("--check", metavar="LEGS.csv", type=argtypes.in_file, help=N_("check a day's log: CSV from,to,departure,arrival[,route]"))
    add_common(p)
    add_routing(p)
    p.set_defaults(handler=handlers.cmd_zugzwang)
    p = sub.add_parser("bonus", help=N_("full-hour bonus: trains we can sit in arriving/departing at hh:00"))
    p.add_argument("--group", help=N_("a group's day: only chances on the ways it may take (bound to its target)"))
    add_position(p)
    add_game_id(p)
    add_common(p)
    p.set_defaults(handler=handlers.cmd_bonus)
    p = sub.add_parser("tolls", help=N_("toll lines and tunnels a trip crosses, and the fees owed"))
    p.add_argument("--trip", required=True, help=N_("trip id"))
    p.add_argument("--from", dest="origin", help=N_("boarding station (default: the trip's first in-area stop)"))
    p.add_argument("--to", dest="target", help=N_("alighting station (default: its last in-area stop)"))
    p.add_argument("--owners", type=argtypes.in_file, help=N_("TOML: [owners] \"Olten–Aarau\" = \"group 2\" ... (fees by owner's count)"))
    p.add_argument("--tunnel-dice", type=int, help=N_("sum of the two dice rolled for a tunnel fee (2-12)"))
    add_common(p)
    p.set_defaults(handler=handlers.cmd_tolls)


def _group(sub) -> None:
    p = sub.add_parser("roll", help=N_("record a group's roll and apply the rules (its day is remembered)"))
    p.add_argument("--group", required=True, help=N_("group name or number (case and accents do not matter)"))
    p.add_argument("--dice", type=int, required=True, help=N_("the roll (as for target --roll)"))
    p.add_argument("--roll-id", help=N_("client id making a retried command idempotent"))
    p.add_argument("--card", help=N_("a kept card turning the roll into a 6 (variant B's 'Freiheit vor dem Würfelziel')"))
    add_position(p)
    add_game_id(p)
    add_common(p)
    p.set_defaults(handler=handlers.cmd_roll, writes_state=True)
    p = sub.add_parser("next", help=N_("what now? where the group is, what it must do, the itinerary"))
    p.add_argument("--group", required=True)
    p.add_argument("--time", help=N_("HH:MM (default: now on the game day)"))
    add_game_id(p)
    add_common(p)
    add_realtime(p)
    p.set_defaults(handler=handlers.cmd_next)
    p = sub.add_parser("group", help=N_("a group's day: status, list, undo, position"))
    gsub = p.add_subparsers(dest="group_command", metavar="ACTION")
    s = gsub.add_parser("status", help=N_("where the group is, what binds it, its rolls and targets"))
    s.add_argument("--group", required=True)
    s.add_argument("--time", help=N_("HH:MM (default: the group's latest entry, or now)"))
    add_game_id(s)
    add_common(s)
    add_realtime(s)
    s.set_defaults(handler=handlers.cmd_group_status)
    s = gsub.add_parser("list", help=N_("every group of the game with its state"))
    s.add_argument("--time", help=N_("the time the groups' states are for, HH:MM"))
    add_game_id(s)
    add_common(s)
    add_realtime(s)
    s.set_defaults(handler=handlers.cmd_group_list)
    u = gsub.add_parser("undo", help=N_("remove the group's latest entry (a mistyped roll or position)"))
    u.add_argument("--group", required=True)
    add_game_id(u)
    add_common(u)
    u.set_defaults(handler=handlers.cmd_group_undo, writes_state=True)
    u = gsub.add_parser("position", help=N_("we got off at X at T, or we are in the IR75 12:25"))
    u.add_argument("--group", required=True)
    u.add_argument("--late", type=argtypes.integer(0, 600, "--late"), metavar="MIN",
                   help=N_("our train arrived MIN minutes late here (§17: jail by the game's rule)"))
    add_position(u)
    add_game_id(u)
    add_common(u)
    u.set_defaults(handler=handlers.cmd_group_position, writes_state=True)


def _map_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", type=argtypes.out_file, metavar="MAP.html", help=N_("output file (default <kind>-....html in the current folder)"))
    p.add_argument("--standalone", action="store_true",
                   help=N_("one self-contained HTML file (Leaflet inlined): works when copied to a phone"))
    p.add_argument("--tiles", action="store_true", help=N_("add OpenStreetMap tiles (needs the internet)"))
    add_common(p)


def _organiser(sub) -> None:
    p = sub.add_parser("check-area", help=N_("organisers: is the game area valid on the game day? (exit 1 if not)"))
    p.add_argument("--out", type=argtypes.out_file, metavar="REPORT.html", help=N_("also write a self-contained HTML report"))
    add_common(p)
    p.set_defaults(handler=handlers.cmd_check_area)
    p = sub.add_parser("map", help=N_("offline maps: the area, an itinerary, a dice target, how far a group gets"))
    msub = p.add_subparsers(dest="map_kind", metavar="KIND")
    a = msub.add_parser("area", help=N_("ring, lines and stations by category, dice targets, toll lines, tunnels"))
    _map_options(a)
    a.set_defaults(handler=handlers.cmd_map)
    r = msub.add_parser("route", help=N_("the fastest itinerary (as planner route)"))
    add_position(r)
    r.add_argument("--to", dest="target", required=True, help=N_("target station"))
    _map_options(r)
    r.set_defaults(handler=handlers.cmd_map)
    t = msub.add_parser("target", help=N_("the dice target to head for and how (as planner target)"))
    add_position(t)
    add_roll(t)
    _map_options(t)
    t.set_defaults(handler=handlers.cmd_map)
    q = msub.add_parser("reach", help=N_("stations reachable within 30/60/90 minutes from a position"))
    add_position(q)
    q.add_argument("--bands", default="30,60,90", help=N_("minutes, comma-separated (default 30,60,90)"))
    _map_options(q)
    q.set_defaults(handler=handlers.cmd_map)
    p = sub.add_parser("handout", help=N_("print export: A4 PDF (area map, station list) and 300 dpi PNGs"))
    p.add_argument("--out", type=argtypes.out_file, metavar="HANDOUT.pdf", help=N_("PDF path (default handout-<game>-<date>.pdf in the current folder)"))
    p.add_argument("--no-png", action="store_true", help=N_("skip the PNG pages"))
    p.add_argument("--dpi", type=argtypes.integer(50, 1200, "dpi"), default=300, help=N_("PNG resolution (default 300)"))
    p.add_argument("--links", metavar="GAME.json", type=argtypes.in_file, help=N_("the saved output of 'planner game new --json': also "
                                                         "write <handout>-join.pdf, one QR code per group"))
    add_common(p)
    # written beside the PDF: its pages as PNG, the join codes (guarded as outputs: planner.commands.outputs)
    p.set_defaults(handler=handlers.cmd_handout, out_companions=("{stem}-p*.png", "{stem}-join.pdf"))


def _ledger(sub) -> None:
    grammar_ledger.section(sub, add_common, add_game_id, add_realtime)


def _others(sub) -> None:
    p = sub.add_parser("demo", help=N_("load the game day and answer real questions (the make-run demo)"))
    add_common(p)
    p.add_argument("--at", default="Zug", help=N_("where the demo group stands (default Zug)"))
    p.add_argument("--time", default="12:40", help=N_("when (default 12:40, after dice start)"))
    p.add_argument("--roll", type=int, default=2, help=N_("the demo roll (default 2)"))
    p.add_argument("--no-map", action="store_true", help=N_("skip writing the demo map"))
    p.set_defaults(handler=handlers.cmd_demo)
    p = sub.add_parser("game", help=N_("organisers: create a game for phones and the command line (a link per group)"))
    gsub = p.add_subparsers(dest="game_command", metavar="ACTION")
    n = gsub.add_parser("new", help=N_("create a game and print the organiser's link and one join link per group"))
    n.add_argument("--name", required=True, help=N_("the game's name"))
    n.add_argument("--groups", required=True, help=N_('group names, comma-separated: "Rot,Blau,Gelb"'))
    add_common(n)
    n.add_argument("--base-url", help=N_("where the server is reached (default $PLANNER_BASE_URL or http://127.0.0.1:8000)"))
    n.set_defaults(handler=handlers.cmd_game_new, writes_state=True)
    s = sub.add_parser("serve", help=N_("the phone app: one page per group, shared live state (ASGI, uvicorn)"))
    s.add_argument("--host", default="127.0.0.1", help=N_("address to listen on (default 127.0.0.1)"))
    s.add_argument("--port", type=int, default=8000, help=N_("port (default 8000)"))
    s.add_argument("--feed", help=N_("feed for games created without one"))
    s.add_argument("--rate-limit", type=float, default=10.0, metavar="N",
                   help=N_("requests per second per token (bursts of 6 N), default 10"))
    s.add_argument("--https", action="store_true",
                   help=N_("behind an HTTPS reverse proxy: cookies are marked Secure"))
    s.add_argument("--poll-interval", type=float, default=None, metavar="S",
                   help=N_("seconds between the pages' looks at their clock, at most (default: 1 on a group's page, "
                        "30 on the organiser's); news of the game reach both at once by a long poll"))
    s.add_argument("--realtime", metavar="URL", help=N_("GTFS-RT trip updates to poll (the platform's URL, or a "
                                                     "file another process updates): phones plan on real times"))
    s.add_argument("--realtime-key-env", metavar="NAME", help=N_("environment variable holding the API key"))
    s.add_argument("--realtime-interval", type=float, default=30.0, metavar="S",
                   help=N_("seconds between requests (default 30; at least 30: the platform's limit)"))
    s.add_argument("--trusted-proxy", metavar="ADDR", default=None,
                   help=N_("the reverse proxy's address (e.g. 127.0.0.1): only its X-Forwarded-For is believed "
                        "(default: none, the peer's address counts)"))
    s.set_defaults(handler=handlers.cmd_serve)
    p = sub.add_parser("schema", help=N_("the JSON Schema of the answers (--json of every command, the web API)"))
    p.add_argument("name", nargs="?", help=N_("an answer (roll, next, route, ...); none: list them"))
    p.add_argument("--all", action="store_true", help=N_("every answer's schema, by name"))
    p.add_argument("--write", type=argtypes.out_folder, metavar="FOLDER",
                   help=N_("write NAME.json for each answer (or the one named) into FOLDER"))
    p.add_argument("--force", action="store_true", help=N_("replace NAME.json files that exist in FOLDER"))
    p.set_defaults(handler=handlers.cmd_schema)


def _lab(sub) -> None:
    p = sub.add_parser("simulate", help=N_("the game lab: play whole simulated game days and judge the game"))
    p.add_argument("--groups", type=argtypes.integer(1, 12, N_("groups")), default=6, help=N_("groups per day (default 6)"))
    p.add_argument("--days", type=argtypes.integer(1, 1_000_000, N_("days")), default=100,
                   help=N_("simulated days (default 100)"))
    p.add_argument("--seed", type=argtypes.integer(0, 2**31 - 1, N_("seed")), default=0,
                   help=N_("random seed: the same seed gives the same output (default 0)"))
    p.add_argument("--strategy", default="mix", help=N_("random, ic, greedy, fast, or mix (the groups in turn; default)"))
    p.add_argument("--trace", type=argtypes.out_file, metavar="FILE",
                   help=N_("write one JSON line per roll and per ledger event (and each group's legs); a roll's "
                        "'since': for a standing group when it came to 'at' (got off there, or started there; "
                        "its change window runs from it), for a seated one ('seated': true) the timetable time "
                        "of its train 'trip' at 'at', the stop the train is at or approaching (so it may lie "
                        "after the roll's 'time'; replay it with roll --trip TRIP --at AT, no --since)"))
    p.add_argument("--out", type=argtypes.out_file, metavar="REPORT.html", help=N_("write the report page (HTML)"))
    p.add_argument("--executor", default="process", choices=("process", "serial", "dask"),
                   help=N_("how days run: a process pool (default), one after another, or Dask distributed"))
    p.add_argument("--workers", type=argtypes.integer(1, 256, N_("workers")), help=N_("worker processes (default: CPUs)"))
    p.add_argument("--scheduler", help=N_("a Dask scheduler address (with --executor dask; default a LocalCluster)"))
    p.add_argument("--replace-rates", action="store_true",
                   help=N_("advise's fee rates: this run's replace those kept for the game day even when that run "
                        "simulated more group-days (days x groups); by default the run with the most is kept"))
    add_common(p)
    add_routing(p)
    p.set_defaults(handler=handlers.cmd_simulate)
    p = sub.add_parser("advise", help=N_("the stations to buy where the group is, on its itinerary, or (moving freely) "
                                      "on a train it may take, by fees expected before the end against the price"))
    p.add_argument("--group", required=True, help=N_("the group (name or number)"))
    p.add_argument("--time", help=N_("HH:MM (default: now on the game day, else the group's latest entry; an earlier "
                                  "time than its latest entry gives its latest state, as next does)"))
    p.add_argument("--top", type=argtypes.integer(1, 100, "top"), default=5, help=N_("stations listed (default 5)"))
    add_game_id(p)
    add_common(p)
    add_routing(p)
    p.set_defaults(handler=handlers.cmd_advise)


SECTIONS = (_feed, _route, _rules, _group, _organiser, _ledger, _lab, _others)  # order = order in --help


def register_all(sub: argparse._SubParsersAction) -> None:
    """Add every command to ``sub``."""
    for section in SECTIONS:
        section(sub)
