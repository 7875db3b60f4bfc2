"""``planner serve``: the ASGI app (Starlette) with the group and organiser pages and the JSON API.

The app only translates: HTTP in, a call of :class:`~planner.web.answers.Answers` (the service layer), JSON or a
page out. The answers that route run in a child process (:mod:`planner.web.worker`), the other answers in the thread
pool (each thread with its own database connection); the look-ups that authorise a request (the token's game and
group) are short indexed reads and run on the event loop. Games are read per request: one created while the server
runs is served at once, its day loaded on its first request.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from planner.errors import PlannerError, TrainAmbiguous
from planner.maps import assets
from planner.service.read.positions import examples
from planner.store.state import State
from planner.util.i18n import FALLBACK, LANGUAGES, N_, _, format_long_date, ngettext, normalise, use_language
from planner.web.answers import Answers, stations
from planner.web.days import Day, Days
from planner.web.documents import area_map_html, check_area_html
from planner.web.language import LANG_COOKIE, LANG_COOKIE_AGE, catalog, catalog_script, request_language
from planner.web.responses import (
    TokenCache,
    changed_mark,
    conditional_json,
    in_language,
    json_response,
    security_headers,
    service_worker,
    small_json,
)
from planner.web.security import (
    COOKIE,
    Caller,
    HttpError,
    RateLimiter,
    authenticate,
    authorize,
    body_fields,
    check_state_change,
    json_body,
    path_fields,
    said,
)
from planner.web.worker import RoutingWorker, WorkerFailed, routed

HERE = Path(__file__).resolve().parent
DOCUMENT_CSP = ("default-src 'self' data:; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
                "img-src 'self' data:; connect-src 'none'; frame-ancestors 'none'; base-uri 'none'")
HEALTH_TIMEOUT = 30  # seconds the routing process may take to answer /health (it may be routing a queue)


class WebApp:
    """HTTP over the answers (:class:`~planner.web.answers.Answers`): authentication, rate limits, pages."""

    def __init__(self, answers: Answers, *, rate: float = 10.0, burst: int = 60, secure_cookie: bool = False,
                 worker: RoutingWorker | None = None, poll_ms: int | None = None):
        self.answers = answers
        self.poll_ms = poll_ms  # None: each page polls at its own default (group 4 s, organiser 5 s)
        self.known = TokenCache(answers.state)
        self.limiter = RateLimiter(rate, burst)
        self.secure_cookie = secure_cookie
        self.worker = worker  # None: everything computed in this process
        self._languages: dict[str, str | None] = {}  # game id -> its game file's language
        self.env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=True,
                               extensions=["jinja2.ext.i18n"])
        self.env.install_gettext_callables(_, ngettext, newstyle=True)  # the request's language (use_language)
        self.env.filters["long_date"] = format_long_date

    def group_of(self, request: Request, caller: Caller) -> tuple[str, int]:
        """The game id and group number of a ``/games/{game}/groups/{group}`` path the caller may use (403/404)."""
        game_id = request.path_params["game"]
        try:
            number = int(request.path_params["group"])
        except ValueError:
            raise HttpError(404, N_("group must be its number, e.g. {example}"), params={"example": "/groups/1"}) from None
        if caller.access.game_id != game_id:
            raise HttpError(403, N_("this token belongs to another game"))
        if caller.access.group is not None:  # a group's token opens its own number only (no probing of others)
            own = self.answers.record(game_id).group(caller.access.group)
            if own is None or own.number != number:
                raise HttpError(403, N_("this token belongs to another group"))
        authorize(caller, game_id, self.answers.group(game_id, number).key)
        return game_id, number

    def error_text(self, request: Request, exc: HttpError) -> str:
        """A refusal's message in the request's language (the game's where it is known already)."""
        with use_language(request_language(request, self._languages.get(request.path_params.get("game", "")))):
            return exc.text()

    async def game_language(self, game_id: str) -> str | None:
        """The game's language (``[game] language``), read once per game: its game file does not change while it is
        served."""
        if game_id not in self._languages:
            self._languages[game_id] = await run_in_threadpool(self.answers.language, game_id)
        return self._languages[game_id]

    def caller(self, request: Request) -> Caller:
        """Authenticate and rate-limit (per token)."""
        try:
            caller = authenticate(request, self.known)
        except HttpError:
            self.limiter.hit("ip:" + (request.client.host if request.client else "?"))  # guessing costs, too
            raise
        self.limiter.hit(caller.token)
        return caller

    # ---- HTTP --------------------------------------------------------------------------------------
    def api(self, fn: Callable[..., Any], *, write: bool = False, organiser: bool = False):
        """Wrap an answer function as a JSON endpoint with authentication, authorisation and errors.

        A group's function gets ``(game_id, number, input)``, an organiser's ``(game_id, input)``; the input is the
        JSON body of a POST (the fields ``fn`` reads: :func:`planner.web.security.reads`) or the query parameters of
        a GET, with the path parameters it reads named (whole numbers)."""
        fields, path = body_fields(fn), path_fields(fn)

        async def endpoint(request: Request) -> Response:
            try:
                caller = self.caller(request)
                if write:
                    check_state_change(request, caller)
                if organiser:
                    authorize(caller, request.path_params["game"], None)
                    where: tuple = (request.path_params["game"],)
                else:
                    where = self.group_of(request, caller)  # 403/404 before the body is read
                inp = await json_body(request, fields) if write else dict(request.query_params)
                inp.pop("lang", None)  # the request's language, not an input of the answer
                lang = request_language(request, await self.game_language(where[0]))
                for k in path:
                    if not request.path_params[k].isdigit():
                        raise HttpError(404, N_("{name} must be a number"), params={"name": repr(k)})
                    inp[k] = int(request.path_params[k])
                if self.worker is not None and routed(fn):
                    out = await self.worker.call(fn, *where, inp, lang=lang)
                else:
                    out = await run_in_threadpool(in_language, lang, fn, *where, inp)
                return json_response(out) if write else conditional_json(out, request.headers.get("if-none-match"))
            except HttpError as exc:
                return json_response({"error": self.error_text(request, exc)}, exc.status, exc.headers)
            except TrainAmbiguous as exc:  # the page asks which train: each candidate's id can be sent back
                return json_response({"error": exc.for_phone(), "candidates": exc.candidates}, 409)
            except PlannerError as exc:
                return json_response({"error": exc.for_phone()}, 422)
            except (WorkerFailed, BrokenProcessPool) as exc:
                return self.worker_down(exc)

        return endpoint

    async def changes(self, request: Request) -> Response:
        """``GET /api/games/{game}/changes?since=MARK``: the game's change mark (any token of the game), as soon as it
        differs from ``since``, else after ``wait`` (<= 50) s: a phone hears of any change at once, idling cheaply."""
        try:
            caller = self.caller(request)
            game_id = request.path_params["game"]
            if caller.access.game_id != game_id:
                raise HttpError(403, N_("this token belongs to another game"))
            mark = await changed_mark(lambda: self.answers.changes(game_id), request.query_params.get("since"),
                                      request.query_params.get("wait"), left=request.is_disconnected)
            return small_json({"changes": mark})
        except HttpError as exc:
            return json_response({"error": self.error_text(request, exc)}, exc.status, exc.headers)

    async def stations(self, request: Request) -> Response:
        """The day's stations with coordinates (any token of the game)."""
        try:
            caller = self.caller(request)
            game_id = request.path_params["game"]
            if caller.access.game_id != game_id:
                raise HttpError(403, N_("this token belongs to another game"))
            _, day = await run_in_threadpool(self.answers.play, game_id)
            return json_response(stations(day), headers={"Cache-Control": "private, max-age=3600"})
        except HttpError as exc:
            return json_response({"error": self.error_text(request, exc)}, exc.status, exc.headers)
        except PlannerError as exc:
            return json_response({"error": exc.for_phone()}, 422)

    async def join(self, request: Request) -> Response:
        """A join link: set the cookie and go on to the group's (or organiser's) page."""
        token = request.query_params.get("t", "")
        try:
            self.limiter.hit("ip:" + (request.client.host if request.client else "?"))
        except HttpError as exc:
            return self.page("error.html", {"message": exc}, exc.status, request=request)
        access = self.known.access(token) if 0 < len(token) <= 200 else None
        if access is None:
            return self.page("error.html", {"message": N_("This link is not valid (any more).")}, 401, request=request)
        number = next((g.number for g in self.answers.record(access.game_id).groups if g.key == access.group), None)
        target = (f"/games/{access.game_id}" if number is None else f"/games/{access.game_id}/groups/{number}")
        # A page, not a redirect: a SameSite=Strict cookie set during a navigation from another app (a QR
        # scanner) is sent only on the next, same-site navigation, which this page's refresh is.
        resp = self.page("join.html", {"target": target}, 200, request=request)
        resp.set_cookie(COOKIE, token, max_age=3 * 24 * 3600, path="/", httponly=True, samesite="strict",
                        secure=self.secure_cookie)
        return resp

    async def group_page(self, request: Request) -> Response:
        """The group's phone page (the data comes from the API)."""
        try:
            game_id, number = self.group_of(request, self.caller(request))
            play, _day = await run_in_threadpool(self.answers.play, game_id)
        except HttpError as exc:
            return self.page("error.html", {"message": exc}, exc.status, request=request)
        except PlannerError as exc:
            return self.page("error.html", {"message": said(422, exc)}, 422, request=request)
        g = self.answers.group(game_id, number)
        lang = request_language(request, play.day.game.language)
        station, train = examples(play.day)  # the fields' examples, from this game's own day
        return self.page("group.html", {"game": play.game, "number": number, "name": g.name,
                                        "info": in_language(lang, self.answers.game_info, play),
                                        "example_station": station, "example_train": train,
                                        "poll_ms": self.poll_ms}, request=request, lang=lang)

    def organisers_game(self, request: Request) -> str:
        """The game id of a ``/games/{game}...`` organiser route, for the organiser's token only (401/403/404)."""
        game_id = request.path_params["game"]
        authorize(self.caller(request), game_id, None)
        self.answers.record(game_id)
        return game_id

    async def organiser_page(self, request: Request) -> Response:
        """The organiser's page: every group on one table and one map, the ranking, corrections."""
        try:
            game_id = self.organisers_game(request)
            play, _day = await run_in_threadpool(self.answers.play, game_id)
            lang = request_language(request, play.day.game.language)
            verdict = await run_in_threadpool(in_language, lang, self.answers.area_warning, game_id)
        except HttpError as exc:
            return self.page("error.html", {"message": exc}, exc.status, request=request)
        except PlannerError as exc:
            return self.page("error.html", {"message": said(422, exc)}, 422, request=request)
        return self.page("organiser.html", {"game": play.game, "info": in_language(lang, self.answers.game_info, play),
                                            "poll_ms": self.poll_ms, "area_warning": verdict},
                         request=request, lang=lang)

    def document(self, make: Callable[[Day], str]):
        """An organiser's generated document (report, map): organiser token only. These pages are the
        planner's own output (feed data, no user text) and carry inline scripts, so they get their own CSP."""

        async def endpoint(request: Request) -> Response:
            try:
                _, day = await run_in_threadpool(self.answers.play, self.organisers_game(request))
            except HttpError as exc:
                return self.page("error.html", {"message": exc}, exc.status, request=request)
            lang = request_language(request, day.day.game.language)
            html = await run_in_threadpool(in_language, lang, make, day)  # made once per day and language
            return HTMLResponse(html, headers={**security_headers(), "Content-Security-Policy": DOCUMENT_CSP})

        return endpoint

    def worker_down(self, exc: BaseException) -> Response:
        """503 for a request the routing process could not answer (when no new one starts, the worker has
        told ``planner serve`` to stop: it exits non-zero, and a supervisor starts it again)."""
        if isinstance(exc, WorkerFailed):
            return json_response({"error": str(exc)}, 503)
        return json_response({"error": "the routing process died again; send it again"}, 503, {"Retry-After": "1"})

    async def health(self, request: Request) -> Response:
        """200 when the routing process answers (a dead one is replaced first), else 503: for supervisors."""
        try:
            self.limiter.hit("ip:" + (request.client.host if request.client else "?"))
        except HttpError as exc:
            return json_response({"error": exc.message}, exc.status, exc.headers)
        if self.worker is None:
            return json_response({"ok": True, "worker": None})
        try:
            await asyncio.wait_for(self.worker.ping(), HEALTH_TIMEOUT)
        except (WorkerFailed, BrokenProcessPool) as exc:
            return self.worker_down(exc)
        except TimeoutError:
            return json_response({"error": f"the routing process did not answer within {HEALTH_TIMEOUT} s"}, 503)
        return json_response({"ok": True, "worker": {"restarts": self.worker.restarts}})

    async def home(self, request: Request) -> Response:
        """The start page: where to find the join link."""
        return self.page("home.html", {}, request=request)

    def page(self, name: str, context: dict, status: int = 200, *, request: Request | None = None,
             lang: str | None = None) -> HTMLResponse:
        """Render a template (autoescaped, its texts in the request's language) with the security headers; a
        language asked for with ``?lang=`` (the page's switch) is kept in a cookie."""
        lang = lang or (request_language(request) if request is not None else FALLBACK)
        with use_language(lang):
            message = context.get("message")  # an error page's: a refusal, or a message id, in the page's language
            if isinstance(message, HttpError):
                context = {**context, "message": message.text()}
            elif isinstance(message, str):
                context = {**context, "message": _(message)}
            html = self.env.get_template(name).render(**context, lang=lang, languages=LANGUAGES,
                                                      catalog=f"/i18n/{lang}.json")
        resp = HTMLResponse(html, status, headers={**security_headers(), "Content-Language": lang})
        if request is not None and normalise(request.query_params.get("lang")):
            resp.set_cookie(LANG_COOKIE, lang, max_age=LANG_COOKIE_AGE, path="/", samesite="lax",
                            secure=self.secure_cookie)
        return resp

    async def i18n(self, request: Request) -> Response:
        """The catalog of a language for the page's scripts: ``/i18n/de.json`` (JSON), ``/i18n/de.js`` (a script)."""
        lang, _dot, kind = request.path_params["file"].partition(".")
        if normalise(lang) != lang or kind not in ("json", "js"):
            known = ", ".join(LANGUAGES)
            return json_response({"error": f"no catalog {request.path_params['file']!r} ({known}; .json or .js)"}, 404)
        headers = {"Cache-Control": "public, max-age=300", **security_headers()}
        if kind == "json":
            return Response(json.dumps(catalog(lang), ensure_ascii=False), headers=headers,
                            media_type="application/json")
        return Response(catalog_script(lang), headers=headers, media_type="text/javascript")

    def build(self) -> Starlette:
        """The Starlette application."""
        static = StaticFiles(directory=HERE / "static")
        sw = service_worker()
        routes = [
            Route("/", self.home),
            Route("/i18n/{file}", self.i18n),
            Route("/join", self.join),
            Route("/health", self.health),
            Route("/sw.js", lambda r: Response(sw, media_type="text/javascript", headers={
                "Cache-Control": "no-cache", "Service-Worker-Allowed": "/", **security_headers()})),
            Route("/favicon.ico", lambda r: FileResponse(HERE / "static" / "icon.svg", media_type="image/svg+xml")),
            Route("/manifest.webmanifest", lambda r: FileResponse(
                HERE / "static" / "manifest.webmanifest", media_type="application/manifest+json")),
            Route("/games/{game}", self.organiser_page),
            Route("/games/{game}/groups/{group}", self.group_page),
            Route("/games/{game}/report", self.document(check_area_html)),
            Route("/games/{game}/map", self.document(area_map_html)),
            Route("/api/games/{game}", self.api(self.answers.overview, organiser=True)),
            Route("/api/games/{game}/void", self.api(self.answers.void_event, organiser=True, write=True),
                  methods=["POST"]),
            Route("/api/games/{game}/stations", self.stations),
            Route("/api/games/{game}/changes", self.changes),
            Route("/api/games/{game}/groups/{group}", self.api(self.answers.group_state)),
            Route("/api/games/{game}/groups/{group}/next", self.api(self.answers.next_step)),
            Route("/api/games/{game}/groups/{group}/trains", self.api(self.answers.next_trains)),
            Route("/api/games/{game}/groups/{group}/position", self.api(self.answers.position, write=True),
                  methods=["POST"]),
            Route("/api/games/{game}/groups/{group}/rolls", self.api(self.answers.roll, write=True),
                  methods=["POST"]),
            Route("/api/games/{game}/groups/{group}/whereabouts", self.api(
                self.answers.where_are_we, write=True), methods=["POST"]),
            Route("/api/games/{game}/groups/{group}/undo", self.api(self.answers.undo, write=True),
                  methods=["POST"]),
            Route("/api/games/{game}/groups/{group}/ledger", self.api(self.answers.ledger)),
            Route("/api/games/{game}/groups/{group}/ledger", self.api(self.answers.ledger_event, write=True),
                  methods=["POST"]),
            Route("/api/games/{game}/groups/{group}/messages/{seq}/sent",
                  self.api(self.answers.message_sent, write=True),
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

        return Starlette(routes=routes, exception_handlers={Exception: _internal_error}, lifespan=lifespan,
                         middleware=[Middleware(GZipMiddleware, minimum_size=500)])  # a phone's bytes: JSON shrinks


async def _internal_error(request: Request, exc: Exception) -> Response:
    # Never a stack trace to the client; the server's log has it.
    return json_response({"error": f"internal error ({type(exc).__name__})"}, 500)


def load_app(state: str | Path | None = None, *, feed: str | None = None, rate: float = 10.0, burst: int = 60,
             secure_cookie: bool = False, realtime: str | None = None,
             poll_ms: int | None = None) -> tuple[Starlette, RoutingWorker]:
    """The app with the days of the games present loaded and its routing process started (close the worker after
    serving); ``feed`` serves games created without one; ``realtime``: the file the real-time poller publishes to
    (planner/realtime/live.py); ``poll_ms``: how often the pages poll (None: their defaults, 4 s and 5 s)."""
    days = Days(feed, realtime)
    with State(state) as st:
        days.warm(st.games.games())
    worker = RoutingWorker(state, feed=feed, realtime=realtime)
    app = WebApp(Answers(state, days), rate=rate, burst=burst, secure_cookie=secure_cookie, worker=worker,
                 poll_ms=poll_ms)
    return app.build(), worker
