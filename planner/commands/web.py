"""Web commands: ``planner game new`` (a game with join links per group) and ``planner serve`` (the phone app)."""

from __future__ import annotations

import argparse
import os
import sys

from planner.commands.base import emit
from planner.errors import InputError

DEFAULT_BASE = "http://127.0.0.1:8000"


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``game new`` and ``serve``."""
    p = sub.add_parser("game", help="organisers: create a game for the phone app (join links per group)")
    gsub = p.add_subparsers(dest="game_command", metavar="ACTION")
    n = gsub.add_parser("new", help="create a game and print the organiser's link and one join link per group")
    n.add_argument("--name", required=True, help="the game's name")
    n.add_argument("--groups", required=True, help='group names, comma-separated: "Rot,Blau,Gelb"')
    n.add_argument("--feed", help="GTFS feed of the day (default: as every command)")
    n.add_argument("--game", help="game file (default sbb-monopoly)")
    n.add_argument("--date", help="game day YYYY-MM-DD")
    n.add_argument("--base-url", help=f"where the server is reached (default $PLANNER_BASE_URL or {DEFAULT_BASE})")
    n.add_argument("--json", action="store_true", help="machine-readable output")
    n.set_defaults(func=cmd_game_new)

    s = sub.add_parser("serve", help="the phone app: one page per group, shared live state (ASGI, uvicorn)")
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    s.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    s.add_argument("--feed", help="feed for games created without one")
    s.add_argument("--game", help="game file for games created without one")
    s.add_argument("--date", help="game day for games created without one")
    s.add_argument("--rate-limit", type=float, default=10.0, metavar="N",
                   help="requests per second per token (bursts of 6 N), default 10")
    s.add_argument("--https", action="store_true",
                   help="behind an HTTPS reverse proxy: cookies are marked Secure")
    s.add_argument("--realtime", metavar="URL", help="GTFS-RT trip updates to poll (the platform's URL, or a "
                                                     "file another process updates): phones plan on real times")
    s.add_argument("--realtime-key-env", metavar="NAME", help="environment variable holding the API key")
    s.add_argument("--realtime-interval", type=float, default=30.0, metavar="S",
                   help="seconds between requests (default 30; at least 30: the platform's limit)")
    s.set_defaults(func=cmd_serve)


def base_url(arg: str | None) -> str:
    """The server's public address, without a trailing slash."""
    url = (arg or os.environ.get("PLANNER_BASE_URL") or DEFAULT_BASE).rstrip("/")
    if not url.startswith(("http://", "https://")):
        raise InputError(f"--base-url {url!r}: expected http://HOST[:PORT] or https://HOST")
    return url


def cmd_game_new(args: argparse.Namespace) -> int:
    """Create the game; its tokens are shown now and never again (the database keeps only their hashes)."""
    from planner.gamefile.game import load_game
    from planner.gtfs.calendar import parse_date
    from planner.store.games import WebStore, parse_group_names

    names = parse_group_names(args.groups)
    if args.game:
        load_game(args.game)  # a misspelt game file is an error now, not at start-up of the server
    if args.date:
        parse_date(args.date)
    base = base_url(args.base_url)
    feed = os.path.abspath(args.feed) if args.feed and not args.feed.startswith(("http:", "https:")) else args.feed
    with WebStore() as store:
        new = store.create_game(args.name, names, feed=feed, game=args.game, date=args.date)
    out = {"game": new.game.id,
           "organiser": {"url": f"{base}/join?t={new.organiser_token}", "token": new.organiser_token},
           "groups": [{"name": n, "url": f"{base}/join?t={t}", "token": t}
                      for n, t in zip(names, new.group_tokens, strict=True)]}
    lines = [f"game {new.game.id} ({new.game.name}); keep these links, they are shown only once",
             f"organiser: {out['organiser']['url']}"]
    lines += [f"{g['name']}: {g['url']}" for g in out["groups"]]
    emit(args, out, "\n".join(lines))
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    """Load every game's day, then serve until interrupted."""
    import uvicorn

    from planner.web.app import load_app

    if not 0 < args.port < 65536:
        raise InputError(f"--port {args.port}: expected 1 to 65535")
    if not 0.1 <= args.rate_limit <= 1000:
        raise InputError(f"--rate-limit {args.rate_limit}: expected 0.1 to 1000 requests a second")
    live, realtime = _realtime(args)
    app, worker = load_app(feed=args.feed, game=args.game, date=args.date, rate=args.rate_limit,
                           burst=max(1, int(args.rate_limit * 6)), secure_cookie=args.https, realtime=realtime)
    sys.stderr.write(f"planner: serving on http://{args.host}:{args.port} (Ctrl-C stops)\n")
    sys.stderr.flush()
    try:
        uvicorn.run(app, host=args.host, port=args.port, log_level="warning", proxy_headers=True,
                    forwarded_allow_ips="127.0.0.1")
    finally:
        worker.close()  # already closed by the app's shutdown unless uvicorn failed to start
        if live is not None:
            live.stop()
    return 0


def _realtime(args: argparse.Namespace):
    """``--realtime``: a URL is polled by one thread into a file every process reads; a file is read as it
    changes. Returns (the poller or None, the file)."""
    if not args.realtime:
        return None, None
    from planner.realtime.feed import api_key, is_url

    if not is_url(args.realtime):
        return None, os.path.abspath(args.realtime)
    if args.realtime_interval < 30:
        raise InputError(f"--realtime-interval {args.realtime_interval}: at least 30 s (the platform's limit)")
    from planner import config
    from planner.realtime.live import LiveFeed

    path = config.cache_root() / "realtime" / f"live-{os.getpid()}.pb"
    live = LiveFeed(args.realtime, path, key=api_key(args.realtime_key_env), interval=args.realtime_interval)
    status = live.start()
    if status.get("error"):
        sys.stderr.write(f"planner: warning: {status['error']}: phones plan on the timetable until it answers\n")
    return live, str(path)
