"""Web commands: ``planner game new`` (a game with join links per group) and ``planner serve`` (the phone app)."""

from __future__ import annotations

import argparse
import ipaddress
import os
import re
import sys

from planner.commands.base import emit
from planner.errors import InputError, PlannerError

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
    s.add_argument("--trusted-proxy", metavar="ADDR", default=None,
                   help="the reverse proxy's address (e.g. 127.0.0.1): only its X-Forwarded-For is believed "
                        "(default: none, the peer's address counts)")
    s.set_defaults(func=cmd_serve)


# http(s)://host[:port][/path]: a host name or address, no blanks, quotes or markup (the links are printed,
# put into QR codes and opened by phones).
_BASE_URL = re.compile(r"https?://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?)"
                       r"(?::(\d{1,5}))?(/[A-Za-z0-9._~%/-]*)?")


def base_url(arg: str | None) -> str:
    """The server's public address, without a trailing slash."""
    url = (arg or os.environ.get("PLANNER_BASE_URL") or DEFAULT_BASE).rstrip("/")
    m = _BASE_URL.fullmatch(url) if len(url) <= 200 else None
    if m is None or (m.group(2) and not 0 < int(m.group(2)) < 65536):
        raise InputError(f"--base-url {url[:80]!r}: expected http://HOST[:PORT] or https://HOST[/PATH]")
    return url


def cmd_game_new(args: argparse.Namespace) -> int:
    """Create the game; its tokens are shown now and never again (the database keeps only their hashes)."""
    from planner.gamefile.game import load_game
    from planner.gtfs.calendar import parse_date
    from planner.gtfs.source import FeedSource
    from planner.ledger.rules import ledger_rules
    from planner.store.games import WebStore, parse_group_names

    names = parse_group_names(args.groups)
    if args.game:  # a misspelt game file (or message template) is an error now, not at the server's start
        ledger_rules(load_game(args.game))
    if args.date:
        parse_date(args.date)
    if args.feed and not args.feed.startswith(("http:", "https:")):
        FeedSource(args.feed)  # a feed that is not there (or not a feed) is an error now, too
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
    for addr in (args.trusted_proxy or "").split(","):
        try:
            if args.trusted_proxy:
                ipaddress.ip_address(addr.strip())
        except ValueError:
            raise InputError(f"--trusted-proxy {addr!r}: expected the proxy's IP address, e.g. 127.0.0.1") from None
    app, worker = load_app(feed=args.feed, game=args.game, date=args.date, rate=args.rate_limit,
                           burst=max(1, int(args.rate_limit * 6)), secure_cookie=args.https)
    sys.stderr.write(f"planner: serving on http://{args.host}:{args.port} (Ctrl-C stops)\n")
    sys.stderr.flush()
    try:
        # X-Forwarded-For is believed only from the configured proxy: anyone else could rotate it to get past
        # the per-address limit on guessed tokens
        server = uvicorn.Server(uvicorn.Config(app, host=args.host, port=args.port, log_level="warning",
                                               proxy_headers=bool(args.trusted_proxy),
                                               forwarded_allow_ips=args.trusted_proxy or ""))
        worker.on_failed = lambda: setattr(server, "should_exit", True)  # uvicorn's graceful shutdown
        server.run()
    finally:
        worker.close()  # already closed by the app's shutdown unless uvicorn failed to start
    if worker.failed:  # a supervisor (systemd Restart=on-failure) starts the server again
        raise PlannerError(f"serve stopped: {worker.failed}", exit_code=1)
    return 0
