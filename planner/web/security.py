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

    ``message`` is English; one a player may read (a page's refusal, an old link) is a message id marked with
    ``N_`` and its ``{name}`` parameters are ``params``: :meth:`text` gives it in the current language (the
    request's, where the answer is sent)."""

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None,
                 params: dict[str, object] | None = None):
        self.status, self.msgid, self.headers, self.params = status, message, headers or {}, params or {}
        self.message = message.format(**self.params) if self.params else message
        super().__init__(self.message)

    def text(self) -> str:
        """The message in the current language (a text the catalogs do not hold stays as it is)."""
        return _(self.msgid).format(**self.params) if self.params else _(self.msgid)

    def __reduce__(self):  # raised in the routing process, re-raised in the server's
        return (HttpError, (self.status, self.msgid, self.headers, self.params))


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
            raise HttpError(401, "Authorization must be 'Bearer TOKEN'", {"WWW-Authenticate": "Bearer"})
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
        raise HttpError(403, "cross-site request refused")
    origin = request.headers.get("origin")
    if origin is not None:
        host = request.headers.get("host", "")
        if origin == "null" or urlsplit(origin).netloc.lower() != host.lower():
            raise HttpError(403, "cross-site request refused (Origin does not match Host)")


def check_state_change(request: Request, caller: Caller) -> None:
    """CSRF guard of every POST: the origin checks, and for a cookie the custom header and a JSON body."""
    same_site(request)
    if caller.by_cookie:
        if request.headers.get(CSRF_HEADER) != "1":
            raise HttpError(403, f"a state change by cookie needs the header '{CSRF_HEADER.title()}: 1'")


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
        raise HttpError(413, f"request body larger than {MAX_BODY} bytes")
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/json":
        raise HttpError(415, "send the body as JSON (Content-Type: application/json)")
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_BODY:
            raise HttpError(413, f"request body larger than {MAX_BODY} bytes")
    if not data.strip():
        return {}
    try:
        body = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise HttpError(422, f"body is not valid JSON: {exc}") from None
    except RecursionError:  # 4 KiB of "[[[[..." nests deeper than the parser's stack
        raise HttpError(422, "body is nested too deeply (a roll or position is one flat object)") from None
    if not isinstance(body, dict):
        raise HttpError(422, "body must be a JSON object")
    extra = sorted(set(body) - allowed)
    if extra:
        raise HttpError(422, f"unknown field(s) {', '.join(map(repr, extra))}; expected {', '.join(sorted(allowed))}")
    return body


def text_field(body: dict, key: str, *, required: bool = False, pattern: re.Pattern | None = None,
               hint: str = "") -> str | None:
    """A string field: present when ``required``, at most MAX_TEXT characters, matching ``pattern``."""
    v = body.get(key)
    if v is None or v == "":
        if required:
            raise HttpError(422, f"field '{key}' is required{hint}")
        return None
    if not isinstance(v, str):
        raise HttpError(422, f"field '{key}' must be a string{hint}")
    v = v.strip()
    if len(v) > MAX_TEXT or any(ord(c) < 32 for c in v):
        raise HttpError(422, f"field '{key}' must be at most {MAX_TEXT} printable characters")
    if pattern is not None and not pattern.fullmatch(v):
        raise HttpError(422, f"field '{key}' {v!r} is malformed{hint}")
    return v


def int_field(body: dict, key: str, *, lo: int = -1000, hi: int = 1000) -> int:
    """A required whole number in ``lo..hi`` (not a boolean, not a string)."""
    v = body.get(key)
    if v is None:
        raise HttpError(422, f"field '{key}' is required (a whole number)")
    if isinstance(v, bool) or not isinstance(v, int):
        raise HttpError(422, f"field '{key}' must be a whole number, got {json.dumps(v)[:30]}")
    if not lo <= v <= hi:
        raise HttpError(422, f"field '{key}' {v} is out of range")
    return v


def number_field(body: dict, key: str) -> float:
    """A required number (whole or decimal; not a boolean, not a string)."""
    v = body.get(key)
    if v is None:
        raise HttpError(422, f"field '{key}' is required (a number)")
    if isinstance(v, bool) or not isinstance(v, int | float):
        raise HttpError(422, f"field '{key}' must be a number, got {json.dumps(v)[:30]}")
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
