"""``planner serve``: the ASGI app (Starlette) with the group and organiser pages and the JSON API.

The app only translates: HTTP in, a call into :mod:`planner.web.usecases`, JSON or a page out. Each game's day
is loaded once when the app is built and answered from memory. Blocking work (routing, SQLite) runs in the
thread pool; each thread has its own database connection.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from planner.errors import PlannerError
from planner.maps import assets
from planner.web import usecases
from planner.web.security import (
    CLOCK,
    COOKIE,
    ROLL_ID,
    Caller,
    HttpError,
    RateLimiter,
    authenticate,
    authorize,
    check_state_change,
    int_field,
    json_body,
    text_field,
)
from planner.web.store import Access, WebGame, WebStore
from planner.web.worker import ROUTED, RoutingWorker

HERE = Path(__file__).resolve().parent
CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
       "connect-src 'self'; worker-src 'self'; manifest-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
       "form-action 'self'")
DOCUMENT_CSP = ("default-src 'self' data:; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
                "img-src 'self' data:; connect-src 'none'; frame-ancestors 'none'; base-uri 'none'")
POSITION_FIELDS = {"at", "time", "trip"}
ROLL_FIELDS = {"dice", "at", "time", "trip", "roll_id"}


MESSAGES_SHOWN = 20  # the latest ledger messages a group page lists (the whole feed: `planner ledger feed`)


class WebApp:
    """The loaded games and days, the state database, the rate limiter; builds the Starlette app."""

    def __init__(self, state: str | Path | None, days: dict[str, usecases.Day], *, rate: float = 10.0,
                 burst: int = 60, secure_cookie: bool = False, worker: RoutingWorker | None = None):
        self.state = state
        self.days = days  # game id -> its loaded day
        # Games and tokens do not change while the server runs (it loads the games at start-up): kept in memory,
        # so a poll reads only the group's rolls.
        with WebStore(state) as store:
            self.games = {g.id: g for g in store.games() if g.id in days}
        self.known = TokenCache(self.store)
        self.limiter = RateLimiter(rate, burst)
        self.secure_cookie = secure_cookie
        self.worker = worker  # None: everything computed in this process (the routing child itself)
        self._local = threading.local()
        self.env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=True)

    # ---- plumbing ----------------------------------------------------------------------------------
    def store(self) -> WebStore:
        """This thread's store (one SQLite connection per thread)."""
        s = getattr(self._local, "store", None)
        if s is None:
            s = self._local.store = WebStore(self.state)
        return s

    def game(self, game_id: str) -> tuple[WebGame, usecases.Day]:
        """A loaded game, or 404."""
        day = self.days.get(game_id)
        g = self.games.get(game_id) if day is not None else None
        if g is None:
            raise HttpError(404, f"no game {game_id!r} on this server")
        return g, day

    def caller(self, request: Request) -> Caller:
        """Authenticate and rate-limit (per token)."""
        try:
            caller = authenticate(request, self.known)
        except HttpError:
            self.limiter.hit("ip:" + (request.client.host if request.client else "?"))  # guessing costs, too
            raise
        self.limiter.hit(caller.token)
        return caller

    def group_of(self, request: Request, caller: Caller) -> tuple[WebGame, usecases.Day, int]:
        """The game and group of a ``/games/{game}/groups/{group}`` path the caller may use (403/404)."""
        game_id = request.path_params["game"]
        try:
            number = int(request.path_params["group"])
        except ValueError:
            raise HttpError(404, "group must be its number, e.g. /groups/1") from None
        authorize(caller, game_id, number)
        g, day = self.game(game_id)
        if not 1 <= number <= len(g.groups):
            raise HttpError(404, f"game {g.id} has no group {number}")
        return g, day, number

    # ---- answers -----------------------------------------------------------------------------------
    def group_state(self, g: WebGame, day: usecases.Day, number: int, _query: dict | None = None) -> dict:
        """A group's state now: its position, rolls (as ``group status --json``) and last answer."""
        store = self.store()
        status = usecases.status(day, g.group_key(number))
        last = None
        if status["rolls"]:
            last = store.answer(g.id, number, status["rolls"][-1]["seq"])
        return {"game": {"id": g.id, "name": g.name, **usecases.day_info(day)},
                "group": {"number": number, "name": g.groups[number - 1]},
                "position": store.position(g.id, number), "status": status, "last": last,
                "messages": usecases.messages(day, g.group_key(number))["events"][-MESSAGES_SHOWN:]}

    def position(self, g: WebGame, day: usecases.Day, number: int, body: dict) -> dict:
        """Check and remember the group's position."""
        trip = text_field(body, "trip", hint=" (the train, e.g. \"IR75 12:25\")")
        # in a train, the train is enough: it is matched where the group got on (the group's day knows)
        at = text_field(body, "at", required=not trip, hint=" (the station, e.g. \"Zug\", or the train)")
        time = text_field(body, "time", pattern=CLOCK, hint=" (HH:MM)")
        pos = usecases.set_position(day, g.group_key(number), at, time, trip)
        self.store().set_position(g.id, number, pos)
        return pos

    def where(self, g: WebGame, number: int, at: str | None, time: str | None, trip: str | None,
              how: str) -> tuple[str, str | None, str | None]:
        """The place the request gives, else the group's remembered position (what it gives fills the gaps;
        422 saying ``how`` to give one when there is neither)."""
        if at is not None:
            return at, time, trip
        pos = self.store().position(g.id, number)
        if pos is None:
            raise HttpError(422, f"where are you? set the position first, or {how}")
        return pos["at"], time or pos["time"], trip or pos["trip"]

    def roll(self, g: WebGame, day: usecases.Day, number: int, body: dict) -> dict:
        """Record a roll (from the body's position, else the remembered one) and keep its answer."""
        dice = int_field(body, "dice")
        at = text_field(body, "at")
        time = text_field(body, "time", pattern=CLOCK, hint=" (HH:MM)")
        trip = text_field(body, "trip")
        rid = text_field(body, "roll_id", pattern=ROLL_ID, hint=" (8-64 letters, digits, '-' or '_')")
        store = self.store()
        at, time, trip = self.where(g, number, at, time, trip, "send 'at' (and 'time')")
        key = g.group_key(number)
        # The client's id is scoped to its group: another group cannot collide with (or probe) it.
        roll_id = f"{key}:{rid}" if rid else None
        with day.lock:
            out = usecases.roll(day, key, dice, at, time, trip, roll_id)
            if out.get("replayed"):
                saved = store.answer(g.id, number, out["seq"])
                return {**saved, "replayed": True} if saved else out
            store.save_answer(g.id, number, out["seq"], out)
        return out

    def undo(self, g: WebGame, day: usecases.Day, number: int, _body: dict) -> dict:
        """Remove the group's last roll."""
        return usecases.undo(day, g.group_key(number))

    def next_step(self, g: WebGame, day: usecases.Day, number: int, _q: dict) -> dict:
        """What now: ``planner next --json`` for the group."""
        return usecases.next_step(day, g.group_key(number))

    def next_trains(self, g: WebGame, day: usecases.Day, number: int, q: dict) -> dict:
        """The trains the group may take next, from the query's or the remembered position."""
        at = text_field(q, "at")
        time = text_field(q, "time", pattern=CLOCK, hint=" (HH:MM)")
        trip = text_field(q, "trip")
        at, time, trip = self.where(g, number, at, time, trip, "pass ?at=STATION&time=HH:MM")
        return usecases.next_trains(day, at, time, trip)

    def overview(self, g: WebGame, day: usecases.Day) -> dict:
        """Every group's state (the organiser's table and map)."""
        return {"game": {"id": g.id, "name": g.name, **usecases.day_info(day)},
                "groups": [self.group_state(g, day, n) for n in range(1, len(g.groups) + 1)]}

    # ---- HTTP --------------------------------------------------------------------------------------
    def api(self, fn: Callable[..., Any], *, write: bool = False, organiser: bool = False,
            fields: set[str] | None = None):
        """Wrap an answer function as a JSON endpoint with authentication, authorisation and errors.

        A group's function gets ``(game, day, number, input)``, the input being the JSON body of a POST or the
        query parameters of a GET; an organiser's function gets ``(game, day)``."""

        async def endpoint(request: Request) -> Response:
            try:
                caller = self.caller(request)
                if write:
                    check_state_change(request, caller)
                if organiser:
                    authorize(caller, request.path_params["game"], None)
                    args: tuple = self.game(request.path_params["game"])
                else:
                    where = self.group_of(request, caller)  # 403/404 before the body is read
                    inp = await json_body(request, fields or set()) if write else dict(request.query_params)
                    args = (*where, inp)
                if self.worker is not None and fn.__name__ in ROUTED:
                    g, _day, number, inp = args
                    out = await self.worker.call(fn.__name__, g.id, number, inp)
                else:
                    out = await run_in_threadpool(fn, *args)
                return json_response(out)
            except HttpError as exc:
                return json_response({"error": exc.message}, exc.status, exc.headers)
            except PlannerError as exc:
                return json_response({"error": " ".join(str(exc).split())}, 422)

        return endpoint

    async def stations(self, request: Request) -> Response:
        """The day's stations with coordinates (any token of the game)."""
        try:
            caller = self.caller(request)
            game_id = request.path_params["game"]
            if caller.access.game_id != game_id:
                raise HttpError(403, "this token belongs to another game")
            _, day = self.game(game_id)
            return json_response(usecases.stations(day), headers={"Cache-Control": "private, max-age=3600"})
        except HttpError as exc:
            return json_response({"error": exc.message}, exc.status, exc.headers)

    async def join(self, request: Request) -> Response:
        """A join link: set the cookie and go on to the group's (or organiser's) page."""
        token = request.query_params.get("t", "")
        try:
            self.limiter.hit("ip:" + (request.client.host if request.client else "?"))
        except HttpError as exc:
            return self.page("error.html", {"message": exc.message}, exc.status)
        access = self.known.access(token) if 0 < len(token) <= 200 else None
        if access is None:
            return self.page("error.html", {"message": "This link is not valid (any more)."}, 401)
        target = (f"/games/{access.game_id}" if access.group is None
                  else f"/games/{access.game_id}/groups/{access.group}")
        # A page, not a redirect: a SameSite=Strict cookie set during a navigation from another app (a QR
        # scanner) is sent only on the next, same-site navigation, which this page's refresh is.
        resp = self.page("join.html", {"target": target}, 200)
        resp.set_cookie(COOKIE, token, max_age=3 * 24 * 3600, path="/", httponly=True, samesite="strict",
                        secure=self.secure_cookie)
        return resp

    async def group_page(self, request: Request) -> Response:
        """The group's phone page (the data comes from the API)."""
        try:
            g, day, number = self.group_of(request, self.caller(request))
        except HttpError as exc:
            return self.page("error.html", {"message": exc.message}, exc.status)
        return self.page("group.html", {"game": g, "number": number, "name": g.groups[number - 1],
                                        "info": usecases.day_info(day)})

    def organisers_game(self, request: Request) -> tuple[WebGame, usecases.Day]:
        """The game of a ``/games/{game}...`` organiser route, for the organiser's token only (401/403/404)."""
        authorize(self.caller(request), request.path_params["game"], None)
        return self.game(request.path_params["game"])

    async def organiser_page(self, request: Request) -> Response:
        """The organiser's page: every group on one table and one map."""
        try:
            g, day = self.organisers_game(request)
        except HttpError as exc:
            return self.page("error.html", {"message": exc.message}, exc.status)
        return self.page("organiser.html", {"game": g, "info": usecases.day_info(day)})

    def document(self, make: Callable[[usecases.Day], str]):
        """An organiser's generated document (report, map): organiser token only. These pages are the
        planner's own output (feed data, no user text) and carry inline scripts, so they get their own CSP."""

        async def endpoint(request: Request) -> Response:
            try:
                _, day = self.organisers_game(request)
            except HttpError as exc:
                return self.page("error.html", {"message": exc.message}, exc.status)
            html = await run_in_threadpool(make, day)
            return HTMLResponse(html, headers={**security_headers(), "Content-Security-Policy": DOCUMENT_CSP})

        return endpoint

    async def home(self, request: Request) -> Response:
        """The start page: where to find the join link."""
        return self.page("home.html", {})

    def page(self, name: str, context: dict, status: int = 200) -> HTMLResponse:
        """Render a template (autoescaped) with the security headers."""
        html = self.env.get_template(name).render(**context)
        return HTMLResponse(html, status, headers=security_headers())

    def build(self) -> Starlette:
        """The Starlette application."""
        static = StaticFiles(directory=HERE / "static")
        sw = service_worker()
        routes = [
            Route("/", self.home),
            Route("/join", self.join),
            Route("/sw.js", lambda r: Response(sw, media_type="text/javascript", headers={
                "Cache-Control": "no-cache", "Service-Worker-Allowed": "/", **security_headers()})),
            Route("/favicon.ico", lambda r: FileResponse(HERE / "static" / "icon.svg", media_type="image/svg+xml")),
            Route("/manifest.webmanifest", lambda r: FileResponse(
                HERE / "static" / "manifest.webmanifest", media_type="application/manifest+json")),
            Route("/games/{game}", self.organiser_page),
            Route("/games/{game}/groups/{group}", self.group_page),
            Route("/games/{game}/report", self.document(usecases.check_area_html)),
            Route("/games/{game}/map", self.document(usecases.area_map_html)),
            Route("/api/games/{game}", self.api(self.overview, organiser=True)),
            Route("/api/games/{game}/stations", self.stations),
            Route("/api/games/{game}/groups/{group}", self.api(self.group_state)),
            Route("/api/games/{game}/groups/{group}/next", self.api(self.next_step)),
            Route("/api/games/{game}/groups/{group}/trains", self.api(self.next_trains)),
            Route("/api/games/{game}/groups/{group}/position", self.api(self.position, write=True,
                                                                        fields=POSITION_FIELDS), methods=["POST"]),
            Route("/api/games/{game}/groups/{group}/rolls", self.api(self.roll, write=True, fields=ROLL_FIELDS),
                  methods=["POST"]),
            Route("/api/games/{game}/groups/{group}/undo", self.api(self.undo, write=True, fields=set()),
                  methods=["POST"]),
            Mount("/static", static, name="static"),
        ]
        if assets.LEAFLET_DIR.is_dir():
            routes.append(Mount("/vendor", StaticFiles(directory=assets.VENDOR), name="vendor"))
        worker = self.worker

        @asynccontextmanager
        async def lifespan(app: Starlette):
            yield
            if worker is not None:
                worker.close()  # uvicorn's shutdown: the routing child stops with the server

        return Starlette(routes=routes, exception_handlers={Exception: _internal_error}, lifespan=lifespan)


class TokenCache:
    """``access(token)`` of the store, remembered for known tokens (an unknown one is asked again each time)."""

    def __init__(self, store: Callable[[], WebStore]):
        self._store = store
        self._known: dict[str, Access] = {}

    def access(self, token: str) -> Access | None:
        """Whom the token opens, or None."""
        a = self._known.get(token)
        if a is None and (a := self._store().access(token)) is not None:
            self._known[token] = a
        return a


def service_worker() -> str:
    """sw.js with a hash of the app's static files as its cache version: changed files reach the phones."""
    digest = hashlib.sha256()
    for f in sorted((HERE / "static").rglob("*")):
        if f.is_file():
            digest.update(f.name.encode() + f.read_bytes())
    return (HERE / "static" / "sw.js").read_text("utf-8").replace("__VERSION__", digest.hexdigest()[:12])


def security_headers() -> dict[str, str]:
    """Headers every page carries (no framing, no sniffing, no referrer: join links carry tokens)."""
    return {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY",
            "Referrer-Policy": "no-referrer"}


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> JSONResponse:
    """JSON (UTF-8, not cached by the browser unless said otherwise) with the security headers."""
    h = {"Cache-Control": "no-store", **security_headers(), **(headers or {})}
    return JSONResponse(data, status, headers=h)


async def _internal_error(request: Request, exc: Exception) -> Response:
    # Never a stack trace to the client; the server's log has it.
    return json_response({"error": f"internal error ({type(exc).__name__})"}, 500)


def load_days(state: str | Path | None = None, *, feed: str | None = None, game: str | None = None,
              date: str | None = None) -> dict[str, usecases.Day]:
    """Every game of the state database with its loaded day (each distinct day once).
    ``feed``/``game``/``date`` fill in what a game left open."""
    with WebStore(state) as store:
        games = store.games()
    if not games:
        raise PlannerError("no game yet: create one with 'planner game new --name NAME --groups \"Rot,Blau\"'")
    loaded: dict[tuple, usecases.Day] = {}
    days = {}
    for g in games:
        key = (g.feed or feed, g.game or game, g.date or date)
        if key not in loaded:
            loaded[key] = usecases.load_day(*key)
        days[g.id] = loaded[key]
    return days


def load_app(state: str | Path | None = None, *, feed: str | None = None, game: str | None = None,
             date: str | None = None, rate: float = 10.0, burst: int = 60,
             secure_cookie: bool = False) -> tuple[Starlette, RoutingWorker]:
    """The app with its days loaded and its routing process started (close the worker after serving)."""
    days = load_days(state, feed=feed, game=game, date=date)
    worker = RoutingWorker(state, feed=feed, game=game, date=date)
    app = WebApp(state, days, rate=rate, burst=burst, secure_cookie=secure_cookie, worker=worker)
    return app.build(), worker
