"""The language of a web request, and the catalog the page's scripts read.

A request is answered in: the language it asks for explicitly (``?lang=de``, which the page's switch sends and the
server keeps in a cookie), else ``$PLANNER_LANG`` (a server for one language), else the game's (``[game]
language``), else the browser's (``Accept-Language``), else English. The page's scripts translate with the same
gettext catalogs as the server (:func:`catalog`, served as ``/i18n/{lang}.json`` and ``/i18n/{lang}.js``): they
hold no dictionary of their own.
"""

from __future__ import annotations

import io
import json
import os
from functools import lru_cache

from starlette.requests import Request

from planner.util.i18n import (
    FALLBACK,
    LANG_ENV,
    LANGUAGES,
    accepted_language,
    catalog_file,
    normalise,
    read_catalog_bytes,
    translations,
)
from planner.util.pseudo import PSEUDO

LANG_COOKIE = "planner_lang"
LANG_COOKIE_AGE = 365 * 24 * 3600


def asked_language(request: Request) -> str | None:
    """The language the request asks for explicitly: ``?lang=``, else the switch's cookie (None: neither)."""
    return normalise(request.query_params.get("lang")) or normalise(request.cookies.get(LANG_COOKIE))


def request_language(request: Request, game_language: str | None = None) -> str:
    """The language to answer ``request`` in (see the module docstring)."""
    return (asked_language(request) or normalise(os.environ.get(LANG_ENV)) or normalise(game_language)
            or accepted_language(request.headers.get("accept-language")) or FALLBACK)


@lru_cache(maxsize=len(LANGUAGES) + 1)
def catalog(lang: str) -> dict:
    """``{"language", "messages": {msgid: text}}``: the entries of ``lang``'s catalog marked in the page's scripts
    (a plural entry under its singular id, as its forms for 0, 1 and 2), translated. The tests' pseudo-locale takes
    its entries from the English catalog. A damaged or huge catalog never gives an error page: the entries are
    then the English catalog's (every catalog lists the same message ids), translated as :func:`translations` can."""
    messages: dict[str, object] = {}
    entries = _script_entries(lang)
    if entries:
        tr = translations(lang)
        for m in entries:
            if not m.id or not any(path.endswith(".js") for path, _line in m.locations):
                continue
            if isinstance(m.id, tuple | list):
                # the forms for 0, 1 and 2: de, fr and en use the last one for every larger number
                messages[m.id[0]] = [tr.ngettext(m.id[0], m.id[1], n) for n in (0, 1, 2)]
            else:
                messages[m.id] = tr.gettext(m.id)
    return {"language": lang, "messages": messages}


def _script_entries(lang: str) -> list:
    """The entries of ``lang``'s ``.po`` (the English one for the pseudo-locale, or when that one is damaged,
    over the size cap or missing); none when neither can be read."""
    from babel.messages.pofile import read_po  # the .po knows where each text is used; read once per language

    for code in dict.fromkeys((FALLBACK if lang == PSEUDO else lang, FALLBACK)):
        po = catalog_file(code, ".po")
        try:
            return list(read_po(io.BytesIO(read_catalog_bytes(po)), locale=code, abort_invalid=True))
        except Exception:  # noqa: BLE001, S112 - damaged or missing: translations() says so on stderr; try English
            continue
    return []


def catalog_script(lang: str) -> str:
    """The catalog as a script that sets ``CATALOG`` (loaded before the page's own scripts, no inline code)."""
    return "const CATALOG = " + json.dumps(catalog(lang), ensure_ascii=False) + ";\n"
