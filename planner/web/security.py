"""The web app's guards: who is asking (token), may they (game and group), not too often, not too much, not
from another site; and the checks of request bodies (422 with a message a person can act on).

* A token comes as ``Authorization: Bearer TOKEN`` or in the HttpOnly, SameSite=Strict cookie the join link sets.
* A state change authenticated by the cookie must also carry the header ``X-Planner: 1`` and a JSON body: a
  cross-site page can send neither without a CORS preflight, which this server never grants; an ``Origin`` or
  ``Sec-Fetch-Site`` header that names another site is refused outright.
* Each token (or, without one, each client address) has a token bucket: ``rate`` requests a second, ``burst``
  at once; past it the answer is 429 with ``Retry-After``.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, TypeVar
from urllib.parse import urlsplit

from starlette.requests import Request

from planner.store.games import Access
from planner.util.i18n import N_, _

F = TypeVar("F", bound=Callable[..., object])

COOKIE = "planner_token"
CSRF_HEADER = "x-planner"
MAX_BODY = 4096
MAX_TEXT = 100
ROLL_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")
EVENT_ID = ROLL_ID  # a ledger event's client id, as a roll's
CLOCK = re.compile(r"\d{1,2}:\d{2}")


class HttpError(Exception):
    """An answer other than 200: status and one-line message (sent as ``{"error": message}``).

    ``message`` is a message id marked with ``N_`` and its ``{name}`` parameters are ``params`` (a parameter that is
    a message id itself is a :class:`Msg`): :meth:`text` gives it in the current language (the request's, where the
    answer is sent). ``said``: ``message`` is a text already worded in the request's language (a refusal of the
    service), shown as it is."""

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None,
                 params: dict[str, object] | None = None, *, said: bool = False):
        self.status, self.msgid, self.headers, self.params = status, message, headers or {}, params or {}
        self.said = said
        self.message = message.format(**self.params) if self.params else message
        super().__init__(self.message)

    def text(self) -> str:
        """The message in the current language (a text the catalogs do not hold stays as it is)."""
        if self.said:
            return self.msgid
        params = {k: _(v) if isinstance(v, Msg) else v for k, v in self.params.items()}
        return _(self.msgid).format(**params) if params else _(self.msgid)

    def __reduce__(self):  # raised in the routing process, re-raised in the server's
        return (_http_error, (self.status, self.msgid, self.headers, self.params, self.said))


def _http_error(status: int, message: str, headers: dict, params: dict, said: bool) -> HttpError:
    return HttpError(status, message, headers, params, said=said)


class Msg(str):
    """A message id given as a parameter of another one (a field's hint): translated with it, when it is sent."""

    __slots__ = ()


def said(status: int, exc: Exception) -> HttpError:
    """A refusal of the service (worded already, in the request's language) as an HTTP answer, in the phone's
    words (:meth:`planner.errors.PlannerError.for_phone`)."""
    text = exc.for_phone() if hasattr(exc, "for_phone") else " ".join(str(exc).split())
    return HttpError(status, text, said=True)


class TokenLookup(Protocol):
    """Anything that says whom a token opens (the store, or a cache in front of it)."""

    def access(self, token: str) -> Access | None: ...


@dataclass
class Caller:
    """An authenticated request: whom the token opens and whether it came by cookie."""

    access: Access
    token: str
    by_cookie: bool


def request_token(request: Request) -> tuple[str | None, bool]:
    """The token of a request and whether it came from the cookie; a malformed Authorization header is a 401."""
    auth = request.headers.get("authorization")
    if auth is not None:
        scheme, _, value = auth.partition(" ")
        if scheme.lower() != "bearer" or not value.strip():
            raise HttpError(401, N_("Authorization must be {form}"), {"WWW-Authenticate": "Bearer"},
                            params={"form": "'Bearer TOKEN'"})
        return value.strip(), False
    tok = request.cookies.get(COOKIE)
    return (tok, True) if tok else (None, False)


def authenticate(request: Request, store: TokenLookup) -> Caller:
    """The caller, or 401 (no token, unknown token)."""
    token, by_cookie = request_token(request)
    if not token:
        raise HttpError(401, N_("no token: open your group's join link, or send 'Authorization: Bearer TOKEN'"),
                        {"WWW-Authenticate": "Bearer"})
    if len(token) > 200 or (access := store.access(token)) is None:
        raise HttpError(401, N_("unknown token"), {"WWW-Authenticate": "Bearer"})
    return Caller(access, token, by_cookie)


def authorize(caller: Caller, game_id: str, group: str | None) -> None:
    """403 unless the token belongs to this game and (for a group's route) to this group (its key) or the
    organiser. ``group`` None: an organiser's route."""
    a = caller.access
    if a.game_id != game_id:
        raise HttpError(403, N_("this token belongs to another game"))
    if group is None and a.group is not None:
        raise HttpError(403, N_("only the organiser's token opens this"))
    if group is not None and a.group is not None and a.group != group:
        raise HttpError(403, N_("this token belongs to another group"))


def same_site(request: Request) -> None:
    """Refuse a request that a browser says comes from another site (``Origin``, ``Sec-Fetch-Site``)."""
    site = request.headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        raise HttpError(403, N_("cross-site request refused"))
    origin = request.headers.get("origin")
    if origin is not None:
        host = request.headers.get("host", "")
        if origin == "null" or urlsplit(origin).netloc.lower() != host.lower():
            raise HttpError(403, N_("cross-site request refused (Origin does not match Host)"))


def check_state_change(request: Request, caller: Caller) -> None:
    """CSRF guard of every POST: the origin checks, and for a cookie the custom header and a JSON body."""
    same_site(request)
    if caller.by_cookie:
        if request.headers.get(CSRF_HEADER) != "1":
            raise HttpError(403, N_("a state change by cookie needs the header {header}"),
                            params={"header": f"'{CSRF_HEADER.title()}: 1'"})


def reads(*fields: str, path: tuple[str, ...] = ()) -> Callable[[F], F]:
    """Declare the JSON fields an answer reads from its request's body, where it parses them: the app accepts
    those and refuses any other (:func:`json_body`), so a field is named once, beside its parsing. ``path``: the
    whole numbers of the URL's path it reads too (``/messages/{seq}/sent``)."""
    def mark(fn: F) -> F:
        fn.fields, fn.path = frozenset(fields), path  # type: ignore[attr-defined]
        return fn
    return mark


def body_fields(fn: Callable[..., object]) -> set[str]:
    """The fields ``fn`` declared with :func:`reads` (none: it reads no body)."""
    return set(getattr(fn, "fields", ()))


def path_fields(fn: Callable[..., object]) -> tuple[str, ...]:
    """The path parameters ``fn`` declared with :func:`reads`."""
    return getattr(fn, "path", ())


async def json_body(request: Request, allowed: set[str]) -> dict:
    """The request's JSON object (size-limited; only ``allowed`` keys), or 413/415/422."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise HttpError(413, N_("request body larger than {n} bytes"), params={"n": MAX_BODY})
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/json":
        raise HttpError(415, N_("send the body as JSON ({header})"), params={"header": "Content-Type: application/json"})
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_BODY:
            raise HttpError(413, N_("request body larger than {n} bytes"), params={"n": MAX_BODY})
    if not data.strip():
        return {}
    try:
        body = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise HttpError(422, N_("body is not valid JSON (at character {at})"), params={"at": getattr(exc, "pos", 0)}) from None
    except RecursionError:  # 4 KiB of "[[[[..." nests deeper than the parser's stack
        raise HttpError(422, N_("body is nested too deeply (a roll or position is one flat object)")) from None
    if not isinstance(body, dict):
        raise HttpError(422, N_("body must be a JSON object"))
    extra = sorted(set(body) - allowed)
    if extra:
        raise HttpError(422, N_("unknown field(s) {fields}; expected {allowed}"),
                        params={"fields": ", ".join(map(repr, extra)), "allowed": ", ".join(map(repr, sorted(allowed)))})
    return body


def text_field(body: dict, key: str, *, required: bool = False, pattern: re.Pattern | None = None,
               hint: str = "") -> str | None:
    """A string field: present when ``required``, at most MAX_TEXT characters, matching ``pattern``; ``hint``
    (a message id, marked with ``N_``) says what it holds."""
    v = body.get(key)
    field = {"field": repr(key), "hint": Msg(hint)}
    if v is None or v == "":
        if required:
            raise HttpError(422, N_("field {field} is required ({hint})") if hint else N_("field {field} is required"),
                            params=field)
        return None
    if not isinstance(v, str):
        raise HttpError(422, N_("field {field} must be a string ({hint})") if hint else
                        N_("field {field} must be a string"), params=field)
    v = v.strip()
    if len(v) > MAX_TEXT or any(ord(c) < 32 for c in v):
        raise HttpError(422, N_("field {field} must be at most {n} printable characters"),
                        params={**field, "n": MAX_TEXT})
    if pattern is not None and not pattern.fullmatch(v):
        raise HttpError(422, N_("field {field} {value} is malformed ({hint})") if hint else
                        N_("field {field} {value} is malformed"), params={**field, "value": repr(v)})
    return v


def int_field(body: dict, key: str, *, lo: int = -1000, hi: int = 1000) -> int:
    """A required whole number in ``lo..hi`` (not a boolean, not a string)."""
    v = body.get(key)
    if v is None:
        raise HttpError(422, N_("field {field} is required (a whole number)"), params={"field": repr(key)})
    if isinstance(v, bool) or not isinstance(v, int):
        raise HttpError(422, N_("field {field} must be a whole number, got {value}"),
                        params={"field": repr(key), "value": json.dumps(v)[:30]})
    if not lo <= v <= hi:
        raise HttpError(422, N_("field {field} {value} is out of range ({lo} to {hi})"),
                        params={"field": repr(key), "value": v, "lo": lo, "hi": hi})
    return v


def number_field(body: dict, key: str) -> float:
    """A required number (whole or decimal; not a boolean, not a string)."""
    v = body.get(key)
    if v is None:
        raise HttpError(422, N_("field {field} is required (a number)"), params={"field": repr(key)})
    if isinstance(v, bool) or not isinstance(v, int | float):
        raise HttpError(422, N_("field {field} must be a number, got {value}"),
                        params={"field": repr(key), "value": json.dumps(v)[:30]})
    return float(v)


class RateLimiter:
    """Token buckets per key: ``rate`` per second, ``burst`` at most. Thread-safe; old buckets are dropped."""

    def __init__(self, rate: float, burst: int):
        self.rate, self.burst = float(rate), int(burst)
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def hit(self, key: str) -> None:
        """Take one request from ``key``'s bucket, or raise 429."""
        now = time.monotonic()
        with self._lock:
            level, last = self._buckets.get(key, (float(self.burst), now))
            level = min(float(self.burst), level + (now - last) * self.rate)
            if level < 1.0:
                wait = (1.0 - level) / self.rate
                self._buckets[key] = (level, now)
                raise HttpError(429, N_("too many requests; slow down"), {"Retry-After": str(max(1, round(wait)))})
            self._buckets[key] = (level - 1.0, now)
            if len(self._buckets) > 10000:  # forget idle clients (their bucket is full again anyway)
                cutoff = now - self.burst / self.rate
                self._buckets = {k: v for k, v in self._buckets.items() if v[1] >= cutoff}
