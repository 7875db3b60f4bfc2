"""What every answer of the web app carries and how it is sent: the security headers, JSON encoded once by its
type, the service worker with its app shell, the token look-up kept per server, and a call in a request's
language (a thread of the pool keeps none)."""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.responses import Response

from planner.service.answers import base as contract
from planner.store.games import Access
from planner.store.state import State
from planner.util.i18n import use_language

HERE = Path(__file__).resolve().parent
CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
       "connect-src 'self'; worker-src 'self'; manifest-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
       "form-action 'self'")


class TokenCache:
    """``access(token)`` of the state, remembered for known tokens (an unknown one is asked again each time, so a
    game created while the server runs opens at once)."""

    def __init__(self, state: Callable[[], State]):
        self._state = state
        self._known: dict[str, Access] = {}

    def access(self, token: str) -> Access | None:
        """Whom the token opens, or None."""
        a = self._known.get(token)
        if a is None and (a := self._state().games.access(token)) is not None:
            self._known[token] = a
        return a


def service_worker() -> str:
    """sw.js with a hash of the app's static files as its cache version (changed files reach the phones) and the
    list of those files as the app shell it keeps (every module the pages import, for a tunnel)."""
    digest = hashlib.sha256()
    files = sorted(f for f in (HERE / "static").rglob("*") if f.is_file())
    for f in files:
        digest.update(f.name.encode() + f.read_bytes())
    shell = ", ".join(json.dumps("/static/" + f.relative_to(HERE / "static").as_posix())
                      for f in files if f.name != "sw.js")
    return ((HERE / "static" / "sw.js").read_text("utf-8").replace("__VERSION__", digest.hexdigest()[:12])
            .replace('"__STATIC_FILES__"', shell))


def security_headers() -> dict[str, str]:
    """Headers every page carries (no framing, no sniffing, no referrer: join links carry tokens)."""
    return {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY",
            "Referrer-Policy": "no-referrer"}


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    """JSON (UTF-8, not cached by the browser unless said otherwise) with the security headers; an answer is
    encoded once, by its type (:func:`planner.service.answers.base.encode`)."""
    h = {"Cache-Control": "no-store", **security_headers(), **(headers or {})}
    return Response(contract.encode(data), status, headers=h, media_type="application/json")


def conditional_json(data: Any, if_none_match: str | None) -> Response:
    """An answer to a GET that a phone asks again and again: with an ``ETag`` (a digest of its bytes) and kept by
    the browser to be checked again each time (``no-cache``), so an unchanged answer costs a 304 without a body."""
    body = contract.encode(data)
    tag = '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"'
    h = {"Cache-Control": "private, no-cache", "ETag": tag, **security_headers()}
    if if_none_match is not None and tag in [x.strip() for x in if_none_match.split(",")]:
        return Response(status_code=304, headers=h)
    return Response(body, headers=h, media_type="application/json")


def small_json(data: Any) -> Response:
    """A tiny JSON answer a phone asks about once a minute all day (the game's change mark): only the headers a JSON
    answer needs (never stored, never sniffed as a document; the page headers of :func:`security_headers` guard
    documents, which this is not), as each byte is paid for once a minute."""
    return Response(contract.encode(data), headers={"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"},
                    media_type="application/json")


CHANGE_CHECK = 1.0  # seconds between two looks at the game's change mark while a phone waits
LONG_POLL = 50.0  # seconds a phone's question "did anything change?" waits at most for a change


async def changed_mark(read: Callable[[], str], since: str | None, wait_text: str | None,
                       left: Callable[[], Awaitable[bool]] | None = None) -> str:
    """The mark ``read()`` gives (in the thread pool: a database read) as soon as it differs from ``since``, or
    after ``wait_text`` seconds (0 to :data:`LONG_POLL`; anything else: that), or as soon as ``left()`` says the
    phone is gone."""
    try:
        wait = float(wait_text) if wait_text is not None else LONG_POLL
    except ValueError:
        wait = LONG_POLL
    wait = min(max(wait, 0.0), LONG_POLL) if math.isfinite(wait) else LONG_POLL
    loop = asyncio.get_running_loop()
    end = loop.time() + wait
    while True:
        mark = await run_in_threadpool(read)
        # a phone that left (its page closed) is answered at once: its question no longer reads the game every
        # second for up to LONG_POLL s, nor keeps a server told to stop waiting its whole grace for it
        if mark != since or loop.time() >= end or (left is not None and await left()):
            return mark
        await asyncio.sleep(min(CHANGE_CHECK, max(end - loop.time(), 0.0)))


def in_language(lang: str, fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` with its texts in ``lang`` (a thread of the pool keeps no request's language)."""
    with use_language(lang):
        return fn(*args)
