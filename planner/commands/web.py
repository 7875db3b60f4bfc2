"""Web commands: ``planner game new`` (a game for phones and the command line, a join link per group) and
``planner serve`` (the phone app)."""

from __future__ import annotations

import argparse
import errno
import ipaddress
import os
import socket
import sys

import uvicorn

from planner import config
from planner.commands.base import Context, emit
from planner.errors import InputError, PlannerError
from planner.realtime.feed import api_key, is_url
from planner.realtime.live import LiveFeed
from planner.service.setup.new_game import DEFAULT_BASE, area_warning, create_game
from planner.util.i18n import _
from planner.web.app import load_app

STOP_GRACE = 5  # seconds requests still running may take once the server is told to stop


def cmd_game_new(args: argparse.Namespace) -> int:
    """Create the game; its tokens are shown now and never again (the database keeps only their hashes)."""
    ctx = Context(args)
    feed = args.feed
    if feed and not feed.startswith(("http:", "https:")):
        feed = os.path.abspath(feed)
    if not feed and config.demo_fallback(ctx.feed) and ctx.game.name != config.DEFAULT_GAME:
        raise InputError(_("game {game}: the demo extract {feed} is not its timetable; give its feed with "
                           "--feed").format(game=ctx.game.name, feed=os.path.basename(ctx.feed)))
    warning = _area_warning(ctx, feed)
    links = create_game(ctx.state, args.name, args.groups, feed=feed or ctx.feed, game=ctx.game_spec,
                        date=ctx.date.isoformat(), base=args.base_url or os.environ.get("PLANNER_BASE_URL")
                        or DEFAULT_BASE)
    out = links.to_json()
    out["warnings"] = [warning] if warning else []
    if warning:  # on stderr with --json too: the JSON goes into a file the organiser does not read
        sys.stderr.write("planner: " + _("warning: {warning}").format(warning=warning) + "\n")
    lines = [_("game {game} ({name}); keep these links, they are shown only once").format(game=links.game,
                                                                                         name=args.name.strip()),
             _("organiser: {url}").format(url=out["organiser"]["url"])]
    lines += [f"{g['name']}: {g['url']}" for g in out["groups"]]
    emit(args, out, "\n".join(lines))
    return 0


def _area_warning(ctx: Context, feed: str | None) -> str | None:
    """check-area's verdict in one line when it refuses the area (the game is created all the same: the organisers
    may mend the game file later); nothing for a feed given as a URL (nothing is downloaded for a warning). A day
    that does not load (a date outside the feed, a broken feed) is refused: nobody could play it."""
    if (feed or "").startswith(("http:", "https:")):
        return None
    ctx.timetable  # noqa: B018 - loads the day: its error is the command's
    try:
        return area_warning(ctx.day)
    except PlannerError as exc:  # the check itself failing (its line data) is said, the day is playable
        return _("check-area could not run: {error}").format(error=" ".join(str(exc).split()))


def cmd_serve(args: argparse.Namespace) -> int:
    """Serve every game of the state (games created later too) until interrupted."""
    if not 0 < args.port < 65536:
        raise InputError(_("--port {value}: expected 1 to 65535").format(value=args.port))
    if not 0.1 <= args.rate_limit <= 1000:
        raise InputError(_("--rate-limit {value}: expected 0.1 to 1000 requests a second").format(value=args.rate_limit))
    if args.poll_interval is not None and not 0.1 <= args.poll_interval <= 600:
        raise InputError(_("--poll-interval {value}: expected 0.1 to 600 seconds").format(value=args.poll_interval))
    for addr in (args.trusted_proxy or "").split(","):
        try:
            if args.trusted_proxy:
                ipaddress.ip_address(addr.strip())
        except ValueError:
            raise InputError(_("--trusted-proxy {value!r}: expected the proxy's IP address, e.g. 127.0.0.1").format(
                value=addr)) from None
    sock = _listen(args.host, args.port)  # a port in use is refused before anything starts
    live, realtime = _realtime(args)
    app, worker = load_app(feed=args.feed, rate=args.rate_limit, burst=max(1, int(args.rate_limit * 6)),
                           secure_cookie=args.https, realtime=realtime,
                           poll_ms=None if args.poll_interval is None else round(args.poll_interval * 1000))
    sys.stderr.write("planner: " + _("serving on {url} (Ctrl-C stops)").format(
        url=f"http://{args.host}:{args.port}") + "\n")
    sys.stderr.flush()
    try:
        # X-Forwarded-For is believed only from the configured proxy: anyone else could rotate it to get past
        # the per-address limit on guessed tokens
        # a request still running when the server is told to stop gets STOP_GRACE seconds, not for ever (a read
        # that hung in the routing child would otherwise keep SIGTERM from stopping the server)
        server = uvicorn.Server(uvicorn.Config(app, host=args.host, port=args.port, log_level="warning",
                                               proxy_headers=bool(args.trusted_proxy),
                                               forwarded_allow_ips=args.trusted_proxy or "",
                                               timeout_graceful_shutdown=STOP_GRACE))
        worker.on_failed = lambda: setattr(server, "should_exit", True)  # uvicorn's graceful shutdown
        server.run(sockets=[sock])
    finally:
        sock.close()
        worker.close()  # already closed by the app's shutdown unless uvicorn failed to start
        if live is not None:
            live.stop()
    if worker.failed:  # a supervisor (systemd Restart=on-failure) starts the server again
        raise PlannerError(_("serve stopped: {error}").format(error=worker.failed), exit_code=1)
    return 0


def _listen(host: str, port: int) -> socket.socket:
    """The server's listening socket on ``host:port``, bound here (uvicorn's own bind would print its English
    "[Errno 98]" after this command said it serves): a port in use or an address not of this machine is refused
    in one line."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does: a restart need not wait
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise InputError(_("--port {port}: the port is in use on {host} (another server?); choose another "
                               "--port").format(port=port, host=host)) from None
        raise InputError(_("--host {host} --port {port}: cannot listen there ({reason})").format(
            host=host, port=port, reason=exc.strerror or type(exc).__name__)) from None
    sock.set_inheritable(True)
    return sock


def _realtime(args: argparse.Namespace):
    """``--realtime``: a URL is polled by one thread into a file every process reads; a file is read as it
    changes. Returns (the poller or None, the file)."""
    if not args.realtime:
        return None, None
    if not is_url(args.realtime):
        return None, os.path.abspath(args.realtime)
    if args.realtime_interval < 30:
        raise InputError(_("--realtime-interval {value}: at least 30 s (the platform's limit)").format(
            value=args.realtime_interval))
    path = config.cache_root() / "realtime" / f"live-{os.getpid()}.pb"
    live = LiveFeed(args.realtime, path, key=api_key(args.realtime_key_env), interval=args.realtime_interval)
    status = live.start()
    if status.get("error"):
        sys.stderr.write("planner: " + _("warning: {warning}").format(warning=_(
            "{error}: phones plan on the timetable until it answers").format(error=status["error"])) + "\n")
    return live, str(path)
