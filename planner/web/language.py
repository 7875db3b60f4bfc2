"""The language a page is rendered in: the one the players chose on the page (``?lang=``, then the cookie ``lang``
the page's switch sets), else the browser's (``Accept-Language``), else English (the message ids)."""

from __future__ import annotations

from starlette.requests import Request

from planner.util.i18n import normalise

LANGUAGE_COOKIE = "lang"
DEFAULT_LANGUAGE = "en"


def page_language(request: Request | None) -> str:
    """The language of the page answered to ``request`` (one of :data:`planner.util.i18n.LANGUAGES`)."""
    if request is None:
        return DEFAULT_LANGUAGE
    chosen = normalise(request.query_params.get("lang")) or normalise(request.cookies.get(LANGUAGE_COOKIE))
    if chosen:
        return chosen
    for part in request.headers.get("accept-language", "").split(","):
        lang = normalise(part.split(";")[0])
        if lang:
            return lang
    return DEFAULT_LANGUAGE
